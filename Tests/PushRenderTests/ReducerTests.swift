import PushCore
import PushUI
import Testing

@Suite("Reducer")
struct ReducerTests {
  @Test func tickMovesTheDevicesClock() {
    var state = AppState(device: DemoScenario.snapshot())
    let later = DemoScenario.start + .minutes(2)
    #expect(reduce(into: &state, .tick(later)) == [])
    #expect(state.device.now == later)
  }

  @Test func quitAsksToExitCleanly() {
    var state = AppState(device: DemoScenario.snapshot())
    #expect(reduce(into: &state, .command(.quit)) == [.exit(status: 0)])
  }

  @Test func signalsExitWith128PlusTheSignalNumber() {
    var state = AppState(device: DemoScenario.snapshot())
    #expect(reduce(into: &state, .terminationRequested(signal: 2)) == [.exit(status: 130)])
    #expect(reduce(into: &state, .terminationRequested(signal: 15)) == [.exit(status: 143)])
  }

  @Test func resizeIsRemembered() {
    var state = AppState(device: DemoScenario.snapshot())
    _ = reduce(into: &state, .resize(columns: 100, rows: 30))
    #expect(state.terminalColumns == 100 && state.terminalRows == 30)
  }

  @Test func bracketAdvancesTheClockThroughAnEffect() {
    var state = AppState(device: DemoScenario.snapshot())
    let event = KeyMap.standard.event(for: .key(.character("]")))
    #expect(event == .command(.advanceClock(.minutes(1))))
    #expect(event.map { reduce(into: &state, $0) } == [.advanceClock(.minutes(1))])
  }
}

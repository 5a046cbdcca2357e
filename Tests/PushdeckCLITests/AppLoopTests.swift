import PushCore
import PushRender
import PushRuntime
import PushTestSupport
import PushUI
import Testing

// The runtime's loop is tested here, through FakeTerminal, until it gets its own test target.
@Suite("App loop")
@MainActor
struct AppLoopTests {
  private func makeLoop(_ terminal: FakeTerminal) -> AppLoop {
    let device = DemoScenario.snapshot()
    return AppLoop(
      state: AppState(device: device), screen: terminal, input: terminal,
      clock: SimulationClock(start: device.now, mode: .manual), theme: .builtInDefault)
  }

  @Test func bracketAdvancesTheManualClockAndQQuits() {
    let terminal = FakeTerminal(
      size: Size(columns: 60, rows: 16),
      script: [nil, .key(.character("]")), nil, .key(.character("q"))])
    let status = makeLoop(terminal).run(maxTurns: 10)
    #expect(status == 0)
    #expect(terminal.frames.first?.textDump().contains("9:41") == true)
    #expect(terminal.frames.last?.textDump().contains("9:42") == true)
    #expect(terminal.frames.last?.textDump().contains("2m ago") == true)
  }

  @Test func resizeRendersAtTheNewSize() {
    let terminal = FakeTerminal(
      size: Size(columns: 80, rows: 24), script: [.resize(columns: 30, rows: 10)])
    #expect(makeLoop(terminal).run(maxTurns: 2) == nil)
    #expect(terminal.frames.last?.width == 30)
    #expect(terminal.frames.last?.textDump().contains("Terminal too small") == true)
  }

  @Test func terminationSignalExitsWith128PlusSignal() {
    let terminal = FakeTerminal(size: Size(columns: 80, rows: 24), script: [.signal(15)])
    #expect(makeLoop(terminal).run(maxTurns: 5) == 143)
  }

  @Test func unchangedFramesAreNotPresentedAgain() {
    let terminal = FakeTerminal(size: Size(columns: 80, rows: 24), script: [nil, nil, nil])
    _ = makeLoop(terminal).run(maxTurns: 3)
    #expect(terminal.frames.count == 1)
  }

  @Test func wallClockFollowsElapsedTime() {
    let origin = ContinuousClock.now
    let clock = SimulationClock(start: DemoScenario.start, mode: .wall, origin: origin)
    #expect(clock.now(at: origin + .seconds(90)) == DemoScenario.start + .seconds(90))
    var manual = SimulationClock(start: DemoScenario.start, mode: .manual, origin: origin)
    #expect(manual.now(at: origin + .seconds(90)) == DemoScenario.start)
    manual.advance(by: .minutes(1))
    #expect(manual.now() == DemoScenario.start + .minutes(1))
  }
}

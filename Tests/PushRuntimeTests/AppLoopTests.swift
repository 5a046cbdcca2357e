import PushCore
import PushRender
import PushRuntime
import PushTestSupport
import PushUI
import Testing

// The runtime's loop, tested through FakeTerminal.
@Suite("App loop")
@MainActor
struct AppLoopTests {
  private func makeLoop(_ terminal: FakeTerminal, handler: (any ActionHandler)? = nil) -> AppLoop {
    let state = AppState.demo()
    return AppLoop(
      state: state, screen: terminal, input: terminal,
      clock: SimulationClock(start: state.now, mode: .manual), theme: .builtInDefault, handler: handler)
  }

  @Test func bracketAdvancesTheManualClockAndQQuits() {
    let terminal = FakeTerminal(
      size: Size(columns: 60, rows: 16),
      script: [nil, .key(.character("]")), nil, .key(.character("q"))])
    let status = makeLoop(terminal).run(maxTurns: 10)
    #expect(status == 0)
    #expect(terminal.frames.first?.textDump().contains("9:41") == true)
    #expect(terminal.frames.last?.textDump().contains("9:42") == true)
    #expect(terminal.frames.last?.textDump().contains("3 new messages") == true)
  }

  /// When the state goes on ahead of the clock by itself (a live push that arrived while back in
  /// time brings it to where its journal is), the clock goes on from there: it stood still until
  /// real time caught up, and the pushes in between all arrived at one time (found by an
  /// exploratory test of `run --listen`).
  @Test func theClockGoesOnFromWhereTheStateWentOnItsOwn() {
    let terminal = FakeTerminal(
      size: Size(columns: 80, rows: 24), script: [nil, nil, .key(.character("]")), nil])
    let state = AppState.demo()
    let ahead = state.now + .minutes(10)
    var moved = false
    let loop = AppLoop(
      state: state, screen: terminal, input: terminal,
      clock: SimulationClock(start: state.now, mode: .manual), theme: .builtInDefault,
      afterTurn: { state in
        guard !moved else { return }
        moved = true
        _ = reduce(into: &state, .tick(ahead))
      })
    loop.run(maxTurns: 4)
    // `]` moves the manual clock a minute on from 09:51, not from 09:41 (which the state, past
    // it, would ignore).
    #expect(loop.state.now == ahead + .minutes(1), "\(loop.state.now)")
  }

  @Test func previousPushSeeksBackInOnePress() {
    let terminal = FakeTerminal(
      size: Size(columns: 80, rows: 24),
      script: [.key(.character(".")), .key(.character(".")), .key(.character(","))])
    let loop = makeLoop(terminal)
    loop.run(maxTurns: 3)
    #expect(loop.state.now == DemoScenario.start + .seconds(20))
    #expect(loop.state.pendingEventCount == 8)
  }

  @Test func playingRunsTheClockAndSpeedChangesReachIt() {
    let terminal = FakeTerminal(
      size: Size(columns: 80, rows: 24), script: [.key(.character("p")), .key(.character("+"))])
    let loop = makeLoop(terminal)
    loop.run(maxTurns: 2)
    #expect(loop.state.playback.isPlaying)
    #expect(loop.state.playback.speed == .times(2))
  }

  @Test func mouseClicksHitWhatTheLastFrameDrew() throws {
    let terminal = FakeTerminal(size: Size(columns: 80, rows: 40), script: [.key(.character("n"))])
    let loop = makeLoop(terminal)
    loop.run(maxTurns: 1)
    let frame = try #require(terminal.frames.last)
    var point: Point?
    for row in 0..<frame.height where point == nil {
      for column in 0..<frame.width where frame.hitTarget(at: Point(column: column, row: row)) == .centerRow(2) {
        point = Point(column: column, row: row)
        break
      }
    }
    let hit = try #require(point)
    terminal.script = [.mouse(x: hit.column, y: hit.row, kind: .click), .mouse(x: 0, y: 0, kind: .wheelDown)]
    loop.run(maxTurns: 2)
    #expect(loop.state.centerSelection == 3)
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

  @Test func chosenActionsGoToTheHandlerAndTheOutcomeShowsAsAToast() async {
    let handler = RecordingActionHandler(outcome: .succeeded("Marked as read"))
    let keys: [Key] = [.character("l"), .character("n"), .character("a"), .down, .enter]
    let terminal = FakeTerminal(size: Size(columns: 80, rows: 24), script: keys.map { .key($0) } + [nil])
    let loop = makeLoop(terminal, handler: handler)
    // Move the selection to the Messages stack first.
    loop.run(maxTurns: 0)
    let row = loop.state.lockScreenGroups().firstIndex { $0.key.bundleID == "com.example.messages" } ?? 0
    terminal.script =
      [.key(.character("l")), .key(.character("n"))]
      + Array(repeating: .key(.down), count: centerRow(loop.state, bundle: "com.example.messages", lockRow: row))
      + [.key(.character("a")), .key(.down), .key(.enter)]
    loop.run(maxTurns: terminal.script.count)
    await loop.finishActions()
    loop.run(maxTurns: 1)
    #expect(handler.invocations.map(\.actionID) == ["MARK_READ"])
    #expect(terminal.frames.last?.textDump().contains("Marked as read") == true)
  }

  @Test func withoutAHandlerTheActionReportsUnhandled() {
    let terminal = FakeTerminal(
      size: Size(columns: 80, rows: 24),
      script: [.key(.character("n")), .key(.character("a")), .key(.down), .key(.enter), nil])
    let loop = makeLoop(terminal)
    loop.run(maxTurns: 6)
    #expect(terminal.frames.last?.textDump().contains("No handler bound") == true)
  }

  private func centerRow(_ state: AppState, bundle: String, lockRow: Int) -> Int {
    var copy = state
    _ = reduce(into: &copy, .command(.openCenter))
    return copy.centerRows().firstIndex { $0.groupKey.bundleID == bundle } ?? 0
  }

  @Test func wallClockFollowsElapsedTime() {
    let origin = ContinuousClock.now
    let clock = SimulationClock(start: DemoScenario.start, mode: .wall, origin: origin)
    #expect(clock.now(at: origin + .seconds(90)) == DemoScenario.start + .seconds(90))
    let fast = SimulationClock(start: DemoScenario.start, mode: .wall, speed: 60, origin: origin)
    #expect(fast.now(at: origin + .seconds(2)) == DemoScenario.start + .minutes(2))
    var manual = SimulationClock(start: DemoScenario.start, mode: .manual, origin: origin)
    #expect(manual.now(at: origin + .seconds(90)) == DemoScenario.start)
    manual.advance(by: .minutes(1))
    #expect(manual.now() == DemoScenario.start + .minutes(1))
  }
}

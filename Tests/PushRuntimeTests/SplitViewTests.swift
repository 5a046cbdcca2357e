import Foundation
import PushCore
import PushRender
import PushRuntime
import PushScenario
import PushTestSupport
import PushUI
import Testing

/// `run --compare`: the split view (``SplitView``) and its loop (``SplitLoop``), through
/// FakeTerminal, on the health example locked and under Do Not Disturb.
@Suite("Split view")
@MainActor
struct SplitViewTests {
  /// The health example twice: locked with no Focus, and locked under Do Not Disturb.
  private func panes() throws -> [SplitView.Pane] {
    let path = Corpus.repositoryRoot().appendingPathComponent("Examples/health-critical-dnd.yaml").path
    let scenario = try ScenarioLoader().loadScenario(path: path)
    let timeline = scenario.timeline.map(TimelineEntry.init)
    var locked = scenario.profile
    locked.isLocked = true
    locked.activeFocusID = nil
    var dnd = scenario.profile
    dnd.isLocked = true
    dnd.activeFocusID = FocusMode.doNotDisturb.id
    #expect(dnd.focusModes.contains { $0.id == FocusMode.doNotDisturb.id })
    return [
      SplitView.Pane(label: "Locked", state: AppState(device: DeviceSimulator(profile: locked), timeline: timeline)),
      SplitView.Pane(
        label: "Do Not Disturb", state: AppState(device: DeviceSimulator(profile: dnd), timeline: timeline)),
    ]
  }

  private func makeLoop(_ terminal: FakeTerminal) throws -> SplitLoop {
    let panes = try panes()
    return SplitLoop(
      panes: panes, screen: terminal, input: terminal,
      clock: SimulationClock(start: panes[0].state.now, mode: .manual), theme: .builtInDefault)
  }

  /// The text of one pane's rectangle in a frame, without its header row.
  private func content(of frame: CellGrid, _ rect: Rect) -> String {
    let lines = frame.textDump().split(separator: "\n", omittingEmptySubsequences: false)
    return lines[(rect.row + 1)..<(rect.row + rect.rows)].map { line in
      String(line.dropFirst(rect.column).prefix(rect.columns))
    }.joined(separator: "\n")
  }

  @Test func twoColumnsOnAWideScreenAndAGridForFourOnANarrowOne() {
    let two = SplitView.paneRects(count: 2, size: Size(columns: 80, rows: 24))
    #expect(two == [Rect(column: 0, row: 0, columns: 40, rows: 24), Rect(column: 40, row: 0, columns: 40, rows: 24)])
    let four = SplitView.paneRects(count: 4, size: Size(columns: 100, rows: 40))
    #expect(four.map(\.column) == [0, 50, 0, 50])
    #expect(four.map(\.row) == [0, 0, 20, 20])
    let wideFour = SplitView.paneRects(count: 4, size: Size(columns: 200, rows: 40))
    #expect(wideFour.map(\.row) == [0, 0, 0, 0])
    #expect(wideFour.map(\.columns) == [50, 50, 50, 50])
  }

  @Test func twoVariantsDrawTwoPanesWithTheirHeadersAndDifferentScreens() throws {
    let size = Size(columns: 100, rows: 30)
    var panes = try panes()
    for index in panes.indices {
      let content = SplitView.contentSizes(count: 2, size: size)[index]
      _ = reduce(into: &panes[index].state, .resize(columns: content.columns, rows: content.rows))
      // Past the ordinary push and the critical alert.
      _ = reduce(into: &panes[index].state, .tick(panes[index].state.now + .seconds(20 * 60)))
    }
    let frame = SplitView.render(panes, size: size, theme: .builtInDefault)
    let rects = SplitView.paneRects(count: 2, size: size)
    let header = frame.textDump().split(separator: "\n").first.map(String.init) ?? ""
    #expect(header.contains("1 Locked"))
    #expect(header.contains("2 Do Not Disturb"))
    let left = content(of: frame, rects[0])
    let right = content(of: frame, rects[1])
    #expect(left != right)
    // The ordinary push lights up the locked phone; under Do Not Disturb it is silenced.
    #expect(left.contains("Streak at risk") || left.contains("FitClub"))
    #expect(!right.contains("Streak at risk"))
  }

  @Test func aLabelFromAFileNameNeverCarriesControlCharacters() throws {
    var panes = try panes()
    panes[0].label = "evil\u{1B}[2Jname\u{7}.yaml"
    let dump = SplitView.render(panes, size: Size(columns: 100, rows: 30), theme: .builtInDefault).textDump()
    #expect(!dump.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{7}" })
    #expect(dump.contains("evil?[2Jname?.yaml"))
  }

  @Test func aTooSmallPaneSaysSo() throws {
    let frame = SplitView.render(try panes(), size: Size(columns: 60, rows: 20), theme: .builtInDefault)
    #expect(frame.textDump().contains("too small"))
    #expect(frame.textDump().contains("Do Not Disturb"))
  }

  @Test func everyKeyReachesEveryPaneOnOneClock() throws {
    let terminal = FakeTerminal(
      size: Size(columns: 100, rows: 30),
      script: [.key(.character("]")), .key(.character("]")), .key(.character("n")), .key(.character("q"))])
    let loop = try makeLoop(terminal)
    let start = loop.panes[0].state.now
    #expect(loop.run(maxTurns: 2) == nil)
    // Two minutes on, in both panes, from one advance each (not one per pane).
    #expect(loop.panes.map(\.state.now) == [start + .seconds(120), start + .seconds(120)])
    #expect(terminal.frames.last?.textDump().contains("2:57") == true)
    #expect(loop.run(maxTurns: 1) == nil)
    #expect(loop.panes.allSatisfy { $0.state.screen == .center })
    #expect(loop.run(maxTurns: 5) == 0)
  }

  @Test func pauseAndSpeedReachEveryPane() throws {
    let terminal = FakeTerminal(
      size: Size(columns: 100, rows: 30), script: [.key(.character("p")), .key(.character("+"))])
    let loop = try makeLoop(terminal)
    loop.run(maxTurns: 2)
    #expect(loop.panes.allSatisfy { $0.state.playback.isPlaying && $0.state.playback.speed == .times(2) })
  }
}

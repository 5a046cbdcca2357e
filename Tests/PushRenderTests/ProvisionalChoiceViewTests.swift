import PushCore
import PushUI
import Testing

@testable import PushRender

/// Keep… and Turn Off… under a provisional notification, as drawn (reference §4.2): Keep's
/// delivery choices, pressed with the mouse too, and Turn Off's question.
struct ProvisionalChoiceViewTests {
  func newsSelected() -> AppState {
    var state = AppState.demo(upcoming: false)
    _ = reduce(into: &state, .command(.openCenter))
    state.centerSelection = state.centerRows().firstIndex { $0.groupKey.bundleID == "com.example.news" } ?? 0
    return state
  }

  @Test func keepShowsItsChoicesAndAClickChoosesOne() throws {
    var state = newsSelected()
    _ = reduce(into: &state, .command(.keepProvisional))
    let grid = frame(state)
    let text = grid.textDump()
    #expect(text.contains("▸ Deliver Immediately") && text.contains("Deliver in Scheduled Summary"))
    #expect(text.contains("Keep ·") || text.contains("Keep "))
    let region = try #require(grid.hitRegions.last { $0.target == .action(1) })
    let hit = grid.hitTarget(at: Point(column: region.rect.column + 3, row: region.rect.row))
    let event = try #require(KeyMap.mouseEvent(.click, target: hit))
    _ = reduce(into: &state, event)
    #expect(state.overlay == nil)
    #expect(state.device.app("com.example.news")?.settings.delivery == .scheduledSummary)
  }

  @Test func turnOffAsksFirst() {
    var state = newsSelected()
    _ = reduce(into: &state, .command(.turnOffProvisional))
    let text = frame(state).textDump()
    #expect(text.contains("Turn off all notifications from"))
    #expect(text.contains("⏎ or y turns them off"))
    _ = reduce(into: &state, .command(.back))
    #expect(state.overlay == nil && state.device.app("com.example.news")?.authorization == .provisional)
  }
}

import PushCore
import PushRender
import PushUI
import Testing

/// A payload longer than the inspector pane: PgDn and PgUp scroll the pane's text (not the
/// selection) while the inspector is open, stop at its end, and every line can be reached.
@Suite struct InspectorScrollTests {
  /// The demo with one more push whose payload pretty-prints to about 80 lines, selected on
  /// the lock screen with the inspector open.
  private func longPayloadState() -> AppState {
    let keys = (1...70).map { #""key\#($0)":"value \#($0)""# }.joined(separator: ",")
    let json = #"{"aps":{"alert":{"title":"Long","body":"scroll me"}},"# + keys + #","last":"the end"}"#
    var state = demoWithPushSelected(json, bundle: "com.long.app")
    state.terminalColumns = 100
    state.terminalRows = 30
    _ = reduce(into: &state, .command(.toggleInspector))
    return state
  }

  private func frame(_ state: AppState) -> CellGrid {
    render(state, size: Size(columns: 100, rows: 30), theme: .builtInDefault)
  }

  @Test func pageDownScrollsTheInspectorToItsEndAndPageUpBack() throws {
    var state = longPayloadState()
    let selected = state.selectedNotification
    var grid = frame(state)
    let limit = try #require(grid.inspectorScrollLimit)
    #expect(limit > 40)
    #expect(grid.textDump().contains("more · PgDn"))
    #expect(!grid.textDump().contains("the end"))
    #expect(!grid.textDump().contains("more above"))
    // Page down until the end, as the runtime does: each frame tells the state its limit.
    var pages = 0
    while grid.textDump().contains("more · PgDn") && pages < 20 {
      state.inspectorScrollLimit = grid.inspectorScrollLimit
      _ = reduce(into: &state, .command(.pageDown))
      grid = frame(state)
      pages += 1
    }
    #expect(grid.textDump().contains("\"the end\""), "the payload's last line is reached")
    #expect(grid.textDump().contains("more above · PgUp"))
    #expect(!grid.textDump().contains("more · PgDn"))
    #expect(state.inspectorScrollRows == limit)
    #expect(state.selectedNotification == selected, "PgDn scrolled the pane, not the selection")
    // Past the end it stays; one page up shows what was above.
    state.inspectorScrollLimit = grid.inspectorScrollLimit
    _ = reduce(into: &state, .command(.pageDown))
    #expect(state.inspectorScrollRows == limit)
    _ = reduce(into: &state, .command(.pageUp))
    #expect(state.inspectorScrollRows == limit - (30 - 6))
    // Every key line shows on one of the pages on the way: none is hidden under the top row.
    state = longPayloadState()
    var seen = frame(state).textDump()
    for _ in 0..<pages {
      state.inspectorScrollLimit = frame(state).inspectorScrollLimit
      _ = reduce(into: &state, .command(.pageDown))
      seen += frame(state).textDump()
    }
    for key in 1...70 { #expect(seen.contains("\"key\(key)\""), "key\(key) never showed") }
    // Closing and opening the inspector shows it from its top again.
    _ = reduce(into: &state, .command(.toggleInspector))
    _ = reduce(into: &state, .command(.toggleInspector))
    #expect(state.inspectorScrollRows == 0)
  }

  /// The wheel over the inspector scrolls its text three rows a notch, and stops at its ends;
  /// over the phone's screen beside it, it moves the selection as before.
  @Test func theWheelOverTheInspectorScrollsItsText() throws {
    var state = longPayloadState()
    let selected = state.selectedNotification
    var grid = frame(state)
    let overPane = Point(column: 90, row: 10)
    #expect(grid.hitTarget(at: overPane) == .inspector)
    let down = try #require(KeyMap.mouseEvent(.wheelDown, target: grid.hitTarget(at: overPane)))
    state.inspectorScrollLimit = grid.inspectorScrollLimit
    _ = reduce(into: &state, down)
    _ = reduce(into: &state, down)
    #expect(state.inspectorScrollRows == 6)
    #expect(state.selectedNotification == selected)
    grid = frame(state)
    #expect(grid.textDump().contains("6 more above"))
    let up = try #require(KeyMap.mouseEvent(.wheelUp, target: grid.hitTarget(at: overPane)))
    for _ in 0..<5 { _ = reduce(into: &state, up) }
    #expect(state.inspectorScrollRows == 0)
    // Beside the pane the wheel is the list's again.
    let besidePane = Point(column: 5, row: 10)
    #expect(grid.hitTarget(at: besidePane) != .inspector)
    #expect(KeyMap.mouseEvent(.wheelDown, target: grid.hitTarget(at: besidePane)) == .command(.scroll(1)))
  }

  /// Closing the inspector with Esc, like `i`, shows the next one opened from its top.
  @Test func escClosesTheInspectorAndForgetsItsScroll() {
    var state = longPayloadState()
    state.inspectorScrollLimit = frame(state).inspectorScrollLimit
    _ = reduce(into: &state, .command(.pageDown))
    #expect(state.inspectorScrollRows > 0)
    _ = reduce(into: &state, .command(.back))
    #expect(!state.isInspectorOpen)
    _ = reduce(into: &state, .command(.toggleInspector))
    #expect(state.inspectorScrollRows == 0)
  }
}

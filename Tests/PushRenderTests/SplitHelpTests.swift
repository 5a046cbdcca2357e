import PushCore
import PushRender
import PushTestSupport
import PushUI
import Testing

/// The help of a `run --compare` pane says what the split view does (keys only, no handlers)
/// instead of describing a mouse it does not route.
struct SplitHelpTests {
  @Test func aSplitPanesHelpSaysTheMouseIsNotUsed() {
    var state = AppState.demo(upcoming: false)
    _ = reduce(into: &state, .command(.toggleHelp))
    #expect(frame(state, columns: 80, rows: 40).textDump().contains("Mouse: click selects"))
    state.isSplitPane = true
    let dump = frame(state, columns: 80, rows: 40).textDump()
    #expect(!dump.contains("Mouse: click selects"))
    #expect(dump.contains("Split view: keys act on every pane · no mouse · no handlers"))
  }
}

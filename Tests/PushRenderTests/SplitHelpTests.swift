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

  /// A pane too small says the pane is, with the pane's size (it said "Terminal too small:
  /// need 40×12, have 30×19" of a 60×20 terminal).
  @Test func aSmallPaneSaysThePaneIsTooSmall() {
    var state = AppState.demo(upcoming: false)
    #expect(frame(state, columns: 30, rows: 19).textDump().contains("Terminal too small"))
    state.isSplitPane = true
    let dump = frame(state, columns: 30, rows: 19).textDump()
    #expect(dump.contains("Pane too small") && !dump.contains("Terminal"))
  }

  /// Esc from a notification opened on the lock screen goes back to the lock screen, and from
  /// one opened in Notification Center back there (it always went to Notification Center).
  @Test func backFromAnOpenedNotificationReturnsToItsList() throws {
    var state = AppState.demo(upcoming: false)
    #expect(state.screen == .lock)
    _ = reduce(into: &state, .command(.activate))
    guard case .detail = state.screen else {
      Issue.record("expected an opened notification, got \(state.screen)")
      return
    }
    _ = reduce(into: &state, .command(.back))
    #expect(state.screen == .lock)
    _ = reduce(into: &state, .command(.openCenter))
    _ = reduce(into: &state, .command(.openSelected))
    guard case .detail = state.screen else {
      Issue.record("expected an opened notification, got \(state.screen)")
      return
    }
    _ = reduce(into: &state, .command(.back))
    #expect(state.screen == .center)
  }
}

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

  /// A toast too long for one row takes two, so its end (often what to do) is read.
  @Test func aLongToastWrapsOntoASecondRow() {
    var state = AppState.demo(upcoming: false)
    state.showToast(
      "Chatter: no handler bound for action LIKE (category MESSAGE); bind one under handlers: in the profile, or pass --handlers"
    )
    let rows = frame(state, columns: 80, rows: 24).textDump().split(separator: "\n").map(String.init)
    #expect(rows.contains { $0.contains("Chatter: no handler bound for action LIKE") })
    #expect(rows.contains { $0.contains("--handlers") })
  }

  /// `]` at the end of the simulated time says the clock stops there instead of moving on past
  /// the year 9999.
  @Test func theClockStopsAtTheEndOfTheSimulatedTime() {
    var state = AppState.demo(upcoming: false)
    let nearEnd = SimInstant(milliseconds: 253_402_300_799_000 - 30_000)
    _ = reduce(into: &state, .tick(nearEnd))
    let effects = reduce(into: &state, .command(.advanceClock(.seconds(60))))
    #expect(effects.isEmpty)
    #expect(state.toast?.text.hasPrefix("The clock stops at 9999-12-31T23:59:59Z") == true)
    #expect(reduce(into: &state, .command(.advanceClock(.seconds(10)))) == [.advanceClock(.seconds(10))])
  }

  /// An action sheet with nothing to offer says why: no category named, or none registered.
  @Test func anEmptyActionSheetSaysWhy() throws {
    var state = AppState.demo(upcoming: false)
    _ = reduce(into: &state, .command(.openCenter))
    let rows = state.centerRows()
    let plain = try #require(
      rows.firstIndex { row in
        state.device.store.notifications(in: row.groupKey).first?.notification.category == nil
      })
    state.centerSelection = plain
    _ = reduce(into: &state, .command(.showActions))
    #expect(frame(state, columns: 100, rows: 30).textDump().contains("No actions: the push names no category"))
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

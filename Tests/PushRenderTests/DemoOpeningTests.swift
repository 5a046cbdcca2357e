import PushCore
import PushRender
import PushTestSupport
import PushUI
import Testing

@Suite("The demo as it opens")
struct DemoOpeningTests {
  @Test func itOpensAt0941OnReadableCardsNotPlaceholders() {
    let state = AppState.demo()
    #expect(state.now == DemoScenario.start)
    #expect(state.device.store.count == 6)
    // Everything before 09:41 arrived quietly: no banner waits to show.
    #expect(state.currentBanner == nil)
    let text = frame(state, columns: 80, rows: 40).textDump()
    for title in ["Design review", "Card payment", "Order picked up"] {
      #expect(text.contains(title), "\(title) is not on the lock screen:\n\(text)")
    }
    // The provisional news briefing was delivered quietly: in Notification Center only.
    #expect(!text.contains("Morning briefing"))
    var center = state
    _ = reduce(into: &center, .command(.openCenter))
    #expect(frame(center, columns: 80, rows: 40).textDump().contains("Morning briefing"))
    // Messages hides its previews on the locked phone, as its settings say: the placeholder.
    #expect(text.contains("2 new messages"))
  }

  @Test func whatComesLaterIsOnTheTimeline() {
    let state = AppState.demo()
    #expect(state.timeline.allSatisfy { $0.at > DemoScenario.start })
    #expect(state.timeline.count == 9)
    #expect(AppState.demo(upcoming: false).timeline.isEmpty)
  }
}

import PushCore
import PushTestSupport
import Testing

@testable import PushUI

/// Keep… ▸ Deliver Immediately on an app whose settings changed while it was provisional.
struct ProvisionalChoiceTests {
  /// Deliver Immediately delivers immediately, to Notification Center, whatever the app's
  /// Delivery and Notification Center settings were while it was provisional.
  @Test func deliverImmediatelyResetsDeliveryAndNotificationCenter() {
    var state = AppState.demo(upcoming: false)
    _ = reduce(into: &state, .command(.openCenter))
    state.centerSelection = state.centerRows().firstIndex { $0.groupKey.bundleID == "com.example.news" } ?? 0
    state.apply(.setting(bundleID: "com.example.news", .delivery(.scheduledSummary)), at: state.now)
    state.apply(.setting(bundleID: "com.example.news", .notificationCenter(false)), at: state.now)
    _ = reduce(into: &state, .command(.keepProvisional))
    _ = reduce(into: &state, .command(.activate))
    let news = state.device.app("com.example.news")
    #expect(news?.settings.delivery == .immediate && news?.settings.notificationCenter == true)
  }

}

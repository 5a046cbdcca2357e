import PushCore
import PushUI
import Testing

@testable import PushRender

/// A tap on an opened notification is the default action; the number of actions shown follows
/// the space (2 in a banner, up to 10 in the action sheet and the opened notification).
@Suite("Tap and action space")
struct TapAndActionSpaceTests {
  /// A shop with a category of twelve actions and one notification in it.
  func shopState(locked: Bool = false) -> AppState {
    let start = DemoScenario.start
    var profile = DeviceProfile(start: start, isLocked: locked)
    var app = AppProfile(info: AppInfo(bundleID: "com.example.shop", displayName: "Shop", iconGlyph: "🛍"))
    app.categories = [
      NotificationCategory(
        identifier: "ORDER",
        actions: (1...12).map { NotificationAction(identifier: "A\($0)", title: "Action \($0)") })
    ]
    profile.apps = [app]
    let payload = #"{"aps":{"alert":{"title":"Order 1234","body":"Shipped"},"category":"ORDER"},"order":1234}"#
    return AppState(
      device: DeviceSimulator(profile: profile),
      timeline: [TimelineEntry(at: start + .seconds(1), event: push(payload, bundle: "com.example.shop"))])
  }

  @Test func enterOnAnOpenedNotificationSendsTheDefaultAction() throws {
    var state = shopState(locked: true)
    _ = reduce(into: &state, .tick(DemoScenario.start + .seconds(2)))
    let id = try #require(state.device.store.all.first?.id)
    _ = reduce(into: &state, .command(.activate))
    #expect(state.screen == .detail(id))
    let effects = reduce(into: &state, .command(.activate))
    guard case .perform(let invocation)? = effects.first else {
      Issue.record("expected a perform effect, got \(effects)")
      return
    }
    #expect(invocation.actionID == defaultActionIdentifier)
    #expect(invocation.bundleID == "com.example.shop" && invocation.categoryID == "ORDER")
    #expect(invocation.notification == id && invocation.payload.contains("1234"))
    #expect(state.device.store[id] == nil)
    #expect(!state.device.isLocked)
    #expect(state.device.app("com.example.shop")?.state == .foreground)
    #expect(state.device.responses.last?.actionID == defaultActionIdentifier)
    #expect(state.screen != .detail(id))
  }

  @Test func aBannerShowsTwoActionsTheSheetTen() throws {
    var state = shopState()
    _ = reduce(into: &state, .tick(DemoScenario.start + .seconds(2)))
    let id = try #require(state.device.store.all.first?.id)
    #expect(state.actions(for: id, space: .limited).map(\.identifier) == ["A1", "A2"])
    #expect(state.actions(for: id, space: .unlimited).count == 10)
    #expect(state.actions(for: id).last?.identifier == "A10")
    let banner = frame(state).textDump()
    #expect(banner.contains("[ Action 1 ] [ Action 2 ]"))
    #expect(!banner.contains("Action 3"))
    _ = reduce(into: &state, .command(.showActions))
    let sheet = frame(state, rows: 30).textDump()
    #expect(sheet.contains("Action 10"))
    #expect(!sheet.contains("Action 11"))
  }

  @Test func theOpenedNotificationListsUpToTenActions() throws {
    var state = shopState()
    _ = reduce(into: &state, .tick(DemoScenario.start + .seconds(2)))
    let id = try #require(state.device.store.all.first?.id)
    _ = reduce(into: &state, .command(.openCenter))
    _ = reduce(into: &state, .command(.activate))
    #expect(state.screen == .detail(id))
    let text = frame(state, columns: 100, rows: 30).textDump()
    #expect(text.contains("[ Action 1 ]") && text.contains("[ Action 10 ]"))
    #expect(!text.contains("Action 11"))
    #expect(text.contains("open app"))
  }
}

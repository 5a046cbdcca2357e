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

  /// A click on a button drawn on the opened notification or the banner presses it (it opened
  /// the notification, or did nothing; the help says a click presses).
  @Test func aClickOnADrawnButtonPressesIt() throws {
    func click(_ target: HitTarget, in state: inout AppState, columns: Int = 100, rows: Int = 30) throws -> [Effect] {
      let grid = frame(state, columns: columns, rows: rows)
      let region = try #require(grid.hitRegions.last { $0.target == target }, "no \(target) drawn")
      #expect(grid.hitTarget(at: Point(column: region.rect.column + 1, row: region.rect.row)) == target)
      let event = try #require(KeyMap.mouseEvent(.click, target: target))
      return reduce(into: &state, event)
    }
    // On the banner: its second button.
    var state = shopState()
    _ = reduce(into: &state, .tick(DemoScenario.start + .seconds(2)))
    let id = try #require(state.device.store.all.first?.id)
    var effects = try click(.bannerButton(1), in: &state)
    guard case .perform(let fromBanner)? = effects.first else {
      Issue.record("expected a perform effect, got \(effects)")
      return
    }
    #expect(fromBanner.actionID == "A2" && fromBanner.notification == id)
    // On the opened notification: its tenth.
    state = shopState()
    _ = reduce(into: &state, .tick(DemoScenario.start + .seconds(2)))
    _ = reduce(into: &state, .command(.openCenter))
    _ = reduce(into: &state, .command(.activate))
    #expect(state.screen == .detail(id))
    effects = try click(.detailButton(9), in: &state)
    guard case .perform(let fromDetail)? = effects.first else {
      Issue.record("expected a perform effect, got \(effects)")
      return
    }
    #expect(fromDetail.actionID == "A10")
  }

  /// A body longer than the screen is cut with a count of what is left out, and the buttons
  /// and the meta line stay (they were cut off with it).
  @Test func aLongBodyIsCutAboveTheButtons() throws {
    let start = DemoScenario.start
    var profile = DeviceProfile(start: start)
    var app = AppProfile(info: AppInfo(bundleID: "com.example.shop", displayName: "Shop", iconGlyph: "🛍"))
    app.categories = [
      NotificationCategory(identifier: "ORDER", actions: [NotificationAction(identifier: "A", title: "Track")])
    ]
    profile.apps = [app]
    let body = String(repeating: "word ", count: 600)
    let payload = #"{"aps":{"alert":{"title":"Order","body":"\#(body)"},"category":"ORDER"}}"#
    var state = AppState(
      device: DeviceSimulator(profile: profile),
      timeline: [TimelineEntry(at: start + .seconds(1), event: push(payload, bundle: "com.example.shop"))])
    _ = reduce(into: &state, .tick(start + .seconds(2)))
    _ = reduce(into: &state, .command(.openCenter))
    _ = reduce(into: &state, .command(.activate))
    let text = frame(state, columns: 80, rows: 24).textDump()
    #expect(text.contains("[ Track ]"))
    #expect(text.contains("Received "))
    #expect(text.contains("more lines · ↓ scrolls · i shows the whole payload"))
  }
}

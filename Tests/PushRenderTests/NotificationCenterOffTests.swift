import PushCore
import PushTestSupport
import PushUI
import Testing

@testable import PushRender

/// An app with Notification Center off (Settings ▸ Notifications ▸ app) [reference §4.3]: its
/// banner shows and then nothing is kept; one that lit the locked phone stays on the lock screen
/// but is not in Notification Center's list.
@Suite("Notification Center off")
struct NotificationCenterOffTests {
  let start = DemoScenario.start
  let bundle = "com.example.chat"

  func state(locked: Bool, _ payloads: [String], categories: [NotificationCategory] = []) -> AppState {
    var app = AppProfile(info: AppInfo(bundleID: bundle, displayName: "Chat", iconGlyph: "💬"))
    app.categories = categories
    app.settings.notificationCenter = false
    app.settings.showPreviews = .always
    let device = DeviceSimulator(profile: DeviceProfile(start: start, isLocked: locked, apps: [app]))
    let entries = payloads.enumerated().map { index, payload in
      TimelineEntry(at: start + .seconds(Int64(1 + index)), event: push(payload, bundle: bundle))
    }
    return AppState(device: device, timeline: entries)
  }

  let hello = #"{"aps":{"alert":{"title":"Hello there","body":"First message"}}}"#

  @Test func anUnlockedPhoneShowsTheBannerAndKeepsNothing() throws {
    var state = state(locked: false, [hello])
    _ = reduce(into: &state, .tick(start + .seconds(2)))
    let banner = try #require(state.currentBanner)
    #expect(banner.carriedContent?.title == "Hello there")
    #expect(state.device.store.count == 0)
    #expect(frame(state).textDump().contains("Hello there"))
    let record = try #require(state.device.records.last)
    #expect(record.decision.disposition == .delivered && !record.decision.isStored)
    #expect(record.decision.reasons.contains { $0.code == .notificationCenterDisabled && $0.text.contains("banner") })
    // The banner leaves after five seconds, and Notification Center is empty.
    _ = reduce(into: &state, .tick(start + .seconds(8)))
    #expect(state.currentBanner == nil)
    state.screen = .center
    #expect(state.centerRows().isEmpty)
    #expect(!frame(state).textDump().contains("Hello there"))
  }

  /// Its banner is all there is of it: it shows the category's actions (two, in a banner), and
  /// a tap on it opens the app with the default action, the payload handed to the handler.
  @Test func itsBannerShowsItsActionsAndATapOpensTheApp() throws {
    let category = NotificationCategory(
      identifier: "MSG",
      actions: ["Reply", "Like", "Mute"].map { NotificationAction(identifier: $0.uppercased(), title: $0) })
    var state = state(
      locked: false, [#"{"aps":{"alert":{"title":"Hello there","body":"Hi"},"category":"MSG"},"k":7}"#],
      categories: [category])
    _ = reduce(into: &state, .tick(start + .seconds(2)))
    let banner = try #require(state.currentBanner)
    #expect(banner.carriedContent != nil && !state.device.store.contains(banner.notification))
    let text = frame(state).textDump()
    #expect(text.contains("[ Reply ] [ Like ]") && !text.contains("Mute"))
    // Clicked where the frame drew it.
    let grid = frame(state)
    let region = try #require(grid.hitRegions.first { $0.target == .banner })
    let hit = grid.hitTarget(at: Point(column: region.rect.column + 2, row: region.rect.row))
    let event = try #require(KeyMap.mouseEvent(.click, target: hit))
    let effects = reduce(into: &state, event)
    guard case .perform(let invocation)? = effects.first else {
      Issue.record("expected a perform effect, got \(effects)")
      return
    }
    #expect(invocation.actionID == defaultActionIdentifier && invocation.notification == banner.notification)
    #expect(invocation.bundleID == bundle && invocation.categoryID == "MSG" && invocation.payload.contains(#""k":7"#))
    #expect(state.device.app(bundle)?.state == .foreground)
    #expect(state.currentBanner == nil)
    #expect(state.toast?.text.hasPrefix("Opening Chat") == true)
  }

  @Test func aLockedPhoneKeepsItOnTheLockScreenOnly() throws {
    var state = state(locked: true, [hello])
    _ = reduce(into: &state, .tick(start + .seconds(2)))
    #expect(state.device.store.count == 1)
    #expect(state.device.store.centerCount == 0)
    #expect(state.lockScreenStacks().map(\.count) == [1])
    #expect(frame(state).textDump().contains("Hello there"))
    state.screen = .center
    #expect(state.centerRows().isEmpty)
    #expect(state.device.store.stacks(filter: .notificationCenter).isEmpty)
  }

  @Test func aBannerOnlyReplacementStillRemovesTheOneItReplaces() throws {
    let first = #"{"aps":{"alert":{"title":"Score 1-0","body":"Goal"}}}"#
    let second = #"{"aps":{"alert":{"title":"Score 2-0","body":"Goal"}}}"#
    var state = state(locked: true, [])
    var device = state.device
    let headers = #"{"at":1,"bundle":"com.example.chat","headers":{"apns-collapse-id":"score"},"payload":"#
    func line(_ payload: String, _ number: Int) -> DeviceEvent {
      .push(PushReader.readCaptureLine(Array((headers + payload + "}").utf8), lineNumber: number, source: "c.jsonl"))
    }
    device.apply(line(first, 1), at: start + .seconds(1))
    #expect(device.store.count == 1)
    device.apply(.unlock, at: start + .seconds(2))
    device.apply(line(second, 2), at: start + .seconds(3))
    let record = try #require(device.records.last)
    #expect(record.decision.disposition == .replaced && !record.decision.isStored)
    #expect(device.store.count == 0)
    state = AppState(device: device)
    #expect(state.lockScreenStacks().isEmpty)
  }

  /// Only a replacement that is not kept removes its target: a push without text that shares
  /// the collapse id (a badge update) leaves the notification where it is.
  @Test func aPushWithoutTextKeepsItsCollapseTarget() throws {
    var device = DeviceSimulator(profile: DeviceProfile(start: start, isLocked: false))
    let headers = #"{"at":1,"bundle":"com.example.mail","headers":{"apns-collapse-id":"inbox"},"payload":"#
    func line(_ payload: String, _ number: Int) -> DeviceEvent {
      .push(PushReader.readCaptureLine(Array((headers + payload + "}").utf8), lineNumber: number, source: "c.jsonl"))
    }
    device.apply(line(#"{"aps":{"alert":{"title":"Inbox","body":"3 new"}}}"#, 1), at: start + .seconds(1))
    device.apply(line(#"{"aps":{"badge":4}}"#, 2), at: start + .seconds(2))
    let record = try #require(device.records.last)
    #expect(record.decision.disposition != .replaced && !record.decision.isStored)
    #expect(device.store.count == 1)
  }

  /// A stack of an app with Notification Center on beside one with it off: each list counts
  /// only what it shows, and releasing nothing changes that.
  @Test func theCountsFollowWhatEachListShows() {
    var on = AppProfile(info: AppInfo(bundleID: "com.example.mail", displayName: "Mail", iconGlyph: "✉"))
    on.settings.showPreviews = .always
    var off = AppProfile(info: AppInfo(bundleID: bundle, displayName: "Chat", iconGlyph: "💬"))
    off.settings.notificationCenter = false
    var device = DeviceSimulator(profile: DeviceProfile(start: start, isLocked: true, apps: [on, off]))
    device.apply(push(hello, bundle: bundle), at: start + .seconds(1))
    device.apply(push(hello, bundle: "com.example.mail"), at: start + .seconds(2))
    device.apply(push(hello, bundle: bundle), at: start + .seconds(3))
    #expect(device.store.count == 3)
    #expect(device.store.centerCount == 1)
    #expect(device.store.stacks(filter: .notificationCenter).map(\.key.bundleID) == ["com.example.mail"])
    #expect(device.store.stacks(filter: .lockScreen).map(\.count).reduce(0, +) == 3)
    // Clearing one of the lock-screen-only notifications leaves the counts in step.
    let chat = device.store.stacks(filter: .lockScreen).first { $0.key.bundleID == bundle }
    if let id = chat?.notifications.first?.id { device.apply(.clear(id), at: start + .seconds(4)) }
    #expect(device.store.count == 2 && device.store.centerCount == 1)
  }
}

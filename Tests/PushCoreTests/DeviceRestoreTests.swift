import PushTestSupport
import Testing

@testable import PushCore

/// Restoring a device from notifications given one at a time by a producer
/// (``DeviceSimulator/init(profile:restoring:notifications:)``), against the array form.
@Suite struct DeviceRestoreTests {
  /// A device with threads, a collapse, a held Scheduled Summary item, a badge and a tap.
  func liveDevice() -> DeviceSimulator {
    let profile = DeviceProfile.chatAndSummarisedNews(start: start)
    var device = DeviceSimulator(profile: profile)
    let payloads = [
      #"{"aps": {"alert": {"title": "Ann", "body": "Lunch?"}, "thread-id": "ann", "badge": 3}}"#,
      #"{"aps": {"alert": "score 1–0", "relevance-score": 0.7}}"#,
      #"{"aps": {"alert": {"title": "Bob", "body": "On my way"}, "thread-id": "bob"}}"#,
      #"{"aps": {"alert": {"title": "Ann", "body": "Still there?"}, "thread-id": "ann", "interruption-level": "time-sensitive"}}"#,
    ]
    for (offset, payload) in payloads.enumerated() {
      device.apply(.push(push(payload, line: offset + 1)), at: at(Int64(offset)))
    }
    device.apply(
      .push(push(#"{"aps": {"alert": "score 2–0"}}"#, headers: [("apns-collapse-id", "score")], line: 5)),
      at: at(5))
    device.apply(.push(push(#"{"aps": {"alert": "Headline"}}"#, bundle: "com.example.news", line: 6)), at: at(6))
    if let bob = device.store.all.first(where: { $0.notification.title == "Bob" }) {
      device.apply(.open(bob.id), at: at(7))
    }
    return device
  }

  /// What a journal would remember of `device`, its notifications in the given order.
  func remembered(_ device: DeviceSimulator, notifications: [StoredNotification]) -> RestoredDevice {
    RestoredDevice(
      notifications: notifications, engagement: device.profile.engagement, badges: device.badges,
      liveActivities: device.liveActivities,
      state: RestoredDevice.State(now: device.now, isLocked: device.isLocked, activeFocusID: device.activeFocusID),
      nextNotificationID: (notifications.map(\.id.rawValue).max() ?? 0) + 1, deliveryCount: device.receivedCount)
  }

  func expectSameDevice(_ lhs: DeviceSimulator, _ rhs: DeviceSimulator) {
    #expect(lhs.store == rhs.store)
    #expect(
      lhs.store.rankedGroups(includeHeld: true).map { $0.notifications.map(\.id) }
        == rhs.store.rankedGroups(includeHeld: true).map { $0.notifications.map(\.id) })
    #expect(
      lhs.store.all.filter { $0.heldUntil != nil }.map(\.id).sorted()
        == rhs.store.all.filter { $0.heldUntil != nil }.map(\.id).sorted())
    #expect(lhs.profile.engagement == rhs.profile.engagement)
    #expect(lhs.badges == rhs.badges)
    #expect(lhs.now == rhs.now)
  }

  @Test func notificationsInOrderAreProducedOnceIntoTheSameDeviceAsTheArrayForm() throws {
    let live = liveDevice()
    let notifications = live.store.all.sorted { $0.id < $1.id }
    #expect(notifications.count >= 5)
    #expect(notifications.contains { $0.heldUntil != nil })
    let restored = remembered(live, notifications: notifications)
    let fromArray = DeviceSimulator(profile: live.profile, restoring: restored)
    var parts = restored
    parts.notifications = []
    var calls = 0
    var streamed = DeviceSimulator(profile: live.profile, restoring: parts) { add in
      calls += 1
      for stored in notifications { add(stored) }
    }
    #expect(calls == 1)
    expectSameDevice(streamed, fromArray)
    expectSameDevice(streamed, live)
    // It goes on with the same ids and record indexes.
    var array = fromArray
    let next = push(#"{"aps": {"alert": "next", "thread-id": "ann"}}"#, line: 9)
    let expected = array.apply(.push(next), at: at(20))
    let actual = streamed.apply(.push(next), at: at(20))
    #expect(actual?.index == expected?.index && actual?.index == live.receivedCount)
    #expect(actual?.notification?.id == expected?.notification?.id)
    expectSameDevice(streamed, array)
  }

  @Test func notificationsOutOfOrderAreProducedAgainAndSortedAsTheArrayFormDoes() throws {
    let live = liveDevice()
    let inOrder = live.store.all.sorted { $0.id < $1.id }
    let shuffled = Array(inOrder.reversed())
    let fromSorted = DeviceSimulator(profile: live.profile, restoring: remembered(live, notifications: inOrder))
    let fromShuffled = DeviceSimulator(profile: live.profile, restoring: remembered(live, notifications: shuffled))
    var calls = 0
    let streamed = DeviceSimulator(profile: live.profile, restoring: remembered(live, notifications: [])) { add in
      calls += 1
      for stored in shuffled { add(stored) }
    }
    #expect(calls == 2)
    expectSameDevice(streamed, fromSorted)
    expectSameDevice(fromShuffled, fromSorted)
    expectSameDevice(streamed, live)
  }

  struct Unreadable: Error {}

  @Test func aProducersErrorIsThrownAndNoDeviceIsMade() {
    let live = liveDevice()
    let notifications = live.store.all.sorted { $0.id < $1.id }
    var given = 0
    #expect(throws: Unreadable.self) {
      _ = try DeviceSimulator(profile: live.profile, restoring: remembered(live, notifications: [])) {
        add throws(Unreadable) in
        for stored in notifications.prefix(2) {
          add(stored)
          given += 1
        }
        throw Unreadable()
      }
    }
    #expect(given == 2)
  }
}

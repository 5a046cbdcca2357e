import PushCore
import PushTestSupport
import Testing

@testable import PushUI

/// A push `run --listen` accepted goes on the timeline where it arrived: a seek back and forward
/// plays it again with its own notification id, and the pushes after it keep theirs, so the
/// journal (which holds it) is not handed an id twice.
@Suite("Pushes from the endpoint on the timeline")
struct LivePushTests {
  static let pushes = 30

  static func at(_ index: Int) -> SimInstant { DemoScenario.start + .seconds(Int64(index * 3)) }

  static func live(_ title: String) -> PushRecord {
    PushReader.readPayloadFile(
      Array(#"{"aps":{"alert":{"title":"\#(title)"}}}"#.utf8), source: "apns", format: .payload,
      bundleID: "com.example.live")
  }

  static func liveIDs(_ state: AppState) -> [NotificationID] {
    state.device.store.all.filter { $0.notification.bundleID == "com.example.live" }.map(\.id)
  }

  @Test func aSeekBackAndForwardKeepsALivePushAndEveryID() {
    var state = journallingScaleState(pushes: Self.pushes)
    _ = reduce(into: &state, .tick(Self.at(10)))
    state.receive(Self.live("Zebra"))
    let zebra = Self.liveIDs(state)
    #expect(zebra.count == 1)
    #expect(state.takeChanges().deliveries.count == 12, "entries 0 to 10, and the live push")
    _ = reduce(into: &state, .tick(Self.at(20)))
    let idsBefore = state.device.store.all.map(\.id).sorted()
    #expect(state.takeChanges().deliveries.count == 10)
    // Back before it and forward again: the same notifications, ids included, nothing journalled twice.
    _ = state.seek(to: Self.at(5))
    #expect(Self.liveIDs(state).isEmpty)
    _ = reduce(into: &state, .tick(Self.at(20)))
    #expect(Self.liveIDs(state) == zebra)
    #expect(state.device.store.all.map(\.id).sorted() == idsBefore)
    #expect(state.takeChanges().deliveries.isEmpty)
    // What comes next is journalled with ids nobody had.
    _ = reduce(into: &state, .tick(Self.at(Self.pushes)))
    let next = state.takeChanges().deliveries.compactMap { $0.record.notification?.id }
    #expect(next.count == 9)
    #expect(Set(next).isDisjoint(with: idsBefore))
  }

  /// With a state database, a push that arrives while the front end is back in time first brings
  /// it back to where the journal is, then is journalled with an id after every journalled one.
  @Test func aLivePushInThePastBringsTheFrontEndBackToTheJournal() {
    var state = journallingScaleState(pushes: Self.pushes)
    _ = reduce(into: &state, .tick(Self.at(20)))
    let journalled = state.takeChanges().deliveries.compactMap { $0.record.notification?.id }
    _ = state.seek(to: Self.at(5))
    state.receive(Self.live("Late"))
    #expect(state.now == Self.at(20))
    #expect(state.toast?.text.hasPrefix("A push arrived: back to") == true)
    let saved = state.takeChanges().deliveries.compactMap { $0.record.notification?.id }
    #expect(saved.count == 1)
    #expect(saved.allSatisfy { id in journalled.allSatisfy { $0 < id } })
  }

  /// Without a state database the push also stays through a seek back.
  @Test func withoutAJournalTheLivePushStaysToo() {
    var state = AppState(
      device: DeviceSimulator(profile: DeviceProfile(start: DemoScenario.start, isLocked: false)),
      timeline: scaleTimeline(pushes: Self.pushes, from: DemoScenario.start, badges: false))
    _ = reduce(into: &state, .tick(Self.at(10)))
    state.receive(Self.live("Zebra"))
    _ = state.seek(to: Self.at(2))
    _ = reduce(into: &state, .tick(Self.at(15)))
    #expect(Self.liveIDs(state).count == 1)
  }
}

/// A push the endpoint accepted and the device drops (its app is not installed) says so in a
/// toast: the sender saw 200 and would otherwise see nothing at all. One on the timeline does not.
@Suite("A dropped push from the endpoint")
struct LiveDropTests {
  @Test func aLivePushTheDeviceDropsSaysWhyInAToast() throws {
    var profile = DeviceProfile(start: DemoScenario.start)
    profile.installsUnknownApps = false
    var state = AppState(device: DeviceSimulator(profile: profile), timeline: [])
    state.receive(LivePushTests.live("Hello"))
    #expect(state.device.store.count == 0)
    let toast = try #require(state.toast?.text)
    #expect(toast.contains("dropped · com.example.live is not installed on this device"), "\(toast)")

    // The same push on the timeline plays without a toast.
    var played = AppState(
      device: DeviceSimulator(profile: profile),
      timeline: [TimelineEntry(at: DemoScenario.start + .seconds(1), event: .device(.push(LivePushTests.live("Hi"))))])
    _ = reduce(into: &played, .tick(DemoScenario.start + .seconds(2)))
    #expect(played.device.store.count == 0)
    #expect(played.toast == nil)
  }
}

import Foundation
import PushCore
import Testing

@testable import PushStore

/// Broadcast channels and the activities subscribed to them survive a restart (schema v6).
@Suite struct ChannelJournalTests {
  static let bundle = "com.example.scores"
  static let channel = "c2NvcmVzLWdhbWUtNDI="
  static let live = [
    ("apns-push-type", "liveactivity"), ("apns-topic", "com.example.scores.push-type.liveactivity"),
  ]

  @Test func channelsTheirStoredMessageAndSubscriptionsAreRestored() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.file("device.sqlite")
    let journal = try DeviceJournal.open(at: path)
    var device = DeviceSimulator(profile: DeviceProfile(start: start))
    var batch = JournalBatch()
    let created = device.createChannel(
      id: Self.channel, bundleID: Self.bundle, storagePolicy: .mostRecent, journalingInto: &batch)
    let other = device.createChannel(
      id: "ZGVsZXRlZA==", bundleID: Self.bundle, storagePolicy: .noStorage, journalingInto: &batch)
    let deleted = device.deleteChannel("ZGVsZXRlZA==", bundleID: Self.bundle, journalingInto: &batch)
    #expect(created == nil && other == nil && deleted)
    let startPush =
      #"{"aps": {"event": "start", "timestamp": 1, "attributes-type": "Game", "attributes": {}, "content-state": {"score": "0-0"}, "alert": {"title": "On", "body": "Now"}, "input-push-channel": "\#(Self.channel)", "input-push-token": 1}}"#
    device.apply(.push(push(startPush, bundle: Self.bundle, headers: Self.live)), at: at(1), journalingInto: &batch)
    let update = #"{"aps": {"event": "update", "timestamp": 5, "content-state": {"score": "1-0"}}}"#
    device.apply(
      .push(push(update, bundle: Self.bundle, headers: Self.live + [("apns-channel-id", Self.channel)])), at: at(5),
      journalingInto: &batch)
    #expect(batch.updates.channels?.first?.lastMessage?.timestamp == 5)
    try journal.commit(batch)
    try journal.close()

    let reopened = try DeviceJournal.open(at: path)
    defer { try? reopened.close() }
    let restored = try reopened.restore()
    #expect(restored.channels == device.channels)
    #expect(restored.channels.map(\.id) == [Self.channel])
    #expect(restored.channels.first?.lastMessage?.contentState?["score"]?.stringValue == "1-0")
    let again = DeviceSimulator(profile: DeviceProfile(start: start), restoring: restored)
    #expect(again.liveActivities == device.liveActivities)
    #expect(again.liveActivities.first?.channelID == Self.channel)
    #expect(again.liveActivities.first?.pushToken?.count == 64)
    #expect(again.channels == device.channels)
  }
}

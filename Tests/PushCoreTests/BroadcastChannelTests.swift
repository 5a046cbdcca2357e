import Testing

@testable import PushCore

/// Broadcast channels, push-to-start and activity tokens on the simulated device.
@Suite struct BroadcastChannelTests {
  static let bundle = "com.example.scores"
  static let channel = "c2NvcmVzLWdhbWUtNDI="
  static let other = "b3RoZXItY2hhbm5lbA=="
  static let startToken = String(repeating: "5a", count: 32)

  /// A Live Activity push as a capture line: headers, optional token and channel.
  func live(_ aps: String, token: String? = nil, channel: String? = nil, expiration: Int? = nil) -> PushRecord {
    var headers = [
      #""apns-push-type": "liveactivity""#, #""apns-topic": "\#(Self.bundle).push-type.liveactivity""#,
    ]
    if let channel { headers.append(#""apns-channel-id": "\#(channel)""#) }
    if let expiration { headers.append(#""apns-expiration": "\#(expiration)""#) }
    let tokenField = token.map { #""token": "\#($0)", "# } ?? ""
    let text =
      #"{"at": 0, "bundle": "\#(Self.bundle)", \#(tokenField)"headers": {\#(headers.joined(separator: ", "))}, "payload": {"aps": \#(aps)}}"#
    return PushReader.readCaptureLine(Array(text.utf8), lineNumber: 1, source: "t.jsonl")
  }

  func starting(_ stamp: Int, channel: String? = nil, token: Bool = false) -> String {
    let channelKey = channel.map { #", "input-push-channel": "\#($0)""# } ?? ""
    let tokenKey = token ? #", "input-push-token": 1"# : ""
    return
      #"{"event": "start", "timestamp": \#(stamp), "attributes-type": "Game", "attributes": {"home": "A"}, "content-state": {"score": "0-0"}, "alert": {"title": "Kick-off", "body": "A v B"}\#(channelKey)\#(tokenKey)}"#
  }

  func update(_ stamp: Int, score: String, event: String = "update") -> String {
    #"{"event": "\#(event)", "timestamp": \#(stamp), "content-state": {"score": "\#(score)"}}"#
  }

  func device(
    pushToStart: String? = nil, channels: [(String, BroadcastChannel.StoragePolicy)] = [(channel, .noStorage)]
  ) -> DeviceSimulator {
    var profile = DeviceProfile(start: start)
    var app = AppProfile(info: .inferred(from: Self.bundle))
    app.pushToStartToken = pushToStart
    app.channels = channels.map {
      BroadcastChannel(id: $0.0, bundleID: Self.bundle, storagePolicy: $0.1, createdAt: start)
    }
    profile.apps.append(app)
    return DeviceSimulator(profile: profile)
  }

  func score(_ activity: LiveActivity) -> String? { activity.contentState?["score"]?.stringValue }

  @Test func oneBroadcastUpdatesEveryActivitySubscribedToTheChannel() throws {
    var sim = device(channels: [(Self.channel, .noStorage), (Self.other, .noStorage)])
    #expect(sim.channels.map(\.id) == [Self.channel, Self.other])
    let first = sim.apply(push: live(starting(1, channel: Self.channel)), at: at(1))
    #expect(first.decision.reasonCodes == [.liveActivityStarted, .channelSubscribed])
    sim.apply(.push(live(starting(2, channel: Self.channel))), at: at(2))
    sim.apply(.push(live(starting(3, channel: Self.other))), at: at(3))
    sim.apply(.push(live(starting(4))), at: at(4))
    #expect(sim.liveActivities.map(\.channelID) == [Self.channel, Self.channel, Self.other, nil])

    let broadcast = sim.apply(push: live(update(10, score: "1-0"), channel: Self.channel), at: at(10))
    #expect(broadcast.decision.disposition == .delivered)
    #expect(broadcast.channelID == Self.channel)
    #expect(broadcast.decision.reasons.first?.text.contains("2 Live Activities") == true)
    #expect(sim.liveActivities.map(score) == ["1-0", "1-0", "0-0", "0-0"])

    // An end through the channel ends both, and a later update reaches none.
    sim.apply(.push(live(update(20, score: "2-1", event: "end"), channel: Self.channel)), at: at(20))
    #expect(sim.liveActivities.prefix(2).allSatisfy { $0.endedAt == at(20) })
    let late = sim.apply(push: live(update(30, score: "3-1"), channel: Self.channel), at: at(30))
    #expect(late.decision.disposition == .dropped)
    #expect(sim.liveActivities.map(score) == ["2-1", "2-1", "0-0", "0-0"])
  }

  @Test func aBroadcastNeverStartsAnActivity() throws {
    var sim = device()
    let record = sim.apply(push: live(starting(1), channel: Self.channel), at: at(1))
    #expect(record.decision.disposition == .dropped)
    #expect(record.decision.reasonCodes == [.broadcastCannotStart])
    #expect(sim.liveActivities.isEmpty)
  }

  @Test func anUnknownChannelUpdatesNothing() throws {
    var sim = device()
    sim.apply(.push(live(starting(1, channel: Self.other))), at: at(1))
    #expect(sim.liveActivities.first?.channelID == nil)
    let record = sim.apply(push: live(update(5, score: "1-0"), channel: Self.other), at: at(5))
    #expect(record.decision.reasonCodes == [.channelNotRegistered])
    #expect(
      sim.broadcastRefusal(channelID: Self.other, bundleID: Self.bundle, expiration: nil) == .channelNotRegistered)
  }

  @Test func theMostRecentMessageReachesAnActivityThatSubscribesWithinEightHours() throws {
    var sim = device(channels: [(Self.channel, .mostRecent)])
    // Sent before anyone subscribed: nothing updated, the message kept.
    let early = sim.apply(push: live(update(100, score: "1-0"), channel: Self.channel), at: at(100))
    #expect(early.decision.disposition == .dropped)
    #expect(sim.channels.first?.lastMessage?.timestamp == 100)
    let joined = sim.apply(push: live(starting(50, channel: Self.channel)), at: at(200))
    #expect(joined.decision.reasonCodes == [.liveActivityStarted, .channelSubscribed, .channelSubscribed])
    #expect(sim.liveActivities.first.map(score) == "1-0")

    // Nine hours later the stored message is too old for a new subscriber.
    let later = sim.apply(push: live(starting(60, channel: Self.channel)), at: at(100 + 9 * 3600))
    #expect(later.decision.reasonCodes == [.liveActivityStarted, .channelSubscribed])
    #expect(sim.liveActivities.last.map(score) == "0-0")
  }

  @Test func aChannelThatStoresNothingKeepsNoMessageAndTakesOnlyExpirationZero() throws {
    var sim = device(channels: [(Self.channel, .noStorage)])
    sim.apply(.push(live(update(100, score: "1-0"), channel: Self.channel)), at: at(100))
    #expect(sim.channels.first?.lastMessage == nil)
    sim.apply(.push(live(starting(50, channel: Self.channel))), at: at(200))
    #expect(sim.liveActivities.first.map(score) == "0-0")
    #expect(sim.broadcastRefusal(channelID: Self.channel, bundleID: Self.bundle, expiration: 0) == nil)
    #expect(sim.broadcastRefusal(channelID: Self.channel, bundleID: Self.bundle, expiration: nil) == nil)
    #expect(
      sim.broadcastRefusal(channelID: Self.channel, bundleID: Self.bundle, expiration: 1_900_000_000)
        == .expirationNeedsStorage)
  }

  @Test func updatesAddressTheActivitysOwnPushToken() throws {
    var sim = device(pushToStart: Self.startToken)
    // A start to another token starts nothing.
    let wrong = sim.apply(push: live(starting(1, token: true), token: String(repeating: "11", count: 32)), at: at(1))
    #expect(wrong.decision.reasonCodes == [.activityTokenMismatch])
    #expect(sim.liveActivities.isEmpty)

    let first = sim.apply(push: live(starting(1, token: true), token: Self.startToken), at: at(2))
    #expect(first.decision.reasonCodes == [.liveActivityStarted, .activityPushToken])
    sim.apply(.push(live(starting(2, token: true), token: Self.startToken)), at: at(3))
    let tokens = sim.liveActivities.compactMap(\.pushToken)
    #expect(tokens.count == 2 && Set(tokens).count == 2 && tokens.allSatisfy { $0.count == 64 })

    // The first activity's token updates the first one only, though the second is newer.
    sim.apply(.push(live(update(10, score: "1-0"), token: tokens[0])), at: at(10))
    #expect(sim.liveActivities.map(score) == ["1-0", "0-0"])
    // The push-to-start token does not update, and an unknown token reaches nothing.
    let viaStart = sim.apply(push: live(update(11, score: "9-9"), token: Self.startToken), at: at(11))
    #expect(viaStart.decision.reasonCodes == [.activityTokenMismatch])
    let unknown = sim.apply(push: live(update(12, score: "9-9"), token: String(repeating: "ee", count: 32)), at: at(12))
    #expect(unknown.decision.reasonCodes == [.activityTokenMismatch])
    #expect(sim.liveActivities.map(score) == ["1-0", "0-0"])
  }

  @Test func channelsAreCreatedAndDeletedPerApp() {
    var sim = device(channels: [])
    let created = sim.createChannel(id: Self.channel, bundleID: Self.bundle, storagePolicy: .mostRecent)
    let elsewhere = sim.createChannel(id: Self.other, bundleID: "com.example.other", storagePolicy: .noStorage)
    #expect(created == nil && elsewhere == nil)
    #expect(sim.channels(of: Self.bundle).map(\.id) == [Self.channel])
    #expect(sim.channel(Self.other, bundleID: Self.bundle) == nil)
    let deletedOther = sim.deleteChannel(Self.other, bundleID: Self.bundle)
    let deleted = sim.deleteChannel(Self.channel, bundleID: Self.bundle)
    #expect(!deletedOther && deleted)
    #expect(sim.channels(of: Self.bundle).isEmpty)
  }

  @Test func channelIDsAreBase64() {
    #expect(ChannelID.isWellFormed("dHN0LXNyY2gtY2hubA=="))
    #expect(ChannelID.isWellFormed("abcd"))
    #expect(!ChannelID.isWellFormed(""))
    #expect(!ChannelID.isWellFormed("abc"))
    #expect(!ChannelID.isWellFormed("ab=c"))
    #expect(!ChannelID.isWellFormed("a==="))
    #expect(!ChannelID.isWellFormed("ab c"))
    #expect(!ChannelID.isWellFormed(String(repeating: "A", count: 260)))
  }
}

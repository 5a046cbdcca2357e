import Foundation
import PushWire
import Testing

@testable import PushServer

/// The channel API's request rules, without a network.
@Suite struct ChannelRequestTests {
  static let channel = "dHN0LXNyY2gtY2hubA=="
  static let liveHeaders = [("apns-push-type", "liveactivity"), ("apns-channel-id", channel)]
  static let update = #"{"aps": {"event": "update", "timestamp": 10, "content-state": {"score": "1-0"}}}"#

  func decide(
    _ method: String, _ path: String, headers: [(String, String)] = [], body: String = ""
  ) -> Result<ChannelRoute, ChannelAnswer> {
    let bytes = Array(body.utf8)
    return ChannelRequest.decide(
      method: method, path: path, headers: headers.map { (name: $0.0, value: $0.1) }, body: bytes,
      bodyByteCount: bytes.count, receivedAt: 1_800_000_000, makeID: { "id" })
  }

  /// The status and reason of a refusal; (0, "") when it was routed.
  func refusal(_ result: Result<ChannelRoute, ChannelAnswer>) -> (Int, String) {
    switch result {
    case .success: (0, "")
    case .failure(let answer): (answer.status, answer.reason ?? "")
    }
  }

  @Test func createsWithAStoragePolicyAndRefusesAnyOtherBody() {
    let path = "/1/apps/com.example.scores/channels"
    guard
      case .success(.create(let bundle, let policy)) = decide(
        "POST", path, body: #"{"message-storage-policy": 1, "push-type": "LiveActivity"}"#)
    else {
      Issue.record("not routed")
      return
    }
    #expect(bundle == "com.example.scores" && policy == 1)
    #expect(
      refusal(decide("POST", path, body: #"{"message-storage-policy": 2, "push-type": "LiveActivity"}"#)) == (
        400, "CannotCreateChannelConfig"
      ))
    #expect(
      refusal(decide("POST", path, body: #"{"message-storage-policy": 1e300, "push-type": "LiveActivity"}"#)) == (
        400, "CannotCreateChannelConfig"
      ))
    #expect(
      refusal(decide("POST", path, body: #"{"message-storage-policy": "1", "push-type": "LiveActivity"}"#)) == (
        400, "CannotCreateChannelConfig"
      ))
    #expect(
      refusal(decide("POST", path, body: #"{"push-type": "LiveActivity"}"#)) == (400, "CannotCreateChannelConfig"))
    #expect(
      refusal(decide("POST", path, body: #"{"message-storage-policy": 0, "push-type": "Alert"}"#)) == (
        400, "InvalidPushType"
      ))
    #expect(refusal(decide("POST", path, body: "[1]")) == (400, "BadRequest"))
    #expect(refusal(decide("POST", path, body: "{")) == (400, "BadRequest"))
    #expect(refusal(decide("POST", path)) == (400, "CannotCreateChannelConfig"))
  }

  @Test func readsListsAndDeletesByChannelID() {
    let path = "/1/apps/com.example.scores/channels"
    guard case .success(.read(_, let id)) = decide("GET", path, headers: [("apns-channel-id", Self.channel)]) else {
      Issue.record("not routed")
      return
    }
    #expect(id == Self.channel)
    guard case .success(.delete) = decide("DELETE", path, headers: [("apns-channel-id", Self.channel)]) else {
      Issue.record("not routed")
      return
    }
    guard case .success(.list(let bundle)) = decide("GET", "/1/apps/com.example.scores/all-channels") else {
      Issue.record("not routed")
      return
    }
    #expect(bundle == "com.example.scores")
    #expect(refusal(decide("GET", path)) == (400, "MissingChannelId"))
    #expect(refusal(decide("DELETE", path, headers: [("apns-channel-id", "not base64")])) == (400, "BadChannelId"))
    #expect(refusal(decide("PUT", path)) == (405, "MethodNotAllowed"))
    #expect(refusal(decide("POST", "/1/apps/com.example.scores/all-channels")) == (405, "MethodNotAllowed"))
    #expect(refusal(decide("GET", "/1/apps//channels")) == (404, "BadPath"))
    #expect(refusal(decide("GET", "/1/apps/a/b/channels")) == (404, "BadPath"))
    #expect(refusal(decide("GET", "/1/apps/com.example.scores/other")) == (404, "BadPath"))
    #expect(
      refusal(
        decide(
          "GET", path, headers: [("apns-channel-id", Self.channel), ("APNS-CHANNEL-ID", Self.channel)]))
        == (400, "DuplicateHeaders"))
  }

  @Test func broadcastsFollowApplesHeaderAndPayloadRules() {
    let path = "/4/broadcasts/apps/com.example.scores"
    guard
      case .success(.broadcast(let bundle, let channel, let record, let apnsID, let expiration)) = decide(
        "POST", path, headers: Self.liveHeaders + [("apns-priority", "5"), ("apns-expiration", "0")],
        body: Self.update)
    else {
      Issue.record("not routed")
      return
    }
    #expect(bundle == "com.example.scores" && channel == Self.channel && apnsID == "id" && expiration == 0)
    #expect(record.headers.otherHeaders.contains { $0.name == "apns-channel-id" && $0.value == Self.channel })
    #expect(record.bundleID == "com.example.scores" && record.at == 1_800_000_000)

    #expect(
      refusal(decide("POST", path, headers: [("apns-push-type", "liveactivity")], body: Self.update)) == (
        400, "MissingChannelId"
      ))
    #expect(
      refusal(
        decide(
          "POST", path, headers: [("apns-push-type", "liveactivity"), ("apns-channel-id", "%%%")], body: Self.update))
        == (400, "BadChannelId"))
    #expect(
      refusal(decide("POST", path, headers: [("apns-channel-id", Self.channel)], body: Self.update)) == (
        400, "InvalidPushType"
      ))
    #expect(
      refusal(
        decide(
          "POST", path, headers: [("apns-push-type", "alert"), ("apns-channel-id", Self.channel)], body: Self.update))
        == (400, "InvalidPushType"))
    #expect(
      refusal(decide("POST", path, headers: Self.liveHeaders + [("apns-priority", "7")], body: Self.update)) == (
        400, "BadPriority"
      ))
    #expect(
      refusal(
        decide("POST", path, headers: Self.liveHeaders + [("apns-priority", "99999999999999999999")], body: Self.update)
      )
        == (400, "BadPriority"))
    #expect(
      refusal(decide("POST", path, headers: Self.liveHeaders + [("apns-expiration", "-5")], body: Self.update))
        == (400, "BadExpirationDate"))
    #expect(
      refusal(decide("POST", path, headers: Self.liveHeaders + [("apns-expiration", "1e99")], body: Self.update))
        == (400, "BadExpirationDate"))
    #expect(refusal(decide("POST", path, headers: Self.liveHeaders)) == (400, "PayloadEmpty"))
    let large =
      #"{"aps": {"event": "update", "timestamp": 1, "content-state": {"x": ""# + String(repeating: "y", count: 4100)
      + "\"}}}"
    #expect(refusal(decide("POST", path, headers: Self.liveHeaders, body: large)) == (413, "PayloadTooLarge"))
    #expect(refusal(decide("POST", path, headers: Self.liveHeaders, body: "{\"aps\": ")) == (400, "BadRequest"))
    #expect(refusal(decide("GET", path, headers: Self.liveHeaders)) == (405, "MethodNotAllowed"))
  }

  @Test func authenticationComesFirst() {
    let result = ChannelRequest.decide(
      method: "GET", path: "/1/apps/com.example.scores/all-channels", headers: [], body: [], bodyByteCount: 0,
      receivedAt: 0, authorize: { _ in .rejected(status: 403, reason: "MissingProviderToken") })
    #expect(refusal(result) == (403, "MissingProviderToken"))
  }

  @Test func bodiesAreJSONAsAPNsWritesThem() throws {
    let list = ChannelRequest.listBody(["a", "b\"c"])
    let document = try JSONDocument(text: list)
    let channels = try #require(document.member("channels", of: document.root))
    #expect(document.elements(of: channels).map { document.string($0) } == ["a", "b\"c"])
    #expect(ChannelRequest.readBody(storagePolicy: 1) == #"{"message-storage-policy":1,"push-type":"LiveActivity"}"#)
    let id = ChannelRequest.makeChannelID()
    #expect(ChannelID.isWellFormed(id) && Data(base64Encoded: id)?.count == 16)
  }
}

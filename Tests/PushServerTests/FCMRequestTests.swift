import Foundation
import PushWire
import Testing

@testable import PushServer

/// FCM HTTP v1 send requests mapped to the APNs request FCM makes, without a network.
@Suite struct FCMRequestTests {
  static let token = String(repeating: "ab", count: 32)
  static let other = String(repeating: "cd", count: 32)
  static let path = "/v1/projects/demo-proj/messages:send"
  static let registry = TokenRegistry(devices: [
    .init(token: token, bundleID: "com.example.app"),
    .init(token: other, bundleID: "com.example.other", state: .unregistered(sinceMilliseconds: 1_700_000_000_000)),
  ])

  func decide(
    _ body: String, path: String = path, method: String = "POST", project: String? = nil,
    registry: TokenRegistry? = registry
  ) -> Result<FCMRoute, FCMError> {
    FCMRequest.decide(
      method: method, path: path, body: Array(body.utf8), receivedAt: 1_800_000_000, project: project,
      registry: registry, makeID: { "42" })
  }

  func route(_ body: String, project: String? = nil) throws -> FCMRoute {
    switch decide(body, project: project) {
    case .success(let route): return route
    case .failure(let error): throw error
    }
  }

  func error(_ body: String, path: String = path, project: String? = nil, registry: TokenRegistry? = registry)
    -> FCMError?
  {
    if case .failure(let error) = decide(body, path: path, project: project, registry: registry) { return error }
    return nil
  }

  func payload(_ route: FCMRoute) throws -> JSONValue {
    try JSONDocument(text: route.payloadText).value(0)
  }

  func header(_ route: FCMRoute, _ name: String) -> String? {
    route.record.headers.all.first { $0.name == name }?.value
  }

  @Test func notificationBecomesTheAlertWithFCMsKeysAndDefaults() throws {
    let route = try route(
      #"{"message": {"token": "\#(Self.token)", "notification": {"title": "Hi", "body": "There"}, "data": {"order": "7"}}}"#
    )
    let payload = try payload(route)
    #expect(
      payload["aps"]?["alert"]
        == .object([.init(key: "title", value: .string("Hi")), .init(key: "body", value: .string("There"))]))
    #expect(payload["order"] == .string("7"))
    #expect(payload["gcm.message_id"] == .string("0:42"))
    #expect(payload["google.c.a.e"] == .string("1"))
    #expect(payload["google.c.sender.id"] == .string(FCMRequest.senderID(forProject: "demo-proj")))
    #expect(payload["google.c.fid"] == .string(String(Self.token.prefix(22))))
    #expect(payload["fcm_options"] == nil)
    #expect(header(route, "apns-push-type") == "alert")
    #expect(header(route, "apns-priority") == "10")
    #expect(header(route, "apns-expiration") == String(1_800_000_000 + 2_419_200))
    #expect(route.name == "projects/demo-proj/messages/0:42")
    #expect(route.record.bundleID == "com.example.app")
    #expect(route.record.file == "fcm")
    #expect(!route.validateOnly)
    #expect(FCMRequest.successBody(name: route.name) == #"{"name":"projects/demo-proj/messages/0:42"}"#)
  }

  @Test func apnsPayloadAlertOverridesTheNotificationAndHeadersWin() throws {
    let route = try route(
      #"""
      {"message": {"token": "\#(Self.token)", "notification": {"title": "Generic", "body": "Plain", "image": "https://x/a.png"},
       "apns": {"headers": {"apns-priority": "5", "apns-expiration": "0"},
                "payload": {"aps": {"alert": {"title": "For iPhone"}, "sound": "default"}, "deep": "link"},
                "fcm_options": {"image": "https://x/b.png", "analytics_label": "l"}}},
       "validate_only": true}
      """#)
    let payload = try payload(route)
    #expect(
      payload["aps"]?["alert"]
        == .object([.init(key: "title", value: .string("For iPhone")), .init(key: "body", value: .string("Plain"))]))
    #expect(payload["aps"]?["sound"] == .string("default"))
    #expect(payload["deep"] == .string("link"))
    #expect(payload["fcm_options"]?["image"] == .string("https://x/b.png"))
    #expect(header(route, "apns-priority") == "5")
    #expect(header(route, "apns-expiration") == "0")
    #expect(route.validateOnly)
    // A string alert in apns.payload replaces the notification altogether.
    let replaced = try self.route(
      #"{"message": {"token": "\#(Self.token)", "notification": {"title": "T"}, "apns": {"payload": {"aps": {"alert": "Only this"}}}}}"#
    )
    #expect(try self.payload(replaced)["aps"]?["alert"] == .string("Only this"))
  }

  @Test func contentAvailableOnlyIsABackgroundPushAtPriorityFive() throws {
    let route = try route(
      #"{"message": {"token": "\#(Self.token)", "apns": {"payload": {"aps": {"content-available": 1}}}, "data": {"k": "v"}}}"#
    )
    #expect(header(route, "apns-push-type") == "background")
    #expect(header(route, "apns-priority") == "5")
    #expect(try payload(route)["aps"]?["alert"] == nil)
  }

  @Test func badMessagesAreInvalidArgumentWithTheFieldAndLocation() throws {
    let missing = try #require(error(#"{"message": {"notification": {"title": "x"}}}"#))
    #expect(missing.code == 400 && missing.errorCode == "INVALID_ARGUMENT" && missing.message.contains("none is set"))
    let both = try #require(error(#"{"message": {"token": "\#(Self.token)", "topic": "news"}}"#))
    #expect(both.message.contains("token and topic are set"))
    let notString = try #require(error(#"{"message": {"token": "\#(Self.token)",\#n "data": {"n": 3}}}"#))
    #expect(notString.message.contains("message.data[n]") && notString.message.contains("2:"))
    let reserved = try #require(error(#"{"message": {"token": "\#(Self.token)", "data": {"google.x": "3"}}}"#))
    #expect(reserved.message.contains("reserved"))
    let syntax = try #require(error("{\"message\": {\"token\": \n,}}"))
    #expect(syntax.status == "INVALID_ARGUMENT" && syntax.message.contains("Invalid JSON payload received. 2:1"))
    let unknownField = try #require(error(#"{"message": {"token": "\#(Self.token)", "notificaton": {}}}"#))
    #expect(unknownField.message.contains(#"Unknown name "notificaton" at 'message'"#))
    let badToken = try #require(error(#"{"message": {"token": "fcm-token:abc"}}"#))
    #expect(badToken.message.contains("not a valid FCM registration token"))
    #expect(
      missing.body.hasPrefix(#"{"error":{"code":400,"message":"#)
        && missing.body.hasSuffix(
          #""status":"INVALID_ARGUMENT","details":[{"@type":"type.googleapis.com/google.firebase.fcm.v1.FcmError","errorCode":"INVALID_ARGUMENT"}]}}"#
        ))
  }

  @Test func unknownAndUnregisteredTokensAreUnregistered() throws {
    let unknown = try #require(error(#"{"message": {"token": "\#(String(repeating: "ef", count: 32))"}}"#))
    #expect(unknown.code == 404 && unknown.status == "NOT_FOUND" && unknown.errorCode == "UNREGISTERED")
    let gone = try #require(error(#"{"message": {"token": "\#(Self.other)", "notification": {"body": "b"}}}"#))
    #expect(gone.errorCode == "UNREGISTERED")
    // Without a token list, any device token goes, to the app apns-topic names.
    let open = decide(
      #"{"message": {"token": "\#(Self.other)", "notification": {"body": "b"}, "apns": {"headers": {"apns-topic": "com.a"}}}}"#,
      registry: nil)
    #expect((try? open.get())?.record.bundleID == "com.a")
    let noApp = try #require(
      error(#"{"message": {"token": "\#(Self.other)", "notification": {"body": "b"}}}"#, registry: nil))
    #expect(noApp.message.contains("apns-topic"))
  }

  @Test func anotherProjectIsASenderIDMismatch() throws {
    let mismatch = try #require(error(#"{"message": {"token": "\#(Self.token)"}}"#, project: "real-proj"))
    #expect(
      mismatch.code == 403 && mismatch.status == "PERMISSION_DENIED" && mismatch.errorCode == "SENDER_ID_MISMATCH")
    #expect(
      error(#"{"message": {"token": "\#(Self.token)", "notification": {"body": "b"}}}"#, project: "demo-proj") == nil)
  }

  @Test func aTopicOfAnotherAppIsAThirdPartyAuthError() throws {
    let wrongApp = try #require(
      error(
        #"{"message": {"token": "\#(Self.token)", "notification": {"body": "b"}, "apns": {"headers": {"apns-topic": "com.example.other"}}}}"#,
        registry: TokenRegistry(devices: [.init(token: Self.token, bundleID: "com.example.app")])))
    #expect(wrongApp.code == 401 && wrongApp.errorCode == "THIRD_PARTY_AUTH_ERROR")
    let badPriority = try #require(
      error(
        #"{"message": {"token": "\#(Self.token)", "notification": {"body": "b"}, "apns": {"headers": {"apns-priority": "7"}}}}"#
      ))
    #expect(badPriority.errorCode == "THIRD_PARTY_AUTH_ERROR" && badPriority.message.contains("BadPriority"))
  }

  @Test func fcmsKeysCanPushThePayloadOverTheLimit() throws {
    // 4,000 bytes of body fit APNs alone; FCM's keys take it over 4,096.
    let body = String(repeating: "x", count: 3_990)
    let alone = #"{"aps":{"alert":{"body":"\#(body)"}}}"#
    #expect(alone.utf8.count <= 4_096)
    let tooBig = try #require(error(#"{"message": {"token": "\#(Self.token)", "notification": {"body": "\#(body)"}}}"#))
    #expect(
      tooBig.code == 400 && tooBig.errorCode == "INVALID_ARGUMENT" && tooBig.message.hasPrefix("Message is too big"))
  }

  @Test func pathsAndMethods() throws {
    #expect(error("{}", path: "/v1/projects/p/messages:batchSend")?.code == 404)
    #expect(error("{}", path: "/v1/projects//messages:send")?.code == 404)
    if case .failure(let refusal) = FCMRequest.decide(method: "GET", path: Self.path, body: [], receivedAt: 0) {
      #expect(refusal.code == 405)
    } else {
      Issue.record("GET was routed")
    }
    #expect(FCMRequest.senderID(forProject: "a") == FCMRequest.senderID(forProject: "a"))
    #expect(FCMRequest.senderID(forProject: "a").count == 12)
  }
}

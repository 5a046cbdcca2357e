import Foundation
import PushWire

/// An FCM send request the rules let through: the APNs push FCM would make, for the device.
public struct FCMRoute: Sendable {
  /// The push as the device receives it (source `fcm`).
  public var record: PushRecord
  /// The device token.
  public var token: String
  /// The message's name: `projects/<project>/messages/<id>`.
  public var name: String
  /// Only validate: answer without delivering.
  public var validateOnly: Bool
  /// The APNs payload text FCM sends.
  public var payloadText: String
}

/// FCM HTTP v1's `POST /v1/projects/<project>/messages:send`: one pure function from a request to
/// the APNs push FCM makes, or FCM's error. Mapping rules are ``FCMMessage``'s; the project,
/// token and APNs checks are here (docs/DECISIONS.md, "FCM HTTP v1").
public enum FCMRequest {
  /// The path prefix of FCM's API.
  public static let pathPrefix = "/v1/projects/"
  /// The path suffix of a send.
  public static let sendSuffix = "/messages:send"

  /// The largest request body read: a message wraps its APNs payload in its own JSON.
  public static let maximumBodyBytes = 65_536

  /// Whether a path is FCM's.
  public static func isFCMPath(_ path: String) -> Bool { path.hasPrefix(pathPrefix) }

  /// The sender id (project number) Pushdeck reports for a project id: a stable 12-digit number
  /// made from the id (FCM's real number is the Cloud project's; Pushdeck has none).
  public static func senderID(forProject project: String) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in project.utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x100_0000_01b3
    }
    return String(100_000_000_000 + hash % 900_000_000_000)
  }

  /// A new message id, as FCM's look (digits).
  public static func makeMessageID() -> String {
    String(UInt64.random(in: 1_000_000_000_000_000...9_999_999_999_999_999))
  }

  /// Decides one FCM request.
  ///
  /// - Parameters:
  ///   - method, path: the `:method` and `:path`.
  ///   - body: the whole body (at most ``maximumBodyBytes``); FCM's size limit is on the mapped
  ///     APNs payload, checked here.
  ///   - receivedAt: UNIX seconds.
  ///   - project: the profile's FCM project (`apns.fcm.project`); nil accepts any project.
  ///   - registry: the known device tokens; nil accepts every well-formed token.
  public static func decide(
    method: String, path: String, body: [UInt8], receivedAt: Double, project configured: String? = nil,
    registry: TokenRegistry? = nil, makeID: () -> String = makeMessageID
  ) -> Result<FCMRoute, FCMError> {
    var trimmed = Substring(path)
    if let query = trimmed.firstIndex(of: "?") { trimmed = trimmed[..<query] }
    guard trimmed.hasPrefix(pathPrefix), trimmed.hasSuffix(sendSuffix),
      trimmed.count > pathPrefix.count + sendSuffix.count
    else {
      return .failure(
        FCMError(
          code: 404, status: "NOT_FOUND", errorCode: nil,
          message: "the only FCM route is POST /v1/projects/<project>/messages:send"))
    }
    let project = String(trimmed.dropFirst(pathPrefix.count).dropLast(sendSuffix.count))
    guard !project.contains("/") else {
      return .failure(FCMError(code: 404, status: "NOT_FOUND", errorCode: nil, message: "no such project path"))
    }
    guard method == "POST" else {
      return .failure(
        FCMError(code: 405, status: "METHOD_NOT_ALLOWED", errorCode: nil, message: "messages:send takes POST"))
    }
    if let configured, configured != project {
      return .failure(
        .senderIDMismatch(
          "the token is registered to project \(configured), not \(project) (the profile's apns.fcm.project)"))
    }
    let messageID = makeID()
    let now = Int(receivedAt.rounded(.down))
    let added = FCMMessage.Added(messageID: "0:\(messageID)", senderID: senderID(forProject: project))
    let message: FCMMessage
    switch FCMMessage.map(body, now: now, added: added) {
    case .success(let mapped): message = mapped
    case .failure(let error): return .failure(error)
    }
    if let registry, registry.devices[message.token] == nil, !registry.acceptsUnknownTokens {
      return .failure(.unregistered("Requested entity was not found. (the token is not in the profile's apns.tokens)"))
    }
    // The app: the token's, from the profile; else apns-topic.
    let bundleID: String
    if let app = registry?.devices[message.token]?.bundleID {
      bundleID = app
    } else if let topic = message.topic, !topic.isEmpty {
      bundleID = APNsRequest.bundle(
        fromTopic: topic,
        pushType: message.headers.first { $0.name == "apns-push-type" }.flatMap { PushType(rawValue: $0.value) })
    } else {
      return .failure(
        .invalid(
          "the token is not in the profile's apns.tokens, so its app is unknown: set message.apns.headers.apns-topic"))
    }
    if let registry, let refusal = registry.check(token: message.token, bundleID: bundleID) {
      switch refusal.reason {
      case "DeviceTokenNotForTopic":
        return .failure(.thirdPartyAuth("APNs refused the request: DeviceTokenNotForTopic (\(refusal.detail ?? ""))"))
      default:
        return .failure(
          .unregistered("Requested entity was not found. (\(refusal.reason ?? ""): \(refusal.detail ?? ""))"))
      }
    }
    let payloadText = message.payloadText
    let bytes = Array(payloadText.utf8)
    let limit =
      (message.headers.first { $0.name == "apns-push-type" }.flatMap { PushType(rawValue: $0.value) } ?? .alert)
      .maximumPayloadBytes
    if bytes.count > limit {
      return .failure(
        .invalid(
          "Message is too big: the APNs payload FCM makes is \(bytes.count) bytes with FCM's keys, over APNs' "
            + "\(limit)-byte limit; shorten the notification or data"))
    }
    var record = PushReader.readPayloadFile(
      bytes, source: "fcm", format: .payload, bundleID: bundleID, headers: message.headers)
    record.token = message.token
    record.at = receivedAt
    if case .rejects(_, let reason) = PushVerdict(record.diagnostics).apns {
      return .failure(.thirdPartyAuth("APNs refused the request FCM made: \(reason)"))
    }
    guard record.payload != nil else {
      return .failure(.thirdPartyAuth("APNs refused the request FCM made: \(APNsRequest.malformedPayloadReason)"))
    }
    return .success(
      FCMRoute(
        record: record, token: message.token, name: "projects/\(project)/messages/0:\(messageID)",
        validateOnly: message.validateOnly, payloadText: payloadText))
  }

  /// The body of a success: `{"name": "projects/<p>/messages/<id>"}`.
  public static func successBody(name: String) -> String {
    JSONValue.object([JSONMember(key: "name", value: .string(name))]).compactText
  }
}

import Foundation
import PushWire

/// One request of the broadcast channel API, once its syntax is checked: what the device (which
/// holds the channels) is asked to do.
public enum ChannelRoute: Sendable {
  /// `POST /1/apps/<bundle>/channels`: create a channel with this `message-storage-policy`.
  case create(bundleID: String, storagePolicy: Int)
  /// `GET /1/apps/<bundle>/channels` with `apns-channel-id`.
  case read(bundleID: String, channelID: String)
  /// `GET /1/apps/<bundle>/all-channels`.
  case list(bundleID: String)
  /// `DELETE /1/apps/<bundle>/channels` with `apns-channel-id`.
  case delete(bundleID: String, channelID: String)
  /// `POST /4/broadcasts/apps/<bundle>` with `apns-channel-id`: a push to every activity
  /// subscribed to the channel. `expiration` is the request's `apns-expiration`, when sent.
  case broadcast(bundleID: String, channelID: String, record: PushRecord, apnsID: String, expiration: Int?)

  /// The app the request is about.
  public var bundleID: String {
    switch self {
    case .create(let bundleID, _), .read(let bundleID, _), .list(let bundleID), .delete(let bundleID, _),
      .broadcast(let bundleID, _, _, _, _):
      bundleID
    }
  }
}

/// The answer to one channel API request: status, headers and body, as APNs sends them.
public struct ChannelAnswer: Error, Sendable {
  public var status: Int
  /// Response headers besides `:status`, `content-type` and `content-length`.
  public var headers: [(name: String, value: String)]
  /// The JSON body, nil for none.
  public var body: String?
  /// The APNs reason of an error, for the log.
  public var reason: String?
  /// Why, beyond the reason, for the log.
  public var detail: String?

  public init(
    status: Int, headers: [(name: String, value: String)] = [], body: String? = nil, reason: String? = nil,
    detail: String? = nil
  ) {
    self.status = status
    self.headers = headers
    self.body = body
    self.reason = reason
    self.detail = detail
  }

  /// An error: `{"reason": …}` with the status.
  public static func rejected(_ status: Int, _ reason: String, detail: String? = nil) -> ChannelAnswer {
    ChannelAnswer(status: status, body: APNsRequest.errorBody(reason: reason), reason: reason, detail: detail)
  }

  /// The error the diagnostic table gives a code.
  public static func rejected(_ code: DiagnosticCode, detail: String? = nil) -> ChannelAnswer {
    switch code.verdict.apns {
    case .rejects(let status, let reason): rejected(status, reason, detail: detail)
    case .accepts: rejected(400, code.rawValue, detail: detail)
    }
  }

  /// 500 `InternalServerError`: the change could not be saved.
  public static let notSaved = rejected(500, "InternalServerError", detail: "the change could not be saved")
}

/// The broadcast channel API's request rules (Apple's "Sending channel management requests to
/// APNs" and "Sending broadcast push notification requests to APNs"): one pure function from a
/// request to a route or an answer. Whether the channel exists is the device's to say.
public enum ChannelRequest {
  /// The management API's path prefix (`/1/apps/<bundle>/channels`, `…/all-channels`).
  public static let managementPrefix = "/1/apps/"
  /// The broadcast path prefix (`/4/broadcasts/apps/<bundle>`).
  public static let broadcastPrefix = "/4/broadcasts/apps/"
  /// The only `push-type` a channel takes.
  public static let channelPushType = "LiveActivity"

  /// Whether a path is one of the channel API's (management or broadcast).
  public static func isChannelPath(_ path: String) -> Bool {
    path.hasPrefix(managementPrefix) || path.hasPrefix(broadcastPrefix)
  }

  /// Whether a path is the management API's (the channel host at Apple, `--channels-port` here).
  public static func isManagementPath(_ path: String) -> Bool { path.hasPrefix(managementPrefix) }

  /// Decides one channel API request.
  ///
  /// - Parameters: as ``APNsRequest/decide(method:path:headers:body:bodyByteCount:receivedAt:makeID:authorize:registry:)``.
  /// - Returns: the route for the device, or the answer when the request is refused here.
  public static func decide(
    method: String, path: String, headers: [(name: String, value: String)], body: [UInt8], bodyByteCount: Int,
    receivedAt: Double, makeID: () -> String = { UUID().uuidString.lowercased() },
    authorize: (_ authorization: String?) -> APNsOutcome? = { _ in nil }
  ) -> Result<ChannelRoute, ChannelAnswer> {
    var trimmed = Substring(path)
    if let query = trimmed.firstIndex(of: "?") { trimmed = trimmed[..<query] }
    enum Kind { case channels, allChannels, broadcast }
    let kind: Kind
    let bundle: Substring
    if trimmed.hasPrefix(broadcastPrefix) {
      bundle = trimmed.dropFirst(broadcastPrefix.count)
      kind = .broadcast
    } else if trimmed.hasPrefix(managementPrefix) {
      let rest = trimmed.dropFirst(managementPrefix.count)
      if rest.hasSuffix("/all-channels") {
        bundle = rest.dropLast("/all-channels".count)
        kind = .allChannels
      } else if rest.hasSuffix("/channels") {
        bundle = rest.dropLast("/channels".count)
        kind = .channels
      } else {
        return .failure(.rejected(404, "BadPath"))
      }
    } else {
      return .failure(.rejected(404, "BadPath"))
    }
    guard !bundle.isEmpty, !bundle.contains("/") else { return .failure(.rejected(404, "BadPath")) }
    let bundleID = String(bundle)
    switch (kind, method) {
    case (.broadcast, "POST"), (.channels, "POST"), (.channels, "GET"), (.channels, "DELETE"), (.allChannels, "GET"):
      break
    default:
      return .failure(.rejected(405, "MethodNotAllowed"))
    }
    let authorization = headers.first { $0.name.lowercased() == "authorization" }?.value
    if let refusal = authorize(authorization) {
      return .failure(.rejected(refusal.status, refusal.reason ?? "Forbidden", detail: refusal.detail))
    }
    var apnsHeaders: [(name: String, value: String)] = []
    var seen = Set<String>()
    for (name, value) in headers {
      let lowered = name.lowercased()
      guard lowered.hasPrefix("apns-") else { continue }
      guard seen.insert(lowered).inserted else { return .failure(.rejected(400, "DuplicateHeaders")) }
      apnsHeaders.append((lowered, value))
    }
    let channelID = apnsHeaders.first { $0.name == "apns-channel-id" }?.value
    func requireChannel() -> Result<String, ChannelAnswer> {
      guard let channelID, !channelID.isEmpty else { return .failure(.rejected(.missingChannelId)) }
      guard ChannelID.isWellFormed(channelID) else {
        return .failure(.rejected(.badChannelId, detail: "apns-channel-id is not base64 text"))
      }
      return .success(channelID)
    }
    switch (kind, method) {
    case (.allChannels, _):
      return .success(.list(bundleID: bundleID))
    case (.channels, "POST"):
      return createRoute(bundleID: bundleID, body: body, bodyByteCount: bodyByteCount)
    case (.channels, "GET"):
      return requireChannel().map { .read(bundleID: bundleID, channelID: $0) }
    case (.channels, _):
      return requireChannel().map { .delete(bundleID: bundleID, channelID: $0) }
    default:
      break
    }
    // A broadcast.
    let channel: String
    switch requireChannel() {
    case .success(let id): channel = id
    case .failure(let answer): return .failure(answer)
    }
    guard let rawType = apnsHeaders.first(where: { $0.name == "apns-push-type" })?.value,
      PushType(rawValue: rawType) == .liveactivity
    else {
      return .failure(.rejected(400, "InvalidPushType", detail: "a broadcast needs apns-push-type: liveactivity"))
    }
    if bodyByteCount == 0 { return .failure(.rejected(400, "PayloadEmpty")) }
    if bodyByteCount > PushType.liveactivity.maximumPayloadBytes {
      return .failure(.rejected(413, "PayloadTooLarge"))
    }
    var record = PushReader.readPayloadFile(
      body, source: "apns", format: .payload, bundleID: bundleID, headers: apnsHeaders)
    record.at = receivedAt
    if case .rejects(let status, let reason) = PushVerdict(record.diagnostics).apns {
      return .failure(.rejected(status, reason))
    }
    guard record.payload != nil else { return .failure(.rejected(400, APNsRequest.malformedPayloadReason)) }
    let apnsID = record.headers.apnsID ?? makeID()
    return .success(
      .broadcast(
        bundleID: bundleID, channelID: channel, record: record, apnsID: apnsID,
        expiration: record.headers.expiration))
  }

  /// A creation's body: `{"message-storage-policy": 0|1, "push-type": "LiveActivity"}`.
  static func createRoute(bundleID: String, body: [UInt8], bodyByteCount: Int) -> Result<ChannelRoute, ChannelAnswer> {
    guard bodyByteCount > 0 else {
      return .failure(.rejected(.cannotCreateChannelConfig, detail: "the body is empty"))
    }
    guard bodyByteCount <= PushType.alert.maximumPayloadBytes else {
      return .failure(.rejected(413, "PayloadTooLarge"))
    }
    guard let document = try? JSONDocument(bytes: body), document.kind(document.root) == .object else {
      return .failure(.rejected(400, APNsRequest.malformedPayloadReason, detail: "the body is not a JSON object"))
    }
    guard let typeIndex = document.member("push-type", of: document.root),
      document.stringValue(typeIndex) == channelPushType
    else {
      return .failure(.rejected(400, "InvalidPushType", detail: "push-type must be \"LiveActivity\""))
    }
    guard let policyIndex = document.member("message-storage-policy", of: document.root),
      let policy = document.integer(policyIndex), policy == 0 || policy == 1,
      document.kind(policyIndex) == .number
    else {
      return .failure(
        .rejected(.cannotCreateChannelConfig, detail: "message-storage-policy must be the number 0 or 1"))
    }
    return .success(.create(bundleID: bundleID, storagePolicy: policy))
  }

  /// The body of a channel read: its policy and push type.
  public static func readBody(storagePolicy: Int) -> String {
    String(decoding: createBody(storagePolicy: storagePolicy), as: UTF8.self)
  }

  /// The body that creates a channel (`pushdeck push --create-channel`), the same fields a
  /// read answers with.
  public static func createBody(storagePolicy: Int) -> [UInt8] {
    var json = JSONWriter()
    json.object {
      $0.member("message-storage-policy", storagePolicy)
      $0.member("push-type", channelPushType)
    }
    return json.bytes
  }

  /// The body of a channel list.
  public static func listBody(_ ids: [String]) -> String {
    var json = JSONWriter()
    json.object { $0.member("channels", strings: ids) }
    return json.text
  }

  /// A new channel id: 16 random bytes in base64, as APNs' ids look.
  public static func makeChannelID() -> String {
    var generator = SystemRandomNumberGenerator()
    let bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
    return Data(bytes).base64EncodedString()
  }
}

import Foundation
import PushWire

/// The answer to one APNs request: accepted (200) or rejected with an APNs status and reason.
public enum APNsOutcome: Sendable {
  /// 200: the push was accepted and goes on to the device.
  case accepted(record: PushRecord, token: String, apnsID: String)
  /// An APNs error: `{"reason": …}` with this status; `timestamp` (milliseconds since 1970) for
  /// 410 `Unregistered`; `detail` says why, for the log only.
  case rejected(status: Int, reason: String, timestamp: Int64? = nil, detail: String? = nil)

  /// The HTTP status code.
  public var status: Int {
    switch self {
    case .accepted: 200
    case .rejected(let status, _, _, _): status
    }
  }

  /// The APNs reason, nil on success.
  public var reason: String? {
    if case .rejected(_, let reason, _, _) = self { return reason }
    return nil
  }

  /// Why the request was rejected, beyond the reason (for the log), nil on success.
  public var detail: String? {
    if case .rejected(_, _, _, let detail) = self { return detail }
    return nil
  }
}

/// The APNs request rules: one pure function from a request to an outcome.
///
/// The header, token and payload rules are not repeated here: they are ``HeaderParser``'s,
/// ``DeviceToken``'s and ``PushReader``'s, and their diagnostics are mapped to APNs reasons. Only
/// what is about HTTP itself (method, path, missing or repeated headers) is decided here.
public enum APNsRequest {
  /// The path prefix of a push request.
  public static let pathPrefix = "/3/device/"
  /// The largest body ever accepted (VoIP); a body is read up to one byte more than this.
  public static let maximumBodyBytes = PushType.voip.maximumPayloadBytes

  /// The reason Pushdeck answers with when the body is not a JSON object with `aps`
  /// (``APNsAnswer/malformedPayloadReason``).
  public static let malformedPayloadReason = APNsAnswer.malformedPayloadReason

  /// Decides one request.
  ///
  /// - Parameters:
  ///   - method: the `:method`.
  ///   - path: the `:path`.
  ///   - headers: the request headers (names in any case), in order.
  ///   - body: the body, at most ``maximumBodyBytes`` + 1 bytes.
  ///   - bodyByteCount: the body's full size (more than `body.count` when it was cut).
  ///   - receivedAt: UNIX seconds, for the record's `at`.
  ///   - makeID: makes an `apns-id` when the request has none.
  ///   - authorize: checks the `authorization` header (provider tokens); nil lets the request
  ///     go on. By default no authentication is asked for.
  ///   - registry: the known device tokens; nil accepts every well-formed token.
  public static func decide(
    method: String, path: String, headers: [(name: String, value: String)], body: [UInt8], bodyByteCount: Int,
    receivedAt: Double, makeID: () -> String = { UUID().uuidString.lowercased() },
    authorize: (_ authorization: String?) -> APNsOutcome? = { _ in nil }, registry: TokenRegistry? = nil
  ) -> APNsOutcome {
    guard method == "POST" else { return .rejected(status: 405, reason: "MethodNotAllowed") }
    guard path.hasPrefix(pathPrefix) else { return .rejected(status: 404, reason: "BadPath") }
    var token = Substring(path.dropFirst(pathPrefix.count))
    if let query = token.firstIndex(of: "?") { token = token[..<query] }
    guard !token.contains("/") else { return .rejected(status: 404, reason: "BadPath") }
    // Authentication before anything about the push itself (an UNVERIFIED order, see DECISIONS).
    let authorization = headers.first { $0.name.lowercased() == "authorization" }?.value
    if let refusal = authorize(authorization) { return refusal }
    guard !token.isEmpty else { return .rejected(status: 400, reason: "MissingDeviceToken") }
    let tokenText = String(token)
    if let problem = DeviceToken.check(tokenText) {
      // The detail goes to the log, as every other rejection's does.
      return .rejected(status: 400, reason: "BadDeviceToken", detail: problem.message)
    }

    // APNs headers only: transport headers and `authorization` are neither checked nor recorded.
    var apnsHeaders: [(name: String, value: String)] = []
    var seen = Set<String>()
    for (name, value) in headers {
      let lowered = name.lowercased()
      guard lowered.hasPrefix("apns-") else { continue }
      guard seen.insert(lowered).inserted else { return .rejected(status: 400, reason: "DuplicateHeaders") }
      apnsHeaders.append((lowered, value))
    }
    guard let topic = apnsHeaders.first(where: { $0.name == "apns-topic" })?.value, !topic.isEmpty else {
      return .rejected(status: 400, reason: "MissingTopic")
    }

    if bodyByteCount == 0 { return .rejected(status: 400, reason: "PayloadEmpty") }
    let rawType = apnsHeaders.first { $0.name == "apns-push-type" }?.value
    let limit = (rawType.flatMap(PushType.init(rawValue:)) ?? .alert).maximumPayloadBytes
    if bodyByteCount > limit {
      return .rejected(
        status: 413, reason: "PayloadTooLarge",
        detail: "the payload is \(bodyByteCount) bytes, over the \(limit) that \(rawType ?? "alert") pushes may carry")
    }

    let bundleID = bundle(fromTopic: topic, pushType: rawType.flatMap(PushType.init(rawValue:)))
    var record = PushReader.readPayloadFile(
      body, source: "apns", format: .payload, bundleID: bundleID, headers: apnsHeaders, isRequestBody: true)
    record.token = tokenText
    record.at = receivedAt
    if let reason = rejection(for: record.diagnostics) { return reason }
    // Every record without a payload has a finding APNs rejects (the table says so for syntax,
    // NotAnObject and MissingAps); this keeps an untyped record from ever reaching the device.
    guard record.payload != nil else { return .rejected(status: 400, reason: malformedPayloadReason) }
    if let registry, let refusal = registry.check(token: tokenText, bundleID: bundleID) { return refusal }
    let apnsID = record.headers.apnsID ?? makeID()
    return .accepted(record: record, token: tokenText, apnsID: apnsID)
  }

  /// The bundle id a topic names: the topic without the push type's suffix, when it has it.
  ///
  /// A topic without the suffix is taken as the bundle id itself, so ``HeaderParser`` then
  /// reports `BadTopic` (a VoIP push to `com.example.app`, say).
  public static func bundle(fromTopic topic: String, pushType: PushType?) -> String {
    let suffix = (pushType ?? .alert).topicSuffix ?? ""
    if !suffix.isEmpty, topic.hasSuffix(suffix), topic.count > suffix.count {
      return String(topic.dropLast(suffix.count))
    }
    return topic
  }

  /// The APNs rejection for a record's diagnostics, nil when APNs would accept it: the APNs
  /// column of the diagnostic table (``DiagnosticCode/verdict``), by way of ``PushVerdict``.
  ///
  /// Findings APNs does not check (value types, keys in the wrong place, Live Activity keys) do
  /// not reject the request: they are the device's business, as on a real phone.
  static func rejection(for diagnostics: [Diagnostic]) -> APNsOutcome? {
    let verdict = PushVerdict(diagnostics)
    guard case .rejects(let status, let reason) = verdict.apns else { return nil }
    return .rejected(status: status, reason: reason, detail: verdict.refusal.map(locatedText))
  }

  /// `TrailingComma at 1:25: trailing comma before '}' → remove the comma …`: the finding behind
  /// a refusal (code, key path, line:column, message, hint), for `serve`'s log and
  /// `run --listen`'s inspector.
  static func locatedText(_ diagnostic: Diagnostic) -> String {
    "\(diagnostic.code.rawValue)\(diagnostic.place): \(diagnostic.message)" + (diagnostic.hint.map { " → \($0)" } ?? "")
  }

  /// The JSON body of a rejection; 410 `Unregistered` adds `timestamp` (milliseconds).
  public static func errorBody(reason: String, timestamp: Int64? = nil) -> String {
    var json = JSONWriter()
    json.object {
      $0.member("reason", reason)
      if let timestamp { $0.member("timestamp", timestamp) }
    }
    return json.text
  }

  /// One capture envelope line (without its newline) for an accepted push, replayable as is.
  public static func captureLine(_ record: PushRecord) -> String {
    var json = JSONWriter(capacity: record.rawBytes.count + 256)
    json.object {
      $0.member("at", record.at ?? 0)
      $0.member("bundle", record.bundleID ?? "")
      if let token = record.token { $0.member("token", token) }
      $0.key("headers")
      $0.object {
        for header in record.headers.all { $0.member(header.name, header.value) }
      }
      // The body as sent, on one line: a valid JSON text has line breaks only between tokens.
      // A leading byte order mark, which the body's reader skips, is left out: inside the
      // envelope it is not JSON, and the line could not be replayed.
      $0.key("payload")
      let bytes = record.rawBytes
      $0.scannedJSON(bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes)
    }
    return json.text
  }
}

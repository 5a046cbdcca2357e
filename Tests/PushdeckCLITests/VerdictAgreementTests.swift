import Foundation
import PushCore
import PushTestSupport
import Testing

@testable import PushServer

/// Every diagnostic code, driven through the five paths that decide whether a push arrives:
/// `validate` (the record's validity and severities), `serve` (``APNsRequest/decide``), and
/// `explain`, `run` and `replay` (the ``DeviceSimulator`` they share, fed the record as read from
/// a file or capture and, for `serve`, the record APNs accepted). All must agree with the table in
/// ``DiagnosticCode/verdict``.
struct VerdictAgreementTests {
  static let bundle = "com.example.app"
  static let token = String(repeating: "ab", count: 32)

  /// How a sample reaches Pushdeck.
  enum Source {
    /// A payload body, as a `.json` file and as an HTTP/2 request with these headers.
    case payload(String, headers: [(String, String)] = [])
    /// Raw body bytes (for bytes that are not UTF-8).
    case bytes([UInt8])
    /// An Xcode Simulator `.apns` file (not an APNs request: serve never sees its rules).
    case simulator(String)
    /// A capture line (envelope rules: not an APNs request either).
    case capture(String)
    /// An FCM v1 message file (FCM's rules, then the APNs push FCM makes; not an APNs request).
    case fcmFile(String)
    /// No input makes it (a document over 4 GiB): a record carrying the diagnostic.
    case synthetic
  }

  static let liveActivity: [(String, String)] = [
    ("apns-push-type", "liveactivity"), ("apns-topic", bundle + ".push-type.liveactivity"),
  ]

  /// One input per code that has the code among its findings and nothing that refuses the push
  /// besides it.
  static let samples: [DiagnosticCode: Source] = [
    .payloadEmpty: .payload(""),
    .unexpectedEnd: .payload(#"{"aps": {"alert": "x"}"#),
    .unexpectedCharacter: .payload(#"{"aps": {"alert": @}}"#),
    .trailingComma: .payload(#"{"aps": {"alert": "x",}}"#),
    .missingComma: .payload(#"{"aps": {"alert": "x" "badge": 1}}"#),
    .missingColon: .payload(#"{"aps" {"alert": "x"}}"#),
    .smartQuotes: .payload("{\u{201C}aps\u{201D}: {}}"),
    .singleQuotes: .payload(#"{'aps': {"alert": "x"}}"#),
    .unquotedKey: .payload(#"{aps: {"alert": "x"}}"#),
    .comment: .payload(#"{/* hi */ "aps": {"alert": "x"}}"#),
    .unterminatedString: .payload(#"{"aps": {"alert": "x}}"#),
    .controlCharacterInString: .payload("{\"aps\": {\"alert\": \"a\tb\"}}"),
    .invalidEscape: .payload(#"{"aps": {"alert": "\q"}}"#),
    .invalidUTF8: .bytes(Array(#"{"aps": {"alert": ""#.utf8) + [0xFF] + Array(#""}}"#.utf8)),
    .invalidNumber: .payload(#"{"aps": {"alert": "x", "badge": 01}}"#),
    .nonStandardLiteral: .payload(#"{"aps": {"alert": "x", "badge": NaN}}"#),
    .trailingGarbage: .payload(#"{"aps": {"alert": "x"}} x"#),
    .nestingTooDeep: .payload(
      #"{"aps": {"alert": "x"}, "deep": "# + String(repeating: "[", count: 70) + String(repeating: "]", count: 70)
        + "}"),
    .documentTooLarge: .synthetic,
    .lineTooLong: .capture(
      #"{"at": 1, "bundle": "com.example.app", "payload": {"aps": {"alert": ""#
        + String(repeating: "x", count: 1_100_000) + #""}}}"#),
    .notAnObject: .payload("[1]"),
    .missingAps: .payload(#"{"alert": "x"}"#),
    .payloadTooLarge: .payload(#"{"aps": {"alert": ""# + String(repeating: "x", count: 4100) + #""}}"#),
    .invalidValue: .payload(#"{"aps": {"alert": {"title": "Hi", "body": "x"}, "badge": "3"}}"#),
    .missingLiveActivityKey: .payload(
      #"{"aps": {"event": "update", "content-state": {"eta": 5}}}"#, headers: liveActivity),
    .badSimulatorTargetBundle: .simulator(#"{"Simulator Target Bundle": "com.bad bundle", "aps": {"alert": "x"}}"#),
    .invalidPushType: .payload(#"{"aps": {"alert": "x"}}"#, headers: [("apns-push-type", "alrt")]),
    .badPriority: .payload(#"{"aps": {"alert": "x"}}"#, headers: [("apns-priority", "7")]),
    .badExpirationDate: .payload(#"{"aps": {"alert": "x"}}"#, headers: [("apns-expiration", "soon")]),
    .badCollapseId: .payload(
      #"{"aps": {"alert": "x"}}"#, headers: [("apns-collapse-id", String(repeating: "c", count: 65))]),
    .badMessageId: .payload(#"{"aps": {"alert": "x"}}"#, headers: [("apns-id", "nope")]),
    .badTopic: .payload(
      #"{"aps": {"alert": "x"}}"#, headers: [("apns-push-type", "voip"), ("apns-topic", "com.example.app")]),
    .badDeviceToken: .capture(
      #"{"at": 1, "bundle": "com.example.app", "token": "xyz", "payload": {"aps": {"alert": "x"}}}"#),
    .invalidEnvelope: .capture(#"{"bundle": "com.example.app", "payload": {"aps": {"alert": "x"}}}"#),
    .badChannelId: .payload(
      #"{"aps": {"event": "update", "timestamp": 1, "content-state": {}}}"#,
      headers: liveActivity + [("apns-channel-id", "not base64!")]),
    // Request-level: only the channel routes answer these (ChannelRequestTests drive them).
    .missingChannelId: .synthetic,
    .channelNotRegistered: .synthetic,
    .cannotCreateChannelConfig: .synthetic,
    .mutableContentNotInteger: .payload(#"{"aps": {"alert": "x", "mutable-content": true}}"#),
    .contentAvailableNotInteger: .payload(#"{"aps": {"alert": "x", "content-available": "1"}}"#),
    .soundInsideAlert: .payload(#"{"aps": {"alert": {"body": "x", "sound": "default"}}}"#),
    .contentAvailableInsideAlert: .payload(#"{"aps": {"alert": {"body": "x", "content-available": 1}}}"#),
    .customKeyInAps: .payload(#"{"aps": {"alert": "x", "orderId": "1"}}"#),
    .customKeyInAlert: .payload(#"{"aps": {"alert": {"body": "x", "foo": "y"}}}"#),
    .misspelledApsKey: .payload(#"{"aps": {"alert": "x", "thread_id": "t"}}"#),
    .headerInBody: .payload(#"{"aps": {"alert": "x"}, "apns-priority": "10"}"#),
    .apsKeyOutsideAps: .payload(#"{"aps": {"alert": "x"}, "badge": 1}"#),
    .misspelledSimulatorTargetBundle: .payload(#"{"aps": {"alert": "x"}, "Simulator Target Bundl": "com.a"}"#),
    .placeholderValue: .payload(#"{"aps": {"alert": "YOUR_MESSAGE"}}"#),
    .unknownInterruptionLevel: .payload(#"{"aps": {"alert": "x", "interruption-level": "urgent"}}"#),
    .relevanceScoreOutOfRange: .payload(#"{"aps": {"alert": "x", "relevance-score": 1.5}}"#),
    .silentPushAlsoAlerts: .payload(#"{"aps": {"alert": "x", "content-available": 1}}"#),
    .nothingToShowOrDo: .payload(#"{"aps": {}}"#),
    .pushTypeMismatch: .payload(
      #"{"aps": {"alert": "x"}}"#, headers: [("apns-push-type", "background"), ("apns-priority", "5")]),
    .liveActivityKeyOutsideLiveActivity: .payload(
      #"{"aps": {"alert": "x", "event": "update", "timestamp": 1, "content-state": {}}}"#,
      headers: [("apns-push-type", "alert")]),
    .liveActivityInSimulatorFile: .simulator(
      #"{"Simulator Target Bundle": "com.example.app", "aps": {"event": "update", "timestamp": 1, "content-state": {}}}"#
    ),
    .criticalVolumeOutOfRange: .payload(
      #"{"aps": {"alert": "x", "sound": {"critical": 1, "name": "default", "volume": 3}}}"#),
    .unknownEnvelopeKey: .capture(
      #"{"at": 1, "bundle": "com.example.app", "extra": 1, "payload": {"aps": {"alert": "x"}}}"#),
    .unknownHeader: .payload(#"{"aps": {"alert": "x"}}"#, headers: [("apns-prority", "10")]),
    .duplicateKey: .payload(#"{"aps": {"alert": "x", "badge": 1, "badge": 2}}"#),
    .legacyKeyIgnored: .payload(#"{"aps": {"alert": {"body": "x", "action-loc-key": "OK"}}}"#),
    .customValueIsEncodedJSON: .payload(#"{"aps": {"alert": "x"}, "data": "{\"a\": 1}"}"#),
    .noOpValue: .payload(#"{"aps": {"alert": "x", "mutable-content": 0}}"#),
    .missingSimulatorTargetBundle: .simulator(#"{"aps": {"alert": "x"}}"#),
    .firebaseKey: .payload(#"{"aps": {"alert": "x"}, "gcm.message_id": "1"}"#),
    .invalidFCMMessage: .fcmFile(#"{"message": {"token": "\#(token)", "data": {"n": 3}}}"#),
    .fcmPayload: .fcmFile(#"{"message": {"token": "\#(token)", "notification": {"body": "x"}}}"#),
  ]

  /// The record `validate`, `explain` and `replay` read from the sample.
  static func record(_ code: DiagnosticCode, _ source: Source) -> PushRecord {
    switch source {
    case .payload(let body, let headers):
      return PushReader.readPayloadFile(
        Array(body.utf8), source: "sample.json", format: .payload, bundleID: bundle, headers: headers)
    case .bytes(let bytes):
      return PushReader.readPayloadFile(bytes, source: "sample.json", format: .payload, bundleID: bundle)
    case .simulator(let body):
      return PushReader.readPayloadFile(Array(body.utf8), source: "sample.apns", format: .simulator, bundleID: bundle)
    case .capture(let line):
      return PushReader.readCaptureLine(Array(line.utf8), lineNumber: 1, source: "sample.jsonl")
    case .fcmFile(let text):
      return PushReader.readPayloadFile(Array(text.utf8), source: "message.json", format: .payload, bundleID: bundle)
    case .synthetic:
      var record = PushReader.readPayloadFile([], source: "sample.json", format: .payload, bundleID: bundle)
      record.diagnostics = [Diagnostic(code, message: "the document is over 4 GiB", effect: "")]
      return record
    }
  }

  /// What `serve` answers: ``APNsRequest/decide`` for a request, else the same rules applied to
  /// the record's findings (Simulator files and capture envelopes are never requests).
  static func serve(_ source: Source, record: PushRecord) -> APNsOutcome {
    let body: [UInt8]
    var headers: [(name: String, value: String)] = []
    switch source {
    case .payload(let text, let extra):
      body = Array(text.utf8)
      headers = extra.map { (name: $0.0, value: $0.1) }
    case .bytes(let bytes):
      body = bytes
    default:
      return APNsRequest.rejection(for: record.diagnostics)
        ?? .accepted(record: record, token: token, apnsID: "00000000-0000-0000-0000-000000000000")
    }
    if !headers.contains(where: { $0.name == "apns-topic" }) { headers.append(("apns-topic", bundle)) }
    return APNsRequest.decide(
      method: "POST", path: APNsRequest.pathPrefix + token, headers: headers, body: body,
      bodyByteCount: body.count, receivedAt: 1_800_000_000)
  }

  /// What the device that `explain`, `run` and `replay` share does with the record.
  static func device(_ record: PushRecord) -> DeliveryRecord {
    let start = SimInstant(epochSeconds: 1_800_000_000)
    var device = DeviceSimulator(profile: DeviceProfile.standard(start: start))
    return device.apply(push: record, at: start + .seconds(1))
  }

  @Test func everyCodeHasASample() {
    let missing = DiagnosticCode.allCases.filter { Self.samples[$0] == nil }
    #expect(missing.isEmpty, "codes without a sample: \(missing.map(\.rawValue))")
  }

  @Test(arguments: DiagnosticCode.allCases)
  func allPathsAgreeWithTheTable(code: DiagnosticCode) throws {
    let source = try #require(Self.samples[code])
    let verdict = code.verdict
    let record = Self.record(code, source)
    #expect(record.diagnostics.contains { $0.code == code }, "the sample gives \(record.diagnostics.map(\.code))")
    // The sample's other findings must not refuse the push on their own.
    let others = record.diagnostics.filter { $0.code != code && !$0.code.verdict.isDelivered }
    #expect(others.isEmpty, "the sample also has \(others.map(\.code))")

    // validate: rejected exactly when the table says the push does not arrive.
    #expect(record.isValid == verdict.isDelivered)
    #expect(record.verdict.apns == verdict.apns)
    for diagnostic in record.diagnostics where diagnostic.code == code {
      #expect(diagnostic.severity == verdict.severity)
    }

    // serve: the APNs column, status and reason.
    let outcome = Self.serve(source, record: record)
    #expect(outcome.status == verdict.apns.status, "serve answered \(outcome.status) \(outcome.reason ?? "")")
    #expect(outcome.reason == verdict.apns.reason)

    // explain, run, replay (and what serve hands the device): the device column.
    var delivered = [Self.device(record)]
    if case .accepted(let accepted, _, _) = outcome {
      #expect(accepted.diagnostics.contains { $0.code == code } || !Self.isRequest(source))
      delivered.append(Self.device(accepted))
    }
    for delivery in delivered {
      let reasons = delivery.decision.reasons.map(\.text)
      if verdict.isDelivered {
        #expect(delivery.decision.disposition != .rejected, "\(reasons)")
        #expect(!delivery.decision.reasonCodes.contains(.invalidPayload))
      } else {
        #expect(delivery.decision.disposition == .rejected)
        let why = try #require(delivery.decision.reasons.first).text
        #expect(why.contains("(\(code.rawValue))"), "\(why)")
        switch verdict.apns {
        case .accepts: #expect(why.contains("the device drops it"), "\(why)")
        case .rejects(let status, let reason): #expect(why.contains("APNs rejects it (\(status) \(reason))"), "\(why)")
        }
      }
      let ignored = delivery.decision.reasons.filter { $0.code == .keyIgnored }.map(\.text)
      if verdict.device == .ignoresKey {
        let key = try #require(record.diagnostics.first { $0.code == code }).ignoredKey
        #expect(ignored.contains { $0.hasPrefix(key + " ignored: ") }, "\(reasons)")
      } else {
        #expect(ignored.isEmpty, "\(reasons)")
      }
    }
  }

  static func isRequest(_ source: Source) -> Bool {
    switch source {
    case .payload, .bytes: true
    default: false
    }
  }

  /// The issue's example: APNs accepts it, the device shows the alert and ignores the badge.
  @Test func aStringBadgeIsIgnoredAndTheAlertShown() throws {
    let body = #"{"aps":{"alert":{"title":"Hi","body":"x"},"badge":"3"}}"#
    let record = PushReader.readPayloadFile(Array(body.utf8), source: "badge.json", format: .payload)
    #expect(record.isValid)
    let delivery = Self.device(record)
    #expect(delivery.decision.disposition == .delivered)
    #expect(delivery.notification?.title == "Hi")
    #expect(delivery.decision.badge == nil)
    let first = try #require(delivery.decision.reasons.first)
    #expect(first.code == .keyIgnored)
    #expect(first.text.hasPrefix("badge ignored: aps.badge must be a whole number"))
    let outcome = Self.serve(.payload(body), record: record)
    #expect(outcome.status == 200)
  }
}

/// The issue's badge example through the built binary: `validate`, `explain` and `replay` give
/// one verdict (APNs accepts it, the device shows the alert and ignores the badge).
@Suite(.requires(PushdeckProcess.binary != nil, "the pushdeck binary was not built"))
struct VerdictCLITests {
  @Test func validateExplainAndReplayAgreeOnAStringBadge() throws {
    let directory = try PushdeckProcess.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("badge.json")
    try #"{"aps":{"alert":{"title":"Hi","body":"x"},"badge":"3"}}"#.write(to: file, atomically: true, encoding: .utf8)
    let verdict = #""verdict":{"status":200,"reason":null,"delivered":true,"ignored":["aps.badge"]}"#

    let validate = try PushdeckProcess.run(["validate", "--format", "json", file.path])
    #expect(validate.status == 0, "a key the device ignores is a warning, not an error")
    #expect(validate.standardOutput.contains(#""valid":true"#))
    #expect(validate.standardOutput.contains(verdict), "\(validate.standardOutput)")
    #expect(validate.standardOutput.contains(#""severity":"warning","code":"InvalidValue""#))
    let text = try PushdeckProcess.run(["validate", file.path])
    #expect(text.standardOutput.contains("warning[InvalidValue]"))
    #expect(text.standardOutput.contains("verdict: APNs accepts (200); the device ignores the key"))
    #expect(try PushdeckProcess.run(["validate", "--strict", file.path]).status == 1)

    let explain = try PushdeckProcess.run(["explain", "--format", "json", file.path])
    #expect(explain.status == 0, "\(explain.standardOutput)")
    #expect(explain.standardOutput.contains(#""disposition":"delivered""#), "\(explain.standardOutput)")
    #expect(explain.standardOutput.contains(#""title":"Hi""#))
    #expect(explain.standardOutput.contains(#""badge":null"#))
    #expect(explain.standardOutput.contains(#"{"code":"keyIgnored","text":"badge ignored: aps.badge must be"#))
    #expect(explain.standardOutput.contains(verdict))
    let explainText = try PushdeckProcess.run(["explain", file.path])
    #expect(explainText.standardOutput.contains("  Delivered"), "\(explainText.standardOutput)")
    #expect(explainText.standardOutput.contains("• badge ignored: aps.badge"))

    let replay = try PushdeckProcess.run(["replay", "--ephemeral", "--format", "json", file.path])
    #expect(replay.status == 0, "\(replay.standardError)")
    #expect(replay.standardOutput.contains(#""delivered":1"#), "\(replay.standardOutput)")
    #expect(replay.standardOutput.contains(#""rejected":0"#))
    #expect(replay.standardOutput.contains(#""stored":1"#))
  }
}

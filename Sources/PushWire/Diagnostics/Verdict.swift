/// What APNs answers a request that has a finding.
public enum APNsAnswer: Hashable, Sendable {
  /// 200: APNs accepts the request and passes the push on to the device.
  case accepts
  /// APNs refuses the request with this HTTP status and `reason`; nothing reaches the device.
  case rejects(status: Int, reason: String)

  /// The reason Pushdeck answers with when the body is not a JSON object with an `aps`
  /// dictionary (or a capture line is not a request at all).
  ///
  /// APNs documents no reason for such a body; `BadRequest` names the 400 status's own meaning
  /// ("bad request"), so clients that map unknown reasons to a generic client error do the right
  /// thing.
  public static let malformedPayloadReason = "BadRequest"

  /// The HTTP status: 200, or the rejection's.
  public var status: Int {
    switch self {
    case .accepts: 200
    case .rejects(let status, _): status
    }
  }

  /// The APNs reason, nil when APNs accepts.
  public var reason: String? {
    if case .rejects(_, let reason) = self { return reason }
    return nil
  }

  /// `accepts (200)` or `rejects (400 BadTopic)`, as `validate` prints it and the docs list it.
  public var words: String {
    switch self {
    case .accepts: "accepts (200)"
    case .rejects(let status, let reason): "rejects (\(status) \(reason))"
    }
  }
}

/// What the device does with a push that has a finding, once APNs delivered it.
public enum DeviceAnswer: String, Hashable, Sendable, CaseIterable {
  /// The push is dropped as invalid: nothing shows and no app code runs.
  case dropsPush
  /// The push is delivered; the key the finding names is ignored (the decision says so).
  case ignoresKey
  /// The push is delivered and shown as the finding's effect describes.
  case showsIt

  /// `drops the push`, `ignores the key`, `shows it`.
  public var words: String {
    switch self {
    case .dropsPush: "drops the push"
    case .ignoresKey: "ignores the key"
    case .showsIt: "shows it"
    }
  }
}

/// The two outcomes of one diagnostic code: what APNs answers and what the device does. Its
/// severity follows from them: an error when APNs rejects the push or the device drops it, else
/// a warning, or a note for findings that change nothing the user meant.
public struct Verdict: Hashable, Sendable {
  /// What APNs answers.
  public var apns: APNsAnswer
  /// What the device does when the push reaches it.
  public var device: DeviceAnswer
  /// Whether the finding is only worth knowing (a note), not a mistake.
  public var isNote: Bool

  /// Creates a verdict.
  public init(_ apns: APNsAnswer, _ device: DeviceAnswer, isNote: Bool = false) {
    self.apns = apns
    self.device = device
    self.isNote = isNote
  }

  /// The severity: error when the push does not arrive, warning or note otherwise.
  public var severity: Severity {
    if apns != .accepts || device == .dropsPush { return .error }
    return isNote ? .info : .warning
  }

  /// Whether the push is shown (APNs accepts it and the device does not drop it).
  public var isDelivered: Bool { severity != .error }

  static func rejects(_ status: Int, _ reason: String) -> Verdict {
    Verdict(.rejects(status: status, reason: reason), .dropsPush)
  }
  static let malformed = rejects(400, APNsAnswer.malformedPayloadReason)
  static let tooLarge = rejects(413, "PayloadTooLarge")
  static let ignored = Verdict(.accepts, .ignoresKey)
  static let shown = Verdict(.accepts, .showsIt)
}

extension DiagnosticCode {
  /// What APNs and the device do with a push that has this finding: THE table every command
  /// takes its verdict from (`validate`, `explain`, `serve`, `run`, `replay`). `docs/DIAGNOSTICS.md`
  /// lists the same two columns; a test keeps them equal.
  public var verdict: Verdict {
    switch self {
    // JSON syntax: APNs cannot read the body; the Simulator refuses the file.
    case .payloadEmpty: .rejects(400, "PayloadEmpty")
    case .unexpectedEnd, .unexpectedCharacter, .trailingComma, .missingComma, .missingColon, .smartQuotes,
      .singleQuotes, .unquotedKey, .comment, .unterminatedString, .controlCharacterInString, .invalidEscape,
      .invalidUTF8, .invalidNumber, .nonStandardLiteral, .trailingGarbage, .nestingTooDeep:
      .malformed
    case .documentTooLarge, .lineTooLong: .tooLarge
    // Payload structure
    case .notAnObject, .missingAps: .malformed
    case .payloadTooLarge: .tooLarge
    case .invalidValue: .ignored
    // A Live Activity push in a Simulator file updates nothing: the device drops it, as `explain`
    // says (its verdict said "shows it"; found by an exploratory test).
    case .missingLiveActivityKey, .badSimulatorTargetBundle, .liveActivityInSimulatorFile: Verdict(.accepts, .dropsPush)
    // Headers and envelopes
    case .invalidPushType, .badPriority, .badExpirationDate, .badCollapseId, .badMessageId, .badTopic,
      .badDeviceToken:
      .rejects(400, rawValue)
    case .invalidEnvelope, .invalidFCMMessage: .malformed
    // Broadcast channels: answered by the channel management API and /4/broadcasts
    case .missingChannelId, .badChannelId, .channelNotRegistered, .cannotCreateChannelConfig:
      .rejects(400, rawValue)
    // Real-world mistakes
    case .mutableContentNotInteger, .contentAvailableNotInteger, .soundInsideAlert, .contentAvailableInsideAlert,
      .customKeyInAps, .customKeyInAlert, .misspelledApsKey, .headerInBody, .apsKeyOutsideAps,
      .misspelledSimulatorTargetBundle, .unknownInterruptionLevel, .liveActivityKeyOutsideLiveActivity,
      .unknownEnvelopeKey, .unknownHeader, .duplicateKey:
      .ignored
    case .placeholderValue, .relevanceScoreOutOfRange, .silentPushAlsoAlerts, .nothingToShowOrDo, .pushTypeMismatch,
      .criticalVolumeOutOfRange:
      .shown
    // Notes
    case .legacyKeyIgnored: Verdict(.accepts, .ignoresKey, isNote: true)
    case .customValueIsEncodedJSON, .noOpValue, .missingSimulatorTargetBundle, .firebaseKey, .fcmPayload:
      Verdict(.accepts, .showsIt, isNote: true)
    }
  }

  /// The order in which APNs checks what a code is about: the token and the headers before the
  /// body, the body's size before its content. Lower first; codes APNs accepts come last.
  var apnsPrecedence: Int {
    switch self {
    case .badDeviceToken, .missingChannelId, .badChannelId: 0
    case .invalidPushType: 1
    case .badPriority: 2
    case .badExpirationDate: 3
    case .badCollapseId: 4
    case .badMessageId: 5
    case .badTopic: 6
    case .payloadEmpty: 7
    case .payloadTooLarge, .documentTooLarge, .lineTooLong: 8
    default: verdict.apns == .accepts ? 10 : 9
    }
  }
}

/// The verdict on one push, from its diagnostics and the table in ``DiagnosticCode/verdict``.
public struct PushVerdict: Sendable {
  /// What APNs answers: the rejection of the finding APNs checks first, else `accepts`.
  public var apns: APNsAnswer
  /// The finding that keeps the push from arriving: the one APNs rejects, else the first the
  /// device drops the push for; nil when the push is delivered.
  public var refusal: Diagnostic?
  /// The findings whose key the device ignores, in order.
  public var ignored: [Diagnostic]

  /// Whether the push reaches the device and is not dropped as invalid.
  public var isDelivered: Bool { refusal == nil }

  /// The verdict for a list of findings.
  public init(_ diagnostics: [Diagnostic]) {
    var rejection: Diagnostic?
    var drop: Diagnostic?
    var ignored: [Diagnostic] = []
    for diagnostic in diagnostics {
      let verdict = diagnostic.code.verdict
      if verdict.apns != .accepts {
        if rejection.map({ diagnostic.code.apnsPrecedence < $0.code.apnsPrecedence }) ?? true {
          rejection = diagnostic
        }
      } else if verdict.device == .dropsPush {
        if drop == nil { drop = diagnostic }
      } else if verdict.device == .ignoresKey {
        ignored.append(diagnostic)
      }
    }
    apns = rejection?.code.verdict.apns ?? .accepts
    refusal = rejection ?? drop
    self.ignored = ignored
  }

  /// One sentence for a refused push: who refuses it and why.
  public var refusalText: String? {
    guard let refusal else { return nil }
    switch apns {
    case .rejects(let status, let reason):
      return "APNs rejects it (\(status) \(reason)): \(refusal.message) (\(refusal.code.rawValue))."
    case .accepts:
      return "APNs accepts it, and the device drops it: \(refusal.message) (\(refusal.code.rawValue))."
    }
  }

  /// `badge ignored: aps.badge must be …`: what the device does with an ignored key, naming it.
  public static func ignoredText(_ diagnostic: Diagnostic) -> String {
    "\(diagnostic.ignoredKey) ignored: \(diagnostic.message)."
  }

  /// `{"status":200,"reason":null,"delivered":true,"ignored":["aps.badge"]}`: the verdict as
  /// `validate --format json` and `explain --format json` write it.
  public var json: String {
    var json = JSONWriter()
    write(to: &json)
    return json.text
  }

  /// Writes ``json`` as a value into a larger JSON text.
  public func write(to json: inout JSONWriter) {
    json.beginObject()
    json.member("status", apns.status)
    json.member("reason", apns.reason)
    json.member("delivered", isDelivered)
    json.key("ignored")
    json.beginArray()
    for diagnostic in ignored { json.string(diagnostic.path ?? diagnostic.code.rawValue) }
    json.endArray()
    json.endObject()
  }
}

extension Diagnostic {
  /// The key a finding is about: the last component of its path (without an array index), or
  /// the code when it has no path.
  public var ignoredKey: String {
    guard let path, !path.isEmpty else { return code.rawValue }
    var key = Substring(path)
    if let bracket = key.firstIndex(of: "["), key.hasSuffix("]") { key = key[..<bracket] }
    if let dot = key.lastIndex(of: ".") { key = key[key.index(after: dot)...] }
    return String(key)
  }
}

extension PushRecord {
  /// The verdict on this push, from the table.
  public var verdict: PushVerdict { PushVerdict(diagnostics) }
}

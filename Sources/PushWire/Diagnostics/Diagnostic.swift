/// How serious a diagnostic is: it follows from the code's ``DiagnosticCode/verdict``.
public enum Severity: String, Sendable, Codable, Comparable, CaseIterable {
  /// Worth knowing; nothing the sender meant changes.
  case info
  /// The push arrives, but not as meant (the device ignores a key, clamps a value…).
  case warning
  /// The push does not arrive: APNs rejects it, or the device drops it.
  case error

  private var rank: Int {
    switch self {
    case .info: 0
    case .warning: 1
    case .error: 2
    }
  }

  public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
}

/// One finding about a payload: what is wrong, where, and what the user will see because of it.
public struct Diagnostic: Equatable, Sendable {
  /// How serious it is: from the code's ``DiagnosticCode/verdict``, so every command agrees.
  public var severity: Severity { code.verdict.severity }
  /// The stable code, for example `PayloadTooLarge` or `MutableContentNotInteger`.
  public var code: DiagnosticCode
  /// The key path, for example `aps.alert.title`; nil for syntax errors and whole-payload findings.
  public var path: String?
  /// The line and column in the source, when known.
  public var location: TextLocation?
  /// What is wrong.
  public var message: String
  /// What a device (or APNs) does because of it, in the user's terms.
  public var effect: String
  /// What to do about it, when there is something specific to do.
  public var hint: String?

  /// Creates a diagnostic.
  public init(
    _ code: DiagnosticCode, path: String? = nil, location: TextLocation? = nil, message: String, effect: String,
    hint: String? = nil
  ) {
    self.code = code
    self.path = path
    self.location = location
    self.message = message
    self.effect = effect
    self.hint = hint
  }

  /// ` at aps.badge 3:12`: where it is (key path, then line:column, and the text they count in
  /// when it is not the file: `1:23 of the payload string`), or "" when unknown.
  public var place: String {
    var parts: [String] = []
    if let path { parts.append(path) }
    if let location { parts.append(location.place) }
    return parts.isEmpty ? "" : " at " + parts.joined(separator: " ")
  }

  /// Turns a JSON syntax error into a diagnostic located in `document` bytes.
  public static func syntax(_ error: JSONSyntaxError, in bytes: ArraySlice<UInt8>, firstLine: Int = 1) -> Diagnostic {
    let location = TextLocation.of(offset: error.offset, in: bytes, firstLine: firstLine)
    let code = DiagnosticCode(syntax: error.kind)
    return Diagnostic(
      code, location: location, message: error.message,
      effect: code == .payloadEmpty
        ? "APNs rejects an empty body (400 PayloadEmpty); nothing reaches the device."
        : "Not valid JSON: APNs rejects it (400) and the Simulator refuses the file; nothing reaches the device.",
      hint: error.hint)
  }
}

/// The stable identifiers of every diagnostic Pushdeck reports.
///
/// Where APNs has a reason string for the same problem, the code is that string.
public enum DiagnosticCode: String, Sendable, Codable, CaseIterable {
  // JSON syntax
  case payloadEmpty = "PayloadEmpty"
  case unexpectedEnd = "UnexpectedEnd"
  case unexpectedCharacter = "UnexpectedCharacter"
  case trailingComma = "TrailingComma"
  case missingComma = "MissingComma"
  case missingColon = "MissingColon"
  case smartQuotes = "SmartQuotes"
  case singleQuotes = "SingleQuotes"
  case unquotedKey = "UnquotedKey"
  case comment = "Comment"
  case unterminatedString = "UnterminatedString"
  case controlCharacterInString = "ControlCharacterInString"
  case invalidEscape = "InvalidEscape"
  case invalidUTF8 = "InvalidUTF8"
  case invalidNumber = "InvalidNumber"
  case nonStandardLiteral = "NonStandardLiteral"
  case trailingGarbage = "TrailingGarbage"
  case nestingTooDeep = "NestingTooDeep"
  case documentTooLarge = "DocumentTooLarge"
  case lineTooLong = "LineTooLong"

  // Payload structure (errors)
  case notAnObject = "NotAnObject"
  case missingAps = "MissingAps"
  case payloadTooLarge = "PayloadTooLarge"
  case invalidValue = "InvalidValue"
  case missingLiveActivityKey = "MissingLiveActivityKey"
  case badSimulatorTargetBundle = "BadSimulatorTargetBundle"

  // Headers and envelope (errors)
  case invalidPushType = "InvalidPushType"
  case badPriority = "BadPriority"
  case badExpirationDate = "BadExpirationDate"
  case badCollapseId = "BadCollapseId"
  case badMessageId = "BadMessageId"
  case badTopic = "BadTopic"
  case badDeviceToken = "BadDeviceToken"
  case invalidEnvelope = "InvalidEnvelope"
  case invalidFCMMessage = "InvalidFCMMessage"

  // Broadcast channels (errors; the channel management API and /4/broadcasts)
  case missingChannelId = "MissingChannelId"
  case badChannelId = "BadChannelId"
  case channelNotRegistered = "ChannelNotRegistered"
  case cannotCreateChannelConfig = "CannotCreateChannelConfig"

  // Real-world mistakes (warnings)
  case mutableContentNotInteger = "MutableContentNotInteger"
  case contentAvailableNotInteger = "ContentAvailableNotInteger"
  case soundInsideAlert = "SoundInsideAlert"
  case contentAvailableInsideAlert = "ContentAvailableInsideAlert"
  case customKeyInAps = "CustomKeyInAps"
  case customKeyInAlert = "CustomKeyInAlert"
  case misspelledApsKey = "MisspelledApsKey"
  case headerInBody = "HeaderInBody"
  case apsKeyOutsideAps = "ApsKeyOutsideAps"
  case misspelledSimulatorTargetBundle = "MisspelledSimulatorTargetBundle"
  case placeholderValue = "PlaceholderValue"
  case unknownInterruptionLevel = "UnknownInterruptionLevel"
  case relevanceScoreOutOfRange = "RelevanceScoreOutOfRange"
  case silentPushAlsoAlerts = "SilentPushAlsoAlerts"
  case nothingToShowOrDo = "NothingToShowOrDo"
  case pushTypeMismatch = "PushTypeMismatch"
  case liveActivityKeyOutsideLiveActivity = "LiveActivityKeyOutsideLiveActivity"
  case criticalVolumeOutOfRange = "CriticalVolumeOutOfRange"
  case unknownEnvelopeKey = "UnknownEnvelopeKey"
  case unknownHeader = "UnknownHeader"
  case duplicateKey = "DuplicateKey"
  case liveActivityInSimulatorFile = "LiveActivityInSimulatorFile"

  // Worth knowing (info)
  case legacyKeyIgnored = "LegacyKeyIgnored"
  case customValueIsEncodedJSON = "CustomValueIsEncodedJSON"
  case noOpValue = "NoOpValue"
  case missingSimulatorTargetBundle = "MissingSimulatorTargetBundle"
  case firebaseKey = "FirebaseKey"
  case fcmPayload = "FCMPayload"

  /// The codes of JSON syntax errors.
  public static let syntaxCodes: Set<DiagnosticCode> = Set(
    JSONSyntaxError.Kind.allCases.map(DiagnosticCode.init(syntax:)))

  /// The code for a JSON syntax error kind: the kind's own name, except that an empty input is
  /// APNs' `PayloadEmpty`.
  public init(syntax kind: JSONSyntaxError.Kind) {
    self = kind == .emptyInput ? .payloadEmpty : DiagnosticCode(rawValue: kind.rawValue) ?? .unexpectedCharacter
  }

}

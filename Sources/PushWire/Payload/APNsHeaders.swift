/// The `apns-push-type` header's values, with the topic suffix each one requires.
public enum PushType: String, Sendable, CaseIterable, Codable {
  case alert, background, location, voip, complication, fileprovider, mdm, liveactivity
  case pushtotalk, widgets, controls

  /// The suffix `apns-topic` must carry after the bundle id (empty for plain bundle ids; nil
  /// for MDM, whose topic comes from the certificate).
  public var topicSuffix: String? {
    switch self {
    case .alert, .background: ""
    case .location: ".location-query"
    case .voip: ".voip"
    case .complication: ".complication"
    case .fileprovider: ".pushkit.fileprovider"
    case .mdm: nil
    case .liveactivity: ".push-type.liveactivity"
    case .pushtotalk: ".voip-ptt"
    case .widgets: ".push-type.widgets"
    case .controls: ".push-type.controls"
    }
  }

  /// The largest payload APNs accepts for this push type, in bytes.
  public var maximumPayloadBytes: Int { self == .voip ? 5120 : 4096 }
}

/// `apns-priority`: when APNs delivers.
public enum PushPriority: Int, Sendable, CaseIterable, Codable {
  /// Power over everything; never wakes the device.
  case low = 1
  /// According to the device's power state; may be batched.
  case normal = 5
  /// Immediately (the default).
  case immediate = 10
}

/// The APNs request headers of one push, typed.
///
/// Every field is optional, as on the wire. Headers Pushdeck does not type, and typed headers
/// whose values were rejected, are kept as sent in ``otherHeaders``, so nothing is lost.
public struct APNsHeaders: Equatable, Sendable {
  /// `apns-push-type`, when it is a known value.
  public var pushType: PushType?
  /// `apns-priority`, when it is 1, 5 or 10.
  public var priority: PushPriority?
  /// `apns-expiration` in UNIX seconds; 0 means deliver once or never.
  public var expiration: Int?
  /// `apns-topic`.
  public var topic: String?
  /// `apns-collapse-id`.
  public var collapseID: String?
  /// `apns-id`.
  public var apnsID: String?
  /// Every other header (lowercased names), and typed ones whose value was rejected, in order.
  public var otherHeaders: [(name: String, value: String)]

  /// Creates empty headers.
  public init() { otherHeaders = [] }

  public static func == (lhs: APNsHeaders, rhs: APNsHeaders) -> Bool {
    lhs.pushType == rhs.pushType && lhs.priority == rhs.priority && lhs.expiration == rhs.expiration
      && lhs.topic == rhs.topic && lhs.collapseID == rhs.collapseID && lhs.apnsID == rhs.apnsID
      && lhs.otherHeaders.elementsEqual(rhs.otherHeaders) { $0.name == $1.name && $0.value == $1.value }
  }

  /// Every header as name-value pairs: the typed ones first, then the others.
  public var all: [(name: String, value: String)] {
    var pairs: [(name: String, value: String)] = []
    if let pushType { pairs.append(("apns-push-type", pushType.rawValue)) }
    if let priority { pairs.append(("apns-priority", String(priority.rawValue))) }
    if let expiration { pairs.append(("apns-expiration", String(expiration))) }
    if let topic { pairs.append(("apns-topic", topic)) }
    if let collapseID { pairs.append(("apns-collapse-id", collapseID)) }
    if let apnsID { pairs.append(("apns-id", apnsID)) }
    return pairs + otherHeaders
  }

  /// The value of a header as sent, by case-insensitive name.
  public func value(_ name: String) -> String? {
    let lowered = name.lowercased()
    return all.first { $0.name == lowered }?.value
  }

  /// Parses and checks header name-value pairs, reporting each bad value.
  ///
  /// - Parameters:
  ///   - pairs: the headers, in order.
  ///   - bundleID: the app the push is for, to check `apns-topic` against.
  ///   - pathPrefix: the key path prefix for diagnostics (`headers` in a capture).
  ///   - locate: maps a header name to its location in the source, when there is a source.
  /// - Returns: the typed headers and the diagnostics.
  public static func parse(
    _ pairs: [(name: String, value: String)], bundleID: String?, pathPrefix: String = "headers",
    locate: (String) -> TextLocation? = { _ in nil }
  ) -> (APNsHeaders, [Diagnostic]) {
    var parser = HeaderParser(pathPrefix: pathPrefix)
    for (name, value) in pairs {
      let lowered = name.utf8.contains { $0 >= 0x41 && $0 <= 0x5A } ? name.lowercased() : name
      var value = value
      value.withUTF8 { bytes in
        parser.add(name: lowered, known: KnownKey.table.lookup(lowered), value: bytes, location: locate(lowered))
      }
    }
    return parser.finish(bundleID: bundleID)
  }

  /// Whether `topic` is exactly `bundleID` followed by `suffix`, compared as bytes.
  static func topic(_ topic: String, is bundleID: String, _ suffix: String) -> Bool {
    var topic = topic
    var bundleID = bundleID
    var suffix = suffix
    return topic.withUTF8 { topicBytes in
      bundleID.withUTF8 { bundleBytes in
        suffix.withUTF8 { suffixBytes in
          // Compared with plain byte loops: `elementsEqual` on buffer slices is a generic,
          // element-at-a-time loop, and this runs for every push.
          guard topicBytes.count == bundleBytes.count + suffixBytes.count else { return false }
          guard let topicBase = topicBytes.baseAddress else { return true }
          return (bundleBytes.isEmpty || memoryEquals(topicBase, bundleBytes.baseAddress!, bundleBytes.count))
            && (suffixBytes.isEmpty
              || memoryEquals(topicBase + bundleBytes.count, suffixBytes.baseAddress!, suffixBytes.count))
        }
      }
    }
  }

  /// Whether `text` is a UUID in canonical 8-4-4-4-12 hex form (either case).
  public static func isCanonicalUUID(_ text: String) -> Bool {
    var text = text
    return text.withUTF8 { isCanonicalUUID($0) }
  }

  /// Whether UTF-8 bytes spell a UUID in canonical 8-4-4-4-12 hex form (either case).
  ///
  /// Every capture line has an `apns-id`, so this runs per push: the dashes are checked at
  /// their fixed offsets, and the hex digits eight at a time (``hexDigitBytes(_:)``).
  static func isCanonicalUUID(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
    guard utf8.count == 36, let base = utf8.baseAddress else { return false }
    let dash = UInt8(ascii: "-")
    guard base[8] == dash, base[13] == dash, base[18] == dash, base[23] == dash else { return false }
    let raw = UnsafeRawPointer(base)
    func word(_ offset: Int) -> UInt64 {
      UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }
    let all: UInt64 = 0x8080_8080_8080_8080
    // Words at 0, 8, 16, 24 and 28 cover all 36 bytes; the dashes (bytes 8 and 13 in the
    // second word, 18 and 23 in the third) are left out of those words' masks.
    let second = all & ~(0x80 << 0) & ~(0x80 << 40)
    let third = all & ~(0x80 << 16) & ~(0x80 << 56)
    return hexDigitBytes(word(0)) & all == all && hexDigitBytes(word(8)) & second == second
      && hexDigitBytes(word(16)) & third == third && hexDigitBytes(word(24)) & all == all
      && hexDigitBytes(word(28)) & all == all
  }

  /// The high bit of each byte of a little-endian word that is an ASCII hex digit (either
  /// case); zero if any byte is not ASCII. With every byte below 0x80, adding a constant to
  /// each byte cannot carry into the next, so each range test is one addition per word.
  @inline(__always)
  static func hexDigitBytes(_ word: UInt64) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let high: UInt64 = 0x8080_8080_8080_8080
    guard word & high == 0 else { return 0 }
    // x >= 0x30 sets the high bit of x + 0x50; x > 0x39 sets that of x + 0x46.
    let digit = (word &+ ones &* 0x50) & ~(word &+ ones &* 0x46) & high
    let lower = word | (ones &* 0x20)
    // x >= 0x61 ('a') sets the high bit of x + 0x1F; x > 0x66 ('f') sets that of x + 0x19.
    let letter = (lower &+ ones &* 0x1F) & ~(lower &+ ones &* 0x19) & high
    return digit | letter
  }
}

/// Builds ``APNsHeaders`` one header at a time from raw bytes, checking each value; the one
/// place the header rules live (captures, files and the HTTP/2 endpoint all come through here).
///
/// Values are checked as bytes, and a `String` is made only for the values that are kept.
public struct HeaderParser {
  /// The headers so far.
  public private(set) var headers = APNsHeaders()
  /// The problems so far.
  public private(set) var diagnostics: [Diagnostic] = []
  let pathPrefix: String
  /// The push's bundle id, when known before its headers are read: an `apns-topic` of the same
  /// bytes (nearly every alert push) shares its string instead of allocating one of its own.
  public var bundleID: String?

  /// Starts with no headers.
  public init(pathPrefix: String = "headers") { self.pathPrefix = pathPrefix }

  /// The bundle id's string, when `value` is its bytes.
  private func sharedBundleID(_ value: UnsafeBufferPointer<UInt8>) -> String? {
    guard var bundleID, bundleID.utf8.count == value.count else { return nil }
    return bundleID.withUTF8 { NameCache.equal($0, value) } ? bundleID : nil
  }

  private static let pushTypes = KeyTable(PushType.allCases.map { ($0.rawValue, $0) })

  private mutating func report(
    _ code: DiagnosticCode, _ name: String, _ location: TextLocation?, _ message: String, _ effect: String,
    hint: String? = nil
  ) {
    diagnostics.append(
      Diagnostic(
        code, path: "\(pathPrefix).\(name)", location: location, message: message, effect: effect, hint: hint))
  }

  /// An `apns-expiration` value as whole UNIX seconds: digits, leading zeros dropped (a value of
  /// 24 digits could still be 1), and `-0` read as 0 (docs/DECISIONS.md, "The simulated time");
  /// nil for anything else, or more than 18 significant digits.
  static func expirationSeconds(_ value: UnsafeBufferPointer<UInt8>) -> Int? {
    var digits = value[...]
    let negative = digits.first == UInt8(ascii: "-")
    if negative { digits = digits.dropFirst() }
    guard !digits.isEmpty, digits.allSatisfy({ (48...57).contains($0) }) else { return nil }
    let significant = digits.drop { $0 == UInt8(ascii: "0") }
    if significant.isEmpty { return 0 }
    guard !negative else { return nil }
    return NumberParsing.decimal(UnsafeBufferPointer(rebasing: significant))
  }

  /// Adds one header.
  ///
  /// - Parameters:
  ///   - name: the lowercased header name.
  ///   - known: the name as a known key, if it is one.
  ///   - value: the value's UTF-8 bytes.
  ///   - location: where the value is in the source, computed only for a report.
  public mutating func add(
    name: @autoclosure () -> String, known: KnownKey?, value: UnsafeBufferPointer<UInt8>,
    location: @autoclosure () -> TextLocation?
  ) {
    func text() -> String { String(decoding: value, as: UTF8.self) }
    func keep() { headers.otherHeaders.append((name(), text())) }
    switch known {
    case .apnsPushType:
      if let type = Self.pushTypes.lookup(value) {
        headers.pushType = type
      } else {
        keep()
        report(
          .invalidPushType, name(), location(), "unknown apns-push-type \(JSONValue.quoted(text()))",
          "APNs rejects the request (400 InvalidPushType).",
          hint: "use one of: " + PushType.allCases.map(\.rawValue).joined(separator: ", "))
      }
    case .apnsPriority:
      if let number = NumberParsing.decimal(value), let priority = PushPriority(rawValue: number) {
        headers.priority = priority
      } else {
        keep()
        report(
          .badPriority, name(), location(), "apns-priority must be 1, 5 or 10, not \(JSONValue.quoted(text()))",
          "APNs rejects the request (400 BadPriority).")
      }
    case .apnsExpiration:
      if let seconds = Self.expirationSeconds(value) {
        guard EpochRange.contains(seconds: Int64(seconds)) else {
          keep()
          report(
            .badExpirationDate, name(), location(),
            "apns-expiration \(text()) is after 9999-12-31T23:59:59Z (\(EpochRange.highestSeconds) UNIX seconds)",
            "APNs rejects the request (400 BadExpirationDate).",
            hint: "use UNIX seconds up to \(EpochRange.highestSeconds), or 0 to deliver once or not at all")
          return
        }
        headers.expiration = seconds
      } else {
        keep()
        // A whole number out of range is said as one (it read "must be UNIX seconds, not "-1"").
        let raw = text()
        let digits = raw.utf8.first == UInt8(ascii: "-") ? raw.utf8.dropFirst() : raw.utf8[...]
        let isWhole = !digits.isEmpty && digits.allSatisfy { (48...57).contains($0) }
        let message =
          !isWhole
          ? "apns-expiration must be UNIX seconds, not \(JSONValue.quoted(raw))"
          : digits.count < raw.utf8.count
            ? "apns-expiration \(raw) is before 1970-01-01T00:00:00Z: UNIX seconds are 0 or more"
            : "apns-expiration \(raw) is after 9999-12-31T23:59:59Z (\(EpochRange.highestSeconds) UNIX seconds)"
        report(
          .badExpirationDate, name(), location(), message, "APNs rejects the request (400 BadExpirationDate).",
          hint: "use UNIX seconds up to \(EpochRange.highestSeconds), or 0 to deliver once or not at all")
      }
    case .apnsTopic:
      let topic = sharedBundleID(value) ?? text()
      if !BundleID.isWellFormed(value), let (character, position) = BundleID.firstInvalidCharacter(in: topic) {
        keep()
        report(
          .badTopic, name(), location(),
          "apns-topic \(JSONValue.quoted(String(topic.prefix(80)))) has \(BundleID.describe(character)) at character \(position); a topic is a bundle id and its push type's suffix",
          "APNs rejects the request (400 BadTopic).",
          hint: "send the app's bundle id (\(BundleID.allowedCharacters)), with the push type's suffix such as .voip")
      } else if value.count > BundleID.maximumLength {
        keep()
        report(
          .badTopic, name(), location(),
          "apns-topic is \(value.count) bytes; a bundle id with its push type's suffix is at most \(BundleID.maximumLength)",
          "APNs rejects the request (400 BadTopic).",
          hint: "send the app's bundle id, with the push type's suffix such as .voip")
      } else {
        headers.topic = topic
      }
    case .apnsCollapseID:
      headers.collapseID = text()
      if value.count > 64 {
        report(
          .badCollapseId, name(), location(), "apns-collapse-id is \(value.count) bytes; the limit is 64",
          "APNs rejects the request (400 BadCollapseId).", hint: "shorten the id, for example to a hash")
      }
    case .apnsID:
      headers.apnsID = text()
      if !APNsHeaders.isCanonicalUUID(value) {
        report(
          .badMessageId, name(), location(), "apns-id \(JSONValue.quoted(text())) is not a UUID in 8-4-4-4-12 form",
          "APNs rejects the request (400 BadMessageId).", hint: "omit it and APNs generates one")
      }
    default:
      keep()
      let lowered = name()
      // An apns- name APNs does not define: most often a misspelling, and the header it meant is
      // then missing.
      if lowered.hasPrefix("apns-"), !Self.otherAPNsHeaders.contains(lowered) {
        let known = Self.headerNames + Self.otherAPNsHeaders
        let letters = Array(lowered.utf8)
        // The nearest header within three edits, each distance computed once.
        let meant = known.map { ($0, editDistance(letters, Array($0.utf8), limit: 3)) }
          .filter { $0.1 <= 3 }.min { $0.1 < $1.1 }?.0
        report(
          .unknownHeader, lowered, location(),
          "\(JSONValue.quoted(lowered)) is not an APNs header"
            + (meant.map { "; did you mean \(JSONValue.quoted($0))?" } ?? ""),
          "APNs ignores it.", hint: "APNs headers are " + known.joined(separator: ", "))
      }
    }
  }

  /// APNs headers Pushdeck keeps as they are sent (in ``APNsHeaders/otherHeaders``) without
  /// reading them when the push arrives: the broadcast channel's id and the management API's
  /// request id.
  static let otherAPNsHeaders = ["apns-channel-id", "apns-request-id"]

  /// The headers read when a push arrives.
  static let headerNames = [
    KnownKey.apnsPushType, .apnsPriority, .apnsExpiration, .apnsTopic, .apnsCollapseID, .apnsID,
  ].map(\.rawValue)

  /// Checks the rules between headers and returns the result, leaving the parser empty.
  ///
  /// - Parameter bundleID: the app the push is for, to check `apns-topic` against.
  public mutating func finish(bundleID: String?) -> (APNsHeaders, [Diagnostic]) {
    if headers.pushType == .background, headers.priority == .immediate {
      report(
        .badPriority, "apns-priority", nil, "a background push must have apns-priority 5, not 10",
        "APNs rejects the request (400 BadPriority); the app is never woken.",
        hint: "send silent pushes with apns-priority: 5")
    }
    if let topic = headers.topic, let bundleID, !bundleID.isEmpty {
      let type = headers.pushType ?? .alert
      if let suffix = type.topicSuffix, !APNsHeaders.topic(topic, is: bundleID, suffix) {
        report(
          .badTopic, "apns-topic", nil,
          "apns-topic \(JSONValue.quoted(topic)) does not fit push type \(type.rawValue) for \(bundleID)",
          "APNs rejects the request (400 BadTopic or DeviceTokenNotForTopic).",
          hint: "for \(type.rawValue) pushes the topic is \(JSONValue.quoted(bundleID + suffix))")
      }
    }
    if let channel = headers.otherHeaders.first(where: { $0.name == "apns-channel-id" })?.value {
      if !ChannelID.isWellFormed(channel) {
        report(
          .badChannelId, "apns-channel-id", nil,
          "apns-channel-id \(JSONValue.quoted(String(channel.prefix(80)))) is not a channel id (base64 text)",
          "APNs rejects the request (400 BadChannelId); no Live Activity is updated.",
          hint: "send the id the channel management API answered in apns-channel-id, unchanged")
      } else if let type = headers.pushType, type != .liveactivity {
        report(
          .invalidPushType, "apns-push-type", nil,
          "a broadcast (apns-channel-id) must have apns-push-type liveactivity, not \(type.rawValue)",
          "APNs rejects the request (400 InvalidPushType); no Live Activity is updated.",
          hint: "send broadcasts with apns-push-type: liveactivity")
      }
    }
    // Moved out rather than copied: the parser is done, and a copy would retain every string.
    var finished = APNsHeaders()
    var found: [Diagnostic] = []
    swap(&finished, &headers)
    swap(&found, &diagnostics)
    return (finished, found)
  }
}

/// A bundle id, and the `apns-topic` made of one: reverse-DNS text of ASCII letters, digits,
/// hyphens and periods (Apple's rule for bundle ids), and underscores, which real apps' ids carry
/// (`com.arohak.xcconfig-template_dev` in the corpus). A topic's suffixes (`.voip`,
/// `.push-type.liveactivity`, `.pushkit.fileprovider`, …) are made of the same characters.
public enum BundleID {
  /// The characters a bundle id or topic may hold, for messages.
  public static let allowedCharacters = "letters A–Z and a–z, digits, '-', '_' and '.'"

  /// The longest topic or bundle id read (bytes): a bundle id with the longest suffix
  /// (`.push-type.liveactivity`) fits with room to spare. Longer text is no app's (an
  /// 8,000-character topic was answered 200 and became a bundle id in the state, printed whole
  /// by `replay`; found by an exploratory test). docs/DECISIONS.md, "Bundle ids and topics".
  public static let maximumLength = 255

  /// The first character `text` may not hold, with its 1-based position in characters, or nil
  /// when every character is allowed (an empty text has none).
  public static func firstInvalidCharacter(in text: String) -> (character: Character, position: Int)? {
    // Bytes first: every capture line's bundle and topic pass here, and nearly all are plain ASCII.
    var copy = text
    guard !copy.withUTF8(isWellFormed) else { return nil }
    for (offset, character) in text.enumerated()
    where !(character.utf8.count == 1 && isAllowed(character.utf8.first!)) {
      return (character, offset + 1)
    }
    return nil
  }

  /// What is wrong with `text` as a bundle id, said of it as `name` (`"bundle"`, `--bundle`):
  /// it is empty, it holds a character the rule refuses (named, with its position), or it is
  /// longer than ``maximumLength``; nil when it is a bundle id. The one wording for every place
  /// a bundle id comes from outside.
  public static func problem(_ text: String, named name: String) -> String? {
    if text.isEmpty { return "\(name) is empty" }
    if let (character, position) = firstInvalidCharacter(in: text) {
      return
        "\(name) \(JSONValue.quoted(String(text.prefix(80)))) is not a bundle id: it has \(describe(character)) at character \(position)"
    }
    if text.utf8.count > maximumLength {
      return "\(name) is \(text.utf8.count) bytes, not a bundle id: one is at most \(maximumLength)"
    }
    return nil
  }

  /// Whether every byte is one a bundle id may hold (an empty text passes).
  public static func isWellFormed(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    allowed.withUnsafeBufferPointer { table in
      for byte in bytes where !table[Int(byte)] { return false }
      return true
    }
  }

  /// How a character the rule refuses is named in a message: a space, a control character or
  /// any other by its code point, so nothing invisible is printed.
  public static func describe(_ character: Character) -> String {
    let scalars = character.unicodeScalars.map { "U+" + String($0.value, radix: 16, uppercase: true).leftPadded(to: 4) }
    let code = scalars.joined(separator: " ")
    if character == " " { return "a space (U+0020)" }
    if character.unicodeScalars.allSatisfy({ $0.properties.generalCategory == .control }) {
      return "a control character (\(code))"
    }
    if character.isASCII { return "'\(character)' (\(code))" }
    return "the non-ASCII character \(code)"
  }

  /// Whether each byte value is allowed, looked up: the check runs on every line of a capture.
  private static let allowed: [Bool] = (0...255).map { value in
    switch UInt8(value) {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"):
      true
    default: false
    }
  }

  private static func isAllowed(_ byte: UInt8) -> Bool { allowed[Int(byte)] }
}

extension String {
  fileprivate func leftPadded(to width: Int) -> String {
    count >= width ? self : String(repeating: "0", count: width - count) + self
  }
}

/// A broadcast channel id: the base64 text APNs answers a channel creation with, sent back in
/// `apns-channel-id`.
public enum ChannelID {
  /// Whether `text` is non-empty standard base64 (A–Z, a–z, 0–9, `+`, `/`, then at most two
  /// `=`), a multiple of 4 characters, at most 256.
  public static func isWellFormed(_ text: String) -> Bool {
    var count = 0
    var padding = 0
    for byte in text.utf8 {
      count += 1
      guard count <= 256 else { return false }
      switch byte {
      case UInt8(ascii: "="): padding += 1
      case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "/"):
        if padding > 0 { return false }
      default: return false
      }
    }
    return count > 0 && count % 4 == 0 && padding <= 2
  }
}

/// A device token: the hex string APNs puts in `/3/device/<token>`.
public enum DeviceToken {
  /// Checks a device token, returning a diagnostic when it is malformed.
  ///
  /// Apple says not to assume a length, so any even number of hex digits from 8 to 200 passes.
  public static func check(_ token: String, path: String = "token", location: TextLocation? = nil)
    -> Diagnostic?
  {
    let problem: String?
    if token.isEmpty {
      problem = "the device token is empty"
    } else if !token.utf8.allSatisfy({ hexValue($0) != nil }) {
      problem = "the device token \(JSONValue.quoted(String(token.prefix(80)))) is not a hex string"
    } else if token.utf8.count % 2 != 0 || token.utf8.count < 8 || token.utf8.count > 200 {
      problem =
        "the device token has \(token.utf8.count) hex digits; expected an even number from 8 to 200 (usually 64)"
    } else {
      problem = nil
    }
    return problem.map {
      Diagnostic(
        .badDeviceToken, path: path, location: location, message: $0,
        effect: "APNs rejects the request (400 BadDeviceToken); nothing is delivered.",
        hint: "send the token as the hex string of its bytes, as the app received it")
    }
  }
}

import PushCore

/// How compound values are written into TEXT columns, and read back.
///
/// JSON for lists and objects, written and read with PushWire's own JSON code, so the journal
/// needs no Foundation coders and a number keeps its spelling.
enum JournalCoding {
  /// A failure to read back a column; the journal reports it as damage.
  struct Malformed: Error {
    var detail: String
  }

  static func json(_ strings: [String]) -> String {
    // Written straight, not through a JSONValue tree: a replay writes three lists per delivery.
    var json = JSONWriter()
    json.array { for string in strings { $0.string(string) } }
    return json.text
  }

  static func strings(_ text: String, column: String) throws(Malformed) -> [String] {
    guard case .array(let elements) = try value(text, column: column) else {
      throw Malformed(detail: "\(column) is not a list")
    }
    return elements.compactMap(\.stringValue)
  }

  static func value(_ text: String, column: String) throws(Malformed) -> JSONValue {
    do {
      let document = try JSONDocument(text: text)
      return document.value(document.root)
    } catch {
      throw Malformed(detail: "\(column) holds malformed JSON")
    }
  }

  static func json(_ reasons: [Reason]) -> String {
    var json = JSONWriter()
    write(reasons, to: &json)
    return json.text
  }

  /// Writes reasons as `[{"code":…,"text":…},…]`.
  static func write(_ reasons: [Reason], to json: inout JSONWriter) {
    json.beginArray()
    for reason in reasons {
      json.beginObject()
      json.member("code", reason.code.rawValue)
      json.member("text", reason.text)
      json.endObject()
    }
    json.endArray()
  }

  static func reasons(_ text: String) throws(Malformed) -> [Reason] {
    guard case .array(let elements) = try value(text, column: "reasons") else {
      throw Malformed(detail: "reasons is not a list")
    }
    var reasons: [Reason] = []
    for element in elements {
      guard let raw = element["code"]?.stringValue, let code = ReasonCode(rawValue: raw) else {
        throw Malformed(detail: "unknown reason code in reasons")
      }
      reasons.append(Reason(code, element["text"]?.stringValue ?? ""))
    }
    return reasons
  }

  static func json(_ diagnostics: [Diagnostic]) -> String {
    if diagnostics.isEmpty { return "[]" }
    return JSONValue.array(
      diagnostics.map { diagnostic in
        var members = [
          JSONMember(key: "severity", value: .string(diagnostic.severity.rawValue)),
          JSONMember(key: "code", value: .string(diagnostic.code.rawValue)),
          JSONMember(key: "message", value: .string(diagnostic.message)),
        ]
        if let path = diagnostic.path {
          members.append(JSONMember(key: "path", value: .string(path)))
        }
        return .object(members)
      }
    ).compactText
  }

  /// Attachments as a JSON list: identifier, path, kind, type, size, and the thumbnail (width,
  /// height and its RGB bytes in hex) or why there is none; nil for none.
  static func json(_ attachments: [NotificationAttachment]) -> String? {
    if attachments.isEmpty { return nil }
    let digits = Array("0123456789abcdef".utf8)
    return JSONValue.array(
      attachments.map { attachment in
        var members = [
          JSONMember(key: "identifier", value: .string(attachment.identifier)),
          JSONMember(key: "path", value: .string(attachment.path)),
          JSONMember(key: "kind", value: .string(attachment.kind.rawValue)),
          JSONMember(key: "type", value: .string(attachment.type)),
          JSONMember(key: "size", value: .number(JSONNumber(attachment.byteCount))),
        ]
        if let thumbnail = attachment.thumbnail {
          var hex: [UInt8] = []
          hex.reserveCapacity(thumbnail.rgb.count * 2)
          for byte in thumbnail.rgb {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0x0F)])
          }
          members.append(JSONMember(key: "width", value: .number(JSONNumber(thumbnail.width))))
          members.append(JSONMember(key: "height", value: .number(JSONNumber(thumbnail.height))))
          members.append(JSONMember(key: "rgb", value: .string(String(decoding: hex, as: UTF8.self))))
        }
        if let problem = attachment.thumbnailProblem {
          members.append(JSONMember(key: "problem", value: .string(problem)))
        }
        return .object(members)
      }
    ).compactText
  }

  /// The largest id, sequence number, line, byte offset or count a journal may hold: 2^53,
  /// far past what any device or capture reaches (a push a microsecond for 285 years), and far
  /// enough below `Int64.max` that counting on from it never overflows.
  static let numberLimit: Int64 = 1 << 53

  /// `value` when it is from 0 to ``numberLimit``; else the damage, named.
  static func checkedNumber(_ value: Int64, _ name: String) throws(Malformed) -> Int64 {
    guard (0...numberLimit).contains(value) else {
      throw Malformed(detail: "column \(name) holds \(value), outside 0…2^53")
    }
    return value
  }

  /// A whole number from a JSON value: finite, integral and from 0 to ``numberLimit``.
  private static func wholeNumber(_ value: Double, _ name: String) throws(Malformed) -> Int {
    guard value.isFinite, value == value.rounded(), value >= 0, value <= Double(numberLimit) else {
      throw Malformed(detail: "an attachment's \(name) is \(value), not a whole number from 0 to 2^53")
    }
    return Int(value)
  }

  static func attachments(_ text: String?) throws(Malformed) -> [NotificationAttachment] {
    guard let text else { return [] }
    guard case .array(let elements) = try value(text, column: "attachments") else {
      throw Malformed(detail: "attachments is not a list")
    }
    return try elements.map { element throws(Malformed) in
      guard let identifier = element["identifier"]?.stringValue, let path = element["path"]?.stringValue,
        let kind = element["kind"]?.stringValue.flatMap(NotificationAttachment.Kind.init(rawValue:)),
        let type = element["type"]?.stringValue, let size = element["size"]?.doubleValue
      else { throw Malformed(detail: "an attachment lacks its identifier, path, kind, type or size") }
      var thumbnail: ImageThumbnail?
      if let width = element["width"]?.doubleValue, let height = element["height"]?.doubleValue,
        let hex = element["rgb"]?.stringValue
      {
        let bytes = Array(hex.utf8)
        func nibble(_ digit: UInt8) -> UInt8? {
          switch digit {
          case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
          case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
          default: nil
          }
        }
        var rgb: [UInt8] = []
        rgb.reserveCapacity(bytes.count / 2)
        var index = 0
        while index + 1 < bytes.count, let high = nibble(bytes[index]), let low = nibble(bytes[index + 1]) {
          rgb.append(high << 4 | low)
          index += 2
        }
        let columns = try wholeNumber(width, "thumbnail width")
        let rows = try wholeNumber(height, "thumbnail height")
        let (pixels, overflow) = columns.multipliedReportingOverflow(by: rows)
        guard index == bytes.count, !overflow, pixels <= rgb.count, rgb.count == pixels * 3 else {
          throw Malformed(detail: "an attachment's thumbnail does not match its size")
        }
        thumbnail = ImageThumbnail(width: columns, height: rows, rgb: rgb)
      }
      return NotificationAttachment(
        identifier: identifier, path: path, kind: kind, type: type, byteCount: try wholeNumber(size, "size"),
        thumbnail: thumbnail,
        thumbnailProblem: element["problem"]?.stringValue)
    }
  }

  /// `default`, `named:NAME` or `critical:VOLUME:NAME`.
  static func text(_ sound: SoundRequest?) -> String? {
    switch sound {
    case nil: nil
    case .systemDefault: "default"
    case .named(let name): "named:" + name
    case .critical(let name, let volume): "critical:\(volume):" + name
    }
  }

  static func sound(_ text: String?) throws(Malformed) -> SoundRequest? {
    guard let text else { return nil }
    if text == "default" { return .systemDefault }
    if text.hasPrefix("named:") { return .named(String(text.dropFirst(6))) }
    if text.hasPrefix("critical:") {
      let rest = text.dropFirst(9)
      if let colon = rest.firstIndex(of: ":"), let volume = Double(rest[..<colon]) {
        return .critical(name: String(rest[rest.index(after: colon)...]), volume: volume)
      }
    }
    throw Malformed(detail: "unknown sound \(text)")
  }

  /// A setting change as (name, value).
  static func fields(_ change: AppSettingChange) -> (String, String) {
    func flag(_ on: Bool) -> String { on ? "true" : "false" }
    switch change {
    case .authorization(let status): return ("authorization", status.rawValue)
    case .state(let state): return ("state", state.rawValue)
    case .lockScreen(let on): return ("lockScreen", flag(on))
    case .notificationCenter(let on): return ("notificationCenter", flag(on))
    case .banners(let on): return ("banners", flag(on))
    case .sounds(let on): return ("sounds", flag(on))
    case .badges(let on): return ("badges", flag(on))
    case .bannerStyle(let style): return ("bannerStyle", style.rawValue)
    case .showPreviews(let setting): return ("showPreviews", setting.rawValue)
    case .grouping(let setting): return ("grouping", setting.rawValue)
    case .timeSensitive(let on): return ("timeSensitive", flag(on))
    case .criticalAlerts(let on): return ("criticalAlerts", flag(on))
    case .directMessages(let on): return ("directMessages", flag(on))
    case .delivery(let setting): return ("delivery", setting.rawValue)
    }
  }

  static func change(name: String, value: String) throws(Malformed) -> AppSettingChange {
    let flag: Bool? = value == "true" ? true : value == "false" ? false : nil
    let change: AppSettingChange? =
      switch name {
      case "authorization": AuthorizationStatus(rawValue: value).map { .authorization($0) }
      case "state": AppRunState(rawValue: value).map { .state($0) }
      case "lockScreen": flag.map { .lockScreen($0) }
      case "notificationCenter": flag.map { .notificationCenter($0) }
      case "banners": flag.map { .banners($0) }
      case "sounds": flag.map { .sounds($0) }
      case "badges": flag.map { .badges($0) }
      case "bannerStyle": BannerStyle(rawValue: value).map { .bannerStyle($0) }
      case "showPreviews": PreviewSetting(rawValue: value).map { .showPreviews($0) }
      case "grouping": GroupingSetting(rawValue: value).map { .grouping($0) }
      case "timeSensitive": flag.map { .timeSensitive($0) }
      case "criticalAlerts": flag.map { .criticalAlerts($0) }
      case "directMessages": flag.map { .directMessages($0) }
      case "delivery": DeliverySetting(rawValue: value).map { .delivery($0) }
      default: nil
      }
    guard let change else { throw Malformed(detail: "unknown setting change \(name)=\(value)") }
    return change
  }
}

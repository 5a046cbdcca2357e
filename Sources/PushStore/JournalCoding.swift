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
    var output = "["
    for (index, string) in strings.enumerated() {
      if index > 0 { output += "," }
      JSONValue.writeString(string, to: &output)
    }
    return output + "]"
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
    // The same text as a JSONValue tree would give, written straight.
    var output = "["
    for (index, reason) in reasons.enumerated() {
      output += index > 0 ? ",{\"code\":" : "{\"code\":"
      JSONValue.writeString(reason.code.rawValue, to: &output)
      output += ",\"text\":"
      JSONValue.writeString(reason.text, to: &output)
      output += "}"
    }
    return output + "]"
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

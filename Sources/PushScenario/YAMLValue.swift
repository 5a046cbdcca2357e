import PushCore
import Yams

/// A YAML node with the file it came from and its key path, so every error can say where.
///
/// Scalars are interpreted here, by the YAML 1.2 core schema, and never by Yams' resolver: a
/// plain `true` is a boolean, a quoted `"true"` is text, `yes` is text.
struct YAMLValue {
  let node: Node
  /// The key path from the document's root, such as `apps[2].settings`.
  let path: String
  /// The file, for messages.
  let file: String
  /// The parser, kept while the document is read: it holds the anchors, which nodes reference
  /// weakly, so an aliased value is recognised as the anchored one (``AliasExpansions``).
  var parser: Yams.Parser? = nil

  /// Parses a document. JSON is accepted too (YAML 1.2 is a superset).
  static func parse(_ text: String, file: String) throws(ScenarioError) -> YAMLValue {
    let root: Node?
    let parser: Yams.Parser
    do {
      parser = try Yams.Parser(yaml: text, resolver: .basic)
      root = try parser.singleRoot()
    } catch let error as YamlError {
      throw syntaxError(error, file: file)
    } catch {
      throw ScenarioError(file: file, message: "cannot read the YAML: \(error)")
    }
    guard let root else {
      throw ScenarioError(file: file, line: 1, column: 1, message: "the file is empty; expected a mapping")
    }
    return YAMLValue(node: root, path: "", file: file, parser: parser)
  }

  private static func syntaxError(_ error: YamlError, file: String) -> ScenarioError {
    switch error {
    case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
      .composer(let context, let problem, let mark, _):
      let text = context.map { "\(problem) \($0.text)" } ?? problem
      return ScenarioError(file: file, line: mark.line, column: mark.column, message: "YAML syntax error: \(text)")
    case .duplicatedKeysInMapping(let duplicates, let context):
      return ScenarioError(
        file: file, line: context.mark.line, column: context.mark.column,
        message:
          "duplicate key \(duplicates.map { "\"\($0)\"" }.joined(separator: ", ")) in a mapping; each key may appear once"
      )
    case .reader(let problem, _, _, _):
      return ScenarioError(file: file, message: "cannot read the file as UTF-8 text: \(problem)")
    default:
      return ScenarioError(file: file, message: "cannot read the YAML: \(error)")
    }
  }

  // MARK: Location and errors

  /// The 1-based line.
  var line: Int? { node.mark?.line }
  /// The 1-based column.
  var column: Int? { node.mark?.column }
  /// `file:line`, for sources shown beside records.
  var source: String { file + (line.map { ":\($0)" } ?? "") }

  /// An error located at this node.
  func error(_ message: String) -> ScenarioError {
    ScenarioError(file: file, line: line, column: column, path: path, message: message)
  }

  /// The value of a mapping key.
  func child(_ key: String, _ node: Node) -> YAMLValue {
    YAMLValue(node: node, path: path.isEmpty ? key : path + "." + key, file: file, parser: parser)
  }

  /// An element of a list.
  func element(_ index: Int, _ node: Node) -> YAMLValue {
    YAMLValue(node: node, path: path + "[\(index)]", file: file, parser: parser)
  }

  // MARK: Shapes

  /// What this node is, for "got …" in messages.
  var described: String {
    switch node {
    case .scalar(let scalar):
      if isNull { return "nothing (null)" }
      return scalar.style == .plain && (Self.integer(scalar.string) != nil || Self.number(scalar.string) != nil)
        ? scalar.string : JSONValue.quoted(scalar.string)
    case .mapping: return "a mapping"
    case .sequence: return "a list"
    case .alias: return "an alias"
    }
  }

  /// The scalar's text, for a plain or quoted scalar.
  var scalarText: String? { node.scalar?.string }

  /// Whether this is a plain (unquoted) scalar.
  var isPlain: Bool { node.scalar?.style == .plain }

  /// Whether this is `null`, `~` or nothing, unquoted.
  var isNull: Bool {
    guard let scalar = node.scalar, scalar.style == .plain else { return false }
    return ["", "~", "null", "Null", "NULL"].contains(scalar.string)
  }

  /// Reads a mapping, checking its keys against `allowed` (unknown keys are errors).
  func mapping(allowed: [String]) throws(ScenarioError) -> YAMLMapping {
    guard case .mapping(let mapping) = node else { throw error("expected a mapping, got \(described)") }
    var entries: [(key: String, keyValue: YAMLValue, value: YAMLValue)] = []
    for (keyNode, valueNode) in mapping {
      let keyValue = YAMLValue(node: keyNode, path: path, file: file)
      guard let key = keyNode.scalar?.string else {
        throw keyValue.error("a key must be text, got \(keyValue.described)")
      }
      if !allowed.contains(key) {
        let at = YAMLValue(node: keyNode, path: path.isEmpty ? key : path + "." + key, file: file)
        throw at.error(
          "unknown key \"\(key)\"\(Spelling.didYouMean(key, among: allowed)); expected one of \(allowed.joined(separator: ", "))"
        )
      }
      entries.append((key, keyValue, child(key, valueNode)))
    }
    return YAMLMapping(value: self, entries: entries)
  }

  /// Reads a mapping whose keys are free-form (names, bundle ids, header names).
  func freeMapping() throws(ScenarioError) -> [(key: String, value: YAMLValue)] {
    guard case .mapping(let mapping) = node else { throw error("expected a mapping, got \(described)") }
    var entries: [(key: String, value: YAMLValue)] = []
    for (keyNode, valueNode) in mapping {
      guard let key = keyNode.scalar?.string else {
        throw YAMLValue(node: keyNode, path: path, file: file).error("a key must be text, got a collection")
      }
      entries.append((key, child(key, valueNode)))
    }
    return entries
  }

  /// Reads a list.
  func list() throws(ScenarioError) -> [YAMLValue] {
    guard case .sequence(let sequence) = node else { throw error("expected a list, got \(described)") }
    return sequence.enumerated().map { element($0.offset, $0.element) }
  }

  /// Reads a list, or a single value as a list of one.
  func listOrOne() throws(ScenarioError) -> [YAMLValue] {
    if case .sequence = node { return try list() }
    return [self]
  }

  // MARK: Scalars

  /// Text: any scalar (numbers are taken as written).
  func string() throws(ScenarioError) -> String {
    guard let text = scalarText, !isNull else { throw error("expected text, got \(described)") }
    return text
  }

  /// A non-empty string.
  func nonEmptyString(_ what: String) throws(ScenarioError) -> String {
    let text = try string()
    guard !text.isEmpty else { throw error("expected \(what), got an empty string") }
    return text
  }

  /// `true` or `false`, unquoted.
  func bool() throws(ScenarioError) -> Bool {
    if isPlain, let text = scalarText {
      if ["true", "True", "TRUE"].contains(text) { return true }
      if ["false", "False", "FALSE"].contains(text) { return false }
    }
    throw error("expected true or false, got \(described)")
  }

  /// An integer, unquoted.
  func int() throws(ScenarioError) -> Int {
    guard isPlain, let text = scalarText, let value = Self.integer(text) else {
      throw error("expected a whole number, got \(described)")
    }
    return value
  }

  /// A whole number in a range.
  func int(in range: ClosedRange<Int>) throws(ScenarioError) -> Int {
    let value = try int()
    guard range.contains(value) else {
      throw error("expected a whole number from \(range.lowerBound) to \(range.upperBound), got \(value)")
    }
    return value
  }

  /// One of an enum's raw values, listing them all when it is not.
  func oneOf<Value: RawRepresentable & CaseIterable>(_ type: Value.Type) throws(ScenarioError) -> Value
  where Value.RawValue == String {
    let names = Value.allCases.map(\.rawValue)
    guard let text = scalarText, !isNull else {
      throw error("expected one of \(names.joined(separator: ", ")), got \(described)")
    }
    if let value = Value(rawValue: text) { return value }
    throw error(
      "expected one of \(names.joined(separator: ", ")), got \(described)\(Spelling.didYouMean(text, among: names))")
  }

  /// One of named values.
  func oneOf<Value>(_ table: [(String, Value)]) throws(ScenarioError) -> Value {
    let names = table.map(\.0)
    if let text = scalarText, !isNull, let value = table.first(where: { $0.0 == text })?.1 { return value }
    let hint = scalarText.map { Spelling.didYouMean($0, among: names) } ?? ""
    throw error("expected one of \(names.joined(separator: ", ")), got \(described)\(hint)")
  }

  // MARK: YAML 1.2 core schema

  /// A YAML 1.2 core integer: decimal, `0x` hex or `0o` octal.
  static func integer(_ text: String) -> Int? {
    if text.hasPrefix("0x") { return Int(text.dropFirst(2), radix: 16) }
    if text.hasPrefix("0o") { return Int(text.dropFirst(2), radix: 8) }
    var digits = Substring(text)
    if digits.first == "+" || digits.first == "-" { digits = digits.dropFirst() }
    guard !digits.isEmpty, digits.utf8.allSatisfy({ (48...57).contains($0) }) else { return nil }
    return Int(text.hasPrefix("+") ? String(text.dropFirst()) : text)
  }

  /// A YAML 1.2 core float (finite only).
  static func number(_ text: String) -> Double? {
    let allowed = Set("0123456789+-.eE".utf8)
    guard !text.isEmpty, text.utf8.allSatisfy({ allowed.contains($0) }),
      text.utf8.contains(where: { (48...57).contains($0) }),
      let value = Double(text), value.isFinite
    else { return nil }
    return value
  }

  /// The longest JSON text an inline payload may become: YAML aliases are expanded, so a few
  /// lines of nested aliases ("billion laughs") could otherwise stand for gigabytes of JSON.
  /// APNs' own limit is 4 KB (5 KB for VoIP); the payload reader reports anything over that.
  static let maximumInlinePayloadBytes = 64 << 10

  /// This node as JSON text, for inline payloads: plain scalars are typed by the YAML 1.2 core
  /// schema, quoted ones are strings; keys keep their order. Fails past
  /// ``maximumInlinePayloadBytes``.
  ///
  /// - Parameter aliases: the scenario's anchored values already written as JSON (each is
  ///   written once), and where this text repeats one through an alias.
  func jsonText(aliases: AliasExpansions? = nil) throws(ScenarioError) -> String {
    var output = JSONWriter()
    try writeJSON(to: &output, root: self, aliases: aliases)
    return output.text
  }

  private static func checkSize(_ output: JSONWriter, root: YAMLValue) throws(ScenarioError) {
    guard output.bytes.count <= Self.maximumInlinePayloadBytes else {
      throw root.error(
        "the inline payload is over \(Self.maximumInlinePayloadBytes >> 10) KiB once its aliases are expanded; APNs takes 4 KB"
      )
    }
  }

  private func writeJSON(to output: inout JSONWriter, root: YAMLValue, aliases: AliasExpansions?)
    throws(ScenarioError)
  {
    try Self.checkSize(output, root: root)
    if let aliases, let anchor = node.anchor {
      // An anchored value: the first time it is met is where it is written; every later time
      // is an alias of it, whose JSON was made then.
      let id = ObjectIdentifier(anchor)
      if let written = aliases.texts[id] {
        output.append(written)
        try Self.checkSize(output, root: root)
        aliases.repeated(written.bytes.count, anchor: anchor.rawValue, definedAt: line, usedAt: self)
        return
      }
      var written = JSONWriter()
      try withoutAnchor.writeJSON(to: &written, root: root, aliases: aliases)
      aliases.texts[id] = written
      output.append(written)
      try Self.checkSize(output, root: root)
      return
    }
    switch node {
    case .scalar(let scalar):
      let text = scalar.string
      if scalar.style != .plain {
        output.string(text)
      } else if isNull {
        output.null()
      } else if ["true", "True", "TRUE"].contains(text) {
        output.bool(true)
      } else if ["false", "False", "FALSE"].contains(text) {
        output.bool(false)
      } else if let integer = Self.integer(text) {
        output.integer(integer)
      } else if let number = Self.number(text) {
        // As written when JSON can read it so (`1.50` stays `1.50`), else as Swift writes it.
        output.value(.number(JSONNumber(text: Self.isJSONNumber(text) ? text : String(number), value: number)))
      } else {
        output.string(text)
      }
    case .mapping:
      output.beginObject()
      for (key, value) in try freeMapping() {
        output.key(key)
        try value.writeJSON(to: &output, root: root, aliases: aliases)
      }
      output.endObject()
    case .sequence:
      output.beginArray()
      for value in try list() { try value.writeJSON(to: &output, root: root, aliases: aliases) }
      output.endArray()
    case .alias:
      throw error("aliases are not supported here; write the value out")
    }
  }

  private static func isJSONNumber(_ text: String) -> Bool {
    var bytes = Array(text.utf8)[...]
    if bytes.first == 45 { bytes = bytes.dropFirst() }
    func digits() -> Int {
      let count = bytes.prefix { (48...57).contains($0) }.count
      bytes = bytes.dropFirst(count)
      return count
    }
    let leadingZero = bytes.first == 48
    let integerDigits = digits()
    guard integerDigits > 0, !(leadingZero && integerDigits > 1) else { return false }
    if bytes.first == 46 {
      bytes = bytes.dropFirst()
      guard digits() > 0 else { return false }
    }
    if bytes.first == 101 || bytes.first == 69 {
      bytes = bytes.dropFirst()
      if bytes.first == 43 || bytes.first == 45 { bytes = bytes.dropFirst() }
      guard digits() > 0 else { return false }
    }
    return bytes.isEmpty
  }
}

extension YAMLValue {
  /// The same value, not counted as anchored (to write an anchored value's own JSON).
  fileprivate var withoutAnchor: YAMLValue {
    YAMLValue(node: node.settingAnchor(nil), path: path, file: file, parser: parser)
  }
}

extension Node {
  fileprivate func settingAnchor(_ anchor: Anchor?) -> Node {
    switch self {
    case .scalar(var scalar):
      scalar.anchor = anchor
      return .scalar(scalar)
    case .mapping(var mapping):
      mapping.anchor = anchor
      return .mapping(mapping)
    case .sequence(var sequence):
      sequence.anchor = anchor
      return .sequence(sequence)
    case .alias: return self
    }
  }
}

/// The YAML aliases of a scenario's inline payloads, as they are expanded into JSON.
///
/// Yams hands an alias back as the anchored node itself, so a value reused through an alias is
/// one value in the parsed document; it is written as JSON once (``texts``). A push whose
/// payload repeats it still gets its own payload, unless the payload is the same as another
/// push's, which the loader then shares (``TimelineReader``). What the scenario's distinct
/// payloads gain through aliases is capped at ``maximumExpandedBytes``, with an error at the
/// alias that crosses it: a few lines of YAML can otherwise stand for gigabytes.
final class AliasExpansions {
  /// The most bytes of JSON a scenario's inline payloads may repeat through aliases (distinct
  /// payloads only: pushes with the same payload share it).
  static let maximumExpandedBytes = 16 << 20

  /// The JSON of each anchored value met so far, by anchor.
  var texts: [ObjectIdentifier: JSONWriter] = [:]
  /// Pushes whose inline payload is or repeats an anchored value, by what they read: a later
  /// push that reads the same shares the record (its payload and bytes), so a payload reused
  /// through an alias is held once.
  var records: [SharedPushKey: PushRecord] = [:]
  /// The bytes distinct payloads have repeated through aliases so far.
  private(set) var expandedBytes = 0
  /// What the payload being written repeats: its bytes and its first alias.
  private(set) var pending = 0
  private(set) var firstUse: (anchor: String, definedAt: Int?, value: YAMLValue)?

  /// Notes that the payload being written repeats an anchored value.
  func repeated(_ bytes: Int, anchor: String, definedAt: Int?, usedAt value: YAMLValue) {
    pending += bytes
    if firstUse == nil { firstUse = (anchor, definedAt, value) }
  }

  /// Whether the payload being written repeats anything through an alias.
  var payloadRepeats: Bool { pending > 0 }

  /// Forgets what the payload just written repeats (it is shared with an earlier one).
  func shared() {
    pending = 0
    firstUse = nil
  }

  /// Counts what the payload just written repeats, failing past the cap.
  ///
  /// - Parameter push: the timeline entry, whose line the error names.
  func charge(push: YAMLValue) throws(ScenarioError) {
    defer { shared() }
    expandedBytes += pending
    guard expandedBytes > Self.maximumExpandedBytes, let use = firstUse else { return }
    let defined = use.definedAt.map { " (defined at line \($0))" } ?? ""
    throw ScenarioError(
      file: push.file, line: push.line, column: push.column, path: use.value.path,
      message:
        "the alias *\(use.anchor)\(defined) takes the scenario's payloads over \(Self.maximumExpandedBytes >> 20) MiB "
        + "of JSON repeated through aliases (this push repeats \(pending) bytes); a push whose whole payload is the "
        + "same alias (payload: *\(use.anchor)) is stored once, so reuse whole payloads, or shorten the anchored value")
  }
}

/// A mapping whose keys were checked, read by key.
struct YAMLMapping {
  let value: YAMLValue
  let entries: [(key: String, keyValue: YAMLValue, value: YAMLValue)]

  /// The value for a key, if present.
  subscript(_ key: String) -> YAMLValue? { entries.first { $0.key == key }?.value }

  /// Whether a key is present.
  func has(_ key: String) -> Bool { entries.contains { $0.key == key } }

  /// The value for a key that must be present.
  func required(_ key: String, _ what: String) throws(ScenarioError) -> YAMLValue {
    guard let found = self[key] else { throw value.error("missing \"\(key)\": expected \(what)") }
    return found
  }
}

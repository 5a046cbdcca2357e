import PushWire
import Yams

/// A YAML node with the file it came from and its key path, so every error can say where: the
/// one YAML layer under scenarios, device profiles (PushScenario) and themes (PushRender).
///
/// Scalars are interpreted here, by the YAML 1.2 core schema, and never by Yams' resolver: a
/// plain `true` is a boolean, a quoted `"true"` is text, `yes` is text.
package struct YAMLValue {
  package let node: Node
  /// The key path from the document's root, such as `apps[2].settings`.
  package let path: String
  /// The file, for messages.
  package let file: String
  /// The parser, kept while the document is read: it holds the anchors, which nodes reference
  /// weakly, so an aliased value is recognised as the anchored one (PushScenario's
  /// `AliasExpansions`).
  package var parser: Yams.Parser? = nil

  /// A node of a document, at a key path.
  package init(node: Node, path: String, file: String, parser: Yams.Parser? = nil) {
    self.node = node
    self.path = path
    self.file = file
    self.parser = parser
  }

  /// Parses a document. JSON is accepted too (YAML 1.2 is a superset).
  package static func parse(_ text: String, file: String) throws(YAMLError) -> YAMLValue {
    let root: Node?
    let parser: Yams.Parser
    do {
      parser = try Yams.Parser(yaml: text, resolver: .basic)
      root = try parser.singleRoot()
    } catch let error as YamlError {
      throw syntaxError(error, file: file, text: text)
    } catch {
      throw YAMLError(file: file, message: "cannot read the YAML: \(error)")
    }
    guard let root else {
      throw YAMLError(file: file, line: 1, column: 1, message: "the file is empty; expected a mapping")
    }
    return YAMLValue(node: root, path: "", file: file, parser: parser)
  }

  private static func syntaxError(_ error: YamlError, file: String, text: String) -> YAMLError {
    switch error {
    case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
      .composer(let context, let problem, let mark, _):
      let text = context.map { "\(problem) \($0.text)" } ?? problem
      return YAMLError(file: file, line: mark.line, column: mark.column, message: "YAML syntax error: \(text)")
    case .duplicatedKeysInMapping(let duplicates, let context):
      let keys = duplicates.map { "\"\($0)\"" }.joined(separator: ", ")
      // The parser gives where the key first appears; the mistake is where it appears again.
      if let first = duplicates.first,
        let again = repeatedKeyLine(first, after: context.mark.line, column: context.mark.column, in: text)
      {
        return YAMLError(
          file: file, line: again, column: context.mark.column,
          message:
            "duplicate key \(keys) in a mapping (first at line \(context.mark.line)); each key may appear once")
      }
      return YAMLError(
        file: file, line: context.mark.line, column: context.mark.column,
        message: "duplicate key \(keys) in a mapping; each key may appear once")
    case .reader(let problem, _, _, _):
      return YAMLError(file: file, message: "cannot read the file as UTF-8 text: \(problem)")
    default:
      return YAMLError(file: file, message: "cannot read the YAML: \(error)")
    }
  }

  /// The line where block-mapping key `key`, first at `line`:`column`, appears again: the next
  /// line indented to the same column that starts with the key (plain or quoted) and a colon,
  /// before a line indented less (the mapping's end). Nil when there is none (a flow mapping).
  static func repeatedKeyLine(_ key: String, after line: Int, column: Int, in text: String) -> Int? {
    // Split where YAML breaks lines (`\n`, `\r\n`, a lone `\r`), so the lines are the parser's:
    // split at `\n` alone, a text with `\r` breaks had fewer lines than the parser's line number,
    // and the range below trapped (found by the theme fuzzer).
    let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }
    guard line >= 1, column >= 1, line <= lines.count else { return nil }
    let forms = [key + ":", "\"" + key + "\":", "'" + key + "':"]
    for index in line..<lines.count {
      let text = lines[index]
      let indent = text.prefix { $0 == " " }.count
      let rest = text.dropFirst(indent)
      if rest.isEmpty || rest.hasPrefix("#") { continue }
      if indent < column - 1 { return nil }
      // A sequence item's first key (`- key:`) sits after the dash.
      if indent == column - 1, forms.contains(where: { rest.hasPrefix($0) }) { return index + 1 }
    }
    return nil
  }

  // MARK: Location and errors

  /// The 1-based line.
  package var line: Int? { node.mark?.line }
  /// The 1-based column.
  package var column: Int? { node.mark?.column }
  /// `file:line`, for sources shown beside records.
  package var source: String { file + (line.map { ":\($0)" } ?? "") }

  /// An error located at this node.
  package func error(_ message: String) -> YAMLError {
    YAMLError(file: file, line: line, column: column, path: path, message: message)
  }

  /// The value of a mapping key.
  package func child(_ key: String, _ node: Node) -> YAMLValue {
    YAMLValue(node: node, path: path.isEmpty ? key : path + "." + key, file: file, parser: parser)
  }

  /// An element of a list.
  package func element(_ index: Int, _ node: Node) -> YAMLValue {
    YAMLValue(node: node, path: path + "[\(index)]", file: file, parser: parser)
  }

  // MARK: Shapes

  /// What this node is, for "got …" in messages.
  package var described: String {
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
  package var scalarText: String? { node.scalar?.string }

  /// Whether this is a plain (unquoted) scalar.
  package var isPlain: Bool { node.scalar?.style == .plain }

  /// Whether this is `null`, `~` or nothing, unquoted.
  package var isNull: Bool {
    guard let scalar = node.scalar, scalar.style == .plain else { return false }
    return ["", "~", "null", "Null", "NULL"].contains(scalar.string)
  }

  /// A mapping's entries in order, for every reader of mappings: each key's text (nil when the
  /// key is a collection), the key's node located under this value's path, and the value at the
  /// key's path. Nil when this is not a mapping.
  package func entries() -> [(key: String?, keyValue: YAMLValue, value: YAMLValue)]? {
    guard case .mapping(let mapping) = node else { return nil }
    return mapping.map { keyNode, valueNode in
      let key = keyNode.scalar?.string
      return (key, YAMLValue(node: keyNode, path: path, file: file, parser: parser), child(key ?? "", valueNode))
    }
  }

  /// Reads a mapping, checking its keys against `allowed` (unknown keys are errors).
  package func mapping(allowed: [String]) throws(YAMLError) -> YAMLMapping {
    guard let all = entries() else { throw error("expected a mapping, got \(described)") }
    var checked: [(key: String, keyValue: YAMLValue, value: YAMLValue)] = []
    for (key, keyValue, value) in all {
      guard let key else { throw keyValue.error("a key must be text, got \(keyValue.described)") }
      if !allowed.contains(key) {
        let at = YAMLValue(node: keyValue.node, path: path.isEmpty ? key : path + "." + key, file: file)
        throw at.error(
          "unknown key \"\(key)\"\(Spelling.didYouMean(key, among: allowed)); expected one of \(allowed.joined(separator: ", "))"
        )
      }
      checked.append((key, keyValue, value))
    }
    return YAMLMapping(value: self, entries: checked)
  }

  /// Reads a mapping whose keys are free-form (names, bundle ids, header names).
  package func freeMapping() throws(YAMLError) -> [(key: String, value: YAMLValue)] {
    guard let all = entries() else { throw error("expected a mapping, got \(described)") }
    var checked: [(key: String, value: YAMLValue)] = []
    for (key, keyValue, value) in all {
      guard let key else { throw keyValue.error("a key must be text, got a collection") }
      checked.append((key, value))
    }
    return checked
  }

  /// Reads a list.
  package func list() throws(YAMLError) -> [YAMLValue] {
    guard case .sequence(let sequence) = node else { throw error("expected a list, got \(described)") }
    return sequence.enumerated().map { element($0.offset, $0.element) }
  }

  /// Reads a list, or a single value as a list of one.
  package func listOrOne() throws(YAMLError) -> [YAMLValue] {
    if case .sequence = node { return try list() }
    return [self]
  }

  // MARK: Scalars

  /// Text: any scalar (numbers are taken as written).
  package func string() throws(YAMLError) -> String {
    guard let text = scalarText, !isNull else { throw error("expected text, got \(described)") }
    return text
  }

  /// A non-empty string.
  package func nonEmptyString(_ what: String) throws(YAMLError) -> String {
    let text = try string()
    guard !text.isEmpty else { throw error("expected \(what), got an empty string") }
    return text
  }

  /// `true` or `false`, unquoted.
  package func bool() throws(YAMLError) -> Bool {
    if isPlain, let text = scalarText {
      if ["true", "True", "TRUE"].contains(text) { return true }
      if ["false", "False", "FALSE"].contains(text) { return false }
    }
    throw error("expected true or false, got \(described)")
  }

  /// An integer, unquoted.
  package func int() throws(YAMLError) -> Int {
    guard isPlain, let text = scalarText, let value = Self.integer(text) else {
      throw error("expected a whole number, got \(described)")
    }
    return value
  }

  /// A whole number in a range.
  package func int(in range: ClosedRange<Int>) throws(YAMLError) -> Int {
    let value = try int()
    guard range.contains(value) else {
      throw error("expected a whole number from \(range.lowerBound) to \(range.upperBound), got \(value)")
    }
    return value
  }

  /// One of an enum's raw values, listing them all when it is not.
  package func oneOf<Value: RawRepresentable & CaseIterable>(_ type: Value.Type) throws(YAMLError) -> Value
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
  package func oneOf<Value>(_ table: [(String, Value)]) throws(YAMLError) -> Value {
    let names = table.map(\.0)
    if let text = scalarText, !isNull, let value = table.first(where: { $0.0 == text })?.1 { return value }
    let hint = scalarText.map { Spelling.didYouMean($0, among: names) } ?? ""
    throw error("expected one of \(names.joined(separator: ", ")), got \(described)\(hint)")
  }

  // MARK: YAML 1.2 core schema

  /// A YAML 1.2 core integer: decimal, `0x` hex or `0o` octal.
  package static func integer(_ text: String) -> Int? {
    if text.hasPrefix("0x") { return Int(text.dropFirst(2), radix: 16) }
    if text.hasPrefix("0o") { return Int(text.dropFirst(2), radix: 8) }
    var digits = Substring(text)
    if digits.first == "+" || digits.first == "-" { digits = digits.dropFirst() }
    guard !digits.isEmpty, digits.utf8.allSatisfy({ (48...57).contains($0) }) else { return nil }
    return Int(text.hasPrefix("+") ? String(text.dropFirst()) : text)
  }

  /// A YAML 1.2 core float (finite only).
  package static func number(_ text: String) -> Double? {
    let allowed = Set("0123456789+-.eE".utf8)
    guard !text.isEmpty, text.utf8.allSatisfy({ allowed.contains($0) }),
      text.utf8.contains(where: { (48...57).contains($0) }),
      let value = Double(text), value.isFinite
    else { return nil }
    return value
  }
}

/// A mapping whose keys were checked, read by key.
package struct YAMLMapping {
  package let value: YAMLValue
  package let entries: [(key: String, keyValue: YAMLValue, value: YAMLValue)]

  /// The value for a key, if present.
  package subscript(_ key: String) -> YAMLValue? { entries.first { $0.key == key }?.value }

  /// Whether a key is present.
  package func has(_ key: String) -> Bool { entries.contains { $0.key == key } }

  /// The value for a key that must be present.
  package func required(_ key: String, _ what: String) throws(YAMLError) -> YAMLValue {
    guard let found = self[key] else { throw value.error("missing \"\(key)\": expected \(what)") }
    return found
  }
}

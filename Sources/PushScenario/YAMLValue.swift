import PushCore
import PushYAML
import Yams

// Inline payloads: a scenario's YAML written as the JSON a push carries.
extension YAMLValue {
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

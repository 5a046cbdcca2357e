/// A JSON number that keeps its source spelling, so it prints back exactly as written.
public struct JSONNumber: Equatable, Hashable, Sendable {
  /// The text as it appeared in the source, for example `1.50`.
  public var text: String
  /// The value as a Double.
  public var value: Double

  /// Creates a number from its spelling and value.
  public init(text: String, value: Double) {
    self.text = text
    self.value = value
  }

  /// Creates a number from an integer.
  public init(_ integer: Int) {
    self.text = String(integer)
    self.value = Double(integer)
  }
}

/// One member of a JSON object; members keep their source order (and repeats).
public struct JSONMember: Equatable, Hashable, Sendable {
  /// The key.
  public var key: String
  /// The value.
  public var value: JSONValue

  /// Creates a member.
  public init(key: String, value: JSONValue) {
    self.key = key
    self.value = value
  }
}

/// A JSON value tree, used for custom keys, Live Activity state and pretty-printing.
public indirect enum JSONValue: Equatable, Hashable, Sendable {
  case null
  case bool(Bool)
  case number(JSONNumber)
  case string(String)
  case array([JSONValue])
  case object([JSONMember])

  /// The value of the first member named `key`, if this is an object that has one.
  public subscript(key: String) -> JSONValue? {
    guard case .object(let members) = self else { return nil }
    return members.first { $0.key == key }?.value
  }

  /// The string, if this is a string.
  public var stringValue: String? {
    if case .string(let text) = self { return text }
    return nil
  }

  /// The number, if this is a number.
  public var doubleValue: Double? {
    if case .number(let number) = self { return number.value }
    return nil
  }

  /// Compact JSON text (RFC 8259), with non-ASCII characters written as UTF-8.
  public var compactText: String {
    var output = ""
    write(to: &output, indent: nil, level: 0)
    return output
  }

  /// Pretty-printed JSON text with two-space indentation, keys in source order.
  public var prettyText: String {
    var output = ""
    write(to: &output, indent: "  ", level: 0)
    return output
  }

  private func write(to output: inout String, indent: String?, level: Int) {
    let newline = indent == nil ? "" : "\n"
    let separator = indent == nil ? ":" : ": "
    func pad(_ depth: Int) -> String { indent.map { String(repeating: $0, count: depth) } ?? "" }
    switch self {
    case .null: output += "null"
    case .bool(let value): output += value ? "true" : "false"
    case .number(let number): output += number.text
    case .string(let text): JSONValue.writeString(text, to: &output)
    case .array(let elements):
      if elements.isEmpty {
        output += "[]"
        return
      }
      output += "[" + newline
      for (offset, element) in elements.enumerated() {
        output += pad(level + 1)
        element.write(to: &output, indent: indent, level: level + 1)
        output += (offset < elements.count - 1 ? "," : "") + newline
      }
      output += pad(level) + "]"
    case .object(let members):
      if members.isEmpty {
        output += "{}"
        return
      }
      output += "{" + newline
      for (offset, member) in members.enumerated() {
        output += pad(level + 1)
        JSONValue.writeString(member.key, to: &output)
        output += separator
        member.value.write(to: &output, indent: indent, level: level + 1)
        output += (offset < members.count - 1 ? "," : "") + newline
      }
      output += pad(level) + "}"
    }
  }

  /// Writes a JSON string literal, escaping quotes, backslashes and every control character.
  public static func writeString(_ text: String, to output: inout String) {
    // Works on UTF-8 bytes and copies runs that need no escape in one append: journalling a
    // million payloads' custom keys spends most of its time here.
    var text = text
    text.withUTF8 { bytes in
      output += "\""
      var runStart = 0
      var index = 0
      let count = bytes.count
      func flush(_ end: Int) {
        guard end > runStart else { return }
        output += String(decoding: UnsafeBufferPointer(rebasing: bytes[runStart..<end]), as: UTF8.self)
      }
      while index < count {
        let byte = bytes[index]
        var escape: String?
        var width = 1
        switch byte {
        case 0x22: escape = "\\\""
        case 0x5C: escape = "\\\\"
        case 0x0A: escape = "\\n"
        case 0x0D: escape = "\\r"
        case 0x09: escape = "\\t"
        case 0x00...0x1F, 0x7F: escape = "\\u" + hex(UInt32(byte), width: 4).lowercased()
        case 0xC2 where index + 1 < count && (0x80...0x9F).contains(bytes[index + 1]):
          // U+0080 to U+009F, the C1 controls.
          escape = "\\u" + hex(UInt32(bytes[index + 1]), width: 4).lowercased()
          width = 2
        case 0xE2 where index + 2 < count && isEscapedAfterE2(bytes[index + 1], bytes[index + 2]):
          // U+2028 and U+2029, the line and paragraph separators, and the bidi controls (U+200E,
          // U+200F, U+202A to U+202E, U+2066 to U+2069), so that JSON read in a terminal cannot
          // reorder the text around it.
          let scalar = 0x2000 | UInt32(bytes[index + 1] & 0x3F) << 6 | UInt32(bytes[index + 2] & 0x3F)
          escape = "\\u" + hex(scalar, width: 4).lowercased()
          width = 3
        case 0xD8 where index + 1 < count && bytes[index + 1] == 0x9C:
          // U+061C, the Arabic letter mark (a bidi control).
          escape = "\\u061c"
          width = 2
        default: break
        }
        if let escape {
          flush(index)
          output += escape
          index += width
          runStart = index
        } else {
          index += 1
        }
      }
      flush(count)
      output += "\""
    }
  }

  /// Whether the three-byte UTF-8 sequence `E2 second third` is one that ``writeString(_:to:)``
  /// escapes: U+200E, U+200F, U+2028 to U+202E, U+2066 to U+2069.
  private static func isEscapedAfterE2(_ second: UInt8, _ third: UInt8) -> Bool {
    switch second {
    case 0x80: third == 0x8E || third == 0x8F || (0xA8...0xAE).contains(third)
    case 0x81: (0xA6...0xA9).contains(third)
    default: false
    }
  }

  /// A JSON string literal for `text`.
  public static func quoted(_ text: String) -> String {
    var output = ""
    writeString(text, to: &output)
    return output
  }
}

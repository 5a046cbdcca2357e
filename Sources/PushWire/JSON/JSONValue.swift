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
    var writer = JSONWriter()
    writer.value(self)
    return writer.text
  }

  /// Pretty-printed JSON text with two-space indentation, keys in source order.
  public var prettyText: String {
    var writer = JSONWriter(style: .pretty)
    writer.value(self)
    return writer.text
  }

  /// A JSON string literal for `text`, escaped by ``JSONWriter/appendEscaped(_:to:)``: for
  /// naming a key or value in a message.
  public static func quoted(_ text: String) -> String {
    var writer = JSONWriter(capacity: text.utf8.count + 2)
    writer.string(text)
    return writer.text
  }
}

/// The one way Pushdeck writes JSON: a streaming writer that appends UTF-8 into one byte
/// buffer, keys in the order they are written, strings through the one escaper
/// (``JSONWriter/appendEscaped(_:to:)``).
///
/// Compact style is RFC 8259 without any whitespace (`{"a":1,"b":[true,null]}`), what JSON Lines
/// output and response bodies use. Pretty style indents by two spaces, writes `": "` after a key
/// and `[]`/`{}` for empty containers, what ``JSONValue/prettyText`` shows in the inspector.
///
/// The writer keeps no stack: a caller opens and closes containers in order, and writes a key
/// before each value inside an object. Reuse one writer (``removeAll()``) for many lines so the
/// buffer's storage is allocated once.
///
/// ```swift
/// var json = JSONWriter()
/// json.beginObject()
/// json.member("index", 1)
/// json.member("title", notification.title)  // a String? — nil is written as null
/// json.endObject()
/// ```
public struct JSONWriter: Sendable {
  /// How the text is laid out.
  public enum Style: Sendable {
    /// No whitespace at all.
    case compact
    /// Two-space indentation, one member or element a line.
    case pretty
  }

  /// The UTF-8 text written so far.
  public private(set) var bytes: [UInt8]
  /// The layout.
  public let style: Style
  private var depth = 0
  /// Whether the innermost open container already holds a member or element.
  private var hasValue = false
  /// Whether a key was just written, so the next value follows it directly.
  private var afterKey = false

  /// Creates an empty writer.
  public init(style: Style = .compact, capacity: Int = 256) {
    self.style = style
    bytes = []
    bytes.reserveCapacity(capacity)
  }

  /// The text written so far.
  public var text: String { String(decoding: bytes, as: UTF8.self) }

  /// Empties the writer, keeping its storage for the next text.
  public mutating func removeAll() {
    bytes.removeAll(keepingCapacity: true)
    depth = 0
    hasValue = false
    afterKey = false
  }

  /// Ends a line of JSON Lines output: appends a newline after a complete value.
  public mutating func newline() {
    bytes.append(0x0A)
    hasValue = false
    afterKey = false
  }

  // MARK: Structure

  /// Opens an object.
  public mutating func beginObject() {
    separate()
    bytes.append(UInt8(ascii: "{"))
    depth += 1
    hasValue = false
  }

  /// Closes the innermost object.
  public mutating func endObject() { close(UInt8(ascii: "}")) }

  /// Opens an array.
  public mutating func beginArray() {
    separate()
    bytes.append(UInt8(ascii: "["))
    depth += 1
    hasValue = false
  }

  /// Closes the innermost array.
  public mutating func endArray() { close(UInt8(ascii: "]")) }

  /// Writes an object whose members `body` writes.
  public mutating func object(_ body: (inout JSONWriter) throws -> Void) rethrows {
    beginObject()
    try body(&self)
    endObject()
  }

  /// Writes an array whose elements `body` writes.
  public mutating func array(_ body: (inout JSONWriter) throws -> Void) rethrows {
    beginArray()
    try body(&self)
    endArray()
  }

  /// Writes an object's key; the next value written is its value.
  public mutating func key(_ name: String) {
    separate()
    var name = name
    name.withUTF8 { Self.appendQuoted($0, to: &bytes) }
    switch style {
    case .compact: bytes.append(UInt8(ascii: ":"))
    case .pretty: bytes.append(contentsOf: [UInt8(ascii: ":"), UInt8(ascii: " ")])
    }
    afterKey = true
  }

  // MARK: Values

  /// Writes a string, escaped.
  public mutating func string(_ text: String) {
    separate()
    var text = text
    text.withUTF8 { Self.appendQuoted($0, to: &bytes) }
  }

  /// Writes a string, or `null` for nil.
  public mutating func stringOrNull(_ text: String?) {
    guard let text else { return null() }
    string(text)
  }

  /// Writes an integer.
  public mutating func integer<T: BinaryInteger>(_ value: T) {
    separate()
    Self.appendDecimal(value, to: &bytes)
  }

  /// Writes an `Int` (``integer(_:)-(T)`` without the generic dispatch: explain writes a few
  /// dozen a push).
  public mutating func integer(_ value: Int) {
    separate()
    Self.appendDecimal(value, to: &bytes)
  }

  /// Writes a number as Swift spells a `Double` (`3.0`, `0.25`, `1e-05`); `null` when it is
  /// not finite, which JSON cannot hold.
  public mutating func number(_ value: Double) {
    guard value.isFinite else { return null() }
    separate()
    bytes.append(contentsOf: value.description.utf8)
  }

  /// Writes `true` or `false`.
  public mutating func bool(_ value: Bool) {
    separate()
    bytes.append(contentsOf: value ? Self.trueBytes : Self.falseBytes)
  }

  /// Writes `null`.
  public mutating func null() {
    separate()
    bytes.append(contentsOf: Self.nullBytes)
  }

  /// Writes a value tree (numbers keep their source spelling).
  public mutating func value(_ value: JSONValue) {
    switch value {
    case .null: null()
    case .bool(let flag): bool(flag)
    case .number(let number):
      separate()
      bytes.append(contentsOf: number.text.utf8)
    case .string(let text): string(text)
    case .array(let elements):
      beginArray()
      for element in elements { self.value(element) }
      endArray()
    case .object(let members):
      beginObject()
      for member in members {
        key(member.key)
        self.value(member.value)
      }
      endObject()
    }
  }

  /// Writes a JSON text the scanner has already accepted, as it is, with each carriage return
  /// and line feed (whitespace between tokens) turned into a space so that a JSON Lines line
  /// stays one line.
  ///
  /// Only for text that ``JSONScanner`` accepted: the writer does not check it again.
  public mutating func scannedJSON<Bytes: Collection<UInt8>>(_ text: Bytes) {
    separate()
    for byte in text { bytes.append(byte == 0x0A || byte == 0x0D ? 0x20 : byte) }
  }

  /// Writes the complete value another compact writer wrote (a value written once and
  /// repeated, such as a YAML anchor's).
  public mutating func append(_ written: JSONWriter) {
    separate()
    bytes.append(contentsOf: written.bytes)
  }

  // MARK: Members

  /// Writes a key and a string, or `null` for nil.
  public mutating func member(_ name: String, _ text: String?) {
    key(name)
    stringOrNull(text)
  }

  /// Writes a key and an integer, or `null` for nil.
  public mutating func member<T: BinaryInteger>(_ name: String, _ value: T?) {
    key(name)
    if let value { integer(value) } else { null() }
  }

  /// Writes a key and an `Int`, or `null` for nil.
  public mutating func member(_ name: String, _ value: Int?) {
    key(name)
    if let value { integer(value) } else { null() }
  }

  /// Writes a key and a number (``number(_:)``), or `null` for nil.
  public mutating func member(_ name: String, _ value: Double?) {
    key(name)
    if let value { number(value) } else { null() }
  }

  /// Writes a key and a boolean.
  public mutating func member(_ name: String, _ value: Bool) {
    key(name)
    bool(value)
  }

  /// Writes a key and a value tree, or `null` for nil.
  public mutating func member(_ name: String, _ value: JSONValue?) {
    key(name)
    if let value { self.value(value) } else { null() }
  }

  /// Writes a key and `null`.
  public mutating func nullMember(_ name: String) {
    key(name)
    null()
  }

  /// Writes a key and an array of strings.
  public mutating func member(_ name: String, strings: some Sequence<String>) {
    key(name)
    beginArray()
    for text in strings { string(text) }
    endArray()
  }

  // MARK: Layout

  /// What goes before a value or key: nothing after a key, else a comma after an earlier
  /// sibling and, when pretty, a line break and the indentation.
  @inline(__always)
  private mutating func separate() {
    if afterKey {
      afterKey = false
      return
    }
    guard depth > 0 else { return }
    if hasValue { bytes.append(UInt8(ascii: ",")) }
    hasValue = true
    if case .pretty = style { breakLine(depth) }
  }

  private mutating func close(_ bracket: UInt8) {
    depth -= 1
    if case .pretty = style, hasValue { breakLine(depth) }
    bytes.append(bracket)
    // The enclosing container now holds this one.
    hasValue = depth > 0
    afterKey = false
  }

  private mutating func breakLine(_ level: Int) {
    bytes.append(0x0A)
    for _ in 0..<(level * 2) { bytes.append(0x20) }
  }

  private static let trueBytes: [UInt8] = Array("true".utf8)
  private static let falseBytes: [UInt8] = Array("false".utf8)
  private static let nullBytes: [UInt8] = Array("null".utf8)

  // MARK: The escaper

  /// Appends `value` in decimal.
  static func appendDecimal<T: BinaryInteger>(_ value: T, to output: inout [UInt8]) {
    if value == 0 {
      output.append(0x30)
      return
    }
    if value < 0 { output.append(UInt8(ascii: "-")) }
    var magnitude = value.magnitude
    let start = output.count
    while magnitude > 0 {
      let (quotient, digit) = magnitude.quotientAndRemainder(dividingBy: 10)
      output.append(0x30 + UInt8(digit))
      magnitude = quotient
    }
    output[start...].reverse()
  }

  /// Appends an `Int` in decimal.
  static func appendDecimal(_ value: Int, to output: inout [UInt8]) {
    if value < 0 { output.append(UInt8(ascii: "-")) }
    var magnitude = value.magnitude
    let start = output.count
    repeat {
      output.append(0x30 + UInt8(truncatingIfNeeded: magnitude % 10))
      magnitude /= 10
    } while magnitude > 0
    output[start...].reverse()
  }

  /// Appends a JSON string literal for UTF-8 `text`, quotes included.
  public static func appendQuoted(_ text: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
    output.append(UInt8(ascii: "\""))
    appendEscaped(text, to: &output)
    output.append(UInt8(ascii: "\""))
  }

  /// Appends UTF-8 `text` escaped for the inside of a JSON string: the one escaper every JSON
  /// Pushdeck writes goes through.
  ///
  /// Escaped: `"` and `\`; every control character — C0 (`\n`, `\r`, `\t` by name, the rest as
  /// `\u00XX`), DEL and the C1 controls U+0080 to U+009F; U+2028 and U+2029, the line and
  /// paragraph separators, which end a line in JavaScript and in some JSON Lines readers; and
  /// the bidirectional controls (U+061C, U+200E, U+200F, U+202A to U+202E, U+2066 to U+2069),
  /// so that JSON read in a terminal cannot reorder the text around it. Everything else,
  /// characters outside the Basic Multilingual Plane included, is copied as UTF-8. Hex digits
  /// are lowercase.
  public static func appendEscaped(_ text: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
    let count = text.count
    var runStart = 0
    var index = 0
    @inline(__always) func flush(_ end: Int) {
      if end > runStart { output.append(contentsOf: UnsafeBufferPointer(rebasing: text[runStart..<end])) }
    }
    while index < count {
      // Eight bytes at a step while none of them needs a look (``needsLook(_:)``): most of
      // what `explain` writes is plain ASCII.
      if let base = text.baseAddress {
        while index + 8 <= count, !needsLook(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)) {
          index += 8
        }
        if index >= count { break }
      }
      let byte = text[index]
      // Printable ASCII other than `"` and `\` never needs a look.
      if byte >= 0x20 && byte < 0x7F && byte != 0x22 && byte != 0x5C {
        index += 1
        continue
      }
      var scalar: UInt32
      var width = 1
      switch byte {
      case 0x22, 0x5C:
        flush(index)
        output.append(UInt8(ascii: "\\"))
        output.append(byte)
        index += 1
        runStart = index
        continue
      case 0x0A, 0x0D, 0x09:
        flush(index)
        output.append(UInt8(ascii: "\\"))
        output.append(byte == 0x0A ? UInt8(ascii: "n") : byte == 0x0D ? UInt8(ascii: "r") : UInt8(ascii: "t"))
        index += 1
        runStart = index
        continue
      case 0x00...0x1F, 0x7F:
        scalar = UInt32(byte)
      case 0xC2 where index + 1 < count && (0x80...0x9F).contains(text[index + 1]):
        // U+0080 to U+009F, the C1 controls.
        scalar = UInt32(text[index + 1])
        width = 2
      case 0xE2 where index + 2 < count && isEscapedAfterE2(text[index + 1], text[index + 2]):
        scalar = 0x2000 | UInt32(text[index + 1] & 0x3F) << 6 | UInt32(text[index + 2] & 0x3F)
        width = 3
      case 0xD8 where index + 1 < count && text[index + 1] == 0x9C:
        // U+061C, the Arabic letter mark.
        scalar = 0x061C
        width = 2
      default:
        index += 1
        continue
      }
      flush(index)
      output.append(UInt8(ascii: "\\"))
      output.append(UInt8(ascii: "u"))
      for shift in stride(from: 12, through: 0, by: -4) {
        output.append(hexDigits[Int(scalar >> UInt32(shift) & 0xF)])
      }
      index += width
      runStart = index
    }
    flush(count)
  }

  /// Whether any of eight bytes is one the byte loop must look at: a control (below 0x20, or
  /// 0x7F), `"`, `\`, or a byte of a multi-byte character (0x80 and up, which may be a C1
  /// control or a bidirectional mark). Each test is exact for "any of the eight" (the classic
  /// has-zero and has-less-than word tricks).
  @inline(__always)
  private static func needsLook(_ word: UInt64) -> Bool {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    @inline(__always) func hasZero(_ value: UInt64) -> UInt64 { (value &- ones) & ~value & highs }
    let below = (word &- 0x2020_2020_2020_2020) & ~word & highs
    let special =
      hasZero(word ^ 0x2222_2222_2222_2222) | hasZero(word ^ 0x5C5C_5C5C_5C5C_5C5C)
      | hasZero(word ^ 0x7F7F_7F7F_7F7F_7F7F)
    return (word & highs) | below | special != 0
  }

  /// Whether the three-byte UTF-8 sequence `E2 second third` is one that is escaped: U+200E,
  /// U+200F, U+2028 to U+202E, U+2066 to U+2069.
  @inline(__always)
  private static func isEscapedAfterE2(_ second: UInt8, _ third: UInt8) -> Bool {
    switch second {
    case 0x80: third == 0x8E || third == 0x8F || (0xA8...0xAE).contains(third)
    case 0x81: (0xA6...0xA9).contains(third)
    default: false
    }
  }

  private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
}

/// A position in a source text, 1-based, with the byte offset it was computed from.
public struct TextLocation: Equatable, Sendable, Codable, CustomStringConvertible {
  /// 1-based line number.
  public var line: Int
  /// 1-based column, counted in Unicode scalars from the start of the line.
  public var column: Int
  /// 0-based byte offset into the source.
  public var offset: Int
  /// The text the line and column count in when it is not the file its record names but a text
  /// written inside it, such as `"the payload string"` of a scenario's push (whose first
  /// character is line 1, column 1); nil for the file itself. Printers say it after the place:
  /// `1:23 of the payload string`.
  public var within: String?

  /// Creates a location.
  public init(line: Int, column: Int, offset: Int, within: String? = nil) {
    self.line = line
    self.column = column
    self.offset = offset
    self.within = within
  }

  /// Computes the line and column of a byte offset.
  ///
  /// Columns count Unicode scalars (not bytes), so a message points at the same place an editor
  /// does. This walks the text up to `offset`; it is only called when something is reported.
  public static func of(offset: Int, in bytes: UnsafeBufferPointer<UInt8>, firstLine: Int = 1)
    -> TextLocation
  {
    let limit = min(max(offset, 0), bytes.count)
    var line = firstLine
    var column = 1
    var index = 0
    // A byte order mark is no column: the scanner passes over it, and editors show none (every
    // column of a file that began with one was one too far; found by an exploratory test).
    if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = min(3, limit) }
    while index < limit {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\n") {
        line += 1
        column = 1
      } else if byte & 0xC0 != 0x80 {
        // Count lead bytes only, so a multi-byte scalar advances one column.
        column += 1
      }
      index += 1
    }
    return TextLocation(line: line, column: column, offset: limit)
  }

  /// Computes the location of a byte offset in an array of bytes.
  public static func of(offset: Int, in bytes: [UInt8], firstLine: Int = 1) -> TextLocation {
    bytes.withUnsafeBufferPointer { of(offset: offset, in: $0, firstLine: firstLine) }
  }

  /// Computes the location of a byte offset (relative to the slice's start) in a slice.
  public static func of(offset: Int, in bytes: ArraySlice<UInt8>, firstLine: Int = 1) -> TextLocation {
    bytes.withUnsafeBufferPointer { of(offset: offset, in: $0, firstLine: firstLine) }
  }

  public var description: String { "\(line):\(column)" }

  /// `3:12`, or `1:23 of the payload string` for a text written inside another file.
  public var place: String { within.map { "\(line):\(column) of \($0)" } ?? description }
}

/// Why a text is not valid JSON, with where and what to do about it.
public struct JSONSyntaxError: Error, Equatable, Sendable {
  /// The kind of mistake; its raw value is the stable diagnostic code.
  public enum Kind: String, Sendable, CaseIterable {
    case emptyInput = "EmptyInput"
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
    case controlCharacter = "ControlCharacterInString"
    case invalidEscape = "InvalidEscape"
    case invalidUTF8 = "InvalidUTF8"
    case invalidNumber = "InvalidNumber"
    case nonStandardLiteral = "NonStandardLiteral"
    case trailingGarbage = "TrailingGarbage"
    case nestingTooDeep = "NestingTooDeep"
    case documentTooLarge = "DocumentTooLarge"
  }

  /// The kind of mistake.
  public var kind: Kind
  /// The byte offset where the scanner stopped.
  public var offset: Int
  /// What is wrong, in one sentence.
  public var message: String
  /// What to do about it.
  public var hint: String

  /// Creates a syntax error.
  public init(_ kind: Kind, at offset: Int, _ message: String, hint: String) {
    self.kind = kind
    self.offset = offset
    self.message = message
    self.hint = hint
  }
}

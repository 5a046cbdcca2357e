/// A validating JSON scanner over UTF-8 bytes (RFC 8259, strictly).
///
/// It checks every byte (UTF-8 included), builds a ``JSONToken`` tape without copying any text,
/// and on the first mistake throws a ``JSONSyntaxError`` that says what is wrong and how to fix
/// it: trailing and missing commas, curly and single quotes, comments, unquoted keys, raw
/// control characters, `NaN`, trailing garbage and invalid UTF-8 each get their own kind.
///
/// Foundation's decoders are not used: they are an order of magnitude slower here and accept
/// malformed input such as trailing commas (see docs/DECISIONS.md).
public enum JSONScanner {
  /// The deepest nesting of arrays and objects accepted. APNs payloads are shallow; a deeper
  /// document is almost certainly hostile, and the limit keeps recursion bounded.
  public static let defaultMaxDepth = 64

  /// Scans a complete JSON text into `tokens`, replacing what they held.
  ///
  /// - Parameters:
  ///   - bytes: the UTF-8 text; a leading byte-order mark is skipped.
  ///   - tokens: the tape to fill; its capacity is reused.
  ///   - maxDepth: the nesting limit.
  ///   - firstLine: the line the text starts on in its file (a capture's line), for the places
  ///     messages and hints name ("remove the comma at line 435, column 76").
  /// - Throws: ``JSONSyntaxError`` for the first mistake found.
  public static func scan(
    _ bytes: UnsafeBufferPointer<UInt8>, into tokens: inout [JSONToken],
    maxDepth: Int = defaultMaxDepth, firstLine: Int = 1
  ) throws(JSONSyntaxError) {
    tokens.removeAll(keepingCapacity: true)
    guard bytes.count < Int(UInt32.max) else {
      throw JSONSyntaxError(
        .documentTooLarge, at: 0, "the document is \(bytes.count) bytes, over the 4 GiB limit",
        hint: "split the input into smaller documents")
    }
    guard let base = bytes.baseAddress, !bytes.isEmpty else {
      throw JSONSyntaxError(
        .emptyInput, at: 0, "the input is empty", hint: "a payload is a JSON object such as {\"aps\": {}}")
    }
    var parser = Parser(base: base, count: bytes.count, maxDepth: maxDepth, firstLine: firstLine)
    swap(&parser.tokens, &tokens)
    defer { swap(&parser.tokens, &tokens) }
    try parser.parseDocument()
  }

  /// Scans a JSON text held in an array.
  public static func scan(
    _ bytes: [UInt8], into tokens: inout [JSONToken], maxDepth: Int = defaultMaxDepth
  ) throws(JSONSyntaxError) {
    let result: Result<Void, JSONSyntaxError> = bytes.withUnsafeBufferPointer { buffer in
      do throws(JSONSyntaxError) {
        try scan(buffer, into: &tokens, maxDepth: maxDepth)
        return .success(())
      } catch {
        return .failure(error)
      }
    }
    try result.get()
  }
}

private let quote = UInt8(ascii: "\"")
private let backslash = UInt8(ascii: "\\")
private let comma = UInt8(ascii: ",")
private let colon = UInt8(ascii: ":")
private let openBrace = UInt8(ascii: "{")
private let closeBrace = UInt8(ascii: "}")
private let openBracket = UInt8(ascii: "[")
private let closeBracket = UInt8(ascii: "]")

/// The recursive-descent core. Reads through a raw pointer: every access is bounds-checked by
/// hand against `count`, which is what makes the scanner fast.
private struct Parser {
  let base: UnsafePointer<UInt8>
  let count: Int
  let maxDepth: Int
  /// The text's first line in its file, for the places messages name.
  let firstLine: Int
  var position = 0
  var tokens: [JSONToken] = []

  init(base: UnsafePointer<UInt8>, count: Int, maxDepth: Int, firstLine: Int) {
    self.base = base
    self.count = count
    self.maxDepth = maxDepth
    self.firstLine = firstLine
  }

  mutating func parseDocument() throws(JSONSyntaxError) {
    // A UTF-8 byte-order mark is tolerated at the very start (RFC 8259 §8.1 allows ignoring it).
    if count >= 3, base[0] == 0xEF, base[1] == 0xBB, base[2] == 0xBF { position = 3 }
    skipWhitespace()
    if position == count {
      throw JSONSyntaxError(
        .emptyInput, at: position, "the input holds only whitespace",
        hint: "a payload is a JSON object such as {\"aps\": {}}")
    }
    try parseValue(depth: 0)
    skipWhitespace()
    if position < count {
      throw JSONSyntaxError(
        .trailingGarbage, at: position,
        "unexpected \(describe(at: position)) after the end of the JSON value",
        hint:
          "a payload is exactly one JSON object: remove what follows it, or look for a '}' that closes the object too early"
      )
    }
  }

  @inline(__always)
  mutating func skipWhitespace() {
    while position < count {
      switch base[position] {
      case 0x20, 0x0A, 0x0D, 0x09: position += 1
      default: return
      }
    }
  }

  mutating func parseValue(depth: Int) throws(JSONSyntaxError) {
    guard position < count else {
      throw JSONSyntaxError(
        .unexpectedEnd, at: position, "the input ends where a value was expected",
        hint: "the file may be truncated: complete the value and close every '{' and '['")
    }
    let byte = base[position]
    switch byte {
    case quote: try parseString()
    case openBrace: try parseObject(depth: depth + 1)
    case openBracket: try parseArray(depth: depth + 1)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try parseNumber()
    case UInt8(ascii: "t"): try parseLiteral("true", kind: .true)
    case UInt8(ascii: "f"): try parseLiteral("false", kind: .false)
    case UInt8(ascii: "n"): try parseLiteral("null", kind: .null)
    default: throw unexpectedValueStart()
    }
  }

  /// Explains a byte that cannot start a value.
  func unexpectedValueStart() -> JSONSyntaxError {
    let byte = base[position]
    if let smart = smartQuoteLength(at: position), smart > 0 {
      return JSONSyntaxError(
        .smartQuotes, at: position, "curly quote \(describe(at: position)) where a value was expected",
        hint: "JSON needs straight double quotes (\"); turn off smart quotes in your editor and retype them")
    }
    switch byte {
    case UInt8(ascii: "'"):
      return JSONSyntaxError(
        .singleQuotes, at: position, "single-quoted string",
        hint: "JSON strings use double quotes: write \"text\", not 'text'")
    case UInt8(ascii: "/"):
      return JSONSyntaxError(
        .comment, at: position, "comment in JSON", hint: "JSON has no comments: delete the comment")
    case UInt8(ascii: "N"), UInt8(ascii: "I"), UInt8(ascii: "u"):
      return JSONSyntaxError(
        .nonStandardLiteral, at: position, "\(word(at: position)) is not a JSON value",
        hint: "JSON has no NaN, Infinity or undefined: use a number, a string or null")
    case UInt8(ascii: "+"), UInt8(ascii: "."):
      return JSONSyntaxError(
        .invalidNumber, at: position, "a number cannot start with '\(Character(Unicode.Scalar(byte)))'",
        hint: "write numbers like 1, -1, 0.5 or 1e3")
    case closeBrace, closeBracket, comma:
      return JSONSyntaxError(
        .unexpectedCharacter, at: position, "expected a value but found \(describe(at: position))",
        hint: "a value (string, number, object, array, true, false or null) is missing here")
    default:
      if byte >= 0x80 && utf8SequenceLength(at: position) == nil {
        return invalidUTF8(at: position)
      }
      return JSONSyntaxError(
        .unexpectedCharacter, at: position, "expected a value but found \(describe(at: position))",
        hint: isIdentifierStart(byte)
          ? "text must be a string in double quotes: \"\(word(at: position))\""
          : "a value (string, number, object, array, true, false or null) must start here")
    }
  }

  mutating func parseLiteral(_ literal: StaticString, kind: JSONToken.Kind) throws(JSONSyntaxError) {
    let length = literal.utf8CodeUnitCount
    let text = literal.utf8Start
    var matched = position + length <= count
    if matched {
      for offset in 0..<length where base[position + offset] != text[offset] {
        matched = false
        break
      }
    }
    // `truex` or `nullable` is not a literal followed by garbage; report the whole word.
    if matched, position + length < count, isIdentifierContinue(base[position + length]) {
      matched = false
    }
    guard matched else {
      throw JSONSyntaxError(
        .unexpectedCharacter, at: position, "\(word(at: position)) is not a JSON value",
        hint: "JSON literals are lowercase true, false and null; text must be in double quotes")
    }
    let start = position
    position += length
    append(kind, flags: 0, start: start, end: position)
  }

  @inline(__always)
  mutating func append(_ kind: JSONToken.Kind, flags: UInt8, start: Int, end: Int) {
    let index = tokens.count
    tokens.append(
      JSONToken(
        kind: kind, flags: flags, start: UInt32(truncatingIfNeeded: start),
        end: UInt32(truncatingIfNeeded: end), next: UInt32(truncatingIfNeeded: index + 1), count: 0))
  }

  mutating func parseObject(depth: Int) throws(JSONSyntaxError) {
    let open = position
    guard depth <= maxDepth else { throw nestingTooDeep() }
    let index = tokens.count
    append(.object, flags: 0, start: open, end: open)
    position += 1
    var members: UInt32 = 0
    skipWhitespace()
    if position < count, base[position] == closeBrace {
      position += 1
      finishContainer(index, end: position, count: 0)
      return
    }
    var lastComma = -1
    while true {
      skipWhitespace()
      guard position < count else { throw unclosed("object", openedAt: open) }
      let byte = base[position]
      if byte != quote {
        throw badKey(lastComma: lastComma, open: open)
      }
      try parseString()
      skipWhitespace()
      guard position < count else { throw unclosed("object", openedAt: open) }
      guard base[position] == colon else {
        throw JSONSyntaxError(
          .missingColon, at: position, "expected ':' after the key but found \(describe(at: position))",
          hint: "write each member as \"key\": value")
      }
      position += 1
      skipWhitespace()
      if position < count, base[position] == comma || base[position] == closeBrace {
        throw JSONSyntaxError(
          .unexpectedCharacter, at: position, "the key has no value",
          hint: "put a value after the ':' (a string, number, object, array, true, false or null)")
      }
      try parseValue(depth: depth)
      members += 1
      skipWhitespace()
      guard position < count else { throw unclosed("object", openedAt: open) }
      switch base[position] {
      case comma:
        lastComma = position
        position += 1
      case closeBrace:
        position += 1
        finishContainer(index, end: position, count: members)
        return
      case quote:
        throw JSONSyntaxError(
          .missingComma, at: position, "expected ',' or '}' after a member but found a new key",
          hint: "add a comma after the previous value")
      default:
        if smartQuoteLength(at: position) != nil || isIdentifierStart(base[position])
          || base[position] == UInt8(ascii: "'")
        {
          throw JSONSyntaxError(
            .missingComma, at: position,
            "expected ',' or '}' after a member but found \(describe(at: position))",
            hint: "add a comma after the previous value, and quote keys with straight double quotes")
        }
        throw JSONSyntaxError(
          .unexpectedCharacter, at: position,
          "expected ',' or '}' after a member but found \(describe(at: position))",
          hint: base[position] == closeBracket
            ? "this ']' does not match the '{' opened at \(location(of: open)): close the object with '}'"
            : "separate members with ',' and close the object with '}'")
      }
    }
  }

  /// Explains a byte found where an object key should start.
  func badKey(lastComma: Int, open: Int) -> JSONSyntaxError {
    let byte = base[position]
    if byte == closeBrace && lastComma >= 0 {
      return JSONSyntaxError(
        .trailingComma, at: position, "trailing comma before '}'",
        hint: "remove the comma at \(location(of: lastComma)) (JSON allows no trailing commas)")
    }
    if smartQuoteLength(at: position) != nil {
      return JSONSyntaxError(
        .smartQuotes, at: position, "curly quote \(describe(at: position)) around a key",
        hint: "JSON needs straight double quotes (\"); turn off smart quotes in your editor and retype them")
    }
    switch byte {
    case UInt8(ascii: "'"):
      return JSONSyntaxError(
        .singleQuotes, at: position, "key in single quotes",
        hint: "JSON keys use double quotes: write \"key\", not 'key'")
    case UInt8(ascii: "/"):
      return JSONSyntaxError(
        .comment, at: position, "comment in JSON", hint: "JSON has no comments: delete the comment")
    case comma:
      return JSONSyntaxError(
        .unexpectedCharacter, at: position, "two commas in a row",
        hint: "remove the extra comma")
    default:
      if isIdentifierStart(byte) {
        return JSONSyntaxError(
          .unquotedKey, at: position, "key \(word(at: position)) is not in double quotes",
          hint: "JSON keys are strings: write \"\(word(at: position))\"")
      }
      if byte >= 0x80 && utf8SequenceLength(at: position) == nil {
        return invalidUTF8(at: position)
      }
      return JSONSyntaxError(
        .unexpectedCharacter, at: position, "expected a key in double quotes but found \(describe(at: position))",
        hint: "object members are written \"key\": value")
    }
  }

  mutating func parseArray(depth: Int) throws(JSONSyntaxError) {
    let open = position
    guard depth <= maxDepth else { throw nestingTooDeep() }
    let index = tokens.count
    append(.array, flags: 0, start: open, end: open)
    position += 1
    var elements: UInt32 = 0
    skipWhitespace()
    if position < count, base[position] == closeBracket {
      position += 1
      finishContainer(index, end: position, count: 0)
      return
    }
    while true {
      skipWhitespace()
      guard position < count else { throw unclosed("array", openedAt: open) }
      if base[position] == closeBracket && elements > 0 {
        throw JSONSyntaxError(
          .trailingComma, at: position, "trailing comma before ']'",
          hint: "remove the comma after the last element (JSON allows no trailing commas)")
      }
      try parseValue(depth: depth)
      elements += 1
      skipWhitespace()
      guard position < count else { throw unclosed("array", openedAt: open) }
      switch base[position] {
      case comma:
        position += 1
      case closeBracket:
        position += 1
        finishContainer(index, end: position, count: elements)
        return
      default:
        let byte = base[position]
        let startsValue =
          byte == quote || byte == openBrace || byte == openBracket || byte == UInt8(ascii: "-")
          || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
        if startsValue {
          throw JSONSyntaxError(
            .missingComma, at: position, "expected ',' or ']' after an element but found \(describe(at: position))",
            hint: "add a comma between the elements")
        }
        throw JSONSyntaxError(
          .unexpectedCharacter, at: position,
          "expected ',' or ']' after an element but found \(describe(at: position))",
          hint: byte == closeBrace
            ? "this '}' does not match the '[' opened at \(location(of: open)): close the array with ']'"
            : "separate elements with ',' and close the array with ']'")
      }
    }
  }

  @inline(__always)
  mutating func finishContainer(_ index: Int, end: Int, count: UInt32) {
    tokens[index].end = UInt32(truncatingIfNeeded: end)
    tokens[index].next = UInt32(truncatingIfNeeded: tokens.count)
    tokens[index].count = count
  }

  mutating func parseString() throws(JSONSyntaxError) {
    let start = position
    // The cursor lives in a local so it stays in a register; `position` (a stored property of
    // an inout struct) is written back only when the scan leaves this function.
    var cursor = position + 1
    var flags: UInt8 = 0
    // Locals too: through `self` they are reloaded after every store.
    let base = self.base
    let count = self.count
    while true {
      // The fast path: eight bytes at a time while none is a quote, backslash, control or
      // non-ASCII byte, then straight to the first byte that is (the lowest flagged byte of the
      // mask is exact; only bytes above it can be false positives).
      while cursor &+ 8 <= count {
        let mask = attentionMask(UnsafeRawPointer(base + cursor).loadUnaligned(as: UInt64.self))
        if mask != 0 {
          cursor &+= mask.trailingZeroBitCount &>> 3
          break
        }
        cursor &+= 8
      }
      while cursor < count {
        let byte = base[cursor]
        if byte == quote || byte == backslash || byte < 0x20 || byte >= 0x80 { break }
        cursor += 1
      }
      guard cursor < count else {
        position = cursor
        throw JSONSyntaxError(
          .unterminatedString, at: start, "the string starting here never ends",
          hint: "add the closing double quote (\")")
      }
      let byte = base[cursor]
      if byte == quote {
        position = cursor + 1
        append(.string, flags: flags, start: start, end: position)
        return
      }
      if byte == backslash {
        flags |= JSONToken.hasEscapes
        // `\uXXXX` (most escapes in real captures) and the one-letter escapes are checked
        // here; anything malformed goes to `parseEscape` for its message.
        if cursor + 6 <= count, base[cursor + 1] == UInt8(ascii: "u"), isHexDigit(base[cursor + 2]),
          isHexDigit(base[cursor + 3]), isHexDigit(base[cursor + 4]), isHexDigit(base[cursor + 5])
        {
          cursor += 6
          continue
        }
        position = cursor
        try parseEscape()
        cursor = position
        continue
      }
      if byte < 0x20 {
        position = cursor
        if byte == 0x0A || byte == 0x0D {
          throw JSONSyntaxError(
            .controlCharacter, at: position, "line break inside a string",
            hint: "a string cannot span lines: close it with '\"' on the same line, or write the break as \\n")
        }
        throw JSONSyntaxError(
          .controlCharacter, at: position,
          "control character U+\(hex(UInt32(byte), width: 4)) inside a string",
          hint: byte == 0x09 ? "write a tab as \\t" : "escape it as \\u\(hex(UInt32(byte), width: 4))")
      }
      // A run of non-ASCII text: validate sequence after sequence without going back to the
      // word loop, which would stop again at the very next byte.
      repeat {
        guard let length = utf8SequenceLength(at: cursor) else { throw invalidUTF8(at: cursor) }
        cursor += length
      } while cursor < count && base[cursor] >= 0x80
    }
  }

  mutating func parseEscape() throws(JSONSyntaxError) {
    let escapeStart = position
    guard position + 1 < count else {
      throw JSONSyntaxError(
        .unterminatedString, at: position, "the input ends inside an escape sequence",
        hint: "complete the escape and close the string")
    }
    switch base[position + 1] {
    case quote, backslash, UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
      UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
      position += 2
    case UInt8(ascii: "u"):
      guard position + 6 <= count else {
        throw JSONSyntaxError(
          .invalidEscape, at: escapeStart, "\\u must be followed by four hex digits",
          hint: "write a code point as \\u00e9")
      }
      for offset in 2..<6 where hexValue(base[position + offset]) == nil {
        throw JSONSyntaxError(
          .invalidEscape, at: escapeStart, "\\u must be followed by four hex digits",
          hint: "write a code point as \\u00e9")
      }
      position += 6
    default:
      throw JSONSyntaxError(
        .invalidEscape, at: escapeStart, "unknown escape \\\(describeByte(base[position + 1]))",
        hint: "valid escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX; write a literal backslash as \\\\")
    }
  }

  mutating func parseNumber() throws(JSONSyntaxError) {
    let start = position
    var flags: UInt8 = JSONToken.isInteger
    if base[position] == UInt8(ascii: "-") {
      flags |= JSONToken.isNegative
      position += 1
    }
    guard position < count, isDigit(base[position]) else {
      if position < count, base[position] == UInt8(ascii: "I") {
        throw JSONSyntaxError(
          .nonStandardLiteral, at: start, "-Infinity is not a JSON value",
          hint: "JSON has no infinities: use a large number or null")
      }
      throw JSONSyntaxError(
        .invalidNumber, at: start, "'-' must be followed by a digit", hint: "write numbers like -1 or -0.5")
    }
    if base[position] == UInt8(ascii: "0") {
      position += 1
      if position < count, isDigit(base[position]) {
        throw JSONSyntaxError(
          .invalidNumber, at: start, "a number cannot have leading zeros",
          hint: "write 7, not 07; for an identifier such as a zip code use a string")
      }
    } else {
      while position < count, isDigit(base[position]) { position += 1 }
    }
    if position < count, base[position] == UInt8(ascii: ".") {
      flags &= ~JSONToken.isInteger
      position += 1
      guard position < count, isDigit(base[position]) else {
        throw JSONSyntaxError(
          .invalidNumber, at: start, "a decimal point must be followed by a digit",
          hint: "write 1.0 or 1, not 1.")
      }
      while position < count, isDigit(base[position]) { position += 1 }
    }
    if position < count, base[position] | 0x20 == UInt8(ascii: "e") {
      flags &= ~JSONToken.isInteger
      position += 1
      if position < count, base[position] == UInt8(ascii: "+") || base[position] == UInt8(ascii: "-") {
        position += 1
      }
      guard position < count, isDigit(base[position]) else {
        throw JSONSyntaxError(
          .invalidNumber, at: start, "an exponent must have digits", hint: "write 1e3 or 1e-3")
      }
      while position < count, isDigit(base[position]) { position += 1 }
    }
    append(.number, flags: flags, start: start, end: position)
  }

  // MARK: - Errors and descriptions

  func unclosed(_ what: String, openedAt open: Int) -> JSONSyntaxError {
    JSONSyntaxError(
      .unexpectedEnd, at: position,
      "the input ends inside an \(what) (opened at \(location(of: open)))",
      hint: "the file may be truncated: close every '\(what == "object" ? "{" : "[")' that was opened")
  }

  /// "line L, column C" of a byte offset, for messages that point at a second place.
  func location(of offset: Int) -> String {
    let location = TextLocation.of(
      offset: offset, in: UnsafeBufferPointer(start: base, count: count), firstLine: firstLine)
    return "line \(location.line), column \(location.column)"
  }

  func nestingTooDeep() -> JSONSyntaxError {
    JSONSyntaxError(
      .nestingTooDeep, at: position, "objects and arrays are nested deeper than \(maxDepth) levels",
      hint: "APNs payloads are shallow; flatten the structure")
  }

  func invalidUTF8(at offset: Int) -> JSONSyntaxError {
    JSONSyntaxError(
      .invalidUTF8, at: offset, "invalid UTF-8 byte 0x\(hex(UInt32(base[offset]), width: 2))",
      hint: "save the file as UTF-8 (APNs and iOS read payloads as UTF-8)")
  }

  /// The length of a curly quote (U+2018, U+2019, U+201C, U+201D) at `offset`, if one is there.
  func smartQuoteLength(at offset: Int) -> Int? {
    guard offset + 2 < count, base[offset] == 0xE2, base[offset + 1] == 0x80 else { return nil }
    switch base[offset + 2] {
    case 0x98, 0x99, 0x9C, 0x9D: return 3
    default: return nil
    }
  }

  /// The length of a valid UTF-8 sequence starting at `offset`, or nil if it is not valid
  /// (overlong forms, surrogates and code points past U+10FFFF are all rejected).
  @inline(__always)
  func utf8SequenceLength(at offset: Int) -> Int? {
    let lead = base[offset]
    func continuation(_ index: Int, _ low: UInt8 = 0x80, _ high: UInt8 = 0xBF) -> Bool {
      index < count && base[index] >= low && base[index] <= high
    }
    switch lead {
    case 0xC2...0xDF:
      return continuation(offset + 1) ? 2 : nil
    case 0xE0:
      return continuation(offset + 1, 0xA0) && continuation(offset + 2) ? 3 : nil
    case 0xE1...0xEC, 0xEE...0xEF:
      return continuation(offset + 1) && continuation(offset + 2) ? 3 : nil
    case 0xED:
      return continuation(offset + 1, 0x80, 0x9F) && continuation(offset + 2) ? 3 : nil
    case 0xF0:
      return continuation(offset + 1, 0x90) && continuation(offset + 2) && continuation(offset + 3)
        ? 4 : nil
    case 0xF1...0xF3:
      return continuation(offset + 1) && continuation(offset + 2) && continuation(offset + 3)
        ? 4 : nil
    case 0xF4:
      return continuation(offset + 1, 0x80, 0x8F) && continuation(offset + 2)
        && continuation(offset + 3) ? 4 : nil
    default:
      return nil
    }
  }

  /// The identifier-like word at `offset`, for messages such as "NaN is not a JSON value".
  func word(at offset: Int) -> String {
    var end = offset
    while end < count, end - offset < 24, isIdentifierContinue(base[end]) { end += 1 }
    if end == offset { return describe(at: offset) }
    return String(decoding: UnsafeBufferPointer(start: base + offset, count: end - offset), as: UTF8.self)
  }

  /// A short, printable description of the character at `offset`.
  func describe(at offset: Int) -> String {
    guard offset < count else { return "the end of the input" }
    let byte = base[offset]
    if byte < 0x80 { return describeByte(byte) }
    guard let length = utf8SequenceLength(at: offset) else {
      return "byte 0x\(hex(UInt32(byte), width: 2))"
    }
    let text = String(decoding: UnsafeBufferPointer(start: base + offset, count: length), as: UTF8.self)
    let scalar = text.unicodeScalars.first.map { hex($0.value, width: 4) } ?? "?"
    return "'\(text)' (U+\(scalar))"
  }

  func describeByte(_ byte: UInt8) -> String {
    switch byte {
    case 0x20...0x7E: return "'\(Character(Unicode.Scalar(byte)))'"
    default: return "U+\(hex(UInt32(byte), width: 4))"
    }
  }
}

/// The high bit of each byte of a little-endian word that is `"`, `\\`, below 0x20, or 0x80
/// and above. The lowest set bit is exact; bits above it may be false positives (borrows).
@inline(__always)
private func attentionMask(_ word: UInt64) -> UInt64 {
  let ones: UInt64 = 0x0101_0101_0101_0101
  let highs: UInt64 = 0x8080_8080_8080_8080
  let quotes = word ^ (ones &* 0x22)
  let backslashes = word ^ (ones &* 0x5C)
  let hasQuote = (quotes &- ones) & ~quotes & highs
  let hasBackslash = (backslashes &- ones) & ~backslashes & highs
  let hasControl = (word &- ones &* 0x20) & ~word & highs
  return hasQuote | hasBackslash | hasControl | (word & highs)
}

@inline(__always)
private func isHexDigit(_ byte: UInt8) -> Bool {
  let lower = byte | 0x20
  return (byte >= 0x30 && byte <= 0x39) || (lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "f"))
}

@inline(__always)
private func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

private func isIdentifierStart(_ byte: UInt8) -> Bool {
  (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z")) || byte == UInt8(ascii: "_")
    || byte == UInt8(ascii: "$")
}

private func isIdentifierContinue(_ byte: UInt8) -> Bool {
  isIdentifierStart(byte) || isDigit(byte) || byte == UInt8(ascii: "-")
}

/// The value of one hex digit, or nil.
@inline(__always)
func hexValue(_ byte: UInt8) -> UInt32? {
  switch byte {
  case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
  case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
  case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
  default: nil
  }
}

/// Uppercase hex with zero padding.
func hex(_ value: UInt32, width: Int) -> String {
  let digits = String(value, radix: 16, uppercase: true)
  return String(repeating: "0", count: max(0, width - digits.count)) + digits
}

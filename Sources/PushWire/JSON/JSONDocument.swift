/// A scanned JSON document: its bytes and its token tape, read without copying text.
///
/// Values are addressed by tape index; the root is index 0. Strings are decoded only when
/// asked for, and keys can be compared against literals without decoding.
public struct JSONDocument: Sendable {
  /// The source bytes. Token offsets are relative to `bytes.startIndex`.
  public let bytes: ArraySlice<UInt8>
  /// The token tape.
  public internal(set) var tokens: [JSONToken]
  /// The line number of the first byte (a capture's lines keep their file line numbers).
  public let firstLine: Int

  /// Scans `bytes` as one JSON text.
  ///
  /// - Throws: ``JSONSyntaxError`` for the first mistake.
  public init(bytes: [UInt8], firstLine: Int = 1, maxDepth: Int = JSONScanner.defaultMaxDepth)
    throws(JSONSyntaxError)
  {
    var tokens: [JSONToken] = []
    tokens.reserveCapacity(64)
    try self.init(slice: bytes[...], firstLine: firstLine, tokens: &tokens, maxDepth: maxDepth)
  }

  /// Scans part of a larger buffer without copying it, filling (and taking) a reusable tape.
  ///
  /// Give the tape back with ``recycleTokens(into:)`` when done, so the next document reuses
  /// its storage.
  public init(
    slice: ArraySlice<UInt8>, firstLine: Int = 1, tokens: inout [JSONToken],
    maxDepth: Int = JSONScanner.defaultMaxDepth
  ) throws(JSONSyntaxError) {
    let result: Result<Void, JSONSyntaxError> = slice.withUnsafeBufferPointer { buffer in
      do throws(JSONSyntaxError) {
        try JSONScanner.scan(buffer, into: &tokens, maxDepth: maxDepth, firstLine: firstLine)
        return .success(())
      } catch {
        return .failure(error)
      }
    }
    try result.get()
    self.bytes = slice
    self.tokens = []
    swap(&self.tokens, &tokens)
    self.firstLine = firstLine
  }

  /// Hands the tape's storage back for reuse by the next document.
  public mutating func recycleTokens(into scratch: inout [JSONToken]) {
    swap(&tokens, &scratch)
    tokens = []
  }

  /// Scans a string as one JSON text.
  public init(text: String) throws(JSONSyntaxError) {
    try self.init(bytes: Array(text.utf8))
  }

  /// The root value's index.
  public var root: Int { 0 }

  /// Lends a zero-copy view of the document to `body`.
  @inline(__always)
  public func withView<Result>(_ body: (JSONView) throws -> Result) rethrows -> Result {
    try tokens.withUnsafeBufferPointer { tokens in
      try bytes.withUnsafeBufferPointer { bytes in
        try body(JSONView(tokens: tokens, bytes: bytes, firstLine: firstLine))
      }
    }
  }

  /// The kind of the value at `index`.
  public func kind(_ index: Int) -> JSONToken.Kind { tokens[index].kind }
  /// The location of the value at `index` in the source.
  public func location(of index: Int) -> TextLocation { withView { $0.location(of: index) } }
  /// The location of a byte offset in the source.
  public func location(ofOffset offset: Int) -> TextLocation { withView { $0.location(ofOffset: offset) } }
  /// The members of the object at `index` as (key index, value index) pairs, in source order.
  public func members(of index: Int) -> [(key: Int, value: Int)] { withView { Array($0.members(of: index)) } }
  /// The elements of the array at `index`, as tape indices, in source order.
  public func elements(of index: Int) -> [Int] { withView { $0.elements(of: index) } }
  /// The member of an object with the given key (the first, if a key repeats).
  public func member(_ key: String, of index: Int) -> Int? { withView { $0.member(key, of: index) } }
  /// The decoded string at `index`, or nil if it is not a string.
  public func stringValue(_ index: Int) -> String? { withView { $0.stringValue(index) } }
  /// Decodes the string token at `index`.
  public func string(_ index: Int) -> String { withView { $0.string(index) } }
  /// The exact source text of the value at `index`.
  public func rawText(_ index: Int) -> String { withView { $0.rawText(index) } }
  /// The number at `index` as a Double, or nil if it is not a number.
  public func double(_ index: Int) -> Double? { withView { $0.double(index) } }
  /// The number at `index` as an Int, if it is a whole number that fits.
  public func integer(_ index: Int) -> Int? { withView { $0.integer(index) } }
  /// The boolean at `index`, or nil.
  public func bool(_ index: Int) -> Bool? { withView { $0.bool(index) } }
  /// Materialises the value at `index` as a ``JSONValue`` tree.
  public func value(_ index: Int) -> JSONValue { withView { $0.value(index) } }

  /// Resolves JSON escapes in a string body already checked by the scanner, writing UTF-8
  /// straight into the new string's storage.
  static func unescape(_ body: UnsafeBufferPointer<UInt8>) -> String {
    // Unescaping never makes text longer: \uXXXX (6 bytes) becomes at most 3 bytes, and a
    // surrogate pair (12 bytes) becomes 4.
    String(unsafeUninitializedCapacity: body.count) { output in
      var written = 0
      var index = 0
      @inline(__always) func put(_ byte: UInt8) {
        output[written] = byte
        written += 1
      }
      func hex4(_ at: Int) -> UInt32 {
        var value: UInt32 = 0
        for offset in 0..<4 { value = value << 4 | (hexValue(body[at + offset]) ?? 0) }
        return value
      }
      while index < body.count {
        let byte = body[index]
        guard byte == UInt8(ascii: "\\"), index + 1 < body.count else {
          put(byte)
          index += 1
          continue
        }
        let escaped = body[index + 1]
        index += 2
        switch escaped {
        case UInt8(ascii: "b"): put(0x08)
        case UInt8(ascii: "f"): put(0x0C)
        case UInt8(ascii: "n"): put(0x0A)
        case UInt8(ascii: "r"): put(0x0D)
        case UInt8(ascii: "t"): put(0x09)
        case UInt8(ascii: "u"):
          guard index + 4 <= body.count else { break }
          var code = hex4(index)
          index += 4
          if (0xD800...0xDBFF).contains(code), index + 6 <= body.count, body[index] == UInt8(ascii: "\\"),
            body[index + 1] == UInt8(ascii: "u")
          {
            let low = hex4(index + 2)
            if (0xDC00...0xDFFF).contains(low) {
              code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
              index += 6
            }
          }
          // A lone surrogate is not a scalar; it becomes U+FFFD.
          if (0xD800...0xDFFF).contains(code) { code = 0xFFFD }
          switch code {
          case 0..<0x80:
            put(UInt8(code))
          case 0x80..<0x800:
            put(UInt8(0xC0 | code >> 6))
            put(UInt8(0x80 | code & 0x3F))
          case 0x800..<0x10000:
            put(UInt8(0xE0 | code >> 12))
            put(UInt8(0x80 | code >> 6 & 0x3F))
            put(UInt8(0x80 | code & 0x3F))
          default:
            put(UInt8(0xF0 | code >> 18))
            put(UInt8(0x80 | code >> 12 & 0x3F))
            put(UInt8(0x80 | code >> 6 & 0x3F))
            put(UInt8(0x80 | code & 0x3F))
          }
        default: put(escaped)
        }
      }
      return written
    }
  }
}

/// The (key, value) tape indices of an object's members, in source order.
public struct MemberSequence: Sequence {
  let tokens: UnsafeBufferPointer<JSONToken>
  let object: Int

  public struct Iterator: IteratorProtocol {
    let tokens: UnsafeBufferPointer<JSONToken>
    var cursor: Int
    var remaining: UInt32

    public mutating func next() -> (key: Int, value: Int)? {
      guard remaining > 0 else { return nil }
      remaining -= 1
      let key = cursor
      let value = key + 1
      cursor = Int(tokens[value].next)
      return (key, value)
    }
  }

  public func makeIterator() -> Iterator {
    let token = tokens[object]
    return Iterator(tokens: tokens, cursor: object + 1, remaining: token.kind == .object ? token.count : 0)
  }
}

/// Whether `count` bytes at two addresses are equal: eight bytes at a time, then the rest.
@inline(__always)
func memoryEquals(_ lhs: UnsafePointer<UInt8>, _ rhs: UnsafePointer<UInt8>, _ count: Int) -> Bool {
  var index = 0
  while index + 8 <= count {
    if UnsafeRawPointer(lhs + index).loadUnaligned(as: UInt64.self)
      != UnsafeRawPointer(rhs + index).loadUnaligned(as: UInt64.self)
    {
      return false
    }
    index += 8
  }
  while index < count {
    if lhs[index] != rhs[index] { return false }
    index += 1
  }
  return true
}

/// A borrowed, zero-copy view of a ``JSONDocument``: its tape and bytes as raw buffers.
///
/// Every accessor of a document lives here. Reading through raw buffers involves no reference
/// counting, which is what the hot decoding paths need; ``JSONDocument/withView(_:)`` lends one.
/// A view must not outlive the closure it was lent to.
public struct JSONView {
  /// The token tape.
  public let tokens: UnsafeBufferPointer<JSONToken>
  /// The source bytes; token offsets index into them.
  public let bytes: UnsafeBufferPointer<UInt8>
  /// The line number of the first byte.
  public let firstLine: Int

  /// The root value's index.
  public var root: Int { 0 }

  /// The kind of the value at `index`.
  @inline(__always) public func kind(_ index: Int) -> JSONToken.Kind { tokens[index].kind }

  /// The location of the value at `index` in the source.
  public func location(of index: Int) -> TextLocation {
    TextLocation.of(offset: Int(tokens[index].start), in: bytes, firstLine: firstLine)
  }

  /// The location of a byte offset in the source.
  public func location(ofOffset offset: Int) -> TextLocation {
    TextLocation.of(offset: offset, in: bytes, firstLine: firstLine)
  }

  /// The members of the object at `index` as (key index, value index) pairs, in source order.
  public func members(of index: Int) -> MemberSequence {
    MemberSequence(tokens: tokens, object: index)
  }

  /// The elements of the array at `index`, as tape indices, in source order.
  public func elements(of index: Int) -> [Int] {
    var result: [Int] = []
    let token = tokens[index]
    guard token.kind == .array else { return result }
    result.reserveCapacity(Int(token.count))
    var cursor = index + 1
    for _ in 0..<token.count {
      result.append(cursor)
      cursor = Int(tokens[cursor].next)
    }
    return result
  }

  /// The member of an object with the given key (the first, if a key repeats).
  public func member(_ key: String, of index: Int) -> Int? {
    guard tokens[index].kind == .object else { return nil }
    for (keyIndex, valueIndex) in members(of: index) where stringEquals(keyIndex, key) {
      return valueIndex
    }
    return nil
  }

  /// Whether the string token at `index` equals `text`, comparing bytes where possible.
  public func stringEquals(_ index: Int, _ text: String) -> Bool {
    let token = tokens[index]
    guard token.kind == .string else { return false }
    if token.stringHasEscapes { return string(index) == text }
    let start = Int(token.start) + 1
    let length = Int(token.end) - 1 - start
    var text = text
    return text.withUTF8 { utf8 in
      guard utf8.count == length else { return false }
      guard let sourceBase = bytes.baseAddress, let textBase = utf8.baseAddress else { return length == 0 }
      return memoryEquals(sourceBase + start, textBase, length)
    }
  }

  /// The decoded string at `index`, or nil if it is not a string.
  public func stringValue(_ index: Int) -> String? {
    tokens[index].kind == .string ? string(index) : nil
  }

  /// Decodes the string token at `index` (escapes resolved; lone surrogates become U+FFFD).
  public func string(_ index: Int) -> String {
    let token = tokens[index]
    let start = Int(token.start) + 1
    let end = Int(token.end) - 1
    let slice = UnsafeBufferPointer(rebasing: bytes[start..<end])
    if !token.stringHasEscapes { return String(decoding: slice, as: UTF8.self) }
    return JSONDocument.unescape(slice)
  }

  /// The byte length of the decoded string at `index` (its UTF-8 size).
  public func stringByteCount(_ index: Int) -> Int {
    let token = tokens[index]
    if !token.stringHasEscapes { return Int(token.end - token.start) - 2 }
    return string(index).utf8.count
  }

  /// The exact source text of the value at `index`.
  public func rawText(_ index: Int) -> String {
    let token = tokens[index]
    return String(decoding: UnsafeBufferPointer(rebasing: bytes[Int(token.start)..<Int(token.end)]), as: UTF8.self)
  }

  /// The number at `index` as a Double, or nil if it is not a number.
  public func double(_ index: Int) -> Double? {
    let token = tokens[index]
    guard token.kind == .number else { return nil }
    return NumberParsing.double(UnsafeBufferPointer(rebasing: bytes[Int(token.start)..<Int(token.end)]))
  }

  /// The number at `index` as an Int, if it is an integer (`1` or `1.0`) that fits.
  public func integer(_ index: Int) -> Int? {
    let token = tokens[index]
    guard token.kind == .number else { return nil }
    if token.flags & JSONToken.isInteger != 0 {
      return NumberParsing.integer(UnsafeBufferPointer(rebasing: bytes[Int(token.start)..<Int(token.end)]))
    }
    guard let value = double(index), value.rounded() == value, abs(value) < 9.0e15 else { return nil }
    return Int(value)
  }

  /// The boolean at `index`, or nil if it is not `true` or `false`.
  public func bool(_ index: Int) -> Bool? {
    switch tokens[index].kind {
    case .true: true
    case .false: false
    default: nil
    }
  }

  /// Materialises the value at `index` as a ``JSONValue`` tree.
  public func value(_ index: Int) -> JSONValue {
    let token = tokens[index]
    switch token.kind {
    case .null: return .null
    case .true: return .bool(true)
    case .false: return .bool(false)
    case .string: return .string(string(index))
    case .number: return .number(JSONNumber(text: rawText(index), value: double(index) ?? 0))
    case .array: return .array(elements(of: index).map(value))
    case .object:
      return .object(members(of: index).map { JSONMember(key: string($0.key), value: value($0.value)) })
    }
  }

}

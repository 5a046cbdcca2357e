/// A scanned JSON document: its bytes and its token tape, read without copying text.
///
/// Values are addressed by tape index; the root is index 0. Strings are decoded only when
/// asked for, and keys can be compared against literals without decoding.
public struct JSONDocument: Sendable {
  /// The source bytes.
  public let bytes: [UInt8]
  /// The token tape.
  public let tokens: [JSONToken]
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
    try JSONScanner.scan(bytes, into: &tokens, maxDepth: maxDepth)
    self.bytes = bytes
    self.tokens = tokens
    self.firstLine = firstLine
  }

  /// Scans a string as one JSON text.
  public init(text: String) throws(JSONSyntaxError) {
    try self.init(bytes: Array(text.utf8))
  }

  /// The root value's index.
  public var root: Int { 0 }

  /// The kind of the value at `index`.
  @inlinable public func kind(_ index: Int) -> JSONToken.Kind { tokens[index].kind }

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
      return bytes.withUnsafeBufferPointer { source in
        guard let sourceBase = source.baseAddress, let textBase = utf8.baseAddress else {
          return length == 0
        }
        return memoryEquals(sourceBase + start, textBase, length)
      }
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
    return bytes.withUnsafeBufferPointer { buffer in
      let slice = UnsafeBufferPointer(rebasing: buffer[start..<end])
      if !token.stringHasEscapes { return String(decoding: slice, as: UTF8.self) }
      return JSONDocument.unescape(slice)
    }
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
    return String(decoding: bytes[Int(token.start)..<Int(token.end)], as: UTF8.self)
  }

  /// The number at `index` as a Double, or nil if it is not a number.
  public func double(_ index: Int) -> Double? {
    let token = tokens[index]
    guard token.kind == .number else { return nil }
    return bytes.withUnsafeBufferPointer { buffer in
      NumberParsing.double(UnsafeBufferPointer(rebasing: buffer[Int(token.start)..<Int(token.end)]))
    }
  }

  /// The number at `index` as an Int, if it is an integer (`1` or `1.0`) that fits.
  public func integer(_ index: Int) -> Int? {
    let token = tokens[index]
    guard token.kind == .number else { return nil }
    if token.flags & JSONToken.isInteger != 0 {
      return bytes.withUnsafeBufferPointer { buffer in
        NumberParsing.integer(UnsafeBufferPointer(rebasing: buffer[Int(token.start)..<Int(token.end)]))
      }
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

  /// Resolves JSON escapes in a string body already checked by the scanner.
  static func unescape(_ body: UnsafeBufferPointer<UInt8>) -> String {
    var scalars = String.UnicodeScalarView()
    var output: [UInt8] = []
    output.reserveCapacity(body.count)
    var index = 0
    func flush() {
      if !output.isEmpty {
        scalars.append(contentsOf: String(decoding: output, as: UTF8.self).unicodeScalars)
        output.removeAll(keepingCapacity: true)
      }
    }
    func hex4(_ at: Int) -> UInt32 {
      var value: UInt32 = 0
      for offset in 0..<4 { value = value << 4 | (hexValue(body[at + offset]) ?? 0) }
      return value
    }
    while index < body.count {
      let byte = body[index]
      guard byte == UInt8(ascii: "\\"), index + 1 < body.count else {
        output.append(byte)
        index += 1
        continue
      }
      let escaped = body[index + 1]
      index += 2
      switch escaped {
      case UInt8(ascii: "b"): output.append(0x08)
      case UInt8(ascii: "f"): output.append(0x0C)
      case UInt8(ascii: "n"): output.append(0x0A)
      case UInt8(ascii: "r"): output.append(0x0D)
      case UInt8(ascii: "t"): output.append(0x09)
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
        flush()
        scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
      default: output.append(escaped)
      }
    }
    flush()
    return String(scalars)
  }
}

/// The (key, value) tape indices of an object's members, in source order.
public struct MemberSequence: Sequence {
  let tokens: [JSONToken]
  let object: Int

  public struct Iterator: IteratorProtocol {
    let tokens: [JSONToken]
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

@inline(__always)
private func memoryEquals(_ lhs: UnsafePointer<UInt8>, _ rhs: UnsafePointer<UInt8>, _ count: Int) -> Bool {
  var index = 0
  while index < count {
    if lhs[index] != rhs[index] { return false }
    index += 1
  }
  return true
}

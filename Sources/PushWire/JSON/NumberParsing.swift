/// Converts JSON number spellings (already validated by the scanner) to values.
enum NumberParsing {
  /// Exact powers of ten representable in a Double (10^0 ... 10^22).
  private static let powersOfTen: [Double] = (0...22).map { exponent in
    var value = 1.0
    for _ in 0..<exponent { value *= 10 }
    return value
  }

  /// Parses a non-negative decimal integer written as ASCII digits only (a header value); nil
  /// for anything else or an overflow.
  static func decimal(_ text: UnsafeBufferPointer<UInt8>) -> Int? {
    guard !text.isEmpty, text.count <= 18 else { return nil }
    var value = 0
    for byte in text {
      guard byte >= 0x30 && byte <= 0x39 else { return nil }
      value = value * 10 + Int(byte - 0x30)
    }
    return value
  }

  /// Parses an integer spelling; nil if it overflows.
  static func integer(_ text: UnsafeBufferPointer<UInt8>) -> Int? {
    var index = 0
    var negative = false
    if text.first == UInt8(ascii: "-") {
      negative = true
      index = 1
    }
    var value = 0
    while index < text.count {
      let digit = Int(text[index] &- 0x30)
      guard digit >= 0 && digit <= 9 else { return nil }
      let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
      let (sum, overflow2) = times10.addingReportingOverflow(digit)
      if overflow1 || overflow2 { return nil }
      value = sum
      index += 1
    }
    return negative ? -value : value
  }

  /// Parses any JSON number spelling.
  ///
  /// Uses the exact fast path (a mantissa under 2^53 scaled by an exact power of ten, which is
  /// correctly rounded) for the common case, and the standard library otherwise.
  static func double(_ text: UnsafeBufferPointer<UInt8>) -> Double {
    var index = 0
    var negative = false
    if text.first == UInt8(ascii: "-") {
      negative = true
      index = 1
    }
    var mantissa: UInt64 = 0
    var digits = 0
    var exponent = 0
    while index < text.count, text[index] >= 0x30, text[index] <= 0x39 {
      if digits < 19 {
        mantissa = mantissa * 10 + UInt64(text[index] - 0x30)
        if mantissa != 0 { digits += 1 }
      } else {
        exponent += 1
      }
      index += 1
    }
    if index < text.count, text[index] == UInt8(ascii: ".") {
      index += 1
      while index < text.count, text[index] >= 0x30, text[index] <= 0x39 {
        if digits < 19 {
          mantissa = mantissa * 10 + UInt64(text[index] - 0x30)
          if mantissa != 0 { digits += 1 }
          exponent -= 1
        }
        index += 1
      }
    }
    if index < text.count, text[index] | 0x20 == UInt8(ascii: "e") {
      index += 1
      var exponentNegative = false
      if index < text.count, text[index] == UInt8(ascii: "+") || text[index] == UInt8(ascii: "-") {
        exponentNegative = text[index] == UInt8(ascii: "-")
        index += 1
      }
      var explicit = 0
      while index < text.count, text[index] >= 0x30, text[index] <= 0x39 {
        if explicit < 100_000 { explicit = explicit * 10 + Int(text[index] - 0x30) }
        index += 1
      }
      exponent += exponentNegative ? -explicit : explicit
    }
    if mantissa < (1 << 53), exponent >= -22, exponent <= 22 {
      let magnitude = Double(mantissa)
      let scaled =
        exponent >= 0 ? magnitude * powersOfTen[exponent] : magnitude / powersOfTen[-exponent]
      return negative ? -scaled : scaled
    }
    let spelling = String(decoding: text, as: UTF8.self)
    return Double(spelling) ?? (negative ? -.infinity : .infinity)
  }
}

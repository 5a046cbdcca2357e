/// Measures text in terminal columns, independent of the process locale.
///
/// Widths are defined on *normalised* text (see ``GlyphNormalizer``): a raw `Character` is
/// measured as the columns its normalised cells occupy, so `columns(of: "👩‍💻")` is 4 (two
/// 2-column cells) and `columns(of: "🇯🇵")` is 2 (the letters `JP`).
public enum DisplayWidth {
  /// Returns the columns one Unicode scalar advances the cursor by in ncursesw.
  ///
  /// Controls are reported as 0 here; ``GlyphNormalizer`` removes them before anything is
  /// measured or drawn.
  public static func columns(ofScalar scalar: Unicode.Scalar) -> Int {
    let value = scalar.value
    if value < 0x7F { return value < 0x20 ? 0 : 1 }
    if value < 0xA0 { return 0 }
    if value < 0x300 { return value == 0xAD ? 0 : 1 }
    if contains(zeroWidthRanges, value) { return 0 }
    if contains(wideRanges, value) { return 2 }
    return 1
  }

  /// Returns the columns a grapheme occupies once normalised for the terminal.
  public static func columns(of character: Character) -> Int {
    GlyphNormalizer.glyphs(of: character).reduce(0) { $0 + $1.columns }
  }

  /// Returns the columns a string occupies once normalised for the terminal.
  public static func columns(of text: some StringProtocol) -> Int {
    if GlyphNormalizer.isSimple(text) {
      var total = 0
      for scalar in text.unicodeScalars { total += scalar.value < 0x7F ? 1 : columns(ofScalar: scalar) }
      return total
    }
    return text.reduce(0) { $0 + columns(of: $1) }
  }

  /// Binary search over sorted, non-overlapping ranges.
  private static func contains(_ ranges: [ClosedRange<UInt32>], _ value: UInt32) -> Bool {
    var low = 0
    var high = ranges.count - 1
    while low <= high {
      let middle = (low + high) / 2
      let range = ranges[middle]
      if value < range.lowerBound {
        high = middle - 1
      } else if value > range.upperBound {
        low = middle + 1
      } else {
        return true
      }
    }
    return false
  }
}

extension DisplayWidth {
  /// The zero-width table, for tests that check it is sorted.
  public static var zeroWidthRangesForTesting: [ClosedRange<UInt32>] { zeroWidthRanges }
  /// The wide table, for tests that check it is sorted.
  public static var wideRangesForTesting: [ClosedRange<UInt32>] { wideRanges }
}

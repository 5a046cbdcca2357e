/// One terminal cell's worth of text: a single spacing scalar plus any zero-width marks.
public struct Glyph: Equatable, Hashable, Sendable {
  /// The text written into the cell.
  public var text: String
  /// The columns the glyph occupies: 1 or 2.
  public var columns: Int

  /// Creates a glyph.
  public init(_ text: String, columns: Int) {
    self.text = text
    self.columns = columns
  }
}

/// Turns arbitrary text into cells that Swift, ncurses and terminals all measure alike.
///
/// A `cchar_t` holds one spacing character plus combining marks, so every grapheme is rewritten
/// into glyphs that each carry exactly one spacing scalar (architecture.md §5.3,
/// docs/decisions/frontend.md):
///
/// * C0 and C1 controls, DEL and every format character (bidi embeddings, overrides and isolates,
///   zero-width spaces, tags, the BOM) are removed, so payload text cannot inject terminal
///   sequences. Tab, line feed, carriage return and the Unicode line separators become a space.
/// * A zero-width joiner splits its sequence and is dropped (`👩‍💻` becomes `👩` `💻`).
/// * Skin-tone modifiers and VS15 are dropped; VS16 is dropped after a one-column base (`❤️` is
///   drawn as the one-column `❤`).
/// * A regional-indicator flag becomes its two ASCII letters (`🇯🇵` becomes `JP`).
/// * A grapheme with several spacing scalars (`ｶﾞ`) becomes one glyph per spacing scalar.
/// * A zero-width mark with nothing to attach to is dropped; an unassigned scalar becomes U+FFFD.
public enum GlyphNormalizer {
  /// Returns the glyphs a grapheme is drawn as; empty when nothing visible remains.
  public static func glyphs(of character: Character) -> [Glyph] {
    let scalars = character.unicodeScalars
    if let first = scalars.first, isLineBreakOrTab(first) { return [Glyph(" ", columns: 1)] }
    // Fast path: printable ASCII.
    if scalars.count == 1, let first = scalars.first, first.value >= 0x20, first.value < 0x7F {
      return [Glyph(String(character), columns: 1)]
    }
    var result: [Glyph] = []
    var current = String.UnicodeScalarView()
    var currentColumns = 0
    func flush() {
      if currentColumns > 0 { result.append(Glyph(String(current), columns: currentColumns)) }
      current = String.UnicodeScalarView()
      currentColumns = 0
    }
    for scalar in scalars {
      let value = scalar.value
      if isStripped(scalar) || (0x1F3FB...0x1F3FF).contains(value) || value == 0xFE0E { continue }
      if value == 0xFE0F {
        // VS16 only survives after a base that is already two columns wide.
        if currentColumns == 2 { current.append(scalar) }
        continue
      }
      if (0x1F1E6...0x1F1FF).contains(value) {
        flush()
        if let letter = Unicode.Scalar(0x41 + value - 0x1F1E6) {
          result.append(Glyph(String(Character(letter)), columns: 1))
        }
        continue
      }
      let printable: Unicode.Scalar = isUnassigned(scalar) ? "\u{FFFD}" : scalar
      let columns = DisplayWidth.columns(ofScalar: printable)
      if columns == 0 {
        if currentColumns > 0 { current.append(printable) }
        continue
      }
      flush()
      current.append(printable)
      currentColumns = columns
    }
    flush()
    return result
  }

  /// Returns the glyphs a string is drawn as, in logical order.
  public static func glyphs(in text: some StringProtocol) -> [Glyph] {
    var result: [Glyph] = []
    if isSimple(text) {
      // One glyph per scalar: no grapheme segmentation, no array per character.
      result.reserveCapacity(text.utf8.count)
      for scalar in text.unicodeScalars {
        result.append(Glyph(glyphText(scalar), columns: DisplayWidth.columns(ofScalar: scalar)))
      }
      return result
    }
    for character in text { result.append(contentsOf: glyphs(of: character)) }
    return result
  }

  // MARK: - The fast path

  /// Whether a scalar is drawn as itself, alone in its cell, whatever surrounds it: printable
  /// ASCII, and the Latin, punctuation, arrow, box-drawing, shape and fullwidth-ASCII scalars
  /// the screens draw most. None of them is stripped, unassigned or zero-width, and none joins
  /// a neighbour into a grapheme (no extending marks, joiners, selectors, regional indicators,
  /// prepended or control characters), so text made only of them is one glyph per scalar.
  @inline(__always)
  public static func isSimpleScalar(_ scalar: Unicode.Scalar) -> Bool {
    let value = scalar.value
    if value < 0x7F { return value >= 0x20 }
    if value < 0x300 { return value >= 0xA0 && value != 0xAD }
    return (0x2010...0x2027).contains(value) || (0x2030...0x205E).contains(value)
      || (0x2190...0x21FF).contains(value) || (0x2500...0x25FF).contains(value)
      || (0xFF01...0xFF5E).contains(value)
  }

  /// Whether every scalar of the text is simple (see ``isSimpleScalar(_:)``):
  /// then its glyphs are its scalars, each ``DisplayWidth/columns(ofScalar:)`` wide.
  public static func isSimple(_ text: some StringProtocol) -> Bool {
    var ascii = true
    for byte in text.utf8 where byte >= 0x7F || byte < 0x20 {
      ascii = false
      break
    }
    if ascii { return true }
    for scalar in text.unicodeScalars where !isSimpleScalar(scalar) { return false }
    return true
  }

  /// Printable ASCII as one-character strings, so drawing ASCII makes no strings.
  private static let asciiText: [String] = (0..<0x80).map { String(Character(Unicode.Scalar(UInt8($0)))) }

  /// The text of a simple scalar's glyph.
  @inline(__always)
  static func glyphText(_ scalar: Unicode.Scalar) -> String {
    scalar.value < 0x80 ? asciiText[Int(scalar.value)] : String(Character(scalar))
  }

  /// Returns the string with every grapheme replaced by its normalised glyphs.
  public static func normalize(_ text: some StringProtocol) -> String {
    glyphs(in: text).map(\.text).joined()
  }

  /// Whether a scalar is removed outright: controls, DEL, format characters (including the
  /// zero-width joiner, whose sequences are split) and line separators handled elsewhere.
  public static func isStripped(_ scalar: Unicode.Scalar) -> Bool {
    let value = scalar.value
    if value < 0x20 || (0x7F...0x9F).contains(value) { return true }
    if value < 0xA0 { return false }
    switch scalar.properties.generalCategory {
    case .format, .control, .surrogate: return true
    default: return false
    }
  }

  private static func isLineBreakOrTab(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029: true
    default: false
    }
  }

  private static func isUnassigned(_ scalar: Unicode.Scalar) -> Bool {
    scalar.properties.generalCategory == .unassigned || scalar.properties.isNoncharacterCodePoint
  }
}

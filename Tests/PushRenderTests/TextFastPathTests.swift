import PushRender
import Testing

/// The fast path for simple text (one glyph per scalar, no grapheme segmentation) gives exactly
/// what the general path gives, so it only changes how fast text is drawn.
@Suite("Simple-text fast path")
struct TextFastPathTests {
  /// Every scalar the fast path takes.
  static let simpleScalars: [Unicode.Scalar] = (0..<0x1_0000).compactMap { value in
    Unicode.Scalar(UInt32(value)).flatMap { GlyphNormalizer.isSimpleScalar($0) ? $0 : nil }
  }

  /// The general path: grapheme by grapheme.
  private func slowGlyphs(_ text: String) -> [Glyph] {
    text.flatMap { GlyphNormalizer.glyphs(of: $0) }
  }

  @Test func eachSimpleScalarIsDrawnAsItselfInOneGlyph() {
    #expect(Self.simpleScalars.count > 1_000)
    for scalar in Self.simpleScalars {
      let glyphs = GlyphNormalizer.glyphs(of: Character(scalar))
      #expect(glyphs == [Glyph(String(scalar), columns: DisplayWidth.columns(ofScalar: scalar))], "U+\(scalar.value)")
      #expect(glyphs.first?.columns ?? 0 > 0)
    }
  }

  @Test func simpleScalarsNeverJoinANeighbourIntoAGrapheme() {
    let forwards = String(String.UnicodeScalarView(Self.simpleScalars))
    let backwards = String(String.UnicodeScalarView(Self.simpleScalars.reversed()))
    // Every other scalar too, so each meets neighbours from across the ranges.
    let strided = String(
      String.UnicodeScalarView(Self.simpleScalars.enumerated().sorted { $0.offset % 7 < $1.offset % 7 }.map(\.element)))
    for text in [forwards, backwards, strided] {
      #expect(GlyphNormalizer.isSimple(text))
      #expect(text.count == text.unicodeScalars.count)
      #expect(GlyphNormalizer.glyphs(in: text) == slowGlyphs(text))
      #expect(DisplayWidth.columns(of: text) == slowGlyphs(text).reduce(0) { $0 + $1.columns })
    }
  }

  @Test func textOutsideTheFastPathIsNotSimple() {
    for text in ["e\u{301}", "👩‍💻", "🇯🇵", "a\tb", "line\nbreak", "soft\u{AD}hyphen", "\u{202E}rtl", "中文", "❤️"] {
      #expect(!GlyphNormalizer.isSimple(text), "\(text.debugDescription)")
    }
  }

  @Test func writingSimpleTextFillsTheSameCellsAsTheGeneralPath() {
    for limit in [nil, 24, 9, 8] {
      let text = "╭─ Café · ＡＢ → done… ╮"
      var fast = CellGrid(width: 30, height: 1)
      var general = CellGrid(width: 30, height: 1)
      // A zero-width space is stripped but is not simple: it sends the same text the general way.
      let fastColumns = fast.write(text, at: Point(column: 1, row: 0), style: .plain, maxColumns: limit)
      let generalColumns = general.write(
        text + "\u{200B}", at: Point(column: 1, row: 0), style: .plain, maxColumns: limit)
      #expect(fastColumns == generalColumns)
      #expect(fast == general)
    }
  }

  @Test func pastingAWholeGridGivesTheCellsAndRegionsOfTheCellByCellPath() {
    var screen = CellGrid(width: 12, height: 3, style: .plain)
    screen.write("Café 中文 ok", at: Point(column: 0, row: 0), style: Style(isBold: true))
    screen.write("→ ＡＢ", at: Point(column: 3, row: 2), style: .plain)
    screen.addHit(Rect(column: 1, row: 1, columns: 4, rows: 1), nil)
    var whole = CellGrid(width: 12, height: 3, style: Style(isDim: true))
    whole.paste(screen, at: Point(column: 0, row: 0))
    // One column wider: the same cells are copied one by one.
    var byCell = CellGrid(width: 13, height: 3, style: Style(isDim: true))
    byCell.paste(screen, at: Point(column: 0, row: 0))
    for row in 0..<3 {
      for column in 0..<12 { #expect(whole[column, row] == byCell[column, row], "\(column), \(row)") }
    }
    #expect(whole.hitRegions == byCell.hitRegions)
  }

  @Test func truncationReturnsFittingTextUnchangedAndCutsLikeTheGeneralPath() {
    #expect(TextLayout.truncate("Order 1234 shipped", toColumns: 18) == "Order 1234 shipped")
    #expect(TextLayout.truncate("Order 1234 shipped", toColumns: 10) == "Order 123…")
    #expect(TextLayout.truncate("ＡＢＣ", toColumns: 4) == "Ａ…")
    #expect(TextLayout.wrap("one two three", toColumns: 7) == ["one two", "three"])
  }
}

import PushRender
import Testing

/// One row of the width table: a raw grapheme, the glyphs it must become and their columns.
struct WidthSample: CustomTestStringConvertible, Sendable {
  let name: String
  let raw: String
  let glyphs: [String]
  let columns: Int

  var testDescription: String { name }

  /// The table, in the style of libvaxis' width tests (architecture.md 5.3).
  static let all: [WidthSample] = [
    WidthSample(name: "ASCII letter", raw: "A", glyphs: ["A"], columns: 1),
    WidthSample(name: "CJK ideograph 中", raw: "中", glyphs: ["中"], columns: 2),
    WidthSample(name: "emoji 😀", raw: "😀", glyphs: ["😀"], columns: 2),
    WidthSample(
      name: "text-default heart + VS16", raw: "\u{2764}\u{FE0F}", glyphs: ["\u{2764}"], columns: 1),
    WidthSample(
      name: "ZWJ technologist", raw: "\u{1F469}\u{200D}\u{1F4BB}",
      glyphs: ["\u{1F469}", "\u{1F4BB}"],
      columns: 4),
    WidthSample(
      name: "thumbs up + skin tone", raw: "\u{1F44D}\u{1F3FD}", glyphs: ["\u{1F44D}"], columns: 2),
    WidthSample(name: "flag JP", raw: "\u{1F1EF}\u{1F1F5}", glyphs: ["J", "P"], columns: 2),
    WidthSample(
      name: "halfwidth ka + dakuten", raw: "\u{FF76}\u{FF9E}", glyphs: ["\u{FF76}", "\u{FF9E}"],
      columns: 2),
    WidthSample(name: "precomposed é", raw: "\u{E9}", glyphs: ["\u{E9}"], columns: 1),
    WidthSample(name: "e + combining acute", raw: "e\u{301}", glyphs: ["e\u{301}"], columns: 1),
    WidthSample(name: "Hebrew shin", raw: "\u{5E9}", glyphs: ["\u{5E9}"], columns: 1),
    WidthSample(
      name: "Hebrew shin with points", raw: "\u{5E9}\u{5B8}\u{5C1}",
      glyphs: ["\u{5E9}\u{5B8}\u{5C1}"], columns: 1),
    WidthSample(name: "Arabic ain", raw: "\u{639}", glyphs: ["\u{639}"], columns: 1),
    WidthSample(name: "Hangul syllable", raw: "\u{D55C}", glyphs: ["\u{D55C}"], columns: 2),
    WidthSample(name: "fullwidth A", raw: "\u{FF21}", glyphs: ["\u{FF21}"], columns: 2),
    WidthSample(
      name: "emoji-default watch + VS16", raw: "\u{231A}\u{FE0F}", glyphs: ["\u{231A}\u{FE0F}"],
      columns: 2),
    WidthSample(name: "keycap one", raw: "1\u{FE0F}\u{20E3}", glyphs: ["1\u{20E3}"], columns: 1),
    WidthSample(
      name: "family ZWJ", raw: "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}",
      glyphs: ["\u{1F468}", "\u{1F469}", "\u{1F467}"], columns: 6),
    WidthSample(name: "ESC", raw: "\u{1B}", glyphs: [], columns: 0),
    WidthSample(name: "tab becomes a space", raw: "\t", glyphs: [" "], columns: 1),
    WidthSample(name: "zero-width space", raw: "\u{200B}", glyphs: [], columns: 0),
    WidthSample(name: "box drawing", raw: "\u{256D}", glyphs: ["\u{256D}"], columns: 1),
  ]
}

@Suite("Width table and glyph normalisation")
struct WidthTableTests {
  @Test("each sample normalises to the expected glyphs", arguments: WidthSample.all)
  func normalisesSample(_ sample: WidthSample) throws {
    let characters = Array(sample.raw)
    try #require(characters.count <= 1)
    let glyphs = characters.first.map(GlyphNormalizer.glyphs(of:)) ?? []
    #expect(glyphs.map(\.text) == sample.glyphs)
  }

  @Test("each sample measures the expected columns", arguments: WidthSample.all)
  func measuresSample(_ sample: WidthSample) {
    #expect(DisplayWidth.columns(of: sample.raw) == sample.columns)
  }

  @Test("every normalised glyph holds exactly one spacing scalar", arguments: WidthSample.all)
  func oneSpacingScalarPerGlyph(_ sample: WidthSample) {
    for glyph in GlyphNormalizer.glyphs(in: sample.raw) {
      let spacing = glyph.text.unicodeScalars.filter { DisplayWidth.columns(ofScalar: $0) > 0 }
      #expect(
        spacing.count == 1, "\(glyph.text.unicodeScalars.map { String($0.value, radix: 16) })")
      #expect(glyph.columns == DisplayWidth.columns(ofScalar: spacing[spacing.startIndex]))
    }
  }

  @Test func normalisingTwiceChangesNothing() {
    let text = WidthSample.all.map(\.raw).joined(separator: " ")
    let once = GlyphNormalizer.glyphs(in: text)
    #expect(GlyphNormalizer.glyphs(in: GlyphNormalizer.normalize(text)) == once)
  }

  @Test func stringsMeasureAsTheSumOfTheirGlyphs() {
    #expect(DisplayWidth.columns(of: "中文abc") == 7)
    #expect(DisplayWidth.columns(of: "Ramen Ichiban · 拉麺") == 20)
  }

  @Test func widthDoesNotDependOnTheScalarTablesBeingUnsorted() {
    // The binary search needs sorted, non-overlapping ranges.
    for table in [DisplayWidth.zeroWidthRangesForTesting, DisplayWidth.wideRangesForTesting] {
      for (lower, upper) in zip(table, table.dropFirst()) {
        #expect(lower.upperBound < upper.lowerBound)
      }
    }
  }
}

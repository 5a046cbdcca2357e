import PushRender
import Testing

@Suite("Truncation and wrapping in columns")
struct TextLayoutTests {
  @Test func shortTextIsNotTruncated() {
    #expect(TextLayout.truncate("Ana", toColumns: 10) == "Ana")
  }

  @Test func longTextEndsInAnEllipsisWithinTheLimit() {
    let result = TextLayout.truncate("Morning briefing", toColumns: 8)
    #expect(result == "Morning…")
    #expect(DisplayWidth.columns(of: result) == 8)
  }

  @Test func truncationNeverSplitsAWideGlyph() {
    // 中文字 is 6 columns; at 4 columns only 中 and the ellipsis fit (3 columns).
    #expect(TextLayout.truncate("中文字", toColumns: 4) == "中…")
    #expect(TextLayout.truncate("中文字", toColumns: 5) == "中文…")
  }

  @Test func truncationKeepsCombiningMarksWithTheirBase() {
    #expect(TextLayout.truncate("Cafe\u{301} Lumière", toColumns: 5) == "Cafe\u{301}…")
  }

  @Test func truncationDropsTrailingSpaceBeforeTheEllipsis() {
    #expect(TextLayout.truncate("Hi there friend", toColumns: 4) == "Hi…")
  }

  @Test func truncationSplitsZWJSequencesIntoCountableGlyphs() {
    // 👩‍💻 becomes two 2-column glyphs; only the first fits beside the ellipsis.
    #expect(TextLayout.truncate("\u{1F469}\u{200D}\u{1F4BB}!", toColumns: 3) == "\u{1F469}…")
  }

  @Test func wrapBreaksAtSpaces() {
    #expect(
      TextLayout.wrap("Kenji is on the way. Arriving in 12 min.", toColumns: 20)
        == ["Kenji is on the way.", "Arriving in 12 min."])
  }

  @Test func wrapBreaksBetweenCJKGlyphsWithoutSpaces() {
    let lines = TextLayout.wrap("東京都新宿区西新宿", toColumns: 8)
    #expect(lines == ["東京都新", "宿区西新", "宿"])
    #expect(lines.allSatisfy { DisplayWidth.columns(of: $0) <= 8 })
  }

  @Test func wrapBreaksAWordLongerThanTheLine() {
    #expect(TextLayout.wrap("abcdefghij", toColumns: 4) == ["abcd", "efgh", "ij"])
  }

  @Test func wrapStartsNewLinesAtLineFeeds() {
    #expect(TextLayout.wrap("one\ntwo", toColumns: 10) == ["one", "two"])
  }

  @Test func wrapEndsTheLastAllowedLineWithAnEllipsis() {
    let lines = TextLayout.wrap(
      "Markets open higher; storm warning for the coast tonight.", toColumns: 20, maxLines: 2)
    #expect(lines == ["Markets open higher;", "storm warning for…"])
  }

  @Test func wrapKeepsRightToLeftTextInLogicalOrder() {
    #expect(TextLayout.wrap("שלום עולם", toColumns: 5) == ["שלום", "עולם"])
    #expect(TextLayout.wrap("مرحبا بالعالم", toColumns: 8) == ["مرحبا", "بالعالم"])
  }

  @Test func wrappedLinesNeverExceedTheWidth() {
    let text = "Ramen Ichiban · 拉麺 👩‍💻✨ 🇯🇵 e\u{301}e\u{301} ｶﾞｶﾞ לילה טוב"
    for width in 1...30 {
      for line in TextLayout.wrap(text, toColumns: width) {
        #expect(DisplayWidth.columns(of: line) <= max(width, 2), "width \(width): \(line)")
      }
    }
  }
}

/// Grapheme-correct truncation and wrapping, measured in terminal columns.
///
/// Input text is normalised with ``GlyphNormalizer`` first, so results can be written to a
/// ``CellGrid`` and measured with ``DisplayWidth`` without surprises. Right-to-left text is kept
/// in logical order; the terminal's bidi handling (if any) decides how it is shown.
public enum TextLayout {
  /// Returns the text cut to at most `columns` columns, ending in `ellipsis` when it was cut.
  ///
  /// A wide glyph that would straddle the limit is dropped whole, never split.
  public static func truncate(
    _ text: some StringProtocol, toColumns columns: Int, ellipsis: String = "…"
  ) -> String {
    // Most text fits: measured without building glyphs, and returned as it is.
    if GlyphNormalizer.isSimple(text), DisplayWidth.columns(of: text) <= columns { return String(text) }
    let glyphs = GlyphNormalizer.glyphs(in: text)
    return render(truncated(glyphs, toColumns: columns, ellipsis: ellipsis))
  }

  /// Wraps text into lines of at most `columns` columns.
  ///
  /// Lines break at spaces and on either side of a wide (CJK or emoji) glyph; a word longer than
  /// a line is broken between glyphs. Line feeds in the text start new lines. When `maxLines`
  /// is given and the text needs more, the last line ends in `ellipsis`.
  public static func wrap(
    _ text: some StringProtocol, toColumns columns: Int, maxLines: Int? = nil,
    ellipsis: String = "…"
  ) -> [String] {
    guard columns > 0 else { return [] }
    var lines: [[Glyph]] = []
    for paragraph in paragraphs(of: text) {
      lines.append(contentsOf: wrapParagraph(GlyphNormalizer.glyphs(in: paragraph), columns))
    }
    if let maxLines, lines.count > maxLines {
      guard maxLines > 0 else { return [] }
      var last = lines[maxLines - 1]
      last.append(Glyph(" ", columns: 1))
      last.append(contentsOf: lines[maxLines])
      lines =
        Array(lines.prefix(maxLines - 1)) + [
          truncated(last, toColumns: columns, ellipsis: ellipsis, force: true)
        ]
    }
    return lines.map(render)
  }

  // MARK: - Glyph arrays

  static func columns(of glyphs: [Glyph]) -> Int { glyphs.reduce(0) { $0 + $1.columns } }

  private static func render(_ glyphs: [Glyph]) -> String { glyphs.map(\.text).joined() }

  private static func truncated(
    _ glyphs: [Glyph], toColumns columns: Int, ellipsis: String, force: Bool = false
  ) -> [Glyph] {
    if !force && Self.columns(of: glyphs) <= columns { return glyphs }
    let ellipsisGlyphs = GlyphNormalizer.glyphs(in: ellipsis)
    let ellipsisColumns = Self.columns(of: ellipsisGlyphs)
    guard columns >= ellipsisColumns else { return fitting(glyphs, columns) }
    var kept = fitting(glyphs, columns - ellipsisColumns)
    // When wrapping, end on a whole word if one ends in the second half of the line.
    if force, kept.count < glyphs.count, glyphs[kept.count].text != " ",
      let space = kept.lastIndex(where: { $0.text == " " }),
      Self.columns(of: Array(kept[..<space])) * 2 >= columns
    {
      kept.removeSubrange(space...)
    }
    while let last = kept.last, last.text == " " { kept.removeLast() }
    return kept + ellipsisGlyphs
  }

  /// The longest prefix that fits in `columns`.
  private static func fitting(_ glyphs: [Glyph], _ columns: Int) -> [Glyph] {
    var used = 0
    var result: [Glyph] = []
    for glyph in glyphs {
      if used + glyph.columns > columns { break }
      used += glyph.columns
      result.append(glyph)
    }
    return result
  }

  private static func paragraphs(of text: some StringProtocol) -> [Substring] {
    // Simple text has no line breaks (see GlyphNormalizer.isSimple): one paragraph, unsegmented.
    if GlyphNormalizer.isSimple(text) { return [Substring(String(text))] }
    return String(text).split(omittingEmptySubsequences: false) { character in
      character == "\n" || character == "\r\n" || character == "\r" || character == "\u{2028}"
        || character == "\u{2029}"
    }
  }

  /// Greedy wrapping of one paragraph. Break units are runs of narrow non-space glyphs and
  /// single wide glyphs; spaces separate units and vanish at line ends.
  private static func wrapParagraph(_ glyphs: [Glyph], _ width: Int) -> [[Glyph]] {
    var units: [[Glyph]] = []
    var spaceBefore: [Bool] = []
    var word: [Glyph] = []
    var pendingSpace = false
    func endWord() {
      if !word.isEmpty {
        units.append(word)
        spaceBefore.append(pendingSpace)
        pendingSpace = false
        word = []
      }
    }
    for glyph in glyphs {
      if glyph.text == " " {
        endWord()
        pendingSpace = true
      } else if glyph.columns > 1 {
        endWord()
        units.append([glyph])
        spaceBefore.append(pendingSpace)
        pendingSpace = false
      } else {
        word.append(glyph)
      }
    }
    endWord()

    var lines: [[Glyph]] = []
    var line: [Glyph] = []
    var used = 0
    for (index, unit) in units.enumerated() {
      let unitColumns = columns(of: unit)
      let gap = (spaceBefore[index] && !line.isEmpty) ? 1 : 0
      if used + gap + unitColumns <= width {
        if gap == 1 { line.append(Glyph(" ", columns: 1)) }
        line.append(contentsOf: unit)
        used += gap + unitColumns
        continue
      }
      if unitColumns <= width {
        lines.append(line)
        line = unit
        used = unitColumns
        continue
      }
      // A word longer than a line: fill what is left of this line, then continue on new ones.
      if gap == 1 && used + 2 <= width {
        line.append(Glyph(" ", columns: 1))
        used += 1
      }
      for glyph in unit {
        if used + glyph.columns > width {
          lines.append(line)
          line = []
          used = 0
        }
        line.append(glyph)
        used += glyph.columns
      }
    }
    if !line.isEmpty || lines.isEmpty { lines.append(line) }
    return lines.filter { !$0.isEmpty || lines.count == 1 }
  }
}

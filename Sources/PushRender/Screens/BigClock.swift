/// Draws the time in large digits made of block characters, like a bedside clock.
///
/// Digits are 3×5 pixel bitmaps. In ``Size-swift.enum/large`` each pixel is `██` (two columns,
/// one row), so a digit is 6 columns by 5 rows; in ``Size-swift.enum/compact`` two pixel rows
/// share one terminal row through `▀`, `▄` and `█`, so a digit is 3 columns by 3 rows.
public struct BigClock: Sendable {
  /// How large to draw.
  public enum Size: Sendable {
    /// Two columns and one row per pixel.
    case large
    /// One column and half a row per pixel.
    case compact
  }

  /// The text to draw: digits and colons.
  public var text: String
  /// How large to draw.
  public var size: Size

  /// Creates a clock for `text` such as `9:41`.
  public init(text: String, size: Size) {
    self.text = text
    self.size = size
  }

  /// The bitmaps, one string per pixel row, `#` set.
  private static let font: [Character: [String]] = [
    "0": ["###", "#.#", "#.#", "#.#", "###"],
    "1": ["##.", ".#.", ".#.", ".#.", "###"],
    "2": ["###", "..#", "###", "#..", "###"],
    "3": ["###", "..#", "###", "..#", "###"],
    "4": ["#.#", "#.#", "###", "..#", "..#"],
    "5": ["###", "#..", "###", "..#", "###"],
    "6": ["###", "#..", "###", "#.#", "###"],
    "7": ["###", "..#", "..#", "..#", "..#"],
    "8": ["###", "#.#", "###", "#.#", "###"],
    "9": ["###", "#.#", "###", "..#", "###"],
    ":": [".", "#", ".", "#", "."],
  ]

  /// Whether every character of the text has a bitmap.
  public var isDrawable: Bool { !text.isEmpty && text.allSatisfy { Self.font[$0] != nil } }

  /// The rows the clock occupies.
  public var rows: Int { size == .large ? 5 : 3 }

  /// The columns the clock occupies.
  public var columns: Int { lines().first.map { DisplayWidth.columns(of: $0) } ?? 0 }

  /// The clock as lines of block characters, all the same width.
  public func lines() -> [String] {
    // Lay the glyphs out side by side with one blank pixel column between them.
    var pixelRows = Array(repeating: "", count: 6)
    for (index, character) in text.enumerated() {
      guard let glyph = Self.font[character] else { continue }
      for row in 0..<6 {
        if index > 0 { pixelRows[row] += "." }
        pixelRows[row] +=
          row < glyph.count ? glyph[row] : String(repeating: ".", count: glyph[0].count)
      }
    }
    switch size {
    case .large:
      return pixelRows.prefix(5).map { row in
        row.map { $0 == "#" ? "██" : "  " }.joined()
      }
    case .compact:
      return (0..<3).map { pair in
        let top = Array(pixelRows[2 * pair])
        let bottom = Array(pixelRows[2 * pair + 1])
        return String(
          top.indices.map { column -> Character in
            switch (top[column] == "#", bottom[column] == "#") {
            case (true, true): "█"
            case (true, false): "▀"
            case (false, true): "▄"
            case (false, false): " "
            }
          })
      }
    }
  }
}

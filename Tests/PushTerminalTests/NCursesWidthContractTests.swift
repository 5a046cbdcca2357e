import PushRender
import PushTerminal
import Testing

/// Graphemes whose normalised glyphs are written to a headless ncurses session.
private let contractSamples: [String] = [
  "A", "~", "中", "😀", "\u{2764}\u{FE0F}", "\u{1F469}\u{200D}\u{1F4BB}", "\u{1F44D}\u{1F3FD}",
  "\u{1F1EF}\u{1F1F5}", "\u{FF76}\u{FF9E}", "\u{E9}", "e\u{301}", "\u{5E9}\u{5B8}", "\u{639}",
  "\u{D55C}", "\u{1100}\u{1161}", "\u{FF21}", "\u{231A}\u{FE0F}", "1\u{FE0F}\u{20E3}",
  "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}", "\u{256D}", "▀", "█", "€", "拉", "麺", "🍜", "💬",
  "📰", "🏦", "📅", "🔒", "☾", "✨", "＋", "▰", "▂", "\u{E000}", "\u{FFFD}", "\u{0915}\u{093F}",
  "\u{0E01}\u{0E34}", "🌙", "💤", "💼", "👤", "🚗", "🏃", "🎮", "🧘", "📖", "🚨", "⏳",
  "\u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}",
]

@Suite("ncurses width contract", .serialized)
@MainActor
struct NCursesWidthContractTests {
  @Test func displayWidthAgreesWithNcursesForEveryNormalisedGlyph() throws {
    let probe = try #require(HeadlessCursesProbe(), "ncurses could not start on /dev/null")
    defer { probe.close() }
    for sample in contractSamples {
      for glyph in GlyphNormalizer.glyphs(in: sample) {
        let advance = probe.advance(of: glyph.text)
        let hex = glyph.text.unicodeScalars.map { String($0.value, radix: 16) }
        #expect(advance == glyph.columns, "\(sample) → \(hex): ncurses advanced \(advance)")
      }
    }
  }

  @Test func scalarTableAgreesWithGlibcOnThePlanesWeUse() throws {
    let probe = try #require(HeadlessCursesProbe(), "ncurses could not start on /dev/null")
    defer { probe.close() }
    var mismatches: [String] = []
    let ranges: [ClosedRange<UInt32>] = [
      0xA0...0x33FF, 0x3400...0x4DFF, 0xA000...0xFFFD, 0x1F000...0x1FAFF,
    ]
    for range in ranges {
      for value in range {
        guard let scalar = Unicode.Scalar(value), !GlyphNormalizer.isStripped(scalar),
          scalar.properties.generalCategory != .unassigned
        else { continue }
        let glibc = probe.wcwidth(of: scalar)
        if glibc >= 0, glibc != DisplayWidth.columns(ofScalar: scalar) {
          mismatches.append(String(value, radix: 16))
        }
      }
    }
    #expect(mismatches.isEmpty, "differ from wcwidth: \(mismatches.prefix(20))")
  }
}

@Suite("Key decoding")
struct KeyDecodingTests {
  @Test func printableCharactersAreKeys() {
    #expect(CursesTerminal.key(forCharacter: 0x71) == .character("q"))
    #expect(CursesTerminal.key(forCharacter: 0x5D) == .character("]"))
    #expect(CursesTerminal.key(forCharacter: 0x4E2D) == .character("中"))
  }

  @Test func controlCodesHaveNames() {
    #expect(CursesTerminal.key(forCharacter: 0x0D) == .enter)
    #expect(CursesTerminal.key(forCharacter: 0x1B) == .escape)
    #expect(CursesTerminal.key(forCharacter: 0x7F) == .backspace)
    #expect(CursesTerminal.key(forCharacter: 0x03) == .control("c"))
  }
}

import PushCore
import PushRender
import PushTestSupport
import PushUI
import Testing

/// Payload text that tries to talk to the terminal instead of the user.
let hostileSamples: [(String, String)] = [
  ("clear screen CSI", "before\u{1B}[2Jafter"),
  ("OSC 52 clipboard write", "copy\u{1B}]52;c;ZXZpbA==\u{07}done"),
  ("OSC 8 hyperlink", "\u{1B}]8;;https://evil.example\u{1B}\\click\u{1B}]8;;\u{1B}\\"),
  ("C1 CSI", "x\u{9B}31mred"),
  ("bidi override", "invoice\u{202E}fdp.exe"),
  ("bidi isolate", "a\u{2066}b\u{2069}c"),
  ("NUL", "nul\u{0}byte"),
  ("DEL and BEL", "bell\u{07}\u{7F}"),
  ("DCS", "\u{1B}P+q544e\u{1B}\\tail"),
  ("zero-width and BOM", "a\u{200B}b\u{FEFF}c\u{2060}d"),
  ("title change OSC 0 and 2", "\u{1B}]0;pwned\u{07}\u{1B}]2;pwned\u{1B}\\title"),
  ("C1 OSC and ST", "\u{9D}0;pwned\u{9C}x"),
  ("replacement for a lone surrogate", "x\u{FFFD}y"),
  ("100 kB line", String(repeating: "\u{1B}]52;c;QUFB\u{07}\u{202E}ab", count: 6_000)),
]

/// The scalars of an ANSI frame that are not text, once Pushdeck's own SGR sequences
/// (ESC [ digits and semicolons m) are removed.
func controlsOutsideSGR(_ text: String) -> [Unicode.Scalar] {
  SGR.stripped(text).filter { $0 != "\n" && isDangerous($0) }
}

/// Whether a scalar could change the terminal's state or the text's direction.
func isDangerous(_ scalar: Unicode.Scalar) -> Bool {
  let value = scalar.value
  return value < 0x20 || (0x7F...0x9F).contains(value) || (0x202A...0x202E).contains(value)
    || (0x2066...0x2069).contains(value) || scalar.properties.generalCategory == .format
}

@Suite("Hostile payload text")
struct HostileTextTests {
  @Test("no control or bidi scalar survives normalisation", arguments: hostileSamples)
  func normaliserStripsControls(_ name: String, _ text: String) {
    let normalised = GlyphNormalizer.normalize(text)
    #expect(!normalised.unicodeScalars.contains(where: isDangerous), "\(name)")
  }

  @Test("no control or bidi scalar reaches a grid cell", arguments: hostileSamples)
  func gridNeverHoldsControls(_ name: String, _ text: String) {
    var grid = CellGrid(width: 60, height: 1)
    grid.write(text, at: Point(column: 0, row: 0), style: .plain)
    for cell in grid.cells {
      if case .glyph(let glyph, _) = cell.content {
        #expect(!glyph.unicodeScalars.contains(where: isDangerous), "\(name)")
      }
    }
    #expect(!grid.textDump().unicodeScalars.contains { $0 != "\n" && isDangerous($0) })
  }

  @Test("ANSI and SVG exports hold no payload escape", arguments: hostileSamples)
  func exportsNeverHoldControls(_ name: String, _ text: String) throws {
    var grid = CellGrid(width: 80, height: 12)
    let lines = TextLayout.wrap(text, toColumns: 80, maxLines: 12)
    for (row, line) in lines.prefix(12).enumerated() {
      grid.write(line, at: Point(column: 0, row: row), style: Style(foreground: .ansi16(1), isBold: true))
    }
    #expect(controlsOutsideSGR(grid.ansiText()).isEmpty, "\(name)")
    let svg = grid.svg(defaultForeground: .ansi16(7), defaultBackground: .ansi16(0))
    #expect(!svg.unicodeScalars.contains { $0 != "\n" && isDangerous($0) }, "\(name)")
  }

  @Test func hundredKilobyteLineIsCutToTheGrid() {
    let line = String(repeating: "\u{1B}[2J\u{202E}ab", count: 20_000)
    var grid = CellGrid(width: 40, height: 2)
    grid.write(line, at: Point(column: 0, row: 0), style: .plain)
    #expect(grid.textDump().split(separator: "\n").first == Substring("|" + String(repeating: "[2Jab", count: 8) + "|"))
  }

  @Test func visibleTextAroundEscapesIsKept() {
    #expect(GlyphNormalizer.normalize("before\u{1B}[2Jafter") == "before[2Jafter")
    #expect(GlyphNormalizer.normalize("invoice\u{202E}fdp.exe") == "invoicefdp.exe")
  }

  @Test func hostileNotificationRendersSafelyOnEveryScreen() {
    let title = JSONValue.quoted("\u{1B}]0;pwned\u{07}Title\u{202E}")
    // Everything but the 100 kB line, so the payload stays under APNs' 4 KB limit.
    let body = JSONValue.quoted(hostileSamples.map(\.1).filter { $0.utf8.count < 1_000 }.joined(separator: " "))
    let json = #"{"aps":{"alert":{"title":"# + title + #","subtitle":"\u009b2J","body":"# + body + "}}}"
    var state = demoWithPushSelected(json, bundle: "com.evil.app")
    let commands: [(Command, Bool)] = [
      (.back, false), (.openSelected, true), (.toggleInspector, true), (.toggleInspector, true), (.showActions, true),
      (.back, true), (.openCenter, false),
    ]
    for (command, showsTitle) in commands {
      _ = reduce(into: &state, .command(command))
      let grid = render(state, size: Size(columns: 100, rows: 30), theme: .builtInDefault)
      #expect(!grid.textDump().unicodeScalars.contains { $0 != "\n" && isDangerous($0) })
      // What the front end sends to a terminal: only its own SGR sequences.
      #expect(controlsOutsideSGR(grid.ansiText()).isEmpty, "\(command)")
      if showsTitle { #expect(grid.textDump().contains("Title"), "\(command)") }
    }
  }
}

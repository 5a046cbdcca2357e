import Foundation
import PushRender
import Testing

/// WCAG 2.x relative luminance and contrast ratio, from a theme's own colours.
enum Contrast {
  /// The sRGB colour a theme colour shows as (ANSI and 256-colour indexes as xterm draws them);
  /// nil for the terminal's default colour, which a theme cannot know.
  static func rgb(_ color: Color?) -> (Double, Double, Double)? {
    switch color {
    case .rgb(let r, let g, let b)?: (Double(r), Double(g), Double(b))
    case .ansi16(let index)?, .indexed256(let index)?:
      {
        let (r, g, b) = Palette.rgb(ofIndex: index); return (Double(r), Double(g), Double(b))
      }()
    case .terminalDefault?, nil: nil
    }
  }

  /// Relative luminance: each channel linearised, then 0.2126 R + 0.7152 G + 0.0722 B.
  static func luminance(_ rgb: (Double, Double, Double)) -> Double {
    func linear(_ channel: Double) -> Double {
      let c = channel / 255
      return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
    }
    return 0.2126 * linear(rgb.0) + 0.7152 * linear(rgb.1) + 0.0722 * linear(rgb.2)
  }

  /// (lighter + 0.05) / (darker + 0.05), from 1 to 21.
  static func ratio(_ a: (Double, Double, Double), _ b: (Double, Double, Double)) -> Double {
    let (la, lb) = (luminance(a), luminance(b))
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
  }
}

@Suite("Theme contrast")
struct ThemeContrastTests {
  @Test func theFormulaMatchesWCAGsKnownValues() {
    #expect(abs(Contrast.ratio((0, 0, 0), (255, 255, 255)) - 21) < 0.001)
    #expect(abs(Contrast.ratio((255, 255, 255), (255, 255, 255)) - 1) < 0.001)
    // #767676 on white is the well-known lightest grey that passes AA (4.54:1).
    #expect(abs(Contrast.ratio((0x76, 0x76, 0x76), (255, 255, 255)) - 4.54) < 0.01)
  }

  /// Roles that draw lines and edges, not text (WCAG's 4.5:1 is for text).
  static let decorative: Set<StyleRole> = [.cardBorder, .stackEdge]

  /// Every text role of every built-in theme reaches 4.5:1 against each background it can be
  /// drawn on: its own background when it has one, else the card, the screen background, the
  /// selection and both ends of the wallpaper (text is written over what is underneath, and
  /// the screens put headers, counts and hints on all of them).
  @Test("text roles reach WCAG AA (4.5:1)", arguments: Theme.builtInNames)
  func textRolesReachAA(_ name: String) throws {
    let theme = try #require(try Theme.builtIn(named: name))
    var surfaces: [(String, (Double, Double, Double))] = []
    for (label, color) in [
      ("card", theme[.card].background), ("background", theme[.background].background),
      ("selection", theme[.selection].background), ("wallpaper top", theme.wallpaper?.top),
      ("wallpaper bottom", theme.wallpaper?.bottom),
    ] {
      if let rgb = Contrast.rgb(color) { surfaces.append((label, rgb)) }
    }
    #expect(surfaces.count >= 3, "\(name): too few known backgrounds to check")
    var checked = 0
    for role in StyleRole.allCases where !Self.decorative.contains(role) {
      // A role with no colour of its own (reverse video) shows the surface's own pair.
      guard let foreground = Contrast.rgb(theme[role].foreground) else { continue }
      let backgrounds = Contrast.rgb(theme[role].background).map { [("its own background", $0)] } ?? surfaces
      for (label, background) in backgrounds {
        let ratio = Contrast.ratio(foreground, background)
        checked += 1
        #expect(
          ratio >= 4.5,
          "\(name): \(role) on \(label) is \((ratio * 100).rounded() / 100):1, under 4.5:1")
      }
    }
    #expect(checked > 40)
  }

  @Test("every built-in theme is its themes/ file", arguments: Theme.builtInNames)
  func builtInThemesAreTheFiles(_ name: String) throws {
    let text = try #require(Theme.builtInYAML.first { $0.name == name }?.text)
    #expect(text == (try themeText("\(name).yaml")))
    #expect(try Theme.builtIn(named: name)?.name == name)
  }

  @Test func theBuiltInThemesAreExactlyTheFolder() throws {
    let files = try FileManager.default.contentsOfDirectory(atPath: themesDirectory.path)
      .filter { $0.hasSuffix(".yaml") }.map { String($0.dropLast(5)) }.sorted()
    #expect(Theme.builtInYAML.map(\.name) == files)
    #expect(Theme.builtInNames.first == "default")
    #expect(Set(Theme.builtInNames) == ["default", "light", "high-contrast", "sleep"])
    #expect(try Theme.builtIn(named: "nope") == nil)
  }
}

import Foundation
import PushRender
import Testing

/// The repository's `themes` folder, found from this file's path.
let themesDirectory = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  .appendingPathComponent("themes")

func themeText(_ name: String) throws -> String {
  try String(contentsOf: themesDirectory.appendingPathComponent(name), encoding: .utf8)
}

@Suite("Themes")
struct ThemeTests {
  @Test("every shipped theme loads", arguments: ["default", "light", "high-contrast", "sleep"])
  func shippedThemeLoads(_ name: String) throws {
    let theme = try Theme.load(yaml: try themeText("\(name).yaml"), file: "\(name).yaml")
    #expect(theme.name == name)
    for role in [StyleRole.lockClock, .cardTitle, .cardBody, .footerKey] {
      #expect(theme.styles[role] != nil, "\(name) lacks \(role)")
    }
  }

  @Test func builtInThemeIsTheDefaultFile() throws {
    #expect(Theme.builtInDefaultYAML == (try themeText("default.yaml")))
    #expect(Theme.builtInDefaultYAML.contains("name: default"))
    #expect(Theme.builtInDefault.name == "default")
    #expect(Theme.builtInDefault[.cardTitle].isBold)
  }

  @Test func unknownColourNamesFileLineAndKeyPath() {
    let yaml = """
      name: broken
      roles:
        cardBody: { fg: "#FFFFFF" }
        cardTitle:
          bold: true
          fg: blurple
      """
    #expect {
      try Theme.load(yaml: yaml, file: "themes/broken.yaml")
    } throws: { error in
      guard let error = error as? ThemeError else { return false }
      return error.file == "themes/broken.yaml" && error.line == 6 && error.column == 9
        && error.keyPath == "roles.cardTitle.fg" && error.message.contains("blurple")
        && error.description.hasPrefix("themes/broken.yaml:6:9: roles.cardTitle.fg: unknown colour")
    }
  }

  @Test func unknownRoleIsAnError() {
    #expect(throws: ThemeError.self) {
      try Theme.load(yaml: "roles:\n  cardTitel: { bold: true }\n", file: "t.yaml")
    }
  }

  @Test func yamlSyntaxErrorNamesTheLine() {
    let yaml = "name: x\nroles:\n  cardTitle: { bold: true\n"
    #expect {
      try Theme.load(yaml: yaml, file: "t.yaml")
    } throws: { error in
      (error as? ThemeError)?.line != nil
    }
  }

  /// Themes are read by the same YAML layer as scenarios: YAML 1.2 core scalars, so `yes` is
  /// text and not a flag, and a colour index is a plain number.
  @Test func scalarsFollowTheCoreSchemaAsInScenarios() throws {
    #expect {
      try Theme.load(yaml: "roles:\n  cardTitle:\n    bold: yes\n", file: "t.yaml")
    } throws: { error in
      (error as? ThemeError)?.description == "t.yaml:3:11: roles.cardTitle.bold: expected true or false"
    }
    let theme = try Theme.load(yaml: "roles:\n  cardTitle: { fg: 0x10, bold: True }\n", file: "t.yaml")
    #expect(theme[.cardTitle] == Style(foreground: .indexed256(16), isBold: true))
    #expect {
      try Theme.load(yaml: "roles:\n  cardTitle: { fg: \"12\" }\n", file: "t.yaml")
    } throws: { error in
      (error as? ThemeError)?.description.hasPrefix(#"t.yaml:2:20: roles.cardTitle.fg: unknown colour "12""#) == true
    }
  }

  /// A misspelt role is answered with the nearest one, and a palette entry may name one given
  /// before it (it was "unknown colour", while the message listed palette names as allowed).
  @Test func aMisspeltRoleIsSuggestedAndPaletteEntriesNameEarlierOnes() throws {
    #expect {
      try Theme.load(yaml: "roles:\n  cardTitel: {fg: red}\n", file: "t.yaml")
    } throws: { error in
      (error as? ThemeError)?.message == #"unknown role "cardTitel" (did you mean "cardTitle"?)"#
    }
    let theme = try Theme.load(
      yaml: "palette: {b: \"#102030\", a: b}\nroles:\n  cardBody: {fg: a}\n", file: "t.yaml")
    #expect(theme[.cardBody].foreground == .rgb(0x10, 0x20, 0x30))
    #expect {
      try Theme.load(yaml: "palette: {a: b, b: \"#102030\"}\n", file: "t.yaml")
    } throws: { error in
      (error as? ThemeError)?.message.contains("a palette name given before it") == true
    }
  }

  /// Problems in the YAML text itself read as in scenarios, with their line.
  @Test func duplicateKeysAndEmptyFilesNameTheLine() {
    #expect {
      try Theme.load(yaml: "name: a\nname: b\n", file: "t.yaml")
    } throws: { error in
      guard let error = error as? ThemeError else { return false }
      return error.line != nil && error.message.hasPrefix("duplicate key \"name\"")
    }
    #expect {
      try Theme.load(yaml: "", file: "t.yaml")
    } throws: { error in
      (error as? ThemeError)?.description == "t.yaml:1:1: the file is empty; expected a mapping"
    }
  }

  /// Key paths of list items and keys stay as before: the list's path, the item's line.
  @Test func monochromeAttributesAreLocatedAtTheItem() {
    #expect {
      try Theme.load(yaml: "monochrome:\n  cardTitle:\n    - bold\n    - blink\n", file: "t.yaml")
    } throws: { error in
      (error as? ThemeError)?.description == #"t.yaml:4:7: monochrome.cardTitle: unknown attribute "blink""#
    }
  }

  @Test func missingRolesComeFromTheBuiltInTheme() throws {
    let theme = try Theme.load(yaml: "name: tiny\nroles:\n  cardTitle: { fg: red }\n", file: "t")
    #expect(theme[.cardTitle] == Style(foreground: .ansi16(1)))
    #expect(theme[.lockClock] == Theme.builtInDefault[.lockClock])
  }

  @Test func truecolorStepsDownTo256And16() {
    let theme = Theme(
      name: "t", styles: [.cardTitle: Style(foreground: .rgb(255, 0, 0), isBold: true)])
    #expect(theme.adapted(to: .truecolor)[.cardTitle].foreground == .rgb(255, 0, 0))
    #expect(theme.adapted(to: .ansi256)[.cardTitle].foreground == .indexed256(196))
    #expect(theme.adapted(to: .ansi16)[.cardTitle].foreground == .ansi16(9))
  }

  @Test func monochromeKeepsOnlyBoldAndReverseOrTheOverrides() {
    let theme = Theme(
      name: "t",
      styles: [
        .cardTitle: Style(
          foreground: .rgb(1, 2, 3), background: .ansi16(4), isBold: true, isItalic: true),
        .selection: Style(background: .rgb(9, 9, 9)),
      ],
      monochromeStyles: [.selection: Style(isReversed: true)])
    let mono = theme.adapted(to: .monochrome)
    #expect(mono[.cardTitle] == Style(isBold: true))
    #expect(mono[.selection] == Style(isReversed: true))
    #expect(mono.wallpaperColor(row: 0, of: 10) == nil)
  }

  @Test func capabilityDetectionRespectsNoColorFirst() {
    #expect(
      ColorCapability.detect(colors: 256, colorTerm: "truecolor", noColor: true) == .monochrome)
    #expect(
      ColorCapability.detect(colors: 256, colorTerm: "truecolor", noColor: false) == .truecolor)
    #expect(ColorCapability.detect(colors: 256, colorTerm: nil, noColor: false) == .ansi256)
    #expect(ColorCapability.detect(colors: 8, colorTerm: nil, noColor: false) == .ansi16)
    #expect(ColorCapability.detect(colors: 0, colorTerm: nil, noColor: false) == .monochrome)
  }
}

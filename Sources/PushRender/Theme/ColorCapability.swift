/// How many colours the terminal can show, from richest to none.
///
/// The capability is an input: the terminal backend or the command line decides it (from
/// `COLORS`, `COLORTERM`, `NO_COLOR`), never code in this module.
public enum ColorCapability: Int, Comparable, Sendable, CaseIterable {
  /// No colour: bold and reverse only (also what `NO_COLOR` asks for).
  case monochrome
  /// The 16 ANSI colours.
  case ansi16
  /// The xterm 256-colour palette.
  case ansi256
  /// 24-bit colour.
  case truecolor

  public static func < (lhs: ColorCapability, rhs: ColorCapability) -> Bool {
    lhs.rawValue < rhs.rawValue
  }

  /// Decides the capability from what the terminal reports and what the user asked for.
  ///
  /// - Parameters:
  ///   - colors: the terminal's colour count (ncurses `COLORS`, terminfo `colors`).
  ///   - colorTerm: the `COLORTERM` environment value, if any.
  ///   - noColor: whether `NO_COLOR` is set to a non-empty value.
  ///   - canChangeColors: whether the terminal can redefine colours (needed for truecolor).
  public static func detect(
    colors: Int, colorTerm: String?, noColor: Bool, canChangeColors: Bool = true
  ) -> ColorCapability {
    if noColor || colors < 8 { return .monochrome }
    if colors < 256 { return .ansi16 }
    let term = colorTerm?.lowercased() ?? ""
    if canChangeColors, term == "truecolor" || term == "24bit" { return .truecolor }
    return .ansi256
  }

  /// Returns the colour as this capability can show it; `nil` in monochrome.
  public func adapt(_ color: Color) -> Color? {
    switch (self, color) {
    case (.monochrome, _): return nil
    case (_, .terminalDefault), (_, .ansi16): return color
    case (.truecolor, _): return color
    case (.ansi256, .indexed256): return color
    case (.ansi256, .rgb(let red, let green, let blue)):
      return .indexed256(Palette.nearest256(red, green, blue))
    case (.ansi16, .indexed256(let index)):
      let (red, green, blue) = Palette.rgb(ofIndex: index)
      return .ansi16(Palette.nearest16(red, green, blue))
    case (.ansi16, .rgb(let red, let green, let blue)):
      return .ansi16(Palette.nearest16(red, green, blue))
    }
  }
}

/// The xterm palette and nearest-colour searches used to degrade colours.
public enum Palette {
  /// The 16 ANSI colours as xterm draws them by default.
  static let ansi: [(UInt8, UInt8, UInt8)] = [
    (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205),
    (0, 205, 205), (229, 229, 229), (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0),
    (92, 92, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255),
  ]

  private static let cubeLevels: [Int] = [0, 95, 135, 175, 215, 255]

  /// The RGB value of an xterm 256-colour palette index.
  public static func rgb(ofIndex index: UInt8) -> (UInt8, UInt8, UInt8) {
    let value = Int(index)
    if value < 16 { return ansi[value] }
    if value >= 232 {
      let gray = UInt8(8 + (value - 232) * 10)
      return (gray, gray, gray)
    }
    let cube = value - 16
    return (
      UInt8(cubeLevels[cube / 36]), UInt8(cubeLevels[(cube / 6) % 6]), UInt8(cubeLevels[cube % 6])
    )
  }

  /// The palette index (16–255) closest to an RGB colour.
  public static func nearest256(_ red: UInt8, _ green: UInt8, _ blue: UInt8) -> UInt8 {
    func level(_ value: UInt8) -> Int {
      let value = Int(value)
      return value < 48 ? 0 : value < 115 ? 1 : (value - 35) / 40
    }
    let cubeIndex = UInt8(16 + 36 * level(red) + 6 * level(green) + level(blue))
    let average = (Int(red) + Int(green) + Int(blue)) / 3
    let grayIndex = UInt8(232 + min(23, max(0, (average - 3) / 10)))
    let cubeDistance = distance(rgb(ofIndex: cubeIndex), (red, green, blue))
    let grayDistance = distance(rgb(ofIndex: grayIndex), (red, green, blue))
    return grayDistance < cubeDistance ? grayIndex : cubeIndex
  }

  /// The ANSI colour (0–15) closest to an RGB colour.
  public static func nearest16(_ red: UInt8, _ green: UInt8, _ blue: UInt8) -> UInt8 {
    var best = 0
    var bestDistance = Int.max
    for (index, candidate) in ansi.enumerated() {
      let candidateDistance = distance(candidate, (red, green, blue))
      if candidateDistance < bestDistance {
        best = index
        bestDistance = candidateDistance
      }
    }
    return UInt8(best)
  }

  private static func distance(_ lhs: (UInt8, UInt8, UInt8), _ rhs: (UInt8, UInt8, UInt8)) -> Int {
    let red = Int(lhs.0) - Int(rhs.0)
    let green = Int(lhs.1) - Int(rhs.1)
    let blue = Int(lhs.2) - Int(rhs.2)
    // Weighted for the eye's sensitivity ("redmean" would be better; this is enough here).
    return 3 * red * red + 4 * green * green + 2 * blue * blue
  }
}

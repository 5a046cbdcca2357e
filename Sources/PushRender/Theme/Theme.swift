/// A vertical wallpaper gradient behind the lock screen.
public struct Wallpaper: Equatable, Sendable {
  /// The colour of the top row.
  public var top: Color
  /// The colour of the bottom row.
  public var bottom: Color

  /// Creates a gradient.
  public init(top: Color, bottom: Color) {
    self.top = top
    self.bottom = bottom
  }
}

/// Styles for every ``StyleRole``, at a given colour capability.
///
/// Themes are written in YAML (see `themes/*.yaml` and ``Theme/load(yaml:file:base:)``) and
/// adapted to what the terminal can show with ``adapted(to:)``.
public struct Theme: Equatable, Sendable {
  /// The theme's name, for example `default`.
  public var name: String
  /// The full-colour style of each role.
  public var styles: [StyleRole: Style]
  /// Overrides used without colour; roles not listed keep only their bold and reverse.
  public var monochromeStyles: [StyleRole: Style]
  /// The lock-screen wallpaper gradient, if any.
  public var wallpaper: Wallpaper?
  /// What the styles have been adapted to.
  public private(set) var colorCapability: ColorCapability

  /// Creates a theme at full colour.
  public init(
    name: String, styles: [StyleRole: Style], monochromeStyles: [StyleRole: Style] = [:],
    wallpaper: Wallpaper? = nil
  ) {
    self.name = name
    self.styles = styles
    self.monochromeStyles = monochromeStyles
    self.wallpaper = wallpaper
    self.colorCapability = .truecolor
  }

  /// The style for a role; plain when the theme does not define it.
  public subscript(role: StyleRole) -> Style { styles[role] ?? .plain }

  /// Returns the theme as a terminal with the given capability can show it.
  ///
  /// Colours step down truecolor → 256 → 16 by nearest match; monochrome drops colour and
  /// keeps bold and reverse (or the theme's `monochrome` overrides).
  public func adapted(to capability: ColorCapability) -> Theme {
    var result = self
    result.colorCapability = capability
    if capability == .monochrome {
      result.wallpaper = nil
      for role in StyleRole.allCases {
        let style = self[role]
        result.styles[role] =
          monochromeStyles[role] ?? Style(isBold: style.isBold, isReversed: style.isReversed)
      }
      return result
    }
    for (role, style) in styles {
      var adapted = style
      adapted.foreground = style.foreground.flatMap(capability.adapt)
      adapted.background = style.background.flatMap(capability.adapt)
      result.styles[role] = adapted
    }
    return result
  }

  /// The wallpaper colour of a row, interpolated in full colour and then adapted.
  ///
  /// Falls back to the `background` role's background when there is no gradient.
  public func wallpaperColor(row: Int, of rows: Int) -> Color? {
    guard let wallpaper else { return self[.background].background }
    guard case .rgb(let r0, let g0, let b0) = wallpaper.top,
      case .rgb(let r1, let g1, let b1) = wallpaper.bottom, rows > 1
    else { return colorCapability.adapt(wallpaper.top) }
    func mix(_ from: UInt8, _ to: UInt8) -> UInt8 {
      UInt8(Int(from) + (Int(to) - Int(from)) * row / (rows - 1))
    }
    return colorCapability.adapt(.rgb(mix(r0, r1), mix(g0, g1), mix(b0, b1)))
  }

  /// The theme compiled into the binary (the same text as `themes/default.yaml`).
  public static let builtInDefault: Theme =
    (try? Theme.load(yaml: Theme.builtInDefaultYAML, file: "<built-in default>", base: nil))
    ?? Theme(name: "fallback", styles: [.selection: Style(isReversed: true)])
}

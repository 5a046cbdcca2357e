/// A terminal colour at the richest fidelity a theme states it.
public enum Color: Equatable, Hashable, Sendable, CustomStringConvertible {
  /// The terminal's own default foreground or background.
  case terminalDefault
  /// One of the 16 ANSI colours (0–7 normal, 8–15 bright).
  case ansi16(UInt8)
  /// One entry of the xterm 256-colour palette.
  case indexed256(UInt8)
  /// A 24-bit colour.
  case rgb(UInt8, UInt8, UInt8)

  /// `#RRGGBB`, `ansi(9)`, `idx(236)` or `default`, as used in style dumps.
  public var description: String {
    switch self {
    case .terminalDefault: return "default"
    case .ansi16(let index): return "ansi(\(index))"
    case .indexed256(let index): return "idx(\(index))"
    case .rgb(let red, let green, let blue):
      return "#"
        + [red, green, blue].map { value in
          let hex = String(value, radix: 16, uppercase: true)
          return hex.count == 1 ? "0" + hex : hex
        }.joined()
    }
  }
}

/// How a cell is drawn: colours and attributes.
///
/// A `nil` colour is transparent: writing text keeps the colour already in the cell, so a card
/// title drawn over a filled card keeps the card's background.
public struct Style: Equatable, Hashable, Sendable, CustomStringConvertible {
  /// Foreground colour; `nil` keeps what is underneath.
  public var foreground: Color?
  /// Background colour; `nil` keeps what is underneath.
  public var background: Color?
  /// Bold (bright) text.
  public var isBold: Bool
  /// Dim (faint) text.
  public var isDim: Bool
  /// Italic text.
  public var isItalic: Bool
  /// Underlined text.
  public var isUnderlined: Bool
  /// Foreground and background swapped.
  public var isReversed: Bool

  /// Creates a style; everything defaults to plain and transparent.
  public init(
    foreground: Color? = nil, background: Color? = nil, isBold: Bool = false,
    isDim: Bool = false, isItalic: Bool = false, isUnderlined: Bool = false,
    isReversed: Bool = false
  ) {
    self.foreground = foreground
    self.background = background
    self.isBold = isBold
    self.isDim = isDim
    self.isItalic = isItalic
    self.isUnderlined = isUnderlined
    self.isReversed = isReversed
  }

  /// The plain, transparent style.
  public static let plain = Style()

  /// Returns this style laid over `base`: transparent colours are taken from `base`.
  public func over(_ base: Style) -> Style {
    var result = self
    result.foreground = foreground ?? base.foreground
    result.background = background ?? base.background
    return result
  }

  /// `bold, fg #FFFFFF, bg #1C1C1E`, as used in style dumps.
  public var description: String {
    var parts: [String] = []
    if isBold { parts.append("bold") }
    if isDim { parts.append("dim") }
    if isItalic { parts.append("italic") }
    if isUnderlined { parts.append("underline") }
    if isReversed { parts.append("reverse") }
    if let foreground { parts.append("fg \(foreground)") }
    if let background { parts.append("bg \(background)") }
    return parts.isEmpty ? "plain" : parts.joined(separator: ", ")
  }
}

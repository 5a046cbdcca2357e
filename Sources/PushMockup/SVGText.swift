import PushRender
import PushWire

/// Text for SVG and HTML output: payload text is untrusted, so it is cleaned and escaped here.
public enum SVGText {
  /// The font stack of every text element: Inter (Debian's `fonts-inter`) where the picture is
  /// rasterized, Apple's system font where a designer opens it on a Mac, and a colour emoji font.
  public static let fontStack =
    "Inter, -apple-system, 'SF Pro Text', 'Helvetica Neue', sans-serif"

  /// The text without what may not be shown or is not allowed in XML: control characters (C0,
  /// DEL, C1) become spaces where they separate words (tab, newlines) and are dropped otherwise;
  /// bidirectional overrides and isolates are dropped (they could reorder the rest of the
  /// line); noncharacters (U+FFFE, U+FFFF and the like) are dropped.
  public static func clean(_ text: String) -> String {
    var scalars = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      let value = scalar.value
      switch value {
      case 0x09, 0x0A, 0x0D, 0x85, 0x2028, 0x2029: scalars.append(" ")
      case 0x00...0x1F, 0x7F...0x9F: continue
      case 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F: continue
      case 0xFDD0...0xFDEF: continue
      default:
        if value & 0xFFFE == 0xFFFE { continue }
        scalars.append(scalar)
      }
    }
    return String(scalars)
  }

  /// Cleaned and XML-escaped (the one XML escaper, ``XMLText``), for element content and
  /// attribute values alike.
  public static func escape(_ text: String) -> String { XMLText.escaped(clean(text), .drawnText) }

  /// A number for an SVG attribute: at most two decimals, no exponent.
  public static func number(_ value: Double) -> String {
    guard value.isFinite else { return "0" }
    let hundredths = Int64((value * 100).rounded())
    let sign = hundredths < 0 ? "-" : ""
    let magnitude = hundredths.magnitude
    let whole = magnitude / 100
    let fraction = magnitude % 100
    if fraction == 0 { return sign + String(whole) }
    if fraction % 10 == 0 { return sign + "\(whole).\(fraction / 10)" }
    return sign + "\(whole)." + (fraction < 10 ? "0" : "") + String(fraction)
  }
}

/// Text measurement without a font engine: each character's advance is approximated from its
/// class at the font size (docs/DECISIONS.md, "Phone mockups": the numbers and their source).
/// Wrapping and truncation use it, so a line the mockup draws fits its platter in Inter and in
/// SF Pro alike (both are close to these averages; the estimate errs on the wide side).
public enum TextMetrics {
  /// The advance of one grapheme in ems (regular weight).
  static func advance(_ character: Character) -> Double {
    // Emoji, CJK and other wide characters: a square, a little wider for colour emoji.
    let columns = DisplayWidth.columns(of: String(character))
    if columns >= 2 {
      return character.unicodeScalars.first.map { $0.properties.isEmojiPresentation } == true ? 1.3 : 1.0
    }
    guard let scalar = character.unicodeScalars.first else { return 0 }
    if columns == 0 && !scalar.properties.isWhitespace { return 0 }
    switch scalar {
    case " ": return 0.28
    case "i", "l", "j", "I", "|", "!", ".", ",", ":", ";", "'", "`", "\u{2019}": return 0.27
    case "f", "t", "r", "(", ")", "[", "]", "{", "}", "/", "\\", "\"", "-": return 0.38
    // The widest letters, measured wide: a title of them ran into the time beside it.
    case "m", "w": return 0.88
    case "M", "W", "@", "%": return 1.0
    case "0"..."9": return 0.6
    case "A"..."Z": return 0.68
    case "a"..."z": return 0.55
    case "…": return 0.8
    default:
      // Other Latin, Greek and Cyrillic letters and symbols: about a lowercase letter.
      return scalar.properties.isUppercase ? 0.68 : 0.58
    }
  }

  /// The width of a string in points at `size` (semibold text is about 4% wider).
  public static func width(_ text: String, size: Double, bold: Bool = false) -> Double {
    var ems = 0.0
    for character in text { ems += advance(character) }
    return ems * size * (bold ? 1.04 : 1)
  }

  /// The text cut to fit `maxWidth`, ending in "…" when cut.
  public static func truncate(_ text: String, size: Double, maxWidth: Double, bold: Bool = false) -> String {
    if width(text, size: size, bold: bold) <= maxWidth { return text }
    let ellipsis = width("…", size: size, bold: bold)
    var result = ""
    var used = 0.0
    for character in text {
      let next = advance(character) * size * (bold ? 1.04 : 1)
      if used + next + ellipsis > maxWidth { break }
      result.append(character)
      used += next
    }
    while result.last == " " { result.removeLast() }
    return result + "…"
  }

  /// The text wrapped at spaces (long words broken anywhere) into at most `maxLines` lines of
  /// `maxWidth`; the last line ends in "…" when text is left over, as iOS truncates.
  public static func wrap(
    _ text: String, size: Double, maxWidth: Double, maxLines: Int, bold: Bool = false
  ) -> [String] {
    guard maxLines > 0 else { return [] }
    var lines: [String] = []
    var current = ""
    var words = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
    var index = 0
    while index < words.count {
      let word = words[index]
      let candidate = current.isEmpty ? word : current + " " + word
      if width(candidate, size: size, bold: bold) <= maxWidth {
        current = candidate
        index += 1
        continue
      }
      if current.isEmpty {
        // One word wider than the line: break it where it stops fitting.
        var head = ""
        var used = 0.0
        for character in word {
          let next = advance(character) * size * (bold ? 1.04 : 1)
          if used + next > maxWidth, !head.isEmpty { break }
          head.append(character)
          used += next
        }
        current = head
        words[index] = String(word.dropFirst(head.count))
        if words[index].isEmpty { index += 1 }
      }
      lines.append(current)
      current = ""
      if lines.count == maxLines { break }
    }
    if !current.isEmpty, lines.count < maxLines {
      lines.append(current)
      current = ""
    }
    let leftOver = index < words.count || !current.isEmpty
    if leftOver, let last = lines.popLast() {
      lines.append(
        truncate(last + " " + words[index...].joined(separator: " "), size: size, maxWidth: maxWidth, bold: bold))
    }
    return lines
  }
}

/// The one XML escaper: JUnit reports, the cell grid's SVG export and the phone mockups all
/// write their text through it.
///
/// Always: `&`, `<` and `>` become entities, and every character XML 1.0 forbids or discourages
/// (C0 controls other than tab, line feed and carriage return; DEL and the C1 controls; U+FFFE
/// and U+FFFF) becomes U+FFFD, so a reader sees that something was there. What differs between
/// places is chosen with ``Options``, named for why.
///
/// What a picture shows is not this escaper's business: the mockups drop bidirectional
/// controls and invisible characters *before* they measure and wrap text (`SVGText.clean`), so
/// by the time text reaches here it is what is drawn.
public enum XMLText {
  /// What to do with tab, line feed and carriage return.
  public enum LineBreaks: Sendable {
    /// Kept as they are: element text that a person reads as written (a failure's log).
    case kept
    /// Written as `&#9;`, `&#10;`, `&#13;`: attribute values, where a parser would otherwise
    /// turn them into spaces.
    case characterReferences
    /// Turned into spaces: text drawn on one line (an SVG `<text>`).
    case spaces
  }

  /// How one place escapes.
  public struct Options: Sendable {
    /// Tab, line feed and carriage return.
    public var lineBreaks: LineBreaks
    /// Whether `"` and `'` become `&quot;` and `&#39;`: needed in attribute values; element
    /// text keeps them readable.
    public var escapesQuotes: Bool

    /// Creates options.
    public init(lineBreaks: LineBreaks, escapesQuotes: Bool) {
      self.lineBreaks = lineBreaks
      self.escapesQuotes = escapesQuotes
    }

    /// Element content read as written: line breaks kept, quotes left alone.
    public static let elementText = Options(lineBreaks: .kept, escapesQuotes: false)
    /// An attribute value that must come back exactly: quotes and line breaks escaped.
    public static let attributeValue = Options(lineBreaks: .characterReferences, escapesQuotes: true)
    /// Text drawn in a picture, as element content or attribute value alike: one line, quotes
    /// escaped.
    public static let drawnText = Options(lineBreaks: .spaces, escapesQuotes: true)
  }

  /// `text` escaped for XML.
  public static func escaped(_ text: String, _ options: Options) -> String {
    var output = ""
    append(text, options, to: &output)
    return output
  }

  /// Appends `text` escaped for XML to `output`.
  public static func append(_ text: String, _ options: Options, to output: inout String) {
    output.reserveCapacity(output.utf8.count + text.utf8.count)
    var plainStart = text.unicodeScalars.startIndex
    var index = plainStart
    let scalars = text.unicodeScalars
    while index < scalars.endIndex {
      let scalar = scalars[index]
      let replacement: String?
      switch scalar.value {
      case 0x26: replacement = "&amp;"
      case 0x3C: replacement = "&lt;"
      case 0x3E: replacement = "&gt;"
      case 0x22: replacement = options.escapesQuotes ? "&quot;" : nil
      case 0x27: replacement = options.escapesQuotes ? "&#39;" : nil
      case 0x09, 0x0A, 0x0D:
        switch options.lineBreaks {
        case .kept: replacement = nil
        case .spaces: replacement = " "
        case .characterReferences: replacement = "&#\(scalar.value);"
        }
      case 0x00...0x1F, 0x7F...0x9F, 0xFFFE, 0xFFFF: replacement = "\u{FFFD}"
      default: replacement = nil
      }
      if let replacement {
        output.unicodeScalars.append(contentsOf: scalars[plainStart..<index])
        output += replacement
        index = scalars.index(after: index)
        plainStart = index
      } else {
        index = scalars.index(after: index)
      }
    }
    output.unicodeScalars.append(contentsOf: scalars[plainStart..<scalars.endIndex])
  }
}

/// What a cell shows.
public enum CellContent: Equatable, Hashable, Sendable {
  /// A normalised glyph; a 2-column glyph is followed by a ``continuation`` cell.
  case glyph(String, columns: Int)
  /// The right half of the wide glyph in the cell to the left.
  case continuation
  /// Nothing: drawn as a space.
  case blank
}

/// One terminal cell: content, style and the semantic role that chose the style.
public struct Cell: Equatable, Hashable, Sendable {
  /// What the cell shows.
  public var content: CellContent
  /// How it is drawn.
  public var style: Style
  /// The theme role that styled it, for style dumps; `nil` when drawn with a raw style.
  public var role: StyleRole?

  /// Creates a cell.
  public init(content: CellContent = .blank, style: Style = .plain, role: StyleRole? = nil) {
    self.content = content
    self.style = style
    self.role = role
  }

  /// An empty cell.
  public static let blank = Cell()
}

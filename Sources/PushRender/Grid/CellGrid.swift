import PushUI

/// A rectangular grid of terminal cells that screens draw into.
///
/// Rendering produces a grid value; the terminal backend only copies it to the screen, so
/// everything interesting is testable without a terminal (``textDump()``, ``styleDump()``).
public struct CellGrid: Equatable, Sendable {
  /// Width in columns.
  public let width: Int
  /// Height in rows.
  public let height: Int
  /// The cells, row-major.
  public private(set) var cells: [Cell]
  /// What a mouse press hits, as the screens drew it: later regions lie on top, and a region
  /// with no target blocks what is beneath (an overlay's empty space).
  public var hitRegions: [HitRegion] = []
  /// How far the inspector pane drawn in this frame can scroll (rows of its text past the
  /// pane's height), when one is drawn: the runtime hands it back to the state.
  public var inspectorScrollLimit: Int?
  /// How far the opened notification drawn in this frame can scroll (rows of its content past
  /// its window; 0 when all of it shows), when one is drawn: the runtime hands it back too.
  public var detailScrollLimit: Int?
  /// How many rows PgDn moves the opened notification drawn in this frame: its window less one,
  /// so the last row of a page shows again on the next.
  public var detailPageRows: Int?

  /// The target under a cell, looking from the top layer down.
  public func hitTarget(at point: Point) -> HitTarget? {
    for region in hitRegions.reversed() where region.rect.contains(point) { return region.target }
    return nil
  }

  /// Records a clickable (or, with `nil`, a blocking) region.
  public mutating func addHit(_ rect: Rect, _ target: HitTarget?) {
    hitRegions.append(HitRegion(rect: rect, target: target))
  }

  /// Creates a grid of blank cells with the given style.
  public init(width: Int, height: Int, style: Style = .plain, role: StyleRole? = nil) {
    self.width = max(0, width)
    self.height = max(0, height)
    cells = Array(
      repeating: Cell(content: .blank, style: style, role: role), count: self.width * self.height)
  }

  /// Creates a grid of blank cells of the given size.
  public init(size: Size, style: Style = .plain, role: StyleRole? = nil) {
    self.init(width: size.columns, height: size.rows, style: style, role: role)
  }

  /// The grid's size.
  public var size: Size { Size(columns: width, rows: height) }

  /// The cell at a column and row; positions outside the grid read as blank.
  public subscript(column: Int, row: Int) -> Cell {
    guard contains(column: column, row: row) else { return .blank }
    return cells[row * width + column]
  }

  private func contains(column: Int, row: Int) -> Bool {
    column >= 0 && column < width && row >= 0 && row < height
  }

  // MARK: - Drawing

  /// Writes text starting at `origin`, normalising and measuring each grapheme.
  ///
  /// Stops at the grid's right edge or after `maxColumns` columns, whichever comes first. A
  /// wide glyph that would not fit whole is not drawn; its remaining column is blanked in the
  /// same style so backgrounds stay continuous.
  ///
  /// - Returns: the columns written.
  @discardableResult
  public mutating func write(
    _ text: some StringProtocol, at origin: Point, style: Style, role: StyleRole? = nil,
    maxColumns: Int? = nil
  ) -> Int {
    guard origin.row >= 0, origin.row < height else { return 0 }
    let limit = min(width, origin.column + (maxColumns ?? width))
    var column = origin.column
    if GlyphNormalizer.isSimple(text) {
      // One glyph per scalar (see GlyphNormalizer.isSimple): no segmentation, no glyph array.
      for scalar in text.unicodeScalars {
        let columns = scalar.value < 0x7F ? 1 : DisplayWidth.columns(ofScalar: scalar)
        if column + columns > limit {
          if column < limit {
            put(.blank, at: column, origin.row, style, role)
            column += 1
          }
          break
        }
        if column >= 0 {
          put(.glyph(GlyphNormalizer.glyphText(scalar), columns: columns), at: column, origin.row, style, role)
          if columns == 2 { put(.continuation, at: column + 1, origin.row, style, role) }
        }
        column += columns
      }
      return column - origin.column
    }
    for glyph in GlyphNormalizer.glyphs(in: text) {
      if column + glyph.columns > limit {
        if column < limit {
          put(.blank, at: column, origin.row, style, role)
          column += 1
        }
        break
      }
      if column >= 0 {
        put(.glyph(glyph.text, columns: glyph.columns), at: column, origin.row, style, role)
        if glyph.columns == 2 { put(.continuation, at: column + 1, origin.row, style, role) }
      }
      column += glyph.columns
    }
    return column - origin.column
  }

  /// Fills a rectangle with blank cells in a style.
  public mutating func fill(_ rect: Rect, style: Style, role: StyleRole? = nil) {
    for row in max(0, rect.row)..<min(height, rect.endRow) {
      for column in max(0, rect.column)..<min(width, rect.endColumn) {
        put(.blank, at: column, row, style, role)
      }
    }
  }

  /// Re-styles a rectangle without changing its content (transparent colours keep theirs).
  public mutating func restyle(_ rect: Rect, style: Style, role: StyleRole? = nil) {
    for row in max(0, rect.row)..<min(height, rect.endRow) {
      for column in max(0, rect.column)..<min(width, rect.endColumn) {
        let index = row * width + column
        cells[index].style = style.over(cells[index].style)
        if let role { cells[index].role = role }
      }
    }
  }

  /// Copies another grid's cells onto this one with its top-left corner at `origin`; cells that
  /// fall outside are dropped, and a wide glyph cut at the edge is blanked.
  public mutating func paste(_ other: CellGrid, at origin: Point) {
    if origin == Point(column: 0, row: 0), other.width == width, other.height == height {
      // Covers every cell: take the other grid's cells whole, then repair its edges as below.
      cells = other.cells
      for row in 0..<height where width > 0 {
        let first = row * width
        if cells[first].content == .continuation { cells[first].content = .blank }
        if case .glyph(_, 2) = cells[first + width - 1].content { cells[first + width - 1].content = .blank }
      }
      hitRegions.append(contentsOf: other.hitRegions)
      return
    }
    for row in 0..<other.height {
      for column in 0..<other.width {
        let target = (column: origin.column + column, row: origin.row + row)
        guard contains(column: target.column, row: target.row) else { continue }
        var cell = other[column, row]
        if cell.content == .continuation, column == 0 || target.column == 0 { cell.content = .blank }
        if case .glyph(_, 2) = cell.content, target.column + 1 >= width { cell.content = .blank }
        cells[target.row * width + target.column] = cell
      }
    }
    for region in other.hitRegions {
      var rect = region.rect
      rect.column += origin.column
      rect.row += origin.row
      hitRegions.append(HitRegion(rect: rect, target: region.target))
    }
  }

  /// Places one cell, repairing any wide glyph it overlaps so no half glyph is left behind.
  private mutating func put(
    _ content: CellContent, at column: Int, _ row: Int, _ style: Style, _ role: StyleRole?
  ) {
    guard contains(column: column, row: row) else { return }
    let index = row * width + column
    let old = cells[index]
    if content != .continuation {
      if old.content == .continuation, column > 0 {
        cells[index - 1].content = .blank
      }
      if case .glyph(_, 2) = old.content, column + 1 < width,
        cells[index + 1].content == .continuation
      {
        cells[index + 1].content = .blank
      }
    }
    cells[index] = Cell(content: content, style: style.over(old.style), role: role ?? old.role)
  }

  // MARK: - Dumps

  /// The grid as text: one line per row, padded to the full width and wrapped in `|` so
  /// trailing spaces show. A wide glyph is written once and its continuation cell skipped.
  public func textDump() -> String {
    var text = ""
    for row in 0..<height {
      text += "|"
      for column in 0..<width {
        switch self[column, row].content {
        case .glyph(let glyph, _): text += glyph
        case .continuation: break
        case .blank: text += " "
        }
      }
      text += "|\n"
    }
    return text
  }

  /// The styles as runs, one per line: `row 3, cols 2–18: cardTitle (bold, fg #FFFFFF)`.
  ///
  /// Cells without a role and with the plain style are left out.
  public func styleDump() -> String {
    var lines: [String] = []
    for row in 0..<height {
      var start = 0
      while start < width {
        let cell = self[start, row]
        var end = start
        while end + 1 < width, self[end + 1, row].style == cell.style,
          self[end + 1, row].role == cell.role
        {
          end += 1
        }
        if cell.role != nil || cell.style != .plain {
          let name = cell.role.map(\.rawValue) ?? "unstyled"
          lines.append("row \(row), cols \(start)–\(end): \(name) (\(cell.style))")
        }
        start = end + 1
      }
    }
    return lines.joined(separator: "\n") + (lines.isEmpty ? "" : "\n")
  }
}

/// A rectangle of the frame and what a mouse press there means.
public struct HitRegion: Equatable, Sendable {
  /// Where, in cells.
  public var rect: Rect
  /// What it hits; `nil` blocks the layers beneath.
  public var target: HitTarget?
}

extension Rect {
  /// Whether a cell lies inside.
  public func contains(_ point: Point) -> Bool {
    point.column >= column && point.column < column + columns && point.row >= row && point.row < row + rows
  }
}

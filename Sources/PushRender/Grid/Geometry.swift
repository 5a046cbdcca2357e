/// A cell position: column from the left, row from the top, both zero-based.
public struct Point: Equatable, Hashable, Sendable {
  /// Zero-based column.
  public var column: Int
  /// Zero-based row.
  public var row: Int

  /// Creates a position.
  public init(column: Int, row: Int) {
    self.column = column
    self.row = row
  }
}

/// A size in cells.
public struct Size: Equatable, Hashable, Sendable, CustomStringConvertible {
  /// Width in columns.
  public var columns: Int
  /// Height in rows.
  public var rows: Int

  /// Creates a size.
  public init(columns: Int, rows: Int) {
    self.columns = columns
    self.rows = rows
  }

  /// `80×24` style.
  public var description: String { "\(columns)×\(rows)" }
}

/// A rectangle of cells.
public struct Rect: Equatable, Hashable, Sendable {
  /// Left column.
  public var column: Int
  /// Top row.
  public var row: Int
  /// Width in columns.
  public var columns: Int
  /// Height in rows.
  public var rows: Int

  /// Creates a rectangle.
  public init(column: Int, row: Int, columns: Int, rows: Int) {
    self.column = column
    self.row = row
    self.columns = columns
    self.rows = rows
  }

  /// The rectangle at the origin with the given size.
  public init(size: Size) {
    self.init(column: 0, row: 0, columns: size.columns, rows: size.rows)
  }

  /// The top-left cell.
  public var origin: Point { Point(column: column, row: row) }

  /// One past the right-most column.
  public var endColumn: Int { column + columns }

  /// One past the bottom row.
  public var endRow: Int { row + rows }

  /// The rectangle shrunk by `columns` on the left and right and `rows` at the top and bottom.
  public func inset(columns insetColumns: Int, rows insetRows: Int = 0) -> Rect {
    Rect(
      column: column + insetColumns, row: row + insetRows,
      columns: max(0, columns - 2 * insetColumns), rows: max(0, rows - 2 * insetRows))
  }
}

/// A rectangular grid of terminal cells that screens draw into.
public struct CellGrid: Equatable, Sendable {
  /// Columns.
  public let width: Int
  /// Rows.
  public let height: Int
}

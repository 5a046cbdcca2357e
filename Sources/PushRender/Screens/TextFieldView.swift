import PushUI

/// A line of typed text with its cursor: the character under the cursor in reverse video, or a
/// block after the last one. Text wider than the field scrolls to keep the cursor in view, with
/// "…" where it is cut.
enum TextFieldView {
  /// Draws `edited` at `origin` in at most `columns` columns; returns the columns written.
  @discardableResult
  static func draw(
    _ edited: EditedText, at origin: Point, columns: Int, style: Style, role: StyleRole, into grid: inout CellGrid
  ) -> Int {
    guard columns > 0 else { return 0 }
    let after = edited.afterCursor
    let rest = after.isEmpty ? "" : String(after.dropFirst())
    let cursorColumns = after.first.map { max(1, DisplayWidth.columns(of: String($0))) } ?? 1
    let room = max(0, columns - cursorColumns)
    var before = String(edited.beforeCursor)
    let restColumns = DisplayWidth.columns(of: rest)
    if DisplayWidth.columns(of: before) + restColumns > room {
      // Keep up to a third of the field for what follows the cursor, the rest for what precedes it.
      before = TextLayout.truncateLeading(before, toColumns: room - min(restColumns, room / 3))
    }
    var column = origin.column
    column += grid.write(before, at: origin, style: style, role: role, maxColumns: room)
    let cursorAt = Point(column: column, row: origin.row)
    if let under = after.first {
      var reversed = style
      reversed.isReversed.toggle()
      column += grid.write(String(under), at: cursorAt, style: reversed, role: role, maxColumns: cursorColumns)
      // What follows the cursor and does not fit ends in "…", as what precedes it begins with
      // one (it was cut off with nothing to say so; found by an exploratory test).
      let restRoom = max(0, origin.column + columns - column)
      column += grid.write(
        TextLayout.truncate(rest, toColumns: restRoom), at: Point(column: column, row: origin.row), style: style,
        role: role, maxColumns: restRoom)
    } else {
      column += grid.write("█", at: cursorAt, style: style, role: role, maxColumns: 1)
    }
    return column - origin.column
  }
}

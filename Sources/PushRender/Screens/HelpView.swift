import PushUI

/// The help overlay: every key, as ``KeyMap/documented`` lists them.
struct HelpView {
  func draw(into grid: inout CellGrid, theme: Theme) {
    let entries = KeyMap.documented
    let keyColumns = entries.map { DisplayWidth.columns(of: $0.keys) }.max() ?? 0
    let columns = min(grid.width - 4, 64)
    let rows = min(grid.height - 2, entries.count + 3)
    let rect = Rect(
      column: (grid.width - columns) / 2, row: max(0, (grid.height - 1 - rows) / 2), columns: columns, rows: rows)
    Chrome.drawBox(rect, title: "Keys", into: &grid, theme: theme)
    for (index, entry) in entries.prefix(rows - 3).enumerated() {
      let row = rect.row + 1 + index
      grid.write(
        entry.keys, at: Point(column: rect.column + 2, row: row), style: theme[.actionButton], role: .actionButton)
      grid.write(
        entry.help, at: Point(column: rect.column + 4 + keyColumns, row: row), style: theme[.cardBody], role: .cardBody,
        maxColumns: columns - keyColumns - 6)
    }
    grid.write(
      "Mouse: click selects, opens, presses · wheel scrolls", at: Point(column: rect.column + 2, row: rect.endRow - 2),
      style: theme[.cardMeta],
      role: .cardMeta, maxColumns: columns - 4)
  }
}

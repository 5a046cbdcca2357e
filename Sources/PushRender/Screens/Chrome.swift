import PushCore
import PushUI

/// Drawing shared by every screen: wallpaper, the top status line, centred text and boxes.
enum Chrome {
  /// Paints the theme's wallpaper gradient behind everything.
  static func drawWallpaper(into grid: inout CellGrid, theme: Theme) {
    for row in 0..<grid.height {
      if let color = theme.wallpaperColor(row: row, of: grid.height) {
        grid.restyle(Rect(column: 0, row: row, columns: grid.width, rows: 1), style: Style(background: color))
      }
    }
  }

  /// Blanks a band of rows down to the wallpaper, so what an overlay covers leaves nothing
  /// behind (no card border peeking out beside or below it).
  static func clearToWallpaper(rows: Range<Int>, into grid: inout CellGrid, theme: Theme) {
    for row in max(0, rows.lowerBound)..<min(grid.height, max(rows.lowerBound, rows.upperBound)) {
      let band = Rect(column: 0, row: row, columns: grid.width, rows: 1)
      grid.fill(band, style: theme[.background], role: .background)
      if let color = theme.wallpaperColor(row: row, of: grid.height) {
        grid.restyle(band, style: Style(background: color))
      }
    }
  }

  /// The phone's top line: name, signal and battery.
  static func drawStatusBar(into grid: inout CellGrid, theme: Theme) {
    let style = theme[.statusBar]
    grid.write(" Pushdeck", at: Point(column: 0, row: 0), style: style, role: .statusBar)
    let right = "5G ▂▄▆█  87% ▰▰▰▱ "
    let columns = DisplayWidth.columns(of: right)
    grid.write(right, at: Point(column: grid.width - columns, row: 0), style: style, role: .statusBar)
  }

  /// Writes text centred on a row, truncated to the grid's width.
  static func centre(_ text: String, row: Int, in grid: inout CellGrid, role: StyleRole, theme: Theme) {
    let fitted = TextLayout.truncate(text, toColumns: grid.width)
    let columns = DisplayWidth.columns(of: fitted)
    grid.write(
      fitted, at: Point(column: max(0, (grid.width - columns) / 2), row: row), style: theme[role], role: role)
  }

  /// Draws a filled rounded box with an optional title in its top border.
  static func drawBox(_ rect: Rect, title: String?, into grid: inout CellGrid, theme: Theme) {
    guard rect.columns >= 4, rect.rows >= 2 else { return }
    grid.fill(rect, style: theme[.card], role: .card)
    let border = theme[.cardBorder]
    let horizontal = String(repeating: "─", count: rect.columns - 2)
    grid.write("╭" + horizontal + "╮", at: rect.origin, style: border, role: .cardBorder)
    for row in (rect.row + 1)..<(rect.endRow - 1) {
      grid.write("│", at: Point(column: rect.column, row: row), style: border, role: .cardBorder)
      grid.write("│", at: Point(column: rect.endColumn - 1, row: row), style: border, role: .cardBorder)
    }
    grid.write(
      "╰" + horizontal + "╯", at: Point(column: rect.column, row: rect.endRow - 1), style: border, role: .cardBorder)
    if let title {
      let text = TextLayout.truncate(" \(title) ", toColumns: rect.columns - 4)
      grid.write(
        text, at: Point(column: rect.column + 2, row: rect.row), style: theme[.groupHeader], role: .groupHeader)
    }
  }

  /// The "Terminal too small" message; "Pane too small" for one device of a split screen,
  /// whose size is the pane's, not the terminal's.
  static func drawTooSmall(into grid: inout CellGrid, minimum: Size, theme: Theme, isPane: Bool = false) {
    let what = isPane ? "Pane" : "Terminal"
    let message = "\(what) too small: need \(minimum.columns)×\(minimum.rows), have \(grid.width)×\(grid.height)"
    let lines = TextLayout.wrap(message, toColumns: max(1, grid.width - 2))
    let top = max(0, (grid.height - lines.count) / 2)
    for (index, line) in lines.enumerated() {
      centre(line, row: top + index, in: &grid, role: .warning, theme: theme)
    }
  }
}

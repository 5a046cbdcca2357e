import PushCore
import PushUI

/// `run --compare`: several devices side by side, each in a pane of its own with a header
/// naming it, all drawn into one cell grid.
///
/// Layout: one column per device while each column is at least as wide as the lock screen's
/// minimum (two devices always share columns); three or four devices on a screen too narrow for
/// that take a 2×2 grid. Each pane's first row is its header; the rest is the device's screen,
/// drawn as ``render(_:size:theme:sleepTheme:)`` draws a whole terminal, so a pane too small
/// for it says so inside the pane.
public enum SplitView {
  /// One pane: the name of its device variant and its state.
  public struct Pane {
    public var label: String
    public var state: AppState

    public init(label: String, state: AppState) {
      self.label = label
      self.state = state
    }
  }

  /// The rectangles of `count` panes (headers included) on a screen of `size`, left to right
  /// then top to bottom.
  public static func paneRects(count: Int, size: Size) -> [Rect] {
    guard count > 0, size.columns > 0, size.rows > 0 else { return [] }
    let minimum = LockScreenView.minimumSize
    let useGrid = count > 2 && size.columns / count < minimum.columns
    let columns = useGrid ? 2 : count
    let rows = useGrid ? (count + 1) / 2 : 1
    var rects: [Rect] = []
    for index in 0..<count {
      let column = index % columns
      let row = index / columns
      let left = size.columns * column / columns
      let right = size.columns * (column + 1) / columns
      let top = size.rows * row / rows
      let bottom = size.rows * (row + 1) / rows
      rects.append(Rect(column: left, row: top, columns: right - left, rows: bottom - top))
    }
    return rects
  }

  /// The size each pane's device draws into: its rectangle less the header row.
  public static func contentSizes(count: Int, size: Size) -> [Size] {
    paneRects(count: count, size: size).map { Size(columns: $0.columns, rows: max(0, $0.rows - 1)) }
  }

  /// Draws the panes into one grid of `size`. Mouse hit regions of the panes are dropped: the
  /// split view is driven by keys.
  public static func render(_ panes: [Pane], size: Size, theme: Theme, sleepTheme: Theme? = nil) -> CellGrid {
    var grid = CellGrid(size: size, style: theme[.background], role: .background)
    for (index, (pane, rect)) in zip(panes, paneRects(count: panes.count, size: size)).enumerated() {
      let content = Size(columns: rect.columns, rows: max(0, rect.rows - 1))
      if content.rows > 0 {
        var inner = PushRender.render(pane.state, size: content, theme: theme, sleepTheme: sleepTheme)
        inner.hitRegions = []
        grid.paste(inner, at: Point(column: rect.column, row: rect.row + 1))
      }
      drawHeader(index: index, pane: pane, in: rect, into: &grid, theme: theme)
    }
    grid.hitRegions = []
    return grid
  }

  /// The header row: the pane's number and device, then its lock, how many notifications
  /// Notification Center holds and its Focus; cut to the pane's width.
  static func drawHeader(index: Int, pane: Pane, in rect: Rect, into grid: inout CellGrid, theme: Theme) {
    let row = Rect(column: rect.column, row: rect.row, columns: rect.columns, rows: 1)
    grid.fill(row, style: theme[.statusBar], role: .statusBar)
    let device = pane.state.device
    let focus = device.activeFocus.map { " · \($0.name)" } ?? ""
    let text =
      " \(index + 1) \(printable(pane.label)) │ \(device.isLocked ? "locked" : "unlocked")"
      + " · \(device.store.centerCount) in NC\(focus)"
    let fitted = TextLayout.truncate(text, toColumns: max(0, rect.columns - 1))
    grid.write(fitted, at: Point(column: rect.column, row: rect.row), style: theme[.statusBar], role: .statusBar)
    if rect.column > 0 {
      // A rule on the left edge of every pane but the first, so neighbours' headers read apart.
      grid.write("▏", at: Point(column: rect.column, row: rect.row), style: theme[.footerKey], role: .footerKey)
    }
  }

  /// A label with control characters shown as `?` (it may come from a file name).
  static func printable(_ label: String) -> String {
    String(
      String.UnicodeScalarView(
        label.unicodeScalars.map { scalar in
          switch scalar.properties.generalCategory {
          case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned: "?"
          default: scalar
          }
        }))
  }
}

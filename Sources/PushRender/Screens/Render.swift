import PushCore
import PushUI

/// Renders the whole front end for a state: the pure heart of the view layer.
///
/// The screen is drawn first, then the inspector pane, the banner (over the screen only, never
/// over a pane), the overlay (action sheet or help), the toast and the status line, as layers.
///
/// - Parameters:
///   - state: what to show.
///   - size: the terminal's size in cells.
///   - theme: the styles, already adapted to the terminal's colour capability.
///   - sleepTheme: the theme for a Focus that dims the lock screen (Sleep); without one the
///     main theme is dimmed.
/// - Returns: the finished frame.
public func render(_ state: AppState, size: Size, theme: Theme, sleepTheme: Theme? = nil) -> CellGrid {
  var theme = theme
  if state.screen == .lock, state.device.activeFocus?.dimsLockScreen == true {
    theme = sleepTheme ?? theme.dimmed()
  }
  var grid = CellGrid(size: size, style: theme[.background], role: .background)
  let minimum = LockScreenView.minimumSize
  guard size.columns >= minimum.columns, size.rows >= minimum.rows else {
    Chrome.drawTooSmall(into: &grid, minimum: minimum, theme: theme, isPane: state.isSplitPane)
    return grid
  }
  let hasPane = state.isInspectorOpen || state.pane != nil
  let splitsInspector = hasPane && size.columns >= 100
  var screenGrid = CellGrid(
    size: Size(columns: splitsInspector ? size.columns / 2 : size.columns, rows: size.rows),
    style: theme[.background], role: .background)
  switch state.screen {
  case .lock: LockScreenView(state: state).draw(into: &screenGrid, theme: theme)
  case .center: CenterView(state: state).draw(into: &screenGrid, theme: theme)
  case .detail(let id): DetailView(state: state, id: id).draw(into: &screenGrid, theme: theme)
  }
  // Beside a pane the banner drops over the screen's half, so the pane stays readable. The
  // help and the clear-all question are on top of everything: no banner while they show.
  let showsBanner: Bool
  switch state.overlay {
  case .help?, .confirmClearAll?, .provisional?: showsBanner = false
  case .actionSheet?, nil: showsBanner = true
  }
  // The action sheet sits at the card it belongs to: where the screen drew the selected row.
  let anchor = actionSheetAnchor(state, in: screenGrid)
  if splitsInspector, showsBanner { BannerView(state: state).draw(into: &screenGrid, theme: theme) }
  grid.paste(screenGrid, at: Point(column: 0, row: 0))
  grid.detailScrollLimit = screenGrid.detailScrollLimit
  grid.detailPageRows = screenGrid.detailPageRows
  if hasPane {
    let column = splitsInspector ? size.columns / 2 : 0
    let rect = Rect(column: column, row: 0, columns: size.columns - column, rows: size.rows - 1)
    switch state.pane {
    case .timeline?: TimelineView(state: state).draw(into: &grid, in: rect, theme: theme)
    case .settings?: SettingsView(state: state).draw(into: &grid, in: rect, theme: theme)
    case nil:
      InspectorView(state: state).draw(into: &grid, in: rect, theme: theme)
      grid.addHit(rect, .inspector)
    }
  }
  // A pane as wide as the terminal hides the phone's screen, banner included: the banner is
  // still there, and shows when the pane closes (it would cover the pane's first rows, and with
  // a manual clock it stays until time moves).
  if !hasPane, showsBanner { BannerView(state: state).draw(into: &grid, theme: theme) }
  switch state.overlay {
  case .help?:
    // The help is a screen of its own over everything: nothing of what is under it shows.
    Chrome.clearToWallpaper(rows: 0..<(size.rows - 1), into: &grid, theme: theme)
    HelpView(state: state).draw(into: &grid, theme: theme)
    grid.addHit(Rect(size: size), nil)
  case .actionSheet(let sheet)?:
    // iOS blurs everything behind a long-pressed notification: the sheet's screen is cleared,
    // so no scraps of other cards show at its sides.
    let width = splitsInspector ? size.columns / 2 : size.columns
    var backdrop = CellGrid(
      size: Size(columns: width, rows: size.rows - 1), style: theme[.background], role: .background)
    Chrome.clearToWallpaper(rows: 0..<backdrop.height, into: &backdrop, theme: theme)
    ActionSheetView(state: state, sheet: sheet, anchor: anchor).draw(into: &backdrop, theme: theme)
    grid.paste(backdrop, at: Point(column: 0, row: 0))
    grid.addHit(Rect(column: 0, row: 0, columns: width, rows: size.rows - 1), nil)
    grid.hitRegions += backdrop.hitRegions
  case .confirmClearAll?:
    Chrome.clearToWallpaper(rows: 0..<(size.rows - 1), into: &grid, theme: theme)
    ConfirmView(state: state).draw(into: &grid, theme: theme)
    grid.addHit(Rect(size: size), nil)
  case .provisional(let choice)?:
    Chrome.clearToWallpaper(rows: 0..<(size.rows - 1), into: &grid, theme: theme)
    grid.addHit(Rect(size: size), nil)
    ProvisionalChoiceView(state: state, choice: choice).draw(into: &grid, theme: theme)
  case nil: break
  }
  if let toast = state.toast {
    // Beside a pane, on the phone's half: across the whole width it covered the pane's border.
    let width = splitsInspector ? size.columns / 2 : size.columns
    // On a short terminal the lock screen's count line is on the toast's row: the toast hides
    // it whole, where it left the line's ends around its own words ("＋ 4 Scheduled Summary:
    // 1 notification  Shop"; found by an exploratory test with run --compare).
    // A long toast takes two rows rather than losing its end (an instruction, often).
    let lines = TextLayout.wrap(toast.text, toColumns: max(1, width - 4), maxLines: size.rows >= 16 ? 2 : 1)
    for (index, line) in lines.enumerated() {
      let row = size.rows - 1 - lines.count + index
      for column in 0..<width where grid[column, row].role == .overflow {
        let cell = Rect(column: column, row: row, columns: 1, rows: 1)
        grid.fill(cell, style: theme[.background], role: .background)
        if let color = theme.wallpaperColor(row: row, of: size.rows) {
          grid.restyle(cell, style: Style(background: color))
        }
      }
      let text = " \(line) "
      let columns = DisplayWidth.columns(of: text)
      grid.write(
        text, at: Point(column: max(0, (width - columns) / 2), row: row), style: theme[.focusIndicator],
        role: .focusIndicator)
    }
  }
  StatusLineView(state: state).draw(into: &grid, theme: theme)
  return grid
}

/// Where the selected notification's card was drawn, for the action sheet to sit at.
private func actionSheetAnchor(_ state: AppState, in grid: CellGrid) -> Rect? {
  guard case .actionSheet? = state.overlay else { return nil }
  let target: HitTarget
  switch state.screen {
  case .lock: target = .lockRow(state.lockSelection)
  case .center: target = .centerRow(state.centerSelection)
  case .detail: return nil
  }
  return grid.hitRegions.last { $0.target == target }?.rect
}

extension Theme {
  /// The theme with every style dimmed, for the Sleep Focus when no sleep theme is loaded.
  public func dimmed() -> Theme {
    var copy = self
    for (role, style) in styles {
      var dim = style
      dim.isDim = true
      dim.isBold = false
      copy.styles[role] = dim
    }
    return copy
  }
}

import PushUI

/// The help overlay: every key, as ``KeyMap/documented`` lists them. On a short terminal it
/// scrolls (↑ ↓, PgUp PgDn, Home End, the wheel) and its title says which rows show; on a
/// narrow one each text cut at the box's edge ends in "…" (``TextLayout/truncate(_:toColumns:ellipsis:)``).
struct HelpView {
  var state: AppState

  func draw(into grid: inout CellGrid, theme: Theme) {
    let entries = KeyMap.documented
    let keyColumns = entries.map { DisplayWidth.columns(of: $0.keys) }.max() ?? 0
    let columns = min(grid.width - 4, 64)
    let rows = min(grid.height - 2, entries.count + 3)
    let visible = max(1, rows - 3)
    let first = min(max(0, state.helpScroll), max(0, entries.count - visible))
    let rect = Rect(
      column: (grid.width - columns) / 2, row: max(0, (grid.height - 1 - rows) / 2), columns: columns, rows: rows)
    let last = min(entries.count, first + visible)
    let title = visible < entries.count ? "Keys \(first + 1)–\(last) of \(entries.count) · ↑↓ scroll" : "Keys"
    Chrome.drawBox(rect, title: title, into: &grid, theme: theme)
    for (index, entry) in entries[first..<last].enumerated() {
      let row = rect.row + 1 + index
      grid.write(
        TextLayout.truncate(entry.keys, toColumns: columns - 4), at: Point(column: rect.column + 2, row: row),
        style: theme[.actionButton], role: .actionButton)
      let helpColumns = columns - keyColumns - 6
      grid.write(
        TextLayout.truncate(entry.help, toColumns: helpColumns),
        at: Point(column: rect.column + 4 + keyColumns, row: row),
        style: theme[.cardBody], role: .cardBody, maxColumns: helpColumns)
    }
    if last < entries.count {
      let more = " ▼ more "
      grid.write(
        more, at: Point(column: rect.endColumn - 2 - DisplayWidth.columns(of: more), row: rect.endRow - 1),
        style: theme[.groupHeader], role: .groupHeader)
    }
    grid.write(
      TextLayout.truncate(state.isSplitPane ? Self.splitHelp : Self.mouseHelp, toColumns: columns - 4),
      at: Point(column: rect.column + 2, row: rect.endRow - 2), style: theme[.cardMeta], role: .cardMeta,
      maxColumns: columns - 4)
  }

  /// The line under the keys.
  static let mouseHelp = "Mouse: click selects, opens, presses · wheel scrolls"
  /// The line under the keys in `run --compare`, whose panes take keys only and run no handlers.
  static let splitHelp = "Split view: keys act on every pane · no mouse · no handlers"
}

/// "Clear all notifications?": `C` asks before clearing everything.
struct ConfirmView {
  var state: AppState

  func draw(into grid: inout CellGrid, theme: Theme) {
    let count = state.device.store.count
    let question = "Clear all \(count) notification\(count == 1 ? "" : "s")?"
    let hint = "⏎ or y clears · Esc or any other key keeps them"
    let columns = min(grid.width - 4, max(DisplayWidth.columns(of: question), DisplayWidth.columns(of: hint)) + 4)
    let rect = Rect(
      column: (grid.width - columns) / 2, row: max(1, (grid.height - 1 - 4) / 2), columns: columns, rows: 4)
    Chrome.drawBox(rect, title: "Notification Center", into: &grid, theme: theme)
    grid.write(
      TextLayout.truncate(question, toColumns: columns - 4), at: Point(column: rect.column + 2, row: rect.row + 1),
      style: theme[.destructiveAction], role: .destructiveAction, maxColumns: columns - 4)
    grid.write(
      TextLayout.truncate(hint, toColumns: columns - 4), at: Point(column: rect.column + 2, row: rect.row + 2),
      style: theme[.cardMeta], role: .cardMeta, maxColumns: columns - 4)
  }
}

/// Keep… and Turn Off… of a provisional app (reference §4.2): Keep's delivery choices, or the
/// question before turning its notifications off.
struct ProvisionalChoiceView {
  var state: AppState
  var choice: ProvisionalChoice

  func draw(into grid: inout CellGrid, theme: Theme) {
    let name = state.appInfo(choice.bundleID).displayName
    let lines: [String]
    let hint: String
    switch choice.kind {
    case .keep:
      lines = choice.options.map(\.title)
      hint = "↑↓ move · ⏎ choose · Esc cancel"
    case .turnOff:
      lines = ["Turn off all notifications from \(name)?"]
      hint = "⏎ or y turns them off · Esc or any other key keeps them"
    }
    let widest = (lines + [hint]).map { DisplayWidth.columns(of: $0) }.max() ?? 0
    let columns = min(grid.width - 4, widest + 6)
    let rows = lines.count + 3
    let rect = Rect(
      column: (grid.width - columns) / 2, row: max(1, (grid.height - 1 - rows) / 2), columns: columns, rows: rows)
    Chrome.drawBox(rect, title: choice.kind == .keep ? "Keep \(name)" : name, into: &grid, theme: theme)
    for (index, line) in lines.enumerated() {
      let row = rect.row + 1 + index
      let text = TextLayout.truncate(line, toColumns: columns - 6)
      switch choice.kind {
      case .keep:
        let highlighted = index == choice.highlighted
        grid.write(
          (highlighted ? "▸ " : "  ") + text, at: Point(column: rect.column + 2, row: row),
          style: highlighted ? theme[.selection] : theme[.actionButton], role: highlighted ? .selection : .actionButton,
          maxColumns: columns - 4)
        grid.addHit(Rect(column: rect.column + 1, row: row, columns: columns - 2, rows: 1), .action(index))
      case .turnOff:
        grid.write(
          text, at: Point(column: rect.column + 2, row: row), style: theme[.destructiveAction],
          role: .destructiveAction,
          maxColumns: columns - 4)
      }
    }
    grid.write(
      TextLayout.truncate(hint, toColumns: columns - 4), at: Point(column: rect.column + 2, row: rect.row + rows - 2),
      style: theme[.cardMeta], role: .cardMeta, maxColumns: columns - 4)
  }
}

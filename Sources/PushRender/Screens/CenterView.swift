import PushCore
import PushUI

/// Notification Center: every stored notification, stacks in rank order, expandable.
///
/// ```text
///  Notification Center               6 notifications in 3 groups
/// ╭─ 💬 Messages ──────────────────────── 3m ago ─╮
/// │ Ana                                           │
/// ╰───────────────────────────────────────────────╯
///   ╰───────────── 1 more notification ─────────╯
/// ```
struct CenterView {
  var state: AppState

  /// One row as drawn: its height and how to draw it.
  private struct Block {
    var rows: Int
    var draw: (inout CellGrid, Point, Int, Theme) -> Void
    /// Whether the block has Keep… and Turn Off on its last row.
    var isProvisional = false
  }

  func draw(into grid: inout CellGrid, theme: Theme) {
    Chrome.drawWallpaper(into: &grid, theme: theme)
    Chrome.drawStatusBar(into: &grid, theme: theme)
    let rows = state.centerRows()
    let groups = rows.reduce(0) { count, row in
      if case .item = row { return count }
      return count + 1
    }
    let columns = min(grid.width - 4, 66)
    let left = (grid.width - columns) / 2
    let title = "Notification Center"
    grid.write(title, at: Point(column: left, row: 1), style: theme[.lockDate], role: .lockDate)
    // The count takes what the title leaves (a narrow terminal, or the inspector beside it),
    // shortened rather than run into the title.
    // What the rows show: notifications held for the Scheduled Summary are stored but not in
    // Notification Center until it is delivered (they were counted: "1 notification in 0 groups"
    // above "No Older Notifications"; found by an exploratory test).
    let stored = rows.reduce(0) { count, row in
      switch row {
      case .stack(let group), .header(let group): count + group.count
      case .item: count
      }
    }
    let groupsText = PluralFormat.counted(groups, "group")
    let counts = ["\(PluralFormat.counted(stored, "notification")) in \(groupsText)", "\(stored) in \(groupsText)"]
    let room = columns - DisplayWidth.columns(of: title) - 2
    if let (count, width) = counts.lazy.map({ ($0, DisplayWidth.columns(of: $0)) }).first(where: { $0.1 <= room }) {
      grid.write(count, at: Point(column: left + columns - width, row: 1), style: theme[.cardMeta], role: .cardMeta)
    }
    guard !rows.isEmpty else {
      Chrome.centre("No Older Notifications", row: grid.height / 2, in: &grid, role: .overflow, theme: theme)
      return
    }
    let selected = min(max(state.centerSelection, 0), rows.count - 1)
    let top = 3
    let available = grid.height - 2 - top
    // Blocks only for rows that could be on screen (each takes at least two rows with its gap);
    // the rest are counted, so the frame's cost does not grow with what is stored.
    let blockLimit = min(rows.count, selected + available / 2 + 2)
    let blocks = rows.prefix(blockLimit).enumerated().map {
      block(for: $0.element, isSelected: $0.offset == selected, columns: columns)
    }
    // Scroll so the selected row is fully visible, keeping as much above it as fits.
    var first = 0
    while first < selected, height(blocks[first...selected]) > available { first += 1 }
    var row = top
    for index in first..<blocks.count {
      let block = blocks[index]
      guard row + block.rows <= top + available else {
        let more = rows.count - index
        Chrome.centre("↓ \(more) more", row: top + available, in: &grid, role: .overflow, theme: theme)
        break
      }
      block.draw(&grid, Point(column: left, row: row), columns, theme)
      grid.addHit(Rect(column: left, row: row, columns: columns, rows: block.rows), .centerRow(index))
      if block.isProvisional {
        let last = row + block.rows - 1
        grid.addHit(Rect(column: left + 2, row: last, columns: 9, rows: 1), .provisional(row: index, keep: true))
        grid.addHit(Rect(column: left + 13, row: last, columns: 13, rows: 1), .provisional(row: index, keep: false))
      }
      row += block.rows + 1
    }
    if first > 0 {
      Chrome.centre("↑ \(first) more", row: 2, in: &grid, role: .overflow, theme: theme)
    }
  }

  private func height(_ blocks: ArraySlice<Block>) -> Int {
    blocks.reduce(0) { $0 + $1.rows + 1 } - 1
  }

  private func block(for row: CenterRow, isSelected: Bool, columns: Int) -> Block {
    switch row {
    case .stack(let group):
      guard let front = group.notifications.first else { return Block(rows: 0) { _, _, _, _ in } }
      var card = NotificationCardView.stack(group, front: front, in: state)
      card.isSelected = isSelected
      return cardBlock(card, id: front.id, columns: columns)
    case .header(let group):
      let app = state.appInfo(group.key.bundleID)
      let title = state.stackTitle(group)
      return Block(rows: 1) { grid, origin, columns, theme in
        let role: StyleRole = isSelected ? .selection : .groupHeader
        grid.fill(
          Rect(column: origin.column, row: origin.row, columns: columns, rows: 1), style: theme[role], role: role)
        grid.write(
          " \(app.iconGlyph) \(title)", at: origin, style: theme[role], role: role,
          maxColumns: columns - 14)
        let hint = "Show less ▴ "
        grid.write(
          hint, at: Point(column: origin.column + columns - DisplayWidth.columns(of: hint), row: origin.row),
          style: theme[isSelected ? .selection : .actionButton], role: isSelected ? .selection : .actionButton)
      }
    case .item(_, let stored):
      var card = NotificationCardView(
        notification: state.displayed(stored), app: state.appInfo(stored.notification.bundleID), hiddenCount: 0,
        now: state.now, maxBodyLines: 2)
      card.decorate(stored, in: state)
      card.isSelected = isSelected
      return cardBlock(card, id: stored.id, columns: columns)
    }
  }

  /// A card, with Keep… and Turn Off under it for a provisional app.
  private func cardBlock(_ card: NotificationCardView, id: NotificationID, columns: Int) -> Block {
    let provisional = state.isProvisional(id)
    return Block(
      rows: card.rows(columns: columns) + (provisional ? 1 : 0),
      draw: { grid, origin, columns, theme in
        card.draw(into: &grid, at: origin, columns: columns, theme: theme)
        guard provisional else { return }
        let row = origin.row + card.rows(columns: columns)
        var column = origin.column + 2
        column += grid.write(
          " K Keep… ", at: Point(column: column, row: row), style: theme[.actionButton], role: .actionButton)
        column += 2
        grid.write(
          " T Turn Off… ", at: Point(column: column, row: row), style: theme[.destructiveAction],
          role: .destructiveAction)
      }, isProvisional: provisional)
  }
}

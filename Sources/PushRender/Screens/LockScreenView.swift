import PushCore
import PushUI

/// Renders the whole front end for a state: the pure heart of the view layer.
///
/// - Parameters:
///   - state: what to show.
///   - size: the terminal's size in cells.
///   - theme: the styles, already adapted to the terminal's colour capability.
/// - Returns: the finished frame.
public func render(_ state: AppState, size: Size, theme: Theme) -> CellGrid {
  switch state.screen {
  case .lock: LockScreenView(device: state.device).render(size: size, theme: theme)
  }
}

/// The iPhone-like lock screen: status line, padlock, date, big clock, Focus, notification
/// stacks (newest first) and a key-hint footer.
public struct LockScreenView: Sendable {
  /// The smallest terminal the lock screen is drawn on; smaller ones get a message.
  public static let minimumSize = Size(columns: 40, rows: 12)

  /// The device to show.
  public var device: DeviceSnapshot

  /// Creates the view.
  public init(device: DeviceSnapshot) { self.device = device }

  /// Draws the lock screen at a size.
  public func render(size: Size, theme: Theme) -> CellGrid {
    var grid = CellGrid(size: size, style: theme[.background], role: .background)
    guard size.columns >= Self.minimumSize.columns, size.rows >= Self.minimumSize.rows else {
      drawTooSmall(into: &grid, theme: theme)
      return grid
    }
    for row in 0..<size.rows {
      if let color = theme.wallpaperColor(row: row, of: size.rows) {
        grid.restyle(
          Rect(column: 0, row: row, columns: size.columns, rows: 1), style: Style(background: color)
        )
      }
    }
    drawStatusBar(into: &grid, theme: theme)
    let cardsTop = drawClockArea(into: &grid, theme: theme)
    drawStacks(into: &grid, top: cardsTop, bottom: size.rows - 2, theme: theme)
    drawFooter(into: &grid, theme: theme)
    return grid
  }

  // MARK: - Parts

  private func drawTooSmall(into grid: inout CellGrid, theme: Theme) {
    let minimum = Self.minimumSize
    let message =
      "Terminal too small: need \(minimum.columns)×\(minimum.rows), have \(grid.width)×\(grid.height)"
    let lines = TextLayout.wrap(message, toColumns: max(1, grid.width - 2))
    let top = max(0, (grid.height - lines.count) / 2)
    for (index, line) in lines.enumerated() {
      centre(line, row: top + index, in: &grid, role: .warning, theme: theme)
    }
  }

  private func drawStatusBar(into grid: inout CellGrid, theme: Theme) {
    let style = theme[.statusBar]
    grid.write(" Pushdeck", at: Point(column: 0, row: 0), style: style, role: .statusBar)
    let right = "5G ▂▄▆█  87% ▰▰▰▱ "
    let columns = DisplayWidth.columns(of: right)
    grid.write(
      right, at: Point(column: grid.width - columns, row: 0), style: style, role: .statusBar)
  }

  /// Draws padlock, date, clock and Focus; returns the first row free for cards.
  private func drawClockArea(into grid: inout CellGrid, theme: Theme) -> Int {
    let time = CivilTime(device.now, utcOffsetSeconds: device.utcOffsetSeconds)
    var row = 1
    centre(device.isLocked ? "🔒" : "🔓", row: row, in: &grid, role: .lockIcon, theme: theme)
    row += 1
    centre(time.lockScreenDate, row: row, in: &grid, role: .lockDate, theme: theme)
    row += 1
    let large = BigClock(text: time.clock, size: .large)
    let clock: BigClock? =
      grid.height >= 20 && large.isDrawable && large.columns + 4 <= grid.width ? large : nil
    if let clock {
      for line in clock.lines() {
        centre(line, row: row, in: &grid, role: .lockClock, theme: theme)
        row += 1
      }
    } else {
      centre(time.clock, row: row, in: &grid, role: .lockClock, theme: theme)
      row += 1
    }
    if let focus = device.activeFocus, !focus.isEmpty {
      centre(" ☾ \(focus) ", row: row, in: &grid, role: .focusIndicator, theme: theme)
      row += 1
    }
    return row + 1
  }

  private func drawStacks(into grid: inout CellGrid, top: Int, bottom: Int, theme: Theme) {
    let stacks = Grouping.stacks(of: device.notifications)
    guard !stacks.isEmpty, bottom >= top else { return }
    let columns = min(grid.width - 4, 66)
    let left = (grid.width - columns) / 2
    let available = bottom - top + 1
    var used = 0
    var drawn = 0
    for (index, stack) in stacks.enumerated() {
      guard let front = stack.front else { continue }
      let card = NotificationCardView(
        notification: front, app: device.app(front.bundleID), hiddenCount: stack.hiddenCount,
        now: device.now, maxBodyLines: 2)
      let gap = index > 0 ? 1 : 0
      // Everything from here on fits as it is: draw it all without an overflow line.
      let restFits = fitsAll(
        stacks, from: index, used: used, columns: columns, available: available)
      // Otherwise keep room for the overflow line (a gap and one row), and let the front stack
      // shrink to a compact card rather than vanish on short terminals.
      let candidates = restFits || index > 0 ? [card] : card.compactVariants()
      let reserve = restFits ? 0 : 2
      guard
        let chosen = candidates.first(where: {
          used + gap + $0.rows(columns: columns) + reserve <= available
        })
      else { break }
      chosen.draw(
        into: &grid, at: Point(column: left, row: top + used + gap), columns: columns, theme: theme)
      used += gap + chosen.rows(columns: columns)
      drawn += 1
    }
    let remaining = stacks.dropFirst(drawn)
    guard !remaining.isEmpty else { return }
    let count = remaining.reduce(0) { $0 + $1.notifications.count }
    let names = remaining.compactMap { $0.front.map { device.app($0.bundleID).displayName } }
    var unique: [String] = []
    for name in names where !unique.contains(name) { unique.append(name) }
    let noun = count == 1 ? "notification" : "notifications"
    let text = TextLayout.truncate(
      "＋ \(count) more \(noun) · \(unique.joined(separator: ", "))", toColumns: columns)
    centre(text, row: top + used + (drawn > 0 ? 1 : 0), in: &grid, role: .overflow, theme: theme)
  }

  /// Whether all stacks from `index` on fit without an overflow line.
  private func fitsAll(
    _ stacks: [NotificationStack], from index: Int, used: Int, columns: Int, available: Int
  ) -> Bool {
    var total = used
    for position in index..<stacks.count {
      guard let front = stacks[position].front else { continue }
      let card = NotificationCardView(
        notification: front, app: device.app(front.bundleID),
        hiddenCount: stacks[position].hiddenCount, now: device.now)
      total += (position > 0 ? 1 : 0) + card.rows(columns: columns)
    }
    return total <= available
  }

  private func drawFooter(into grid: inout CellGrid, theme: Theme) {
    let row = grid.height - 1
    var column = 1
    for (key, label) in [("q", "quit"), ("]", "+1 min")] {
      column += grid.write(
        " \(key) ", at: Point(column: column, row: row), style: theme[.footerKey], role: .footerKey)
      column += grid.write(
        " \(label)   ", at: Point(column: column, row: row), style: theme[.footer], role: .footer)
    }
    let count = device.notifications.count
    let summary = count == 1 ? "1 notification " : "\(count) notifications "
    let summaryColumns = DisplayWidth.columns(of: summary)
    if column + summaryColumns < grid.width {
      grid.write(
        summary, at: Point(column: grid.width - summaryColumns, row: row), style: theme[.footer],
        role: .footer)
    }
  }

  private func centre(
    _ text: String, row: Int, in grid: inout CellGrid, role: StyleRole, theme: Theme
  ) {
    let fitted = TextLayout.truncate(text, toColumns: grid.width)
    let columns = DisplayWidth.columns(of: fitted)
    grid.write(
      fitted, at: Point(column: max(0, (grid.width - columns) / 2), row: row), style: theme[role],
      role: role)
  }
}

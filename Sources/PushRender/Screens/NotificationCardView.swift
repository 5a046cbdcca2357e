import PushCore
import PushWire

/// Draws one notification as a rounded card, and the edge of any cards stacked behind it.
///
/// ```text
/// ╭─ 🍜 FoodDash ───────────────────────── now ─╮
/// │ Order picked up                             │
/// │ Ramen Ichiban · 拉麺                        │
/// │ Kenji is on the way. Arriving in 12 min.    │
/// ╰─────────────────────────────────────────────╯
///   ╰──────────── 1 more notification ────────╯
/// ```
public struct NotificationCardView: Sendable {
  /// The front notification.
  public var notification: PushNotification
  /// The app that sent it.
  public var app: AppInfo
  /// How many notifications are stacked behind it.
  public var hiddenCount: Int
  /// The simulated now, for the relative time.
  public var now: SimInstant
  /// The most body lines to show.
  public var maxBodyLines: Int
  /// Whether the subtitle line is shown (compact cards leave it out).
  public var showsSubtitle: Bool
  /// Whether the card is selected (its border is drawn in the selection style).
  public var isSelected = false
  /// A label shown before the time instead of "Time Sensitive" (for example "Live").
  public var label: String?

  /// Creates a card.
  public init(
    notification: PushNotification, app: AppInfo, hiddenCount: Int, now: SimInstant,
    maxBodyLines: Int = 2, showsSubtitle: Bool = true
  ) {
    self.notification = notification
    self.app = app
    self.hiddenCount = hiddenCount
    self.now = now
    self.maxBodyLines = maxBodyLines
    self.showsSubtitle = showsSubtitle
  }

  /// The same card in progressively more compact forms: as configured, with a one-line body,
  /// then without the subtitle.
  public func compactVariants() -> [NotificationCardView] {
    var oneLine = self
    oneLine.maxBodyLines = min(maxBodyLines, 1)
    var minimal = oneLine
    minimal.showsSubtitle = false
    return [self, oneLine, minimal]
  }

  private var borderRole: StyleRole { isSelected ? .selection : .cardBorder }

  /// The content lines inside the border for a card of `columns` columns, with their roles.
  func contentLines(columns: Int) -> [(String, StyleRole)] {
    let inner = max(1, columns - 4)
    var lines: [(String, StyleRole)] = []
    if let title = notification.title, !title.isEmpty {
      lines.append((TextLayout.truncate(title, toColumns: inner), .cardTitle))
    }
    if showsSubtitle, let subtitle = notification.subtitle, !subtitle.isEmpty {
      lines.append((TextLayout.truncate(subtitle, toColumns: inner), .cardSubtitle))
    }
    if let body = notification.body, !body.isEmpty {
      for line in TextLayout.wrap(body, toColumns: inner, maxLines: maxBodyLines) {
        lines.append((line, .cardBody))
      }
    }
    if lines.isEmpty { lines.append(("Notification", .cardBody)) }
    return lines
  }

  /// The rows the card and its stack edge need at a given width.
  public func rows(columns: Int) -> Int {
    rows(lines: contentLines(columns: columns))
  }

  /// The rows the card and its stack edge need with these content lines.
  func rows(lines: [(String, StyleRole)]) -> Int {
    lines.count + 2 + (hiddenCount > 0 ? 1 : 0)
  }

  /// Draws the card with its top-left corner at `origin`.
  public func draw(into grid: inout CellGrid, at origin: Point, columns: Int, theme: Theme) {
    draw(into: &grid, at: origin, columns: columns, lines: contentLines(columns: columns), theme: theme)
  }

  /// Draws the card with its content lines already laid out (``contentLines(columns:)``).
  func draw(
    into grid: inout CellGrid, at origin: Point, columns: Int, lines: [(String, StyleRole)], theme: Theme
  ) {
    let cardRows = lines.count + 2
    let border = isSelected ? theme[.selection] : theme[.cardBorder]
    grid.fill(
      Rect(column: origin.column, row: origin.row, columns: columns, rows: cardRows),
      style: theme[.card], role: .card)

    drawHeader(into: &grid, at: origin, columns: columns, theme: theme)
    for (index, (text, role)) in lines.enumerated() {
      let row = origin.row + 1 + index
      grid.write("│", at: Point(column: origin.column, row: row), style: border, role: borderRole)
      grid.write(
        text, at: Point(column: origin.column + 2, row: row), style: theme[role], role: role,
        maxColumns: columns - 4)
      grid.write(
        "│", at: Point(column: origin.column + columns - 1, row: row), style: border,
        role: borderRole)
    }
    let bottom = "╰" + String(repeating: "─", count: max(0, columns - 2)) + "╯"
    grid.write(
      bottom, at: Point(column: origin.column, row: origin.row + cardRows - 1), style: border,
      role: borderRole)
    if hiddenCount > 0 {
      drawStackEdge(
        into: &grid, at: Point(column: origin.column + 2, row: origin.row + cardRows),
        columns: columns - 4, theme: theme)
    }
  }

  private func drawHeader(into grid: inout CellGrid, at origin: Point, columns: Int, theme: Theme) {
    let border = isSelected ? theme[.selection] : theme[.cardBorder]
    let row = origin.row
    grid.write(
      "╭" + String(repeating: "─", count: max(0, columns - 2)) + "╮", at: origin, style: border,
      role: borderRole)
    let relative = RelativeTime.describe(notification.receivedAt, now: now)
    let label = self.label ?? (notification.level >= .timeSensitive ? "Time Sensitive" : nil)
    // Right side first, so the app name is what gets truncated on narrow cards.
    var rightColumns = DisplayWidth.columns(of: relative) + 2
    if let label { rightColumns += DisplayWidth.columns(of: label) + 3 }
    let rightStart = origin.column + columns - 2 - rightColumns
    var column = rightStart
    if let label {
      grid.write(" ", at: Point(column: column, row: row), style: border, role: borderRole)
      column += 1
      column += grid.write(
        label, at: Point(column: column, row: row), style: theme[.timeSensitiveLabel],
        role: .timeSensitiveLabel)
      column += grid.write(
        " ·", at: Point(column: column, row: row), style: theme[.cardMeta], role: .cardMeta)
    }
    grid.write(
      " " + relative + " ", at: Point(column: column, row: row), style: theme[.cardMeta],
      role: .cardMeta)

    let nameStart = origin.column + 2
    let nameColumns = rightStart - nameStart - 1
    guard nameColumns > 4 else { return }
    let name = TextLayout.truncate(
      " " + app.iconGlyph + " " + app.displayName + " ", toColumns: nameColumns)
    grid.write(name, at: Point(column: nameStart, row: row), style: theme[.appName], role: .appName)
  }

  private func drawStackEdge(
    into grid: inout CellGrid, at origin: Point, columns: Int, theme: Theme
  ) {
    guard columns > 2 else { return }
    grid.fill(
      Rect(column: origin.column, row: origin.row, columns: columns, rows: 1),
      style: theme[.card], role: .card)
    let edge = theme[.stackEdge]
    grid.write(
      "╰" + String(repeating: "─", count: columns - 2) + "╯", at: origin, style: edge,
      role: .stackEdge)
    let noun = hiddenCount == 1 ? "notification" : "notifications"
    let text = TextLayout.truncate(" \(hiddenCount) more \(noun) ", toColumns: columns - 4)
    let textColumns = DisplayWidth.columns(of: text)
    grid.write(
      text, at: Point(column: origin.column + (columns - textColumns) / 2, row: origin.row),
      style: theme[.stackCount], role: .stackCount)
  }
}

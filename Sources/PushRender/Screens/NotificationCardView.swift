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
  /// A label shown before the time instead of the level's (for example "Live").
  public var label: String?
  /// The style of ``label``.
  public var labelRole = StyleRole.timeSensitiveLabel
  /// Action buttons drawn as a row of chips under the body (a banner shows at most 2).
  public var actionTitles: [String] = []
  /// The time the header shows relative to now: when the user got it (a Scheduled Summary's
  /// delivery, not the push's arrival). Defaults to the notification's arrival.
  public var time: SimInstant?
  /// Whether the header shows the relative time (a Live Activity's does not, as on iOS).
  public var showsTime = true
  /// The line under the stack ("2 more messages"); by default "N more notification(s)".
  public var stackSummary: String?
  /// An image attachment's thumbnail, drawn at the card's right as iOS does.
  public var thumbnail: ImageThumbnail?
  /// A communication notification's sender initials, drawn as an avatar before the title.
  public var initials: String?
  /// A Live Activity's progress, 0…1, drawn as a bar under the body.
  public var progress: Double?
  /// A Live Activity's relative time ("in 18 min"), at the end of the progress line.
  public var progressTime: String?

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
  /// then without the subtitle, thumbnail and progress line.
  public func compactVariants() -> [NotificationCardView] {
    var oneLine = self
    oneLine.maxBodyLines = min(maxBodyLines, 1)
    var minimal = oneLine
    minimal.showsSubtitle = false
    minimal.thumbnail = nil
    minimal.progress = nil
    minimal.progressTime = nil
    return [self, oneLine, minimal]
  }

  /// Whether the card is a critical alert (its border and label are drawn as critical).
  public var isCritical: Bool { label == nil && notification.level == .critical }

  private var borderRole: StyleRole {
    isSelected ? .selection : isCritical ? .destructiveAction : .cardBorder
  }

  /// The label before the time and its style: the caller's, else the level's as iOS words it.
  var levelLabel: (text: String, role: StyleRole)? {
    if let label { return (label, labelRole) }
    switch notification.level {
    case .critical: return ("Critical Alert", .destructiveAction)
    case .timeSensitive: return ("Time Sensitive", .timeSensitiveLabel)
    default: return nil
    }
  }

  /// The thumbnail's size on a card whose content is `inner` columns wide; none when narrow.
  func thumbnailSize(inner: Int) -> Size? {
    guard let thumbnail, inner >= 30 else { return nil }
    let size = ThumbnailView.size(of: thumbnail, maxColumns: 8, maxRows: 3)
    return size.columns > 0 && size.rows > 0 ? size : nil
  }

  /// The content lines inside the border for a card of `columns` columns, with their roles.
  func contentLines(columns: Int) -> [CardLine] {
    let inner = max(1, columns - 4)
    let thumbnailSize = thumbnailSize(inner: inner)
    // Text beside a thumbnail keeps a column free before it.
    let textColumns = thumbnailSize.map { max(1, inner - $0.columns - 1) } ?? inner
    var lines: [CardLine] = []
    if let title = notification.title, !title.isEmpty {
      if let initials, inner >= 12 {
        let avatar = " \(initials) "
        let lead = DisplayWidth.columns(of: avatar)
        lines.append(
          CardLine(
            TextLayout.truncate(avatar + " " + title, toColumns: textColumns), .cardTitle, lead: lead,
            leadRole: .footerKey))
      } else {
        lines.append(CardLine(TextLayout.truncate(title, toColumns: textColumns), .cardTitle))
      }
    }
    if showsSubtitle, let subtitle = notification.subtitle, !subtitle.isEmpty {
      lines.append(CardLine(TextLayout.truncate(subtitle, toColumns: textColumns), .cardSubtitle))
    }
    if let body = notification.body, !body.isEmpty {
      for line in TextLayout.wrap(body, toColumns: textColumns, maxLines: maxBodyLines) {
        lines.append(CardLine(line, .cardBody))
      }
    }
    if lines.isEmpty { lines.append(CardLine("Notification", .cardBody)) }
    if let progress {
      let time = progressTime.map { "  " + $0 } ?? ""
      let barColumns = max(4, textColumns - DisplayWidth.columns(of: time))
      let filled = min(barColumns, max(0, Int((progress * Double(barColumns)).rounded())))
      let bar = String(repeating: "━", count: filled) + String(repeating: "─", count: barColumns - filled)
      lines.append(
        CardLine(
          TextLayout.truncate(bar + time, toColumns: textColumns), .cardMeta, lead: filled, leadRole: .actionButton))
    } else if let progressTime {
      lines.append(CardLine(TextLayout.truncate(progressTime, toColumns: textColumns), .cardMeta))
    }
    if let thumbnailSize, lines.count < thumbnailSize.rows {
      lines += Array(repeating: CardLine("", .cardBody), count: thumbnailSize.rows - lines.count)
    }
    if !actionTitles.isEmpty {
      lines.append(
        CardLine(
          TextLayout.truncate(actionTitles.map { "[ \($0) ]" }.joined(separator: " "), toColumns: inner),
          .actionButton))
    }
    return lines
  }

  /// The rows the card and its stack edge need at a given width.
  public func rows(columns: Int) -> Int {
    rows(lines: contentLines(columns: columns))
  }

  /// The rows the card and its stack edge need with these content lines.
  func rows(lines: [CardLine]) -> Int {
    lines.count + 2 + (hiddenCount > 0 ? 1 : 0)
  }

  /// Draws the card with its top-left corner at `origin`.
  public func draw(into grid: inout CellGrid, at origin: Point, columns: Int, theme: Theme) {
    draw(into: &grid, at: origin, columns: columns, lines: contentLines(columns: columns), theme: theme)
  }

  /// Draws the card with its content lines already laid out (``contentLines(columns:)``).
  func draw(
    into grid: inout CellGrid, at origin: Point, columns: Int, lines: [CardLine], theme: Theme
  ) {
    let cardRows = lines.count + 2
    let border = theme[borderRole]
    grid.fill(
      Rect(column: origin.column, row: origin.row, columns: columns, rows: cardRows),
      style: theme[.card], role: .card)

    drawHeader(into: &grid, at: origin, columns: columns, theme: theme)
    for (index, line) in lines.enumerated() {
      let row = origin.row + 1 + index
      grid.write("│", at: Point(column: origin.column, row: row), style: border, role: borderRole)
      grid.write(
        line.text, at: Point(column: origin.column + 2, row: row), style: theme[line.role], role: line.role,
        maxColumns: columns - 4)
      if line.lead > 0 {
        grid.restyle(
          Rect(column: origin.column + 2, row: row, columns: min(line.lead, columns - 4), rows: 1),
          style: theme[line.leadRole], role: line.leadRole)
      }
      grid.write(
        "│", at: Point(column: origin.column + columns - 1, row: row), style: border,
        role: borderRole)
    }
    if let thumbnail, let size = thumbnailSize(inner: columns - 4) {
      ThumbnailView.draw(
        thumbnail, into: &grid, at: Point(column: origin.column + columns - 2 - size.columns, row: origin.row + 1),
        size: size)
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
    let border = theme[borderRole]
    let row = origin.row
    grid.write(
      "╭" + String(repeating: "─", count: max(0, columns - 2)) + "╮", at: origin, style: border,
      role: borderRole)
    let relative = showsTime ? RelativeTime.describe(time ?? notification.receivedAt, now: now) : ""
    let label = levelLabel
    // Right side first, so the app name is what gets truncated on narrow cards.
    var rightColumns = showsTime ? DisplayWidth.columns(of: relative) + 2 : 0
    if let label { rightColumns += DisplayWidth.columns(of: label.text) + (showsTime ? 3 : 2) }
    let rightStart = origin.column + columns - 2 - rightColumns
    var column = rightStart
    if let label {
      grid.write(" ", at: Point(column: column, row: row), style: border, role: borderRole)
      column += 1
      column += grid.write(
        label.text, at: Point(column: column, row: row), style: theme[label.role], role: label.role)
      if showsTime {
        column += grid.write(
          " ·", at: Point(column: column, row: row), style: theme[.cardMeta], role: .cardMeta)
      }
    }
    grid.write(
      showsTime ? " " + relative + " " : " ", at: Point(column: column, row: row), style: theme[.cardMeta],
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
    let summary = stackSummary ?? PluralFormat.counted(hiddenCount, "more notification")
    let text = TextLayout.truncate(" \(summary) ", toColumns: columns - 4)
    let textColumns = DisplayWidth.columns(of: text)
    grid.write(
      text, at: Point(column: origin.column + (columns - textColumns) / 2, row: origin.row),
      style: theme[.stackCount], role: .stackCount)
  }
}

/// One line inside a card: its text and style, with its first `lead` columns in another
/// style (a sender's avatar, the filled part of a progress bar).
struct CardLine: Sendable {
  var text: String
  var role: StyleRole
  var lead: Int
  var leadRole: StyleRole

  init(_ text: String, _ role: StyleRole, lead: Int = 0, leadRole: StyleRole = .cardBody) {
    self.text = text
    self.role = role
    self.lead = lead
    self.leadRole = leadRole
  }
}

import PushCore
import PushUI

/// One notification opened in full: every line of the body, the subtitle, the time-sensitive
/// label, the sender of a communication notification and its attachments; content taller than
/// the screen scrolls (``AppState/detailScrollRows``) above buttons that stay.
struct DetailView {
  var state: AppState
  var id: NotificationID

  func draw(into grid: inout CellGrid, theme: Theme) {
    Chrome.drawWallpaper(into: &grid, theme: theme)
    Chrome.drawStatusBar(into: &grid, theme: theme)
    guard let stored = state.device.store[id] else {
      Chrome.centre("This notification is gone", row: grid.height / 2, in: &grid, role: .overflow, theme: theme)
      return
    }
    let notification = state.displayed(stored)
    let app = state.appInfo(notification.bundleID)
    let columns = min(grid.width - 4, 66)
    let left = (grid.width - columns) / 2
    let inner = columns - 4
    var lines: [(String, StyleRole)] = []
    if let sender = notification.sender, !state.previewsHidden(stored) {
      let initials = AppState.initials(of: sender).map { "(\($0)) " } ?? ""
      lines.append(("\(initials)From \(sender)", .cardMeta))
    }
    if let title = notification.title, !title.isEmpty {
      lines += TextLayout.wrap(title, toColumns: inner).map { ($0, .cardTitle) }
    }
    if let subtitle = notification.subtitle, !subtitle.isEmpty {
      lines += TextLayout.wrap(subtitle, toColumns: inner).map { ($0, .cardSubtitle) }
    }
    if let body = notification.body, !body.isEmpty {
      lines += TextLayout.wrap(body, toColumns: inner).map { ($0, .cardBody) }
    }
    if lines.isEmpty { lines.append(("Notification", .cardBody)) }
    // Images are drawn as half-block thumbnails under their chip; rows are kept for them here.
    var thumbnails: [(line: Int, image: ImageThumbnail, size: Size)] = []
    let thumbnailRows = max(2, min(10, grid.height - 14))
    for attachment in notification.attachments {
      lines.append((TextLayout.truncate(Self.chip(attachment), toColumns: inner), .cardMeta))
      if let image = attachment.thumbnail {
        let size = ThumbnailView.size(of: image, maxColumns: min(inner, 32), maxRows: thumbnailRows)
        thumbnails.append((lines.count, image, size))
        lines += Array(repeating: ("", .cardBody), count: size.rows)
      } else if let problem = attachment.thumbnailProblem {
        lines += TextLayout.wrap("Cannot show the image: \(problem)", toColumns: inner, maxLines: 2).map {
          ($0, .cardMeta)
        }
      }
    }
    // Space is not limited here: up to 10 of the category's actions, in order. They and the
    // meta line are kept below whatever the body leaves: a long body is cut, not its buttons.
    var tail: [(String, StyleRole)] = []
    var chips: [(line: Int, column: Int, columns: Int, action: Int)] = []
    let actions = state.actions(for: id, space: .unlimited)
    if !actions.isEmpty {
      // One blank line between the content and the buttons, however many rows they take
      // (it was appended before the last row only, so two rows of buttons had none above
      // them and a blank between them; found by an exploratory test).
      tail.append(("", .cardBody))
      var row = ""
      for (index, action) in actions.enumerated() {
        let chip = "[ \(action.title) ]"
        if !row.isEmpty, DisplayWidth.columns(of: row + " " + chip) > inner {
          tail.append((row, .actionButton))
          row = ""
        }
        let column = row.isEmpty ? 0 : DisplayWidth.columns(of: row) + 1
        row += (row.isEmpty ? "" : " ") + chip
        chips.append((tail.count, column, min(DisplayWidth.columns(of: chip), max(0, inner - column)), index))
      }
      tail.append((TextLayout.truncate(row, toColumns: inner), .actionButton))
    }
    let offset = state.device.profile.utcOffsetSeconds
    var meta = "Received \(CivilTime(notification.receivedAt, utcOffsetSeconds: offset).clock)"
    if stored.deliveredAt != notification.receivedAt {
      meta += " · in the Scheduled Summary at \(CivilTime(stored.deliveredAt, utcOffsetSeconds: offset).clock)"
    }
    var metaRole = StyleRole.cardMeta
    switch stored.decision.effectiveLevel {
    case .critical:
      meta = "⚠ Critical Alert · " + meta
      metaRole = .destructiveAction
    case .timeSensitive:
      meta = "⚠ Time Sensitive · " + meta
      metaRole = .timeSensitiveLabel
    default: break
    }
    if let category = notification.category { meta += " · category \(category)" }
    tail.append(("", .cardBody))
    tail.append((TextLayout.truncate(meta, toColumns: inner), metaRole))
    let maxLines = max(1, grid.height - 5)
    // The rows of `lines` shown, from `firstShown`, and where the first of them is drawn
    // (below a row that says what is above): what a thumbnail may cover.
    var firstShown = 0
    var shownCount = lines.count
    var shownAt = 0
    let available = maxLines - tail.count
    if lines.count > available {
      if available >= 3 {
        // Too long for the screen: the content scrolls (↑ ↓, PgUp PgDn, the wheel) in a window
        // over the buttons and the meta line, which stay; a row above and below the window says
        // what is left out there.
        let limit = lines.count - (available - 1)
        grid.detailScrollLimit = limit
        // The window between the rows above and below it, less one row seen again.
        grid.detailPageRows = max(1, available - 3)
        let scroll = min(state.detailScrollRows, limit)
        shownAt = scroll > 0 ? 1 : 0
        shownCount = available - shownAt - (scroll < limit ? 1 : 0)
        firstShown = scroll
        var window: [(String, StyleRole)] = []
        if scroll > 0 {
          window.append(
            (
              TextLayout.truncate("↑ \(scroll) more line\(scroll == 1 ? "" : "s") · ↑ scrolls back", toColumns: inner),
              .cardMeta
            ))
        }
        window += lines[scroll..<(scroll + shownCount)]
        let below = lines.count - scroll - shownCount
        if below > 0 {
          window.append(
            (
              TextLayout.truncate(
                "… \(below) more line\(below == 1 ? "" : "s") · ↓ scrolls · i shows the whole payload", toColumns: inner
              ),
              .cardMeta
            ))
        }
        lines = window
      } else {
        // No room for a window: the content is cut, what it leaves out counted.
        grid.detailScrollLimit = 0
        let kept = max(0, available - 1)
        shownCount = kept
        let cut = lines.count - kept
        lines = Array(lines.prefix(kept))
        lines.append(
          (
            TextLayout.truncate(
              "… \(cut) more line\(cut == 1 ? "" : "s") · i shows the whole payload", toColumns: inner),
            .cardMeta
          ))
      }
    } else {
      grid.detailScrollLimit = 0
    }
    let tailStart = lines.count
    lines += tail
    // Past what fits even so, the last row drawn is "…": no button is pressed there.
    var drawnRows = lines.count
    if lines.count > maxLines {
      lines = Array(lines.prefix(maxLines - 1)) + [("…", .cardMeta)]
      drawnRows = lines.count - 1
      shownCount = min(shownCount, max(0, drawnRows - shownAt))
    }
    let rect = Rect(column: left, row: 2, columns: columns, rows: lines.count + 2)
    Chrome.drawBox(rect, title: "\(app.iconGlyph) \(app.displayName)", into: &grid, theme: theme)
    for (index, (text, role)) in lines.enumerated() {
      grid.write(
        text, at: Point(column: left + 2, row: rect.row + 1 + index), style: theme[role], role: role, maxColumns: inner)
    }
    // Each button is pressed where it is drawn.
    for chip in chips where tailStart + chip.line < drawnRows && chip.columns > 0 {
      grid.addHit(
        Rect(column: left + 2 + chip.column, row: rect.row + 1 + tailStart + chip.line, columns: chip.columns, rows: 1),
        .detailButton(chip.action))
    }
    // A thumbnail is drawn only where all of it shows: not across the window's edges.
    for thumbnail in thumbnails
    where thumbnail.line >= firstShown && thumbnail.line + thumbnail.size.rows <= firstShown + shownCount {
      ThumbnailView.draw(
        thumbnail.image, into: &grid,
        at: Point(column: left + 2, row: rect.row + 1 + shownAt + thumbnail.line - firstShown), size: thumbnail.size)
    }
  }

  /// A labelled chip for an attachment: `📷 image-url · PNG image · 12 KB`, `🔊 … audio`, `🎬 … movie`.
  static func chip(_ attachment: NotificationAttachment) -> String {
    let glyph =
      switch attachment.kind {
      case .image: "📷"
      case .audio: "🔊"
      case .movie: "🎬"
      }
    return
      "\(glyph) \(attachment.identifier) · \(attachment.type.uppercased()) \(attachment.kind.rawValue) · \(Self.size(attachment.byteCount))"
  }

  /// `812 bytes`, `12 KB`, `3.4 MB`.
  static func size(_ bytes: Int) -> String {
    if bytes < 1024 { return "\(bytes) bytes" }
    if bytes < 1024 * 1024 { return "\(bytes / 1024) KB" }
    let tenths = bytes * 10 / (1024 * 1024)
    return "\(tenths / 10).\(tenths % 10) MB"
  }
}

import PushCore
import PushUI

/// The action sheet (iOS's long press): the notification, then its category's actions in order,
/// destructive ones in the destructive style; or the unlock question, or the reply field.
struct ActionSheetView {
  var state: AppState
  var sheet: ActionSheet
  /// Where the notification's card was drawn: the sheet sits there, as wide as the card (iOS
  /// lifts the long-pressed card in place); centred when nil.
  var anchor: Rect? = nil

  func draw(into grid: inout CellGrid, theme: Theme) {
    guard let stored = state.device.store[sheet.notification] else { return }
    let notification = state.displayed(stored)
    let app = state.appInfo(notification.bundleID)
    let columns = anchor.map { min($0.columns, grid.width) } ?? min(grid.width - 8, 56)
    let inner = columns - 4
    var lines: [(String, StyleRole)] = []
    if let title = notification.title, !title.isEmpty {
      lines.append((TextLayout.truncate(title, toColumns: inner), .cardTitle))
    }
    if let body = notification.body, !body.isEmpty {
      lines += TextLayout.wrap(body, toColumns: inner, maxLines: 2).map { ($0, .cardBody) }
    }
    lines.append((String(repeating: "─", count: inner), .cardBorder))
    let actions = state.actions(for: sheet.notification)
    var highlightedLine: Int?
    var actionLines: [Int: Int] = [:]
    switch sheet.stage {
    case .choosing:
      if actions.isEmpty {
        lines.append(("No actions: the category registers none", .cardMeta))
      }
      for (index, action) in actions.enumerated() {
        var text = action.title
        if action.isTextInput { text += " ✎" }
        if action.options.contains(.authenticationRequired) { text += " 🔒" }
        if index == sheet.highlighted { highlightedLine = lines.count }
        actionLines[lines.count] = index
        lines.append(
          (
            TextLayout.truncate(text, toColumns: inner - 2),
            action.options.contains(.destructive) ? .destructiveAction : .actionButton
          ))
      }
    case .confirmUnlock(let actionID):
      let title = actions.first { $0.identifier == actionID }?.title ?? actionID
      lines.append(("🔒 Unlock iPhone to use “\(title)”?", .warning))
      lines.append(("Enter unlocks and continues · Esc cancels", .cardMeta))
    case .reply(let actionID, let text):
      let action = actions.first { $0.identifier == actionID }
      let placeholder = action?.textInputPlaceholder ?? "Reply"
      let shown = text.isEmpty ? placeholder : text
      // Keep the end of long replies in view, measured in columns.
      let field = TextLayout.truncateLeading(shown, toColumns: inner - 4)
      lines.append(("▏" + field + (text.isEmpty ? "" : "█"), text.isEmpty ? .cardMeta : .cardBody))
      lines.append(("Enter \(action?.textInputButtonTitle ?? "Send") · Esc cancels", .cardMeta))
    }
    let rows = lines.count + 2
    let top = anchor.map { min($0.row, grid.height - rows) } ?? (grid.height - rows) / 2
    let rect = Rect(
      column: anchor?.column ?? (grid.width - columns) / 2, row: max(1, top), columns: columns, rows: rows)
    Chrome.drawBox(rect, title: "\(app.iconGlyph) \(app.displayName)", into: &grid, theme: theme)
    grid.addHit(rect, nil)
    for (line, index) in actionLines {
      grid.addHit(
        Rect(column: rect.column + 1, row: rect.row + 1 + line, columns: columns - 2, rows: 1), .action(index))
    }
    for (index, (text, role)) in lines.enumerated() {
      let point = Point(column: rect.column + 2, row: rect.row + 1 + index)
      if index == highlightedLine {
        grid.fill(
          Rect(column: rect.column + 1, row: point.row, columns: columns - 2, rows: 1), style: theme[.selection],
          role: .selection)
        grid.write("▸ " + text, at: point, style: theme[role].over(theme[.selection]), role: role, maxColumns: inner)
      } else {
        grid.write(
          (role == .actionButton || role == .destructiveAction ? "  " : "") + text, at: point, style: theme[role],
          role: role,
          maxColumns: inner)
      }
    }
  }
}

extension TextLayout {
  /// Returns the end of the text that fits in `columns` columns, starting with "…" when cut.
  static func truncateLeading(_ text: String, toColumns columns: Int) -> String {
    guard DisplayWidth.columns(of: text) > columns, columns > 1 else { return text }
    var glyphs = GlyphNormalizer.glyphs(in: text)
    var used = glyphs.reduce(0) { $0 + $1.columns }
    while used > columns - 1, !glyphs.isEmpty { used -= glyphs.removeFirst().columns }
    return "…" + glyphs.map(\.text).joined()
  }
}

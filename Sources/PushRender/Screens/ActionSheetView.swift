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
    // The notification as iOS lifts it: title, subtitle and up to two lines of body.
    var header: [(String, StyleRole)] = []
    if let title = notification.title, !title.isEmpty {
      header.append((TextLayout.truncate(title, toColumns: inner), .cardTitle))
    }
    if let subtitle = notification.subtitle, !subtitle.isEmpty {
      header.append((TextLayout.truncate(subtitle, toColumns: inner), .cardSubtitle))
    }
    if let body = notification.body, !body.isEmpty {
      header += TextLayout.wrap(body, toColumns: inner, maxLines: 2).map { ($0, .cardBody) }
    }
    let actions = state.actions(for: sheet.notification)
    var choices: [(String, StyleRole, action: Int?)] = []
    // The reply field's choice, when it holds text.
    var fieldChoice: Int?
    switch sheet.stage {
    case .choosing:
      if actions.isEmpty {
        // Why there are none: the push names no category, its app registers no such
        // category, or the category has no actions.
        let why: String
        if let category = notification.category, !category.isEmpty {
          why =
            state.category(of: notification) == nil
            ? "\(state.appInfo(notification.bundleID).displayName) registers no category \(category)"
            : "the category \(category) registers none"
        } else {
          why = "the push names no category (aps.category)"
        }
        choices.append((TextLayout.truncate("No actions: \(why)", toColumns: inner - 2), .cardMeta, nil))
      }
      for (index, action) in actions.enumerated() {
        var text = action.title
        if action.isTextInput { text += " ✎" }
        if action.options.contains(.authenticationRequired) { text += " 🔒" }
        choices.append(
          (
            TextLayout.truncate(text, toColumns: inner - 2),
            action.options.contains(.destructive) ? .destructiveAction : .actionButton, index
          ))
      }
    case .confirmUnlock(let actionID):
      let title = actions.first { $0.identifier == actionID }?.title ?? actionID
      choices.append(("🔒 Unlock iPhone to use “\(title)”?", .warning, nil))
      choices.append(("Enter unlocks and continues · Esc cancels", .cardMeta, nil))
    case .reply(let actionID, let text):
      let action = actions.first { $0.identifier == actionID }
      let placeholder = action?.textInputPlaceholder ?? "Reply"
      if text.isEmpty {
        choices.append(("▏" + TextLayout.truncateLeading(placeholder, toColumns: inner - 4), .cardMeta, nil))
      } else {
        // Drawn with its cursor below (``TextFieldView``).
        fieldChoice = choices.count
        choices.append(("▏", .cardBody, nil))
      }
      choices.append(("Enter \(action?.textInputButtonTitle ?? "Send") · Esc cancels", .cardMeta, nil))
    }
    // On a short terminal the sheet must still show every choice it lets the user make: the
    // notification's lines give way first (body, subtitle, title), then the actions scroll
    // with the highlighted one in view, a line saying how many more are above or below (a
    // sheet cut at the screen's foot let ↑ highlight, and Enter run, a destructive action
    // that was not drawn; found by an exploratory test at 50x12).
    let room = max(3, grid.height - 3)
    while !header.isEmpty, header.count + 1 + choices.count > room { header.removeLast() }
    var lines = header
    lines.append((String(repeating: "─", count: inner), .cardBorder))
    var highlightedLine: Int?
    var fieldLine: Int?
    var actionLines: [Int: Int] = [:]
    let shown = ActionSheetView.window(
      count: choices.count, around: min(max(sheet.highlighted, 0), max(choices.count - 1, 0)),
      rows: room - lines.count)
    if shown.lowerBound > 0 { lines.append(("↑ \(shown.lowerBound) more", .cardMeta)) }
    for (choice, (text, role, action)) in zip(shown, choices[shown]) {
      if choice == fieldChoice { fieldLine = lines.count }
      if let action {
        if action == sheet.highlighted, case .choosing = sheet.stage { highlightedLine = lines.count }
        actionLines[lines.count] = action
      }
      lines.append((text, role))
    }
    if shown.upperBound < choices.count { lines.append(("↓ \(choices.count - shown.upperBound) more", .cardMeta)) }
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
      } else if index == fieldLine, let edited = state.editedText {
        let written = grid.write(text, at: point, style: theme[role], role: role, maxColumns: inner)
        // The field: its text and cursor, a column short of the sheet's inner edge.
        TextFieldView.draw(
          edited, at: Point(column: point.column + written, row: point.row), columns: inner - 2 - written,
          style: theme[role], role: role, into: &grid)
      } else {
        grid.write(
          (role == .actionButton || role == .destructiveAction ? "  " : "") + text, at: point, style: theme[role],
          role: role,
          maxColumns: inner)
      }
    }
  }

  /// The choices shown when `rows` rows cannot hold all `count`: a run around `index`, with a
  /// row kept for each "more" line it needs.
  static func window(count: Int, around index: Int, rows: Int) -> Range<Int> {
    guard count > rows else { return 0..<count }
    // Near either end one "more" line is enough.
    if index < rows - 1 { return 0..<max(1, rows - 1) }
    if index >= count - (rows - 1) { return max(0, count - rows + 1)..<count }
    let visible = max(1, rows - 2)
    let first = min(max(1, index - visible / 2), count - 1 - visible)
    return first..<(first + visible)
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

import PushCore
import PushUI

/// The timeline pane: every scenario or capture event in time order, what has not arrived yet
/// dimmed, and a cursor line at the simulated now; with the playback state and its keys.
///
/// ```text
/// ╭─ Timeline ───────────────────────────╮
/// │ ⏸ paused · 1×          1 of 3 arrived │
/// │ 09:41:20  Messages: Ana               │
/// │ ▶ now 09:41:30 ─────────────────────  │
/// │ 09:41:50  Bank: Unusual sign-in       │  (dimmed)
/// ```
struct TimelineView {
  var state: AppState

  /// One entry as a line: the app and title of a push, or what the event does.
  func describe(_ entry: TimelineEntry) -> String {
    switch entry.event {
    case .device(let event): return describe(event)
    case .open: return "Open a notification"
    case .clear: return "Clear a notification"
    case .clearGroup: return "Clear a stack"
    case .action(_, let actionID): return "Action \(actionID)"
    case .reply(_, _, let text): return "Reply “\(text)”"
    case .advance: return "Time passes"
    }
  }

  private func describe(_ event: DeviceEvent) -> String {
    switch event {
    case .push(let record, let sender):
      let named = record.bundleID ?? record.payload?.simulatorTargetBundle
      let app = named.map { state.appInfo($0).displayName } ?? "Unknown app"
      let alert = record.payload?.aps.alert
      let text = [sender, alert?.title, alert?.body].compactMap { $0 }.filter { !$0.isEmpty }.first
      let silent = record.payload?.isSilent == true ? " (silent)" : ""
      return "\(app): \(text ?? "push")\(silent)"
    case .focus(let id):
      guard let id else { return "Focus off" }
      return "Focus: \(state.device.profile.focusModes.first { $0.id == id }?.name ?? id)"
    case .lock: return "Lock"
    case .unlock: return "Unlock"
    case .setting(let bundleID, let change): return "\(state.appInfo(bundleID).displayName): \(change)"
    case .open: return "Open a notification"
    case .clear: return "Clear a notification"
    case .clearGroup: return "Clear a stack"
    case .clearAll: return "Clear all"
    case .action(_, let actionID, _): return "Action \(actionID)"
    }
  }

  func draw(into grid: inout CellGrid, in rect: Rect, theme: Theme) {
    Chrome.drawBox(rect, title: "Timeline", into: &grid, theme: theme)
    grid.addHit(rect, nil)
    let inner = rect.columns - 4
    let left = rect.column + 2
    let playback = state.playback
    let status = (playback.isPlaying ? "▶ playing" : "⏸ paused") + " · " + playback.speed.label
    grid.write(
      status, at: Point(column: left, row: rect.row + 1), style: theme[.focusIndicator], role: .focusIndicator,
      maxColumns: inner)
    let count = "\(state.arrivedCount) of \(state.timeline.count) arrived"
    let countColumns = DisplayWidth.columns(of: count)
    if countColumns + DisplayWidth.columns(of: status) + 2 <= inner {
      grid.write(
        count, at: Point(column: left + inner - countColumns, row: rect.row + 1), style: theme[.cardMeta],
        role: .cardMeta)
    }
    // As many whole hints as fit, then "…" for the rest (the end was cut off mid-word: "r re").
    var hints = ""
    let items = [", . prev/next push", "p play", "+ - speed", "g go to", "r rejected"]
    for (index, item) in items.enumerated() {
      let next = hints.isEmpty ? item : hints + " · " + item
      let isLast = index == items.count - 1
      if DisplayWidth.columns(of: next) + (isLast ? 0 : 4) <= inner
        || (isLast && DisplayWidth.columns(of: next) <= inner)
      {
        hints = next
      } else {
        hints =
          hints.isEmpty
          ? TextLayout.truncate(item, toColumns: inner) : TextLayout.truncate(hints + " · …", toColumns: inner)
        break
      }
    }
    let listTop = rect.row + 2
    let listBottom = rect.endRow - 3  // inclusive: the hint line and the border below
    grid.write(
      hints, at: Point(column: left, row: rect.endRow - 2), style: theme[.cardMeta], role: .cardMeta, maxColumns: inner)
    let available = listBottom - listTop + 1
    guard available >= 1 else { return }
    let entries = state.timeline
    let cursor = state.arrivedCount
    // The cursor line sits between the arrived entries and the rest; keep it a third down.
    let total = entries.count + 1
    var first = max(0, cursor - available / 3)
    first = min(first, max(0, total - available))
    var row = listTop
    var index = first
    while row <= listBottom, index < total {
      if index == cursor {
        let now = " now \(clock(state.now)) "
        let line = "▶" + now + String(repeating: "─", count: max(0, inner - DisplayWidth.columns(of: now) - 1))
        grid.write(
          line, at: Point(column: left, row: row), style: theme[.selection], role: .selection, maxColumns: inner)
      } else {
        let entry = entries[index < cursor ? index : index - 1]
        let arrived = index < cursor
        var timeStyle = theme[.cardMeta]
        var textStyle = theme[arrived ? .cardBody : .overflow]
        if !arrived {
          timeStyle.isDim = true
          textStyle.isDim = true
        }
        let written = grid.write(
          clock(entry.at) + "  ", at: Point(column: left, row: row), style: timeStyle,
          role: arrived ? .cardMeta : .overflow)
        if let code = Self.rejection(entry) {
          // A push the device refuses: marked, in the destructive style, with why.
          var style = theme[.destructiveAction]
          if !arrived { style.isDim = true }
          grid.write(
            "✗ " + describe(entry) + " · rejected: " + code, at: Point(column: left + written, row: row),
            style: style, role: .destructiveAction, maxColumns: inner - written)
        } else {
          grid.write(
            describe(entry), at: Point(column: left + written, row: row), style: textStyle,
            role: arrived ? .cardBody : .overflow,
            maxColumns: inner - written)
        }
      }
      row += 1
      index += 1
    }
    if entries.isEmpty, listTop + 1 <= listBottom {
      grid.write(
        "Nothing on the timeline: open a scenario or capture.", at: Point(column: left, row: listTop + 1),
        style: theme[.cardMeta], role: .cardMeta, maxColumns: inner)
    }
  }

  /// The first error's code when the entry is a push the device rejects, nil otherwise.
  static func rejection(_ entry: TimelineEntry) -> String? {
    guard case .device(.push(let record, _)) = entry.event else { return nil }
    guard !record.verdict.isDelivered || record.payload == nil else { return nil }
    return record.diagnostics.first { $0.severity == .error }?.code.rawValue ?? "invalid payload"
  }

  private func clock(_ instant: SimInstant) -> String {
    let time = CivilTime(instant, utcOffsetSeconds: state.device.profile.utcOffsetSeconds)
    func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    return "\(two(time.hour)):\(two(time.minute)):\(two(time.second))"
  }
}

/// The settings pane: Focus, lock, and the chosen app's authorization and every setting.
struct SettingsView {
  var state: AppState

  func draw(into grid: inout CellGrid, in rect: Rect, theme: Theme) {
    Chrome.drawBox(rect, title: "Settings", into: &grid, theme: theme)
    grid.addHit(rect, nil)
    let inner = rect.columns - 4
    let left = rect.column + 2
    let rows = state.settingsRows()
    let listTop = rect.row + 1
    let listBottom = rect.endRow - 3
    let available = max(1, listBottom - listTop + 1)
    let selected = min(max(state.settingsSelection, 0), rows.count - 1)
    let first = max(0, min(selected - available + 1 + (selected + 1 < rows.count ? 1 : 0), rows.count - available))
    let labelColumns = min(24, inner / 2)
    var row = listTop
    for index in first..<rows.count where row <= listBottom {
      let setting = rows[index]
      let isSelected = index == selected
      let rowRect = Rect(column: rect.column + 1, row: row, columns: rect.columns - 2, rows: 1)
      if isSelected { grid.fill(rowRect, style: theme[.selection], role: .selection) }
      let base: StyleRole = setting == .app ? .groupHeader : .cardBody
      var labelStyle = theme[base]
      if isSelected { labelStyle = labelStyle.over(theme[.selection]) }
      let indent = index > (rows.firstIndex(of: .app) ?? rows.count) ? "  " : ""
      let label = TextLayout.truncate(indent + setting.title, toColumns: labelColumns - 1)
      grid.write(
        (isSelected ? "▸ " : "  ") + label, at: Point(column: left - 1, row: row), style: labelStyle, role: base,
        maxColumns: labelColumns + 2)
      let value = state.settingsValue(setting)
      let valueColumns = max(1, inner - labelColumns - 2)
      let shown: String
      if setting == .locked {
        // The phone's lock is not an on/off switch: it shows as a padlock, shut or open.
        shown = (state.device.isLocked ? "🔒 " : "🔓 ") + value
      } else {
        // A value too long for a narrow pane is cut inside its arrows, which say it can change.
        shown =
          setting.isSwitch
          ? (value == "On" ? "● " : "○ ") + value
          : "◂ \(TextLayout.truncate(value, toColumns: max(1, valueColumns - 4))) ▸"
      }
      var valueStyle = theme[.actionButton]
      if isSelected { valueStyle = valueStyle.over(theme[.selection]) }
      grid.write(
        TextLayout.truncate(shown, toColumns: valueColumns), at: Point(column: left + labelColumns + 2, row: row),
        style: valueStyle, role: .actionButton, maxColumns: valueColumns)
      grid.addHit(rowRect, .settingsRow(index))
      row += 1
    }
    // The keys, shorter in a pane too narrow for them all, and cut with "…" in one narrower still.
    let keys =
      Self.keys.first { DisplayWidth.columns(of: $0) <= inner }
      ?? TextLayout.truncate(Self.keys[Self.keys.count - 1], toColumns: inner)
    grid.write(
      keys, at: Point(column: left, row: rect.endRow - 2), style: theme[.cardMeta], role: .cardMeta, maxColumns: inner)
  }

  /// The keys under the settings, longest first.
  static let keys = [
    "↑↓ move · ⏎/Space toggle · ← → change · s close", "↑↓ move · ⏎ toggle · ←→ change · s close",
    "↑↓ move · ⏎ toggle · ←→ · s close",
  ]
}

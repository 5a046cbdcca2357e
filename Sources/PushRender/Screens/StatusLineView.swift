import PushCore
import PushUI

/// The bottom line on every screen: simulated time, the mode, key hints and counts.
struct StatusLineView {
  var state: AppState

  /// The mode's name and its most useful keys.
  private var modeAndHints: (String, [(String, String)]) {
    switch state.overlay {
    case .help?: return ("Help", [("?", "close")])
    case .actionSheet(let sheet)?:
      if case .reply = sheet.stage { return ("Reply", [("⏎", "send"), ("Esc", "cancel")]) }
      return ("Actions", [("↑↓", "move"), ("⏎", "choose"), ("Esc", "close")])
    case nil: break
    }
    switch state.screen {
    case .lock:
      return ("Lock Screen", [("n", "center"), ("a", "actions"), ("i", "inspect"), (".", "next push"), ("?", "help"), ("q", "quit")])
    case .center:
      return ("Notification Center", [("⏎", "open/expand"), ("x", "clear"), ("a", "actions"), ("i", "inspect"), ("Esc", "back"), ("?", "help")])
    case .detail:
      return ("Notification", [("a", "actions"), ("x", "clear"), ("i", "inspect"), ("Esc", "back"), ("?", "help")])
    }
  }

  func draw(into grid: inout CellGrid, theme: Theme) {
    let row = grid.height - 1
    grid.fill(Rect(column: 0, row: row, columns: grid.width, rows: 1), style: theme[.background], role: .background)
    let time = CivilTime(state.now, utcOffsetSeconds: state.device.profile.utcOffsetSeconds)
    let seconds = Int(((state.now.milliseconds / 1000) % 60 + 60) % 60)
    let clock = time.clock + ":" + (seconds < 10 ? "0" : "") + String(seconds)
    let (mode, hints) = modeAndHints
    var column = 0
    column += grid.write(" \(clock) ", at: Point(column: column, row: row), style: theme[.footerKey], role: .footerKey)
    column += grid.write(" \(mode)\(state.isManualClock ? " · manual" : "") ", at: Point(column: column, row: row), style: theme[.statusBar], role: .statusBar)
    let count = state.device.store.count
    var right = "\(count) stored"
    if state.pendingEventCount > 0 { right += " · \(state.pendingEventCount) to come" }
    right += " "
    let rightColumns = DisplayWidth.columns(of: right)
    for (key, label) in hints {
      let needed = DisplayWidth.columns(of: key) + DisplayWidth.columns(of: label) + 4
      guard column + needed + rightColumns + 1 <= grid.width else { break }
      column += grid.write(" \(key) ", at: Point(column: column + 1, row: row), style: theme[.footerKey], role: .footerKey) + 1
      column += grid.write(" \(label)", at: Point(column: column, row: row), style: theme[.footer], role: .footer)
    }
    if column + rightColumns < grid.width {
      grid.write(right, at: Point(column: grid.width - rightColumns, row: row), style: theme[.footer], role: .footer)
    }
  }
}

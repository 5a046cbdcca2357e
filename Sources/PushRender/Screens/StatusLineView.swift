import PushCore
import PushUI

/// The bottom line on every screen: simulated time, the mode, key hints and counts.
struct StatusLineView {
  var state: AppState

  /// The mode's name and its most useful keys.
  private var modeAndHints: (String, [(String, String)]) {
    if case .seek? = state.prompt { return ("Go to", [("⏎", "go"), ("Esc", "cancel")]) }
    switch state.overlay {
    case .help?: return ("Help", [("↑↓", "scroll"), ("?", "close")])
    case .confirmClearAll?: return ("Clear All", [("⏎ y", "clear"), ("Esc", "keep")])
    case .provisional(let choice)?:
      if choice.kind == .turnOff { return ("Turn Off", [("⏎ y", "turn off"), ("Esc", "keep")]) }
      return ("Keep", [("↑↓", "move"), ("⏎", "choose"), ("Esc", "cancel")])
    case .actionSheet(let sheet)?:
      if case .reply = sheet.stage { return ("Reply", [("⏎", "send"), ("Esc", "cancel")]) }
      return ("Actions", [("↑↓", "move"), ("⏎", "choose"), ("Esc", "close")])
    case nil: break
    }
    switch state.pane {
    case .timeline?:
      return ("Timeline", [("p", "play"), (",.", "prev/next"), ("+-", "speed"), ("g", "go to"), ("t", "close")])
    case .settings?:
      return ("Settings", [("↑↓", "move"), ("⏎", "toggle"), ("←→", "change"), ("s", "close")])
    case nil: break
    }
    switch state.screen {
    case .lock:
      return (
        "Lock Screen",
        [("n", "center"), ("a", "actions"), ("i", "inspect"), (".", "next push"), ("?", "help"), ("q", "quit")]
      )
    case .center:
      return (
        "Notification Center",
        [("⏎", "open/expand"), ("x", "clear"), ("a", "actions"), ("i", "inspect"), ("Esc", "back"), ("?", "help")]
      )
    case .detail:
      return (
        "Notification",
        [("⏎", "open app"), ("a", "actions"), ("x", "clear"), ("i", "inspect"), ("Esc", "back"), ("?", "help")]
      )
    }
  }

  /// ` · manual` while a manual clock is paused, ` · ▶ 10×` while playing faster or slower,
  /// ` · ⏸` while a wall clock is paused.
  private var clockLabel: String {
    let playback = state.playback
    if playback.isPlaying { return playback.speed == .times(1) ? "" : " · ▶ \(playback.speed.label)" }
    return state.isManualClock ? " · manual" : " · ⏸"
  }

  /// A seek's target: `the end` when it is more than a day past everything on the timeline
  /// (`g +400d`), else its time of day, with its date when it is more than a day from now.
  static func targetText(_ target: SimInstant, from state: AppState) -> String {
    if let last = state.timeline.indices.last, target - state.timeline.instant(last) > .hours(24) { return "the end" }
    let time = CivilTime(target, utcOffsetSeconds: state.device.profile.utcOffsetSeconds)
    func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    let clock = "\(two(time.hour)):\(two(time.minute)):\(two(time.second))"
    guard target - state.now > .hours(24) else { return clock }
    return "\(time.year)-\(two(time.month))-\(two(time.day)) \(clock)"
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
    if case .seek? = state.prompt, let edited = state.editedText {
      column += grid.write(
        " Go to time (+5m, -30s, 09:45, 08:00:30): ", at: Point(column: column, row: row), style: theme[.statusBar],
        role: .statusBar)
      TextFieldView.draw(
        edited, at: Point(column: column, row: row), columns: max(0, grid.width - column), style: theme[.cardBody],
        role: .cardBody, into: &grid)
      return
    }
    column += grid.write(
      " \(mode)\(clockLabel) ", at: Point(column: column, row: row), style: theme[.statusBar], role: .statusBar)
    // The counts on the right, most important first; where the line is short, the last ones give
    // way (never all of them, as when one long part once pushed the whole right side off).
    var parts = ["\(state.device.store.count) stored"]
    let reading = state.readingProgress.map { "reading \(Int(min(max($0, 0), 0.99) * 100))%" }
    // A long seek on its way, with the reading it waits for (docs/DECISIONS.md, Run: seeks
    // while reading and into the middle).
    if let target = state.followingTo {
      parts.append("following to \(Self.targetText(target, from: state))")
      if let reading { parts.append(reading) }
    }
    let rejected = state.rejectedCount + state.refusedCount + state.savedRejectedCount
    if rejected > 0 { parts.append("✗ \(rejected) rejected") }
    if state.pendingEventCount > 0 { parts.append("\(state.pendingEventCount) to come") }
    if let reading, state.followingTo == nil { parts.append(reading) }
    if let listening = state.listeningOn { parts.append("⇄ \(listening)") }
    let spare = grid.width - column - 2
    while parts.count > 1, DisplayWidth.columns(of: parts.joined(separator: " · ")) + 1 > spare { parts.removeLast() }
    let right = parts.joined(separator: " · ") + " "
    let rightColumns = DisplayWidth.columns(of: right)
    // Hints that fit with two columns to spare before the counts, so the last label and the
    // counts never read as one ("inspect 1 stored").
    let gap = 2
    for (key, label) in hints {
      let needed = DisplayWidth.columns(of: key) + DisplayWidth.columns(of: label) + 4
      guard column + needed + gap + rightColumns <= grid.width else { break }
      column +=
        grid.write(" \(key) ", at: Point(column: column + 1, row: row), style: theme[.footerKey], role: .footerKey) + 1
      column += grid.write(" \(label)", at: Point(column: column, row: row), style: theme[.footer], role: .footer)
    }
    if column + gap + rightColumns <= grid.width {
      grid.write(right, at: Point(column: grid.width - rightColumns, row: row), style: theme[.footer], role: .footer)
    }
  }
}

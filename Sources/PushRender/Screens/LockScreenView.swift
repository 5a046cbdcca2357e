import PushCore
import PushUI

/// The iPhone-like lock screen: status line, padlock, date, big clock, Focus, Live Activities,
/// the Scheduled Summary card and notification stacks (newest in front).
public struct LockScreenView: Sendable {
  /// The smallest terminal the front end is drawn on; smaller ones get a message.
  public static let minimumSize = Size(columns: 40, rows: 12)

  /// The state to show.
  public var state: AppState

  /// Creates the view.
  public init(state: AppState) { self.state = state }

  /// Draws the lock screen into the grid's rows above the status line.
  public func draw(into grid: inout CellGrid, theme: Theme) {
    Chrome.drawWallpaper(into: &grid, theme: theme)
    Chrome.drawStatusBar(into: &grid, theme: theme)
    let cardsTop = drawClockArea(into: &grid, theme: theme)
    drawCards(into: &grid, top: cardsTop, bottom: grid.height - 2, theme: theme)
  }

  /// Draws padlock, date, clock and Focus; returns the first row free for cards.
  private func drawClockArea(into grid: inout CellGrid, theme: Theme) -> Int {
    let device = state.device
    let time = CivilTime(state.now, utcOffsetSeconds: device.profile.utcOffsetSeconds)
    var row = 1
    Chrome.centre(device.isLocked ? "🔒" : "🔓", row: row, in: &grid, role: .lockIcon, theme: theme)
    row += 1
    Chrome.centre(time.lockScreenDate, row: row, in: &grid, role: .lockDate, theme: theme)
    row += 1
    let large = BigClock(text: time.clock, size: .large)
    let clock: BigClock? =
      grid.height >= 20 && large.isDrawable && large.columns + 4 <= grid.width ? large : nil
    if let clock {
      for line in clock.lines() {
        Chrome.centre(line, row: row, in: &grid, role: .lockClock, theme: theme)
        row += 1
      }
    } else {
      Chrome.centre(time.clock, row: row, in: &grid, role: .lockClock, theme: theme)
      row += 1
    }
    if let focus = device.activeFocus {
      let glyph = focus.kind == .sleep ? "🛏" : "☾"
      Chrome.centre(" \(glyph) \(focus.name) ", row: row, in: &grid, role: .focusIndicator, theme: theme)
      row += 1
    }
    return row + 1
  }

  /// The cards in order: Live Activities, the Scheduled Summary, then the stacks by rank.
  private func cards(stacks: [NotificationGroup]) -> [NotificationCardView] {
    var cards: [NotificationCardView] = []
    for activity in state.device.liveActivities.reversed() {
      var body = activity.body
      if body == nil, let content = activity.contentState { body = content.compactText }
      let notification = PushNotification(
        id: NotificationID(0), bundleID: activity.bundleID,
        title: activity.title ?? activity.attributesType, body: body, receivedAt: activity.startedAt)
      var card = NotificationCardView(
        notification: notification, app: state.appInfo(activity.bundleID), hiddenCount: 0, now: state.now,
        maxBodyLines: 1)
      card.label = activity.endedAt == nil ? (activity.isStale(at: state.now) ? "Live · stale" : "Live") : "Ended"
      cards.append(card)
    }
    let summary = state.summaryNotifications()
    if !summary.isEmpty {
      var names: [String] = []
      for stored in summary {
        let name = state.appInfo(stored.notification.bundleID).displayName
        if !names.contains(name) { names.append(name) }
      }
      let noun = summary.count == 1 ? "notification" : "notifications"
      let notification = PushNotification(
        id: NotificationID(0), bundleID: "scheduled-summary", title: "Your Scheduled Summary",
        subtitle: "\(summary.count) \(noun)", body: names.joined(separator: ", "),
        receivedAt: summary[0].notification.receivedAt)
      cards.append(
        NotificationCardView(
          notification: notification,
          app: AppInfo(bundleID: "scheduled-summary", displayName: "Summary", iconGlyph: "🗓"),
          hiddenCount: 0, now: state.now, maxBodyLines: 1))
    }
    let selection = state.screen == .lock ? state.lockSelection : -1
    for (index, group) in stacks.enumerated() {
      guard let front = group.notifications.first else { continue }
      var card = NotificationCardView(
        notification: state.displayed(front, threadCount: group.count),
        app: state.appInfo(front.notification.bundleID), hiddenCount: group.count - 1,
        now: state.now, maxBodyLines: 2)
      card.isSelected = index == selection
      cards.append(card)
    }
    return cards
  }

  private func drawCards(into grid: inout CellGrid, top: Int, bottom: Int, theme: Theme) {
    let stacks = state.lockScreenStacks()
    guard bottom >= top else { return }
    let available = bottom - top + 1
    // Only stacks that could be on screen get cards: those up to the selection and, as a card
    // takes at least three rows and a gap, more after it than the rows can hold. The rest are
    // only counted, so a frame costs the same with a thousand stacks as with ten.
    let selectionIndex = state.screen == .lock ? max(state.lockSelection, 0) : 0
    let cardLimit = min(stacks.count, selectionIndex + available / 3 + 2)
    let omitted = stacks.count - cardLimit
    let cards = cards(stacks: Array(stacks.prefix(cardLimit)))
    guard !cards.isEmpty else { return }
    let columns = min(grid.width - 4, 66)
    let left = (grid.width - columns) / 2
    // Each card is laid out once, when first needed, and only cards that get near the screen are.
    var layouts = [[(String, StyleRole)]?](repeating: nil, count: cards.count)
    func lines(_ index: Int) -> [(String, StyleRole)] {
      if let lines = layouts[index] { return lines }
      let lines = cards[index].contentLines(columns: columns)
      layouts[index] = lines
      return lines
    }
    func rows(_ index: Int) -> Int { cards[index].rows(lines: lines(index)) }
    /// Whether the cards at `indices` fit in `budget` rows, each after a gap but the first
    /// (after `leadingGap`); stops laying out at the first that does not.
    func fit(_ indices: some Sequence<Int>, leadingGap: Int, budget: Int) -> Bool {
      var total = 0
      for (offset, index) in indices.enumerated() {
        total += (offset == 0 ? leadingGap : 1) + rows(index)
        if total > budget { return false }
      }
      return true
    }
    // Scroll so the selected stack is on screen: drop stacks above it while it does not fit.
    let fixed = cards.count - cardLimit
    var first = 0
    if let selected = cards.firstIndex(where: \.isSelected), selected > fixed {
      var start = fixed
      while start < selected, !fit(Array(0..<fixed) + Array(start...selected), leadingGap: 0, budget: available - 2) {
        start += 1
      }
      first = start - fixed
    }
    let visible = Array(0..<fixed) + Array((fixed + first)..<cards.count)
    var used = 0
    var drawn = 0
    for (position, index) in visible.enumerated() {
      let card = cards[index]
      let gap = position > 0 ? 1 : 0
      let restFits = fit(visible[position...], leadingGap: gap, budget: available - used)
      // Otherwise keep room for the overflow line, and let the front card shrink to a compact
      // form rather than vanish on short terminals.
      let reserve = restFits ? 0 : 2
      var chosen = card
      var chosenLines = lines(index)
      if used + gap + card.rows(lines: chosenLines) + reserve > available {
        guard !restFits, position == 0,
          let compact = card.compactVariants().dropFirst().first(where: {
            used + gap + $0.rows(columns: columns) + reserve <= available
          })
        else { break }
        chosen = compact
        chosenLines = compact.contentLines(columns: columns)
      }
      let chosenRows = chosen.rows(lines: chosenLines)
      chosen.draw(
        into: &grid, at: Point(column: left, row: top + used + gap), columns: columns, lines: chosenLines, theme: theme)
      if index >= fixed {
        grid.addHit(
          Rect(column: left, row: top + used + gap, columns: columns, rows: chosenRows), .lockRow(index - fixed))
      }
      used += gap + chosenRows
      drawn += 1
    }
    let remaining = visible.count - drawn + omitted
    guard remaining > 0 else { return }
    let hiddenGroups = stacks.suffix(max(0, min(stacks.count, remaining)))
    let count = hiddenGroups.reduce(0) { $0 + $1.count }
    // Names until the line is full: more could not show.
    var names: [String] = []
    var nameColumns = 0
    for group in hiddenGroups {
      if nameColumns > columns { break }
      let name = state.appInfo(group.key.bundleID).displayName
      if !names.contains(name) {
        names.append(name)
        nameColumns += DisplayWidth.columns(of: name) + 2
      }
    }
    let noun = count == 1 ? "notification" : "notifications"
    let text = TextLayout.truncate("＋ \(count) more \(noun) · \(names.joined(separator: ", "))", toColumns: columns)
    Chrome.centre(text, row: top + used + (drawn > 0 ? 1 : 0), in: &grid, role: .overflow, theme: theme)
  }
}

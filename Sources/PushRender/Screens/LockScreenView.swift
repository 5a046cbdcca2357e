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
    // The cards gather at the bottom, above a free row (where iOS has the flashlight and
    // camera, and where toasts appear; short terminals keep it for cards) and the status line.
    drawCards(into: &grid, top: cardsTop, bottom: grid.height - (grid.height >= 20 ? 3 : 2), theme: theme)
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
      Chrome.centre(" \(focus.kind.glyph) \(focus.name) ", row: row, in: &grid, role: .focusIndicator, theme: theme)
      row += 1
    }
    return row + 1
  }

  /// The cards in order: Live Activities, the Scheduled Summary, then the stacks by rank.
  /// In Display As ▸ Stack the stacks are piled into one, the selected one in front; in
  /// Count they are not drawn (the count line stands for them).
  private func cards(stacks: [NotificationGroup], totalStacks: Int) -> [NotificationCardView] {
    var cards: [NotificationCardView] = []
    for activity in state.device.liveActivities.reversed() {
      let layout = state.device.app(activity.bundleID)?.liveActivityLayouts[activity.attributesType]
      let face = activity.face(layout: layout)
      let notification = PushNotification(
        id: NotificationID(0), bundleID: activity.bundleID, title: face.title, body: face.detail,
        receivedAt: activity.startedAt)
      var card = NotificationCardView(
        notification: notification, app: state.appInfo(activity.bundleID), hiddenCount: 0, now: state.now,
        maxBodyLines: 2)
      card.label = activity.endedAt == nil ? (activity.isStale(at: state.now) ? "Live · stale" : "Live") : "Ended"
      // An activity subscribed to a broadcast channel says so: its updates come through it.
      if activity.channelID != nil { card.label = (card.label ?? "Live") + " · channel" }
      card.showsTime = false
      card.progress = face.progress
      card.progressTime = face.time.map { RelativeTime.describeEither($0, now: state.now) }
      cards.append(card)
    }
    let summary = state.summaryNotifications()
    if !summary.isEmpty {
      var names: [String] = []
      for stored in summary {
        let name = state.appInfo(stored.notification.bundleID).displayName
        if !names.contains(name) { names.append(name) }
      }
      let notification = PushNotification(
        id: NotificationID(0), bundleID: "scheduled-summary", title: "Your Scheduled Summary",
        subtitle: PluralFormat.counted(summary.count, "notification"), body: names.joined(separator: ", "),
        receivedAt: summary[0].notification.receivedAt)
      var card = NotificationCardView(
        notification: notification,
        app: AppInfo(bundleID: "scheduled-summary", displayName: "Summary", iconGlyph: "🗓"),
        hiddenCount: 0, now: state.now, maxBodyLines: 1)
      // The card arrived when the summary was delivered, not when its first push did.
      card.time = summary.map(\.deliveredAt).max()
      cards.append(card)
    }
    let display = state.device.profile.lockScreenDisplay
    guard display != .count else { return cards }
    let selection = state.screen == .lock ? state.lockSelection : -1
    for (index, group) in stacks.enumerated() {
      guard let front = group.notifications.first else { continue }
      if display == .stack && index != max(0, min(selection, totalStacks - 1)) { continue }
      var card = NotificationCardView.stack(group, front: front, in: state)
      card.isSelected = index == selection
      if display == .stack {
        let others = totalStacks - 1
        card.hiddenCount = group.count - 1 + others
        if others > 0 {
          let behind = state.lockScreenStacks().reduce(0) { $0 + $1.count } - 1
          card.stackSummary = PluralFormat.counted(behind, "more notification")
        }
      }
      cards.append(card)
    }
    return cards
  }

  /// Draws the cards between `top` and `bottom`: laid out first (``layoutCards(width:top:bottom:)``),
  /// then drawn as laid out.
  private func drawCards(into grid: inout CellGrid, top: Int, bottom: Int, theme: Theme) {
    guard let layout = layoutCards(width: grid.width, top: top, bottom: bottom) else { return }
    for item in layout.placed {
      item.card.draw(
        into: &grid, at: Point(column: layout.left, row: item.row), columns: layout.columns, lines: item.lines,
        theme: theme)
      if let stack = item.stack {
        grid.addHit(Rect(column: layout.left, row: item.row, columns: layout.columns, rows: item.rows), .lockRow(stack))
      }
    }
    if let count = layout.countLine {
      Chrome.centre(count.text, row: count.row, in: &grid, role: .overflow, theme: theme)
    }
    if let above = layout.aboveLine {
      Chrome.centre(above.text, row: above.row, in: &grid, role: .overflow, theme: theme)
    }
  }

  /// Where the cards go in a grid `width` columns wide, between rows `top` and `bottom`; nil
  /// when there is no room.
  func layoutCards(width: Int, top: Int, bottom: Int) -> CardsLayout? {
    let stacks = state.lockScreenStacks()
    guard bottom >= top else { return nil }
    let available = bottom - top + 1
    let display = state.device.profile.lockScreenDisplay
    // Only stacks that could be on screen get cards: those up to the selection and, as a card
    // takes at least three rows and a gap, more after it than the rows can hold. The rest are
    // only counted, so a frame costs the same with a thousand stacks as with ten.
    let selectionIndex = state.screen == .lock ? max(state.lockSelection, 0) : 0
    let cardLimit = display == .list ? min(stacks.count, selectionIndex + available / 3 + 2) : stacks.count
    let cards = cards(stacks: Array(stacks.prefix(cardLimit)), totalStacks: stacks.count)
    let stackCards = display == .list ? cardLimit : (display == .stack && !stacks.isEmpty ? 1 : 0)
    let columns = min(width - 4, 66)
    var measure = CardMeasure(cards: cards, columns: columns)
    // The Live Activity and summary cards come first and show while the selection fits under
    // them; the stacks' cards after.
    let fixed = cards.count - stackCards
    var visible = display == .list ? measure.visibleCards(fixed: fixed, available: available) : Array(cards.indices)
    var countGap = 1
    var (placed, used) = measure.place(visible, available: available)
    // The list at its top keeps its Live Activity and summary first, shrunk if need be; when
    // not even one card of them fits (40x12 with a Focus line: no card was drawn at all, found
    // by an exploratory test), the selected stack is drawn instead, without the gap over the
    // count line if that is what it takes.
    if placed.isEmpty, display == .list, let selected = cards.firstIndex(where: \.isSelected), selected > 0 {
      visible = Array(selected..<cards.count)
      (placed, used) = measure.place(visible, available: available)
      if placed.isEmpty {
        countGap = 0
        (placed, used) = measure.place(visible, available: available, countGap: 0)
      }
    }
    // The count line counts the stacks below the last one drawn: those that did not fit and
    // those never laid out. (It took the last N stacks for N cards not placed, Live Activity
    // and summary cards included, so on a short terminal it counted and named stacks that
    // were drawn; found by an exploratory test.)
    let hiddenFrom: Int
    switch display {
    case .count: hiddenFrom = 0
    case .stack: hiddenFrom = placed.contains { $0.index >= fixed } ? stacks.count : 0
    case .list:
      let firstStack = visible.first { $0 >= fixed }.map { $0 - fixed } ?? stacks.count
      hiddenFrom = placed.last.map { $0.index >= fixed ? $0.index - fixed + 1 : firstStack } ?? firstStack
    }
    let countText = countLine(display: display, hidden: stacks[hiddenFrom...], columns: columns)
    // Laid out first, then drawn from the bottom up: since iOS 16 notifications gather at the
    // bottom of the lock screen, under the clock's free space.
    let countRows = countText == nil ? 0 : (placed.isEmpty ? 1 : 1 + countGap)
    let shift = max(0, available - used - countRows)
    // Cards scrolled away above the first one drawn (Live Activities, the summary, stacks) are
    // counted on the free row over the cards, as Notification Center counts them ("↑ 2 more"):
    // a Live Activity or a critical alert up there was out of sight with nothing to tell of it
    // (found by an exploratory test). Only in a row the cards leave free: the layout is the
    // same with or without it.
    let firstDrawn = placed.first?.index ?? 0
    let shown = Set(visible)
    let aboveCount = (0..<firstDrawn).reduce(0) { shown.contains($1) ? $0 : $0 + 1 + cards[$1].hiddenCount }
    return CardsLayout(
      left: (width - columns) / 2, columns: columns,
      placed: placed.map { item in
        let stack =
          item.index < fixed
          ? nil : display == .list ? item.index - fixed : max(0, min(state.lockSelection, stacks.count - 1))
        return CardsLayout.Placed(
          card: item.card, lines: item.lines, row: top + shift + item.row, rows: item.rows, stack: stack)
      },
      countLine: countText.map { ($0, top + shift + used + (placed.isEmpty ? 0 : countGap)) },
      aboveLine: aboveCount > 0 && shift >= 1 ? ("↑ \(aboveCount) more", top + shift - 1) : nil)
  }

  /// What is not drawn, counted on a line under the cards: the `hidden` stacks, below the
  /// cards drawn (in Display As ▸ Count, every stack); nil when there is nothing to count.
  private func countLine(display: LockScreenDisplay, hidden hiddenGroups: ArraySlice<NotificationGroup>, columns: Int)
    -> String?
  {
    let count = hiddenGroups.reduce(0) { $0 + $1.count }
    if display == .count {
      return count > 0 ? PluralFormat.counted(count, "Notification") : nil
    }
    guard count > 0 else { return nil }
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
    return TextLayout.truncate(
      "＋ \(PluralFormat.counted(count, "more notification")) · \(names.joined(separator: ", "))",
      toColumns: columns)
  }
}

/// The lock screen's cards as laid out: where each goes, and the count line under them.
struct CardsLayout {
  /// A card in its place.
  struct Placed {
    /// The card as drawn: the one built, or a compact form of it that fits.
    var card: NotificationCardView
    var lines: [CardLine]
    /// The grid row of its top, and its height.
    var row: Int
    var rows: Int
    /// The index of the stack a click on it selects; nil for Live Activities and the summary.
    var stack: Int?
  }

  /// The cards' first column and width.
  var left: Int
  var columns: Int
  /// The cards that fit, top to bottom.
  var placed: [Placed]
  /// The line counting what is not drawn, and its grid row.
  var countLine: (text: String, row: Int)?
  /// The line counting the notifications and cards scrolled away above, and its grid row.
  var aboveLine: (text: String, row: Int)? = nil
}

/// Measures the lock screen's cards for a width: each card is laid out once, when first needed,
/// and only cards that get near the screen are.
private struct CardMeasure {
  let cards: [NotificationCardView]
  let columns: Int
  private var layouts: [[CardLine]?]

  init(cards: [NotificationCardView], columns: Int) {
    self.cards = cards
    self.columns = columns
    layouts = Array(repeating: nil, count: cards.count)
  }

  /// A card's lines.
  mutating func lines(_ index: Int) -> [CardLine] {
    if let lines = layouts[index] { return lines }
    let lines = cards[index].contentLines(columns: columns)
    layouts[index] = lines
    return lines
  }

  /// A card's height.
  mutating func rows(_ index: Int) -> Int { cards[index].rows(lines: lines(index)) }

  /// Whether the cards at `indices` fit in `budget` rows, each after a gap but the first
  /// (after `leadingGap`); stops laying out at the first that does not.
  mutating func fit(_ indices: some Sequence<Int>, leadingGap: Int, budget: Int) -> Bool {
    var total = 0
    for (offset, index) in indices.enumerated() {
      total += (offset == 0 ? leadingGap : 1) + rows(index)
      if total > budget { return false }
    }
    return true
  }

  /// The cards to lay out so the selected stack's is on screen once the selection has moved
  /// down the list: stacks above it are dropped while it does not fit below the `fixed` cards
  /// (Live Activities, the summary), then those too, from the top, as iOS scrolls them away
  /// with the list. (They always stayed, and on a short terminal the selected card was pushed
  /// off the screen behind them: ↓ selected stacks that were never drawn; found by an
  /// exploratory test at 60x20 with a Live Activity.) With the first stack selected, the list
  /// is at its top, as the lock screen opens and `render` draws it: the fixed cards first.
  mutating func visibleCards(fixed: Int, available: Int) -> [Int] {
    guard let selected = cards.firstIndex(where: \.isSelected), selected > fixed else {
      return Array(cards.indices)
    }
    var start = fixed
    while start < selected, !fit(Array(0..<fixed) + Array(start...selected), leadingGap: 0, budget: available - 2) {
      start += 1
    }
    var fixedStart = 0
    while fixedStart < fixed,
      !fit(Array(fixedStart..<fixed) + Array(start...selected), leadingGap: 0, budget: available - 2)
    {
      fixedStart += 1
    }
    return Array(fixedStart..<fixed) + Array(start..<cards.count)
  }

  /// Places the `visible` cards top to bottom in `available` rows, each after a one-row gap,
  /// until one does not fit; returns them (rows counted from 0) and the rows they use.
  mutating func place(_ visible: [Int], available: Int, countGap: Int = 1) -> (
    placed: [(card: NotificationCardView, lines: [CardLine], row: Int, rows: Int, index: Int)], used: Int
  ) {
    var placed: [(card: NotificationCardView, lines: [CardLine], row: Int, rows: Int, index: Int)] = []
    var used = 0
    for (position, index) in visible.enumerated() {
      let card = cards[index]
      let gap = position > 0 ? 1 : 0
      let restFits = fit(visible[position...], leadingGap: gap, budget: available - used)
      // Otherwise keep room for the overflow line, and let the front card shrink to a compact
      // form rather than vanish on short terminals.
      let reserve = restFits ? 0 : 1 + countGap
      var chosen = card
      var chosenLines = lines(index)
      if used + gap + card.rows(lines: chosenLines) + reserve > available {
        let columns = self.columns
        guard !restFits, position == 0,
          let compact = card.compactVariants().dropFirst().first(where: {
            used + gap + $0.rows(columns: columns) + reserve <= available
          })
        else { break }
        chosen = compact
        chosenLines = compact.contentLines(columns: columns)
      }
      let chosenRows = chosen.rows(lines: chosenLines)
      placed.append((chosen, chosenLines, used + gap, chosenRows, index))
      used += gap + chosenRows
    }
    return (placed, used)
  }
}

extension NotificationCardView {
  /// A stack's card, on the lock screen and in Notification Center alike: its newest
  /// notification as shown, with the stack's count and summary line.
  static func stack(_ group: NotificationGroup, front: StoredNotification, in state: AppState) -> NotificationCardView {
    var card = NotificationCardView(
      notification: state.displayed(front, threadCount: group.count),
      app: state.appInfo(front.notification.bundleID), hiddenCount: group.count - 1,
      now: state.now, maxBodyLines: 2)
    card.decorate(front, in: state)
    card.stackSummary = state.stackSummary(front: front, hiddenCount: group.count - 1)
    return card
  }

  /// Adds what a stored notification brings to its card on every screen: the time the user
  /// got it, its image thumbnail and its sender's initials (both hidden with its preview).
  mutating func decorate(_ stored: StoredNotification, in state: AppState) {
    time = stored.deliveredAt
    initials = state.senderInitials(stored)
    if !state.previewsHidden(stored) {
      thumbnail = stored.notification.attachments.lazy.compactMap(\.thumbnail).first
    }
  }
}

import PushCore
import PushRender
import PushUI
import PushWire

/// Draws the surfaces of ``PhoneMockup`` from the state.
struct Drawer {
  let state: AppState
  let palette: Palette
  let m = PhoneMetrics.self

  init(state: AppState, palette: Palette) {
    self.state = state
    self.palette = palette
  }

  private var time: CivilTime { CivilTime(state.now, utcOffsetSeconds: state.device.profile.utcOffsetSeconds) }

  // MARK: Lock screen

  mutating func lockScreen(_ b: inout SVGBuilder) {
    let focus = state.device.activeFocus
    if focus?.dimsLockScreen == true {
      // Sleep dims the lock screen.
      b.rect(x: 0, y: 0, width: m.width, height: m.height, fill: "#000000", opacity: 0.55)
    }
    padlock(&b, x: m.width / 2, y: 62)
    b.text(
      time.lockScreenDate, x: m.width / 2, y: m.dateBaseline, size: m.dateSize, weight: 600, fill: palette.onWallpaper,
      anchor: .middle, opacity: 0.9, role: "date")
    b.text(
      time.clock, x: m.width / 2, y: m.clockBaseline, size: m.clockSize, weight: 700, fill: palette.onWallpaper,
      anchor: .middle, letterSpacing: -2, role: "clock")
    var top = m.clockBaseline + 34
    if let focus {
      focusPill(&b, focus: focus, centerY: top + 2)
      top += 34
    }
    list(&b, top: top, bottom: m.listBottom)
    quickButtons(&b)
  }

  private func padlock(_ b: inout SVGBuilder, x: Double, y: Double) {
    b.raw(
      "<path d=\"M\(x - 5) \(y) v-4 a5 5 0 0 1 10 0 v4\" fill=\"none\" stroke=\"\(palette.onWallpaper)\" stroke-width=\"2\"/>"
    )
    b.rect(x: x - 7.5, y: y, width: 15, height: 11, radius: 2.5, fill: palette.onWallpaper)
  }

  /// The Focus icon is the core's, one per kind, the same the terminal draws.
  static func focusGlyph(_ kind: FocusKind) -> String { kind.glyph }

  private func focusPill(_ b: inout SVGBuilder, focus: FocusMode, centerY: Double) {
    let text = Self.focusGlyph(focus.kind) + " " + SVGText.clean(focus.name)
    let label = TextMetrics.truncate(text, size: 15, maxWidth: m.width - 80, bold: true)
    let width = TextMetrics.width(label, size: 15, bold: true) + 28
    b.rect(
      x: (m.width - width) / 2, y: centerY - 15, width: width, height: 30, radius: 15, fill: "#000000", opacity: 0.32)
    b.text(
      label, x: m.width / 2, y: centerY + 5, size: 15, weight: 600, fill: palette.focus, anchor: .middle, role: "focus")
  }

  private func quickButtons(_ b: inout SVGBuilder) {
    for cx in [m.quickButtonInset, m.width - m.quickButtonInset] {
      b.circle(cx: cx, cy: m.quickButtonY, r: m.quickButtonRadius, fill: "#000000", opacity: 0.35)
    }
    // Flashlight and camera, as simple shapes.
    let fx = m.quickButtonInset
    let y = m.quickButtonY
    b.raw(
      "<path d=\"M\(fx - 5) \(y - 11) h10 v5 l-2 4 v13 h-6 v-13 l-2 -4 z\" fill=\"\(palette.onWallpaper)\" fill-opacity=\"0.9\"/>"
    )
    let cx = m.width - m.quickButtonInset
    b.rect(x: cx - 11, y: y - 7, width: 22, height: 15, radius: 3, fill: palette.onWallpaper, opacity: 0.9)
    b.circle(cx: cx, cy: y + 0.5, r: 4.5, fill: "#000000", opacity: 0.6)
  }

  /// One item of the lock screen's list, laid out.
  private enum Item {
    case activity(LiveActivity, height: Double)
    case summary([StoredNotification], height: Double)
    case platter(Platter)

    var height: Double {
      switch self {
      case .activity(_, let height), .summary(_, let height): height
      case .platter(let platter): platter.totalHeight
      }
    }
  }

  private func label(for notification: PushNotification) -> (text: String, color: String)? {
    switch notification.level {
    case .critical: ("Critical Alert", palette.critical)
    case .timeSensitive: ("Time Sensitive", palette.timeSensitive)
    default: nil
    }
  }

  /// Keep… and Turn Off… for a provisionally authorized app's notifications (iOS's
  /// "Deliver Quietly" trial).
  private func buttons(for id: NotificationID) -> [String] {
    state.isProvisional(id) ? ["Keep…", "Turn Off…"] : []
  }

  /// Live Activities, the Scheduled Summary and the stacks, anchored at the bottom; what does
  /// not fit is counted in an "N more" line.
  private mutating func list(_ b: inout SVGBuilder, top: Double, bottom: Double) {
    let width = m.width - m.listMargin * 2
    var items: [Item] = []
    for activity in state.device.liveActivities.reversed() {
      items.append(.activity(activity, height: liveActivityHeight(activity, width: width)))
    }
    let summary = state.summaryNotifications()
    if !summary.isEmpty { items.append(.summary(summary, height: summaryHeight(summary))) }
    let stacks = state.lockScreenStacks()
    // Display As, as the terminal draws it: List lays out each stack (only those that can be
    // on screen: each takes at least 66 pt), Stack piles them all behind the selected one,
    // Count draws none and says how many. (The mockups always drew the list, so a profile's
    // `displayAs: count` showed its notifications in the picture and not in the terminal;
    // found by an exploratory test.)
    let display = state.device.profile.lockScreenDisplay
    let total = display == .list ? 0 : stacks.reduce(0) { $0 + $1.count }
    let piled: [NotificationGroup]
    switch display {
    case .list: piled = Array(stacks.prefix(min(stacks.count, Int((bottom - top) / 66) + 1)))
    case .stack:
      let selection = state.screen == .lock ? state.lockSelection : 0
      piled = stacks.isEmpty ? [] : [stacks[max(0, min(selection, stacks.count - 1))]]
    case .count: piled = []
    }
    let limit = display == .list ? piled.count : stacks.count
    for group in piled {
      guard let front = group.notifications.first else { continue }
      let notification = state.displayed(front, threadCount: group.count)
      var platter = Platter.layout(
        notification: notification, app: state.appInfo(front.notification.bundleID), now: state.now,
        datedAt: front.deliveredAt, width: width, behind: display == .stack ? total - 1 : group.count - 1,
        label: label(for: notification), buttons: buttons(for: front.id))
      platter.avatar = state.senderInitials(front)
      platter.stackSummary =
        display == .stack
        ? PluralFormat.counted(total - 1, "more notification")
        : state.stackSummary(front: front, hiddenCount: group.count - 1)
      items.append(.platter(platter))
    }
    var shown: [Item] = []
    var used = 0.0
    let available = bottom - top
    var hiddenStacks = stacks.count - limit
    for (index, item) in items.enumerated() {
      let gap = shown.isEmpty ? 0 : m.listGap
      let leftAfter = index < items.count - 1 || hiddenStacks > 0
      let reserve = leftAfter ? 30.0 : 0
      if used + gap + item.height + reserve > available {
        if case .platter = item {
          hiddenStacks += items[index...].filter { if case .platter = $0 { true } else { false } }.count
        }
        break
      }
      shown.append(item)
      used += gap + item.height
    }
    let pileShown = shown.contains { if case .platter = $0 { true } else { false } }
    let hiddenCount =
      switch display {
      case .list: stacks.suffix(max(0, hiddenStacks)).reduce(0) { $0 + $1.count }
      case .stack: pileShown ? 0 : total
      case .count: total
      }
    let moreHeight = hiddenCount > 0 ? 30.0 : 0
    // Anchored at the bottom, as iOS 16+ lists notifications above the quick buttons.
    var y = bottom - used - moreHeight
    for item in shown {
      switch item {
      case .activity(let activity, let height):
        drawLiveActivity(&b, activity, x: m.listMargin, y: y, width: width, height: height)
      case .summary(let notifications, let height):
        drawSummary(&b, notifications, x: m.listMargin, y: y, width: width, height: height)
      case .platter(let platter): platter.draw(&b, x: m.listMargin, y: y, palette: palette)
      }
      y += item.height + m.listGap
    }
    if hiddenCount > 0 {
      let noun = hiddenCount == 1 ? "notification" : "notifications"
      // Count says "5 Notifications", as iOS's Display As ▸ Count does and the terminal.
      let text = display == .count ? "\(hiddenCount) \(noun.capitalized)" : "\(hiddenCount) more \(noun)"
      let pill = TextMetrics.width(text, size: 13, bold: true) + 24
      let center = bottom - 13
      b.rect(
        x: (m.width - pill) / 2, y: center - 13, width: pill, height: 26, radius: 13, fill: palette.platter,
        opacity: 0.6)
      b.text(
        text, x: m.width / 2, y: center + 4.5, size: 13, weight: 600, fill: palette.ink, anchor: .middle,
        role: "overflow")
    }
  }

  // MARK: Live Activities

  /// The content state's fields as "key value" pairs, in order, strings and numbers only.
  static func contentFields(_ activity: LiveActivity) -> [(String, String)] {
    guard case .object(let members)? = activity.contentState else { return [] }
    var fields: [(String, String)] = []
    for member in members {
      switch member.value {
      case .string(let text): fields.append((member.key, text))
      case .number(let number): fields.append((member.key, number.text))
      case .bool(let flag): fields.append((member.key, flag ? "yes" : "no"))
      default: continue
      }
    }
    return fields
  }

  /// What the activity shows: its app's layout applied to the latest content-state, the same
  /// face the terminal's lock screen draws (``LiveActivity/face(layout:)``).
  private func face(_ activity: LiveActivity) -> LiveActivityFace {
    activity.face(layout: state.device.app(activity.bundleID)?.liveActivityLayouts[activity.attributesType])
  }

  private func liveActivityHeight(_ activity: LiveActivity, width: Double) -> Double {
    let face = face(activity)
    var height = m.platterPadding * 2 + 28 + (face.detail == nil ? 0 : m.lineHeight)
    if face.progress != nil || face.time != nil { height += 26 }
    return min(m.liveActivityMaxHeight, max(m.liveActivityMinHeight, height))
  }

  private func drawLiveActivity(
    _ b: inout SVGBuilder, _ activity: LiveActivity, x: Double, y: Double, width: Double, height: Double
  ) {
    let stale = activity.isStale(at: state.now)
    let ended = activity.endedAt != nil
    let face = face(activity)
    b.rect(x: x, y: y, width: width, height: height, radius: m.platterRadius, fill: "#000000", opacity: 0.62)
    let app = state.appInfo(activity.bundleID)
    let pad = m.platterPadding
    Icon.draw(&b, app: app, x: x + pad, y: y + pad, size: 28)
    let chip = ended ? "Ended" : (stale ? "Stale" : "Live")
    let chipWidth = TextMetrics.width(chip, size: 11, bold: true) + 16
    b.text(
      TextMetrics.truncate(
        SVGText.clean(face.title), size: 15, maxWidth: width - pad * 2 - 36 - chipWidth - 8, bold: true),
      x: x + pad + 36,
      y: y + pad + 19, size: 15, weight: 600, fill: "#FFFFFF", role: "title")
    b.rect(
      x: x + width - pad - chipWidth, y: y + pad + 5, width: chipWidth, height: 18, radius: 9,
      fill: ended ? "#8E8E93" : (stale ? "#FF9F0A" : "#30D158"), opacity: 0.9)
    b.text(
      chip, x: x + width - pad - chipWidth / 2, y: y + pad + 18, size: 11, weight: 600, fill: "#000000",
      anchor: .middle, role: "label")
    var baseline = y + pad + 28 + 18
    if let detail = face.detail {
      b.text(
        TextMetrics.truncate(SVGText.clean(detail), size: 15, maxWidth: width - pad * 2), x: x + pad, y: baseline,
        size: 15, fill: "#FFFFFF", opacity: stale ? 0.6 : 0.9, role: "body")
      baseline += m.lineHeight
    }
    guard face.progress != nil || face.time != nil else { return }
    // The progress bar with the relative time at its end ("in 17 min"), as the card draws it.
    let time = face.time.map { RelativeTime.describeEither($0, now: state.now) }
    let timeWidth = time.map { TextMetrics.width($0, size: 13, bold: true) + 10 } ?? 0
    if let time {
      b.text(
        time, x: x + width - pad, y: baseline + 8, size: 13, weight: 600, fill: stale ? "#AEAEB2" : "#FFFFFF",
        anchor: .end, role: "live-time")
    }
    if let progress = face.progress {
      let track = width - pad * 2 - timeWidth
      let done = track * min(max(progress, 0), 1)
      b.rect(x: x + pad, y: baseline + 2, width: track, height: 6, radius: 3, fill: "#FFFFFF", opacity: 0.25)
      if done > 0 {
        b.rect(
          x: x + pad, y: baseline + 2, width: done, height: 6, radius: 3, fill: stale ? "#AEAEB2" : "#30D158",
          extra: " data-role=\"live-progress\"")
      }
    }
  }

  // MARK: Scheduled Summary

  private func summaryHeight(_ notifications: [StoredNotification]) -> Double {
    m.platterPadding * 2 + 26 + 20 + Double(min(3, notifications.count)) * 28 + 4
  }

  static func summaryName(hour: Int) -> String {
    hour < 12 ? "Your Morning Summary" : (hour < 17 ? "Your Afternoon Summary" : "Your Evening Summary")
  }

  private func drawSummary(
    _ b: inout SVGBuilder, _ notifications: [StoredNotification], x: Double, y: Double, width: Double, height: Double
  ) {
    let pad = m.platterPadding
    b.rect(x: x, y: y, width: width, height: height, radius: m.platterRadius, fill: palette.platter, opacity: 0.92)
    let released = CivilTime(
      notifications.map(\.deliveredAt).max() ?? state.now,
      utcOffsetSeconds: state.device.profile.utcOffsetSeconds)
    b.text(
      Self.summaryName(hour: time.hour), x: x + pad, y: y + pad + 20, size: 22, weight: 700, fill: palette.ink,
      role: "title")
    let noun = notifications.count == 1 ? "notification" : "notifications"
    _ = released
    b.text(
      "\(notifications.count) \(noun)", x: x + pad, y: y + pad + 40, size: m.smallSize,
      fill: palette.secondaryInk, role: "subtitle")
    var top = y + pad + 26 + 24
    for stored in notifications.prefix(3) {
      let shown = state.displayed(stored)
      let app = state.appInfo(stored.notification.bundleID)
      Icon.draw(&b, app: app, x: x + pad, y: top, size: 22)
      let content = [shown.title, shown.body].compactMap { $0 }.map(SVGText.clean).filter { !$0.isEmpty }
        .joined(separator: " — ")
      let text = SVGText.clean(app.displayName) + (content.isEmpty ? "" : ": " + content)
      b.text(
        TextMetrics.truncate(text, size: 15, maxWidth: width - pad * 2 - 32),
        x: x + pad + 32, y: top + 16, size: 15, fill: palette.ink, role: "body")
      top += 28
    }
  }

  // MARK: Home Screen and banners

  mutating func homeScreen(_ b: inout SVGBuilder) {
    var apps = state.device.profile.apps.map(\.info)
    if apps.isEmpty {
      var seen: Set<String> = []
      for group in state.device.store.rankedGroups() where seen.insert(group.key.bundleID).inserted {
        apps.append(state.appInfo(group.key.bundleID))
      }
    }
    let icon = 62.0
    let side = 26.0
    let pitch = (m.width - side * 2 - icon) / 3
    for (index, app) in apps.prefix(20).enumerated() {
      let x = side + Double(index % 4) * pitch
      let y = 76 + Double(index / 4) * 96
      Icon.draw(&b, app: app, x: x, y: y, size: icon)
      b.text(
        TextMetrics.truncate(SVGText.clean(app.displayName), size: 12, maxWidth: pitch - 2), x: x + icon / 2,
        y: y + icon + 16, size: 12, weight: 500, fill: palette.onWallpaper, anchor: .middle, role: "app-name")
      if let badge = state.device.badges[app.bundleID], badge > 0 {
        let text = badge > 999 ? "999+" : String(badge)
        let w = max(24, TextMetrics.width(text, size: 14, bold: true) + 12)
        b.rect(x: x + icon - w / 2 - 2, y: y - 8, width: w, height: 24, radius: 12, fill: "#FF3B30")
        b.text(
          text, x: x + icon - 2, y: y + 9, size: 14, weight: 600, fill: "#FFFFFF", anchor: .middle, role: "badge")
      }
    }
    // The dock, with the system's four apps.
    b.rect(x: 12, y: m.height - 112, width: m.width - 24, height: 92, radius: 34, fill: "#FFFFFF", opacity: 0.22)
    let dock = [
      ("com.apple.mobilephone", "Phone", "📞"), ("com.apple.mobilesafari", "Safari", "🧭"),
      ("com.apple.MobileSMS", "Messages", "💬"), ("com.apple.Music", "Music", "🎵"),
    ]
    for (index, (bundleID, name, glyph)) in dock.enumerated() {
      Icon.draw(
        &b, app: AppInfo(bundleID: bundleID, displayName: name, iconGlyph: glyph), x: side + Double(index) * pitch,
        y: m.height - 112 + 15, size: icon)
    }
    banner(&b)
  }

  private func banner(_ b: inout SVGBuilder) {
    guard let banner = state.currentBanner else { return }
    let notification: PushNotification
    if let stored = state.device.store[banner.notification] {
      notification = state.displayed(stored)
    } else if let recorded = banner.carriedContent ?? state.record(for: banner.notification)?.notification {
      notification = recorded
    } else {
      return
    }
    var label = label(for: notification)
    if banner.isPersistent { label = ("Persistent", palette.secondaryInk) }
    // The banners waiting behind this one are counted on it, at its foot: below it the count
    // fell on the Home Screen's icons and their names.
    let queued = state.banners.count - 1
    var platter = Platter.layout(
      notification: notification, app: state.appInfo(notification.bundleID), now: state.now,
      width: m.width - m.bannerMargin * 2, behind: 0, label: label, buttons: buttons(for: banner.notification),
      footer: queued > 0 ? "\(queued) more queued" : nil)
    // A stored one's as its card shows it; a carried one's from what it carries.
    platter.avatar =
      state.device.store[banner.notification].map(state.senderInitials)
      ?? banner.carriedContent?.sender.flatMap(AppState.initials(of:))
    // A banner is opaque enough to read over any app.
    b.group("data-role=\"banner\"") { b in
      b.raw(
        "<rect x=\"\(SVGText.number(m.bannerMargin))\" y=\"\(SVGText.number(m.bannerTop + 3))\" width=\"\(SVGText.number(platter.width))\" height=\"\(SVGText.number(platter.height))\" rx=\"\(SVGText.number(m.platterRadius))\" fill=\"#000000\" fill-opacity=\"0.18\"/>"
      )
      platter.draw(&b, x: m.bannerMargin, y: m.bannerTop, palette: palette, opacity: 0.96)
    }
  }

  // MARK: Notification Center

  mutating func notificationCenter(_ b: inout SVGBuilder) {
    b.rect(x: 0, y: 0, width: m.width, height: m.height, fill: "#000000", opacity: 0.35)
    b.text(
      time.lockScreenDate, x: m.width / 2, y: 96, size: 17, weight: 600, fill: palette.onWallpaper, anchor: .middle,
      opacity: 0.9, role: "date")
    b.text(
      time.clock, x: m.width / 2, y: 166, size: 72, weight: 700, fill: palette.onWallpaper, anchor: .middle,
      letterSpacing: -1.5, role: "clock")
    b.text(
      "Notification Center", x: m.listMargin + 4, y: 214, size: 20, weight: 700, fill: palette.onWallpaper,
      role: "heading")
    let rows = state.centerRows()
    guard !rows.isEmpty else {
      b.text(
        "No Older Notifications", x: m.width / 2, y: 420, size: 15, weight: 500, fill: palette.onWallpaper,
        anchor: .middle, opacity: 0.7, role: "empty")
      return
    }
    let width = m.width - m.listMargin * 2
    let bottom = m.height - 40
    var y = 230.0
    let selected = min(max(state.centerSelection, 0), rows.count - 1)
    // Scroll so the selected row shows: start a few rows above it at most.
    let first = max(0, selected - 3)
    for (index, row) in rows.enumerated().dropFirst(first) {
      switch row {
      case .header(let group):
        guard y + 30 <= bottom - 30 else { return more(&b, notifications(in: rows[index...]), y: bottom - 10) }
        let name = SVGText.clean(state.appInfo(group.key.bundleID).displayName)
        b.text(name, x: m.listMargin + 4, y: y + 18, size: 17, weight: 700, fill: palette.onWallpaper, role: "group")
        b.rect(
          x: m.width - m.listMargin - 92, y: y, width: 92, height: 26, radius: 13, fill: palette.platter, opacity: 0.7)
        b.text(
          "Show less", x: m.width - m.listMargin - 46, y: y + 17.5, size: 13, weight: 600, fill: palette.ink,
          anchor: .middle, role: "button")
        y += 34
      case .stack(let group):
        guard let front = group.notifications.first else { continue }
        // Under the pile the category's summary format, as the terminal's stack card words it
        // (the picture said "2 more notifications" where the terminal said "2 more messages";
        // found by an exploratory test).
        let shown = state.displayed(front)
        var platter = Platter.layout(
          notification: shown, app: state.appInfo(front.notification.bundleID), now: state.now,
          datedAt: front.deliveredAt, width: width, behind: group.count - 1, label: label(for: shown),
          buttons: buttons(for: front.id))
        platter.stackSummary = state.stackSummary(front: front, hiddenCount: group.count - 1)
        platter.avatar = state.senderInitials(front)
        guard y + platter.totalHeight <= bottom - 30 else {
          return more(&b, notifications(in: rows[index...]), y: bottom - 10)
        }
        platter.draw(&b, x: m.listMargin, y: y, palette: palette)
        y += platter.totalHeight + m.listGap
      case .item(_, let stored):
        let shown = state.displayed(stored)
        var platter = Platter.layout(
          notification: shown, app: state.appInfo(stored.notification.bundleID), now: state.now,
          datedAt: stored.deliveredAt, width: width, behind: 0, label: label(for: shown),
          buttons: buttons(for: stored.id))
        platter.avatar = state.senderInitials(stored)
        guard y + platter.totalHeight <= bottom - 30 else {
          return more(&b, notifications(in: rows[index...]), y: bottom - 10)
        }
        platter.draw(&b, x: m.listMargin, y: y, palette: palette)
        y += platter.totalHeight + m.listGap
      }
    }
  }

  /// What is left out, counted in notifications as the lock screen counts them (it said
  /// "41 more" of stacks, beside the lock screen's "87 more notifications").
  private func more(_ b: inout SVGBuilder, _ count: Int, y: Double) {
    b.text(
      "\(count) more notification\(count == 1 ? "" : "s")", x: m.width / 2, y: y, size: 13, weight: 600,
      fill: palette.onWallpaper, anchor: .middle, opacity: 0.8, role: "overflow")
  }

  /// The notifications in rows of Notification Center: a stack's all, an item one, a header none.
  private func notifications(in rows: ArraySlice<CenterRow>) -> Int {
    rows.reduce(0) { total, row in
      switch row {
      case .stack(let group): total + group.count
      case .item: total + 1
      case .header: total
      }
    }
  }

  // MARK: Status bar and Dynamic Island

  func statusBar(_ b: inout SVGBuilder, surface: PhoneMockup.Surface) {
    let ink = palette.onWallpaper
    if surface != .lockScreen {
      b.text(time.clock, x: 66, y: 37, size: 17, weight: 600, fill: ink, anchor: .middle, role: "status-time")
    }
    // Signal bars, then the battery.
    for index in 0..<4 {
      let h = 4.0 + Double(index) * 2.5
      b.rect(x: 300 + Double(index) * 5, y: 37 - h, width: 3, height: h, radius: 1, fill: ink)
    }
    b.rect(x: 328, y: 25, width: 25, height: 12, radius: 3.5, fill: "none", stroke: ink, strokeWidth: 1)
    b.rect(x: 330, y: 27, width: 18, height: 8, radius: 2, fill: ink)
    b.rect(x: 354, y: 29, width: 1.5, height: 4, radius: 0.75, fill: ink, opacity: 0.5)
    if let focus = state.device.activeFocus, surface != .lockScreen {
      b.text(Self.focusGlyph(focus.kind), x: 100, y: 37, size: 13, fill: ink, anchor: .middle, role: "status-focus")
    }
  }

  func dynamicIsland(_ b: inout SVGBuilder, compactActivity: Bool) {
    let activity = compactActivity ? state.device.liveActivities.last { $0.endedAt == nil } : nil
    let side = activity == nil ? 0 : m.compactSide
    let width = m.islandWidth + side * 2
    let x = (m.width - width) / 2
    b.rect(
      x: x, y: m.islandTop, width: width, height: m.islandHeight, radius: m.islandHeight / 2, fill: "#000000",
      extra: " data-role=\"dynamic-island\"")
    guard let activity else { return }
    let app = state.appInfo(activity.bundleID)
    Icon.draw(&b, app: app, x: x + 10, y: m.islandTop + 7, size: 23)
    // The compact trailing view has room for a time or a number (an ETA, a score) more than
    // for words: the face's relative time where the layout has one, in its shortest form
    // ("in 18 min" was cut to "in…" there, so the island never showed the time; found by an
    // exploratory test of food-delivery.yaml).
    let fields = Self.contentFields(activity)
    let shown = face(activity)
    let trailing =
      shown.time.map { RelativeTime.compact($0, now: state.now) }
      ?? (fields.first { Double($0.1) != nil } ?? fields.first)?.1 ?? shown.detail ?? ""
    b.text(
      TextMetrics.truncate(SVGText.clean(trailing), size: 14, maxWidth: side - 8, bold: true), x: x + width - 10,
      y: m.islandTop + 24, size: 14, weight: 600, fill: activity.isStale(at: state.now) ? "#FF9F0A" : "#30D158",
      anchor: .end, role: "island-trailing")
  }
}

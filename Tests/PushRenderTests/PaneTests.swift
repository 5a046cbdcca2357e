import Foundation
import PushCore
import PushRender
import PushTestSupport
import PushUI
import Testing

private let start = DemoScenario.start

/// The demo with its three upcoming pushes (at +20 s, +50 s and +90 s), ticked to `seconds`.
private func demo(at seconds: Int64) -> AppState {
  var state = AppState.demo()
  _ = reduce(into: &state, .tick(start + .seconds(seconds)))
  return state
}

private func ids(_ state: AppState) -> [NotificationID] {
  state.device.store.rankedGroups().flatMap { $0.notifications.map(\.id) }.sorted()
}

@Suite("Timeline pane and playback")
struct TimelinePaneTests {
  @Test func timelinePaneGoldenDimsWhatHasNotArrived() throws {
    var state = demo(at: 30)
    _ = reduce(into: &state, .command(.toggleTimeline))
    #expect(state.pane == .timeline)
    let grid = frame(state)
    expectGolden(grid, "timeline_demo_80x24.txt")
    let dump = grid.textDump()
    #expect(dump.contains("1 of 9 arrived"))
    #expect(dump.contains("▶ now 09:41:30"))
    // The pushes still to come are drawn dim.
    let lines = dump.split(separator: "\n")
    let row = try #require(lines.firstIndex { $0.contains("Unusual sign-in") })
    #expect((0..<grid.width).contains { grid[$0, row].style.isDim })
    let pastRow = try #require(lines.firstIndex { $0.contains("Messages: Ana") })
    #expect(!(0..<grid.width).contains { grid[$0, pastRow].style.isDim })
  }

  @Test func timelinePaneBesideTheScreenAndNarrow() {
    var state = demo(at: 60)
    _ = reduce(into: &state, .command(.toggleTimeline))
    expectGolden(frame(state, columns: 120, rows: 40), "timeline_demo_120x40.txt")
    expectGolden(frame(state, columns: 44, rows: 16), "timeline_demo_44x16.txt")
  }

  @Test func playPauseAndSpeedsGoToTheClockAsEffects() {
    var state = demo(at: 0)
    state.configurePlayback(isPlaying: false, speed: 1)
    #expect(reduce(into: &state, .command(.togglePlay)) == [.setClock(running: true, speed: 1)])
    #expect(reduce(into: &state, .command(.faster)) == [.setClock(running: true, speed: 2)])
    _ = reduce(into: &state, .command(.faster))
    _ = reduce(into: &state, .command(.faster))
    #expect(reduce(into: &state, .command(.faster)) == [.setClock(running: true, speed: 1000)])
    // Instant: everything left on the timeline arrives now (the demo's last push is at 09:47),
    // and the clock stops.
    #expect(
      reduce(into: &state, .command(.faster)) == [.setClock(running: false, speed: 1), .advanceClock(.minutes(6))])
    #expect(state.playback.speed == .instant && !state.playback.isPlaying)
    for _ in 0..<10 { _ = reduce(into: &state, .command(.slower)) }
    #expect(state.playback.speed == .times(0.5))
    #expect(reduce(into: &state, .command(.togglePlay)) == [.setClock(running: true, speed: 0.5)])
    #expect(reduce(into: &state, .command(.togglePlay)) == [.setClock(running: false, speed: 0.5)])
  }

  @Test func previousPushRebuildsTheDeviceAndReplaysUpToIt() {
    // The demo's pushes after 09:41: +20 s, +50 s, +90 s, then six more from 09:43 on.
    var state = demo(at: 100)
    #expect(state.pendingEventCount == 6)
    let effects = reduce(into: &state, .command(.stepToPreviousPush))
    #expect(effects == [.seekClock(to: start + .seconds(50))])
    #expect(state.now == start + .seconds(50))
    #expect(state.pendingEventCount == 7)
    let fresh = demo(at: 50)
    #expect(ids(state) == ids(fresh))
    #expect(state.device.store.count == fresh.device.store.count)
    // Again: back to Ana's message; then once more: to the start.
    #expect(reduce(into: &state, .command(.stepToPreviousPush)) == [.seekClock(to: start + .seconds(20))])
    #expect(reduce(into: &state, .command(.stepToPreviousPush)) == [.seekClock(to: start)])
    #expect(state.pendingEventCount == 9)
    #expect(ids(state) == ids(AppState.demo()))
    // Forward again is the ordinary step.
    #expect(reduce(into: &state, .command(.stepToNextEvent)) == [.advanceClock(.seconds(20))])
  }

  @Test func seekingBackKeepsTheUsersEarlierActions() {
    var state = demo(at: 10)
    _ = reduce(into: &state, .command(.toggleLock))  // unlocked at +10 s
    _ = reduce(into: &state, .tick(start + .seconds(60)))
    _ = reduce(into: &state, .command(.toggleLock))  // locked again at +60 s
    _ = reduce(into: &state, .tick(start + .seconds(100)))
    _ = reduce(into: &state, .command(.beginSeek))
    #expect(state.inputMode == .textEntry)
    for character in "09:41:40" { _ = reduce(into: &state, .command(.insertText(String(character)))) }
    #expect(reduce(into: &state, .command(.activate)) == [.seekClock(to: start + .seconds(40))])
    #expect(state.prompt == nil)
    #expect(!state.device.isLocked)
    #expect(state.userEvents.count == 1)
  }

  @Test func seekForwardParsesRelativeTimes() {
    var state = demo(at: 0)
    _ = reduce(into: &state, .command(.beginSeek))
    for character in "+5m" { _ = reduce(into: &state, .command(.insertText(String(character)))) }
    #expect(reduce(into: &state, .command(.activate)) == [.advanceClock(.minutes(5))])
    #expect(state.seekTarget("+1h30m") == state.now + .minutes(90))
    #expect(state.seekTarget("-30s") == state.now - .seconds(30))
    #expect(state.seekTarget("9:45") == start + .minutes(4))
    #expect(state.seekTarget("soon") == nil)
    _ = reduce(into: &state, .command(.beginSeek))
    _ = reduce(into: &state, .command(.insertText("x")))
    #expect(reduce(into: &state, .command(.activate)) == [])
    #expect(state.toast?.text.contains("+5m") == true)
  }
}

/// The text inside each row of the box whose top-left corner is the first "╭" of the frame:
/// between its side borders, without the spaces around it.
private func boxRows(_ grid: CellGrid) -> [String] {
  let lines = grid.textDump().split(separator: "\n").map(String.init)
  guard let top = lines.firstIndex(where: { $0.contains("╭") }) else { return [] }
  var rows: [String] = []
  for line in lines[(top + 1)...] {
    if line.contains("╰") { break }
    let parts = line.split(separator: "│", omittingEmptySubsequences: false)
    guard parts.count >= 3 else { continue }
    rows.append(parts[1...(parts.count - 2)].joined(separator: "│").trimmingCharacters(in: .whitespaces))
  }
  return rows
}

/// On a narrow terminal every label cut at the box's edge ends in "…": the help overlay's and
/// the settings' were cut mid-word without it.
@Suite("Labels on a narrow terminal")
struct NarrowLabelTests {
  @Test func helpLabelsCutAtTheEdgeEndInAnEllipsis() throws {
    var state = AppState.demo(upcoming: false)
    _ = reduce(into: &state, .command(.toggleHelp))
    let rows = boxRows(frame(state, columns: 40, rows: 14))
    #expect(rows.count >= 5)
    let whole = KeyMap.documented.map(\.help) + ["Mouse: click selects, opens, presses · wheel scrolls"]
    for row in rows {
      #expect(row.hasSuffix("…") || whole.contains { row.hasSuffix($0) }, "cut without an ellipsis: \(row)")
    }
    #expect(rows.contains { $0.hasSuffix("…") })
    #expect(rows.contains { $0.hasPrefix("Mouse: click selects") && $0.hasSuffix("…") })
  }

  @Test func settingsLabelsCutAtTheEdgeEndInAnEllipsis() throws {
    var state = AppState.demo(upcoming: false)
    _ = reduce(into: &state, .command(.toggleSettings))
    state.settingsApp = "com.example.messages"
    let rows = boxRows(frame(state, columns: 40, rows: 14))
    let keys = try #require(rows.last)
    #expect(keys.hasPrefix("↑↓ move"))
    #expect(keys.hasSuffix("s close") || keys.hasSuffix("…"), "cut without an ellipsis: \(keys)")
    // Each setting's label and value: whole, or cut with "…" (a value inside its arrows).
    for row in rows.dropLast() {
      let label = row.split(separator: "  ").first.map(String.init) ?? row
      #expect(
        label.hasSuffix("…") || state.settingsRows().contains { label.hasSuffix($0.title) }, "label cut: \(row)")
      #expect(
        row.hasSuffix("▸") || row.hasSuffix("On") || row.hasSuffix("Off") || row.hasSuffix("Locked")
          || row.hasSuffix("Unlocked") || row.hasSuffix("…"), "value cut: \(row)")
    }
  }
}

@Suite("Settings pane")
struct SettingsPaneTests {
  private func settingsState() -> AppState {
    var state = AppState.demo(upcoming: false)
    state.journalsChanges = true
    _ = reduce(into: &state, .command(.toggleSettings))
    return state
  }

  private func select(_ row: SettingsRow, in state: inout AppState) {
    state.settingsSelection = state.settingsRows().firstIndex(of: row)!
  }

  @Test func settingsPaneGolden() {
    var state = settingsState()
    state.settingsApp = "com.example.messages"
    expectGolden(frame(state), "settings_messages_80x24.txt")
  }

  @Test func settingsPaneBesideTheScreenAndNarrow() {
    var state = settingsState()
    state.settingsApp = "com.example.bank"
    state.settingsSelection = 8
    expectGolden(frame(state, columns: 120, rows: 40), "settings_bank_120x40.txt")
    expectGolden(frame(state, columns: 44, rows: 16), "settings_bank_44x16.txt")
  }

  @Test func focusCyclesThroughOffAndTheProfilesModes() {
    var state = settingsState()
    select(.focus, in: &state)
    #expect(state.inputMode == .settings)
    let right = KeyMap.standard.event(for: .key(.right), mode: state.inputMode)
    #expect(right == .command(.adjustSetting(1)))
    _ = reduce(into: &state, right!)
    #expect(state.device.activeFocusID == FocusMode.doNotDisturb.id)
    _ = reduce(into: &state, .command(.adjustSetting(-1)))
    #expect(state.device.activeFocusID == nil)
    _ = reduce(into: &state, .command(.adjustSetting(-1)))
    #expect(state.device.activeFocusID == state.device.profile.focusModes.last?.id)
    #expect(state.takeChanges().appliedCount == 3)
  }

  @Test func lockRowLocksAndUnlocks() {
    var state = settingsState()
    select(.locked, in: &state)
    #expect(state.device.isLocked)
    _ = reduce(into: &state, .command(.activate))
    #expect(!state.device.isLocked)
    _ = reduce(into: &state, .command(.toggleExpand))  // Space
    #expect(state.device.isLocked)
  }

  /// In a pane half of 100 columns a long value is cut inside its arrows, and the keys line
  /// is the short one, whole.
  @Test func aNarrowSettingsPaneKeepsTheArrowsAndTheKeys() {
    var state = settingsState()
    state.settingsApp = "com.example.messages"
    select(.delivery, in: &state)
    let dump = frame(state, columns: 100, rows: 30).textDump()
    let delivery = dump.split(separator: "\n").first { $0.contains("Notification Deliv") }
    #expect(delivery?.contains("◂ Immediate Deli") == true && delivery?.contains("▸ │") == true, "\(delivery ?? "")")
    #expect(dump.contains("↑↓ move · ⏎ toggle · ←→ change · s close"))
  }

  @Test func displayAsCyclesCountStackListAndRedrawsTheLockScreen() {
    var state = settingsState()
    select(.displayAs, in: &state)
    #expect(state.settingsValue(.displayAs) == "List")
    _ = reduce(into: &state, .command(.activate))
    #expect(state.device.profile.lockScreenDisplay == .count)
    #expect(state.settingsValue(.displayAs) == "Count")
    let dump = frame(state, columns: 120, rows: 40).textDump()
    #expect(dump.contains("Display As") && dump.contains("Count"))
    #expect(dump.contains("6 Notifications") || dump.contains("5 Notifications") || dump.contains("Notifications"))
    _ = reduce(into: &state, .command(.adjustSetting(1)))
    #expect(state.device.profile.lockScreenDisplay == .stack)
    _ = reduce(into: &state, .command(.adjustSetting(1)))
    #expect(state.device.profile.lockScreenDisplay == .list)
  }

  @Test func everyAppSettingChangesThroughDeviceEvents() {
    var state = settingsState()
    state.settingsApp = "com.example.messages"
    _ = state.takeChanges()
    // The rows Messages has: Critical Alerts only for an app with the entitlement.
    let rows = state.settingsRows().dropFirst(4)
    #expect(!rows.contains(.criticalAlerts) && rows.contains(.timeSensitive))
    for row in rows {
      select(row, in: &state)
      let before = state.settingsValue(row)
      _ = reduce(into: &state, .command(.activate))
      #expect(state.settingsValue(row) != before, "\(row)")
    }
    let events = state.takeChanges().updates.events.map(\.event)
    #expect(events.count == rows.count)
    #expect(
      events.allSatisfy { event in
        if case .setting(let bundleID, _) = event { return bundleID == "com.example.messages" }
        return false
      })
  }

  @Test func previewsSettingShowsItsEffectAtOnce() {
    var state = settingsState()
    state.settingsApp = "com.example.messages"
    select(.showPreviews, in: &state)
    #expect(state.settingsValue(.showPreviews) == "When Unlocked")
    _ = reduce(into: &state, .command(.adjustSetting(-1)))  // always
    #expect(state.settingsValue(.showPreviews) == "Always")
    let messages = state.device.store.rankedGroups().first { $0.key.bundleID == "com.example.messages" }!
    #expect(!state.previewsHidden(messages.notifications[0]))
  }

  @Test func appRowCyclesApps() {
    var state = settingsState()
    select(.app, in: &state)
    let first = state.settingsAppProfile?.bundleID
    _ = reduce(into: &state, .command(.adjustSetting(1)))
    #expect(state.settingsAppProfile?.bundleID != first)
    _ = reduce(into: &state, .command(.adjustSetting(-1)))
    #expect(state.settingsAppProfile?.bundleID == first)
  }
}

@Suite("Mouse")
struct MouseTests {
  private func target(_ grid: CellGrid, _ predicate: (HitTarget) -> Bool) -> Point? {
    for row in 0..<grid.height {
      for column in 0..<grid.width {
        if let hit = grid.hitTarget(at: Point(column: column, row: row)), predicate(hit) {
          return Point(column: column, row: row)
        }
      }
    }
    return nil
  }

  @Test func clickSelectsThenOpensACenterRow() throws {
    var state = AppState.demo(upcoming: false)
    _ = reduce(into: &state, .command(.openCenter))
    let grid = frame(state, columns: 80, rows: 40)
    let point = try #require(target(grid) { $0 == .centerRow(1) })
    let hit = grid.hitTarget(at: point)
    let event = try #require(KeyMap.mouseEvent(.click, target: hit))
    _ = reduce(into: &state, event)
    #expect(state.centerSelection == 1)
    let rowsBefore = state.centerRows().count
    _ = reduce(into: &state, event)
    // The second click activates: a stack expands, a single notification opens.
    #expect(state.centerRows().count > rowsBefore || { if case .detail = state.screen { true } else { false } }())
  }

  @Test func clickingAnActionButtonRunsIt() throws {
    var state = AppState.demo()
    _ = reduce(into: &state, .command(.toggleLock))
    _ = reduce(into: &state, .tick(start + .seconds(30)))
    _ = reduce(into: &state, .command(.back))
    _ = reduce(into: &state, .command(.showActions))
    let grid = frame(state)
    let point = try #require(target(grid) { $0 == .action(1) })
    let effects = reduce(into: &state, KeyMap.mouseEvent(.click, target: grid.hitTarget(at: point))!)
    guard case .perform(let invocation)? = effects.first else {
      Issue.record("no action ran: \(effects)")
      return
    }
    #expect(invocation.actionID == "MARK_READ")
  }

  @Test func overlaysBlockClicksBeneathAndTheWheelScrolls() {
    var state = AppState.demo(upcoming: false)
    _ = reduce(into: &state, .command(.openCenter))
    _ = reduce(into: &state, .command(.toggleHelp))
    let grid = frame(state)
    #expect(grid.hitTarget(at: Point(column: 40, row: 10)) == nil)
    _ = reduce(into: &state, .command(.toggleHelp))
    _ = reduce(into: &state, KeyMap.mouseEvent(.wheelDown, target: nil)!)
    _ = reduce(into: &state, KeyMap.mouseEvent(.wheelDown, target: nil)!)
    #expect(state.centerSelection == 2)
    _ = reduce(into: &state, KeyMap.mouseEvent(.wheelUp, target: nil)!)
    #expect(state.centerSelection == 1)
  }

  @Test func settingsRowsAreClickable() throws {
    var state = AppState.demo(upcoming: false)
    _ = reduce(into: &state, .command(.toggleSettings))
    let grid = frame(state)
    let point = try #require(target(grid) { $0 == .settingsRow(1) })
    let event = KeyMap.mouseEvent(.doubleClick, target: grid.hitTarget(at: point))!
    _ = reduce(into: &state, event)
    #expect(state.settingsSelection == 1)
    #expect(!state.device.isLocked)
  }
}

@Suite("Seeking back with a journal")
struct SeekJournalTests {
  @Test func replayedEventsAreNotLoggedTwice() {
    var state = AppState.demo()
    state.journalsChanges = true
    _ = reduce(into: &state, .tick(start + .seconds(10)))
    _ = reduce(into: &state, .command(.toggleLock))
    _ = reduce(into: &state, .tick(start + .seconds(100)))
    #expect(state.takeChanges().appliedCount == 4)  // unlock and three pushes
    _ = reduce(into: &state, .command(.stepToPreviousPush))
    #expect(state.takeChanges().isEmpty)
    _ = reduce(into: &state, .tick(start + .seconds(100)))
    #expect(state.takeChanges().isEmpty)
    #expect(state.device.store.count == 9)
    _ = reduce(into: &state, .command(.toggleLock))
    #expect(state.takeChanges().appliedCount == 1)
  }
}

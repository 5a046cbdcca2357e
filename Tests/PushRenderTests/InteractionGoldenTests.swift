import PushCore
import PushRender
import PushTestSupport
import PushUI
import Testing

/// A payload file with a syntax error on its second line and an escape sequence in its text.
private let brokenPayload = "{\"aps\": {\"alert\": \"Hi \u{1B}[2J there\",\n  \"badge\": }}"

/// The demo with a broken payload file arriving five seconds after the start.
private func demoWithRejection() -> AppState {
  var state = AppState.demo(upcoming: false)
  let record = PushReader.readPayloadFile(
    Array(brokenPayload.utf8), source: "broken.json", format: .payload, bundleID: "com.example.messages")
  state.appendTimeline([TimelineEntry(at: DemoScenario.start + .seconds(5), event: .push(record, sender: nil))])
  return state
}

/// The demo, unlocked, with Ana's message showing as a banner.
private func demoWithBanner() -> AppState {
  var state = AppState.demo()
  _ = reduce(into: &state, .command(.toggleLock))
  _ = reduce(into: &state, .tick(DemoScenario.start + .seconds(21)))
  return state
}

/// The frame's rows as text (the text dump wraps each row in `|`, dropped here).
private func rows(_ grid: CellGrid) -> [Substring] {
  grid.textDump().split(separator: "\n").map { $0.dropFirst().dropLast() }
}

@Suite("Interaction: overlays, keys, settings wording, rejected pushes")
struct InteractionGoldenTests {
  // MARK: Nothing hidden

  /// `run --listen`'s address stays on the status line after its toast has gone.
  @Test func theListeningAddressStaysOnTheStatusLine() {
    var state = AppState.demo(upcoming: false)
    #expect(!frame(state).textDump().contains("⇄"))
    state.listeningOn = "127.0.0.1:8443"
    state.showToast("Listening on h2c://127.0.0.1:8443")
    _ = reduce(into: &state, .tick(DemoScenario.start + .seconds(30)))
    let screen = frame(state).textDump()
    #expect(state.toast == nil)
    #expect(screen.contains("⇄ 127.0.0.1:8443"))
  }

  @Test func aRejectedPushShowsAToastIsCountedAndOpensInTheInspector() throws {
    var state = demoWithRejection()
    _ = reduce(into: &state, .tick(DemoScenario.start + .seconds(5)))
    #expect(state.rejectedCount == 1)
    let toast = try #require(state.toast?.text)
    #expect(toast.contains("Rejected broken.json") && toast.contains("r inspects"))
    let lock = frame(state).textDump()
    #expect(lock.contains("✗ 1 rejected"))
    #expect(lock.contains("✗ Rejected broken.json"))
    _ = reduce(into: &state, .command(.inspectRejected))
    #expect(state.isInspectorOpen && state.inspectedRejection != nil)
    let inspector = frame(state, columns: 80, rows: 40)
    expectGolden(inspector, "inspector_rejected_80x40.txt")
    let text = inspector.textDump()
    // The code, the line:column and the raw text, its escape shown, never passed through.
    #expect(text.contains("error ControlCharacterInString at 1:23"))
    #expect(text.contains("Hi \\u{1B}[2J there"))
    #expect(
      !inspector.cells.contains { cell in
        if case .glyph(let glyph, _) = cell.content { return glyph.unicodeScalars.contains { $0.value < 0x20 } }
        return false
      })
    _ = reduce(into: &state, .command(.back))
    #expect(!state.isInspectorOpen && state.inspectedRejection == nil)
  }

  @Test func theTimelineMarksRejectedPushes() {
    var state = demoWithRejection()
    _ = reduce(into: &state, .command(.toggleTimeline))
    let before = frame(state, columns: 80, rows: 24)
    #expect(before.textDump().contains("✗ Messages: push · rejected: "))
    _ = reduce(into: &state, .tick(DemoScenario.start + .seconds(5)))
    let grid = frame(state, columns: 80, rows: 24)
    expectGolden(grid, "timeline_rejected_80x24.txt")
    let row = rows(grid).firstIndex { $0.contains("✗ Messages") }!
    let column = rows(grid)[row].distance(
      from: rows(grid)[row].startIndex, to: rows(grid)[row].range(of: "✗")!.lowerBound)
    #expect(grid[column, row].role == .destructiveAction)
  }

  /// A capture line that is not JSON, read before its `bundle`: the timeline and the inspector
  /// say its app is unknown, and credit it to no app (the default `com.example.app` was shown).
  @Test func aRejectedPushWhoseAppWasNotReadShowsAsFromAnUnknownApp() {
    var state = AppState.demo(upcoming: false)
    let record = PushReader.readCaptureLine(
      Array(#"{'at': 1795426865, 'bundle': 'com.example.messages'}"#.utf8), lineNumber: 3, source: "c.jsonl")
    #expect(record.bundleID == nil)
    state.appendTimeline([TimelineEntry(at: DemoScenario.start + .seconds(5), event: .push(record, sender: nil))])
    _ = reduce(into: &state, .command(.toggleTimeline))
    #expect(frame(state, columns: 80, rows: 24).textDump().contains("✗ Unknown app: push · rejected: "))
    _ = reduce(into: &state, .command(.toggleTimeline))
    _ = reduce(into: &state, .tick(DemoScenario.start + .seconds(5)))
    _ = reduce(into: &state, .command(.inspectRejected))
    let text = frame(state, columns: 80, rows: 40).textDump()
    #expect(text.contains("✗ Rejected push 1 of 1 · unknown app"), "\(text)")
    #expect(!text.contains("com.example.app"))
  }

  @Test func withNothingRejectedRSaysSo() {
    var state = AppState.demo(upcoming: false)
    _ = reduce(into: &state, .command(.inspectRejected))
    #expect(!state.isInspectorOpen)
    #expect(state.toast?.text == "No push was rejected")
  }

  // MARK: Overlays cover what is under them

  @Test func theActionSheetSitsAtItsCardAndCoversTheScreen() {
    var state = AppState.demo(upcoming: false)
    _ = reduce(into: &state, .command(.moveDown))
    let cardRow = frame(state).hitRegions.last { $0.target == .lockRow(1) }!.rect
    _ = reduce(into: &state, .command(.showActions))
    let grid = frame(state)
    expectGolden(grid, "actionSheet_anchored_80x24.txt")
    let lines = rows(grid)
    // The sheet's box starts at the card's row and column, and nothing of other cards shows.
    #expect(lines[min(cardRow.row, lines.count - 1)].dropFirst(cardRow.column).hasPrefix("╭"))
    let borders = lines.dropLast(2).filter { $0.contains("╭") }
    #expect(borders.count == 1)
  }

  @Test func aBannerOverNotificationCenterLeavesNoCardEdgeBelowIt() {
    var state = demoWithBanner()
    _ = reduce(into: &state, .command(.toggleCenter))
    #expect(state.screen == .center && state.currentBanner != nil)
    let grid = frame(state)
    expectGolden(grid, "banner_overCenter_80x24.txt")
    let lines = rows(grid)
    let bottom = lines.firstIndex { $0.contains("╰") }!
    #expect(lines[bottom + 1].allSatisfy { $0 == " " })
    #expect(lines[bottom + 2].allSatisfy { $0 == " " })
  }

  @Test func helpIsOnTopOfABanner() {
    var state = demoWithBanner()
    _ = reduce(into: &state, .command(.toggleHelp))
    let text = frame(state).textDump()
    #expect(text.contains("Keys"))
    #expect(!text.contains("Great, see you there"))
    _ = reduce(into: &state, .command(.toggleHelp))
    #expect(frame(state).textDump().contains("Great, see you there"))
  }

  @Test func helpScrollsOnAShortTerminal() {
    var state = AppState.demo(upcoming: false)
    _ = reduce(into: &state, .resize(columns: 40, rows: 12))
    _ = reduce(into: &state, .command(.toggleHelp))
    let top = frame(state, columns: 40, rows: 12)
    expectGolden(top, "help_top_40x12.txt")
    #expect(top.textDump().contains("▼ more"))
    _ = reduce(into: &state, .command(.jumpToLast))
    let bottom = frame(state, columns: 40, rows: 12)
    expectGolden(bottom, "help_end_40x12.txt")
    #expect(bottom.textDump().contains("quit"))
    #expect(!bottom.textDump().contains("▼ more"))
    _ = reduce(into: &state, .command(.jumpToFirst))
    _ = reduce(into: &state, .command(.pageDown))
    #expect(state.helpScroll == state.helpVisibleRows)
    for _ in 0..<50 { _ = reduce(into: &state, .command(.moveDown)) }
    #expect(state.helpScroll == state.helpMaxScroll)
    #expect(state.helpScroll > 0)
  }

  // MARK: Keys

  @Test func nTogglesNotificationCenter() {
    var state = AppState.demo(upcoming: false)
    let n = KeyMap.standard.event(for: .key(.character("n")))!
    _ = reduce(into: &state, n)
    #expect(state.screen == .center)
    _ = reduce(into: &state, n)
    #expect(state.screen == .lock)
  }

  @Test func pagingAndJumpingMoveThroughManyGroups() {
    var state = AppState.demo(upcoming: false)
    for index in 0..<229 {
      state.applyNow(
        push(#"{"aps":{"alert":"Push \#(index)","thread-id":"t\#(index)"}}"#, bundle: "com.example.app\(index)"))
    }
    _ = reduce(into: &state, .command(.toggleCenter))
    let count = state.centerRows().count
    #expect(count >= 229)
    let keys = KeyMap.standard
    _ = reduce(into: &state, keys.event(for: .key(.pageDown))!)
    #expect(state.centerSelection == state.pageRows)
    _ = reduce(into: &state, keys.event(for: .key(.end))!)
    #expect(state.centerSelection == count - 1)
    _ = reduce(into: &state, keys.event(for: .key(.pageUp))!)
    #expect(state.centerSelection == count - 1 - state.pageRows)
    _ = reduce(into: &state, keys.event(for: .key(.home))!)
    #expect(state.centerSelection == 0)
    let selected = frame(state).textDump()
    _ = reduce(into: &state, keys.event(for: .key(.end))!)
    #expect(frame(state).textDump() != selected, "the list scrolls to the last group")
  }

  @Test func clearingEverythingAsksFirst() {
    var state = AppState.demo(upcoming: false)
    let stored = state.device.store.count
    #expect(stored > 0)
    _ = reduce(into: &state, .command(.clearAll))
    #expect(state.overlay == .confirmClearAll)
    #expect(state.device.store.count == stored)
    expectGolden(frame(state), "confirmClearAll_80x24.txt")
    // Esc keeps them; any other key keeps them; Enter or y clears.
    _ = reduce(into: &state, KeyMap.standard.event(for: .key(.escape), mode: state.inputMode)!)
    #expect(state.overlay == nil && state.device.store.count == stored)
    _ = reduce(into: &state, .command(.clearAll))
    _ = reduce(into: &state, KeyMap.standard.event(for: .key(.character("n")), mode: state.inputMode)!)
    #expect(state.overlay == nil && state.device.store.count == stored && state.screen == .lock)
    _ = reduce(into: &state, .command(.clearAll))
    _ = reduce(into: &state, KeyMap.standard.event(for: .key(.character("y")), mode: state.inputMode)!)
    #expect(state.device.store.count == 0)
    #expect(state.toast?.text == "Cleared \(stored) notifications")
  }

  // MARK: Settings in iOS's words

  @Test func theSettingsPaneSpeaksInIOSWords() {
    var state = AppState.demo(upcoming: false)
    _ = reduce(into: &state, .command(.toggleSettings))
    let text = frame(state, columns: 80, rows: 30).textDump()
    for raw in ["whenUnlocked", "temporary", "immediate", "authorized", "notRunning"] {
      #expect(!text.contains(raw), "raw identifier \(raw) shown")
    }
    #expect(text.contains("🔒 Locked"))
    #expect(!text.contains("○ Locked"))
    #expect(text.contains("Temporary"))
    #expect(text.contains("Immediate Delivery"))
    expectGolden(frame(state, columns: 80, rows: 30), "settings_iosWords_80x30.txt")
  }

  // MARK: Speed and banners on the clock

  @Test func theSpeedShownIsTheSpeedUsed() {
    var state = AppState.demo(upcoming: false)
    state.configurePlayback(isPlaying: true, speed: 60)
    #expect(state.playback.speed.label == "60×")
    #expect(state.playback.clockRate == 60)
    #expect(frame(state).textDump().contains("▶ 60×"))
    #expect(reduce(into: &state, .command(.faster)) == [.setClock(running: true, speed: 100)])
    state.configurePlayback(isPlaying: true, speed: 60)
    #expect(reduce(into: &state, .command(.slower)) == [.setClock(running: true, speed: 10)])
    state.configurePlayback(isPlaying: true, speed: 10)
    #expect(state.playback.speed == .times(10) && state.playback.customRate == nil)
  }

  @Test func underAPausedClockABannerLeavesAfterFiveRealSeconds() {
    var state = demoWithBanner()
    _ = reduce(into: &state, .command(.togglePlay))  // paused
    #expect(!state.playback.isPlaying)
    _ = reduce(into: &state, .wallClock(elapsed: .seconds(100)))
    #expect(state.currentBanner != nil)
    _ = reduce(into: &state, .wallClock(elapsed: .seconds(104)))
    #expect(state.currentBanner != nil)
    _ = reduce(into: &state, .wallClock(elapsed: .seconds(105)))
    #expect(state.currentBanner == nil)
    #expect(state.toast == nil)
  }

  @Test func whilePlayingABannerWaitsForSimulatedTime() {
    var state = demoWithBanner()
    #expect(state.playback.isPlaying)
    _ = reduce(into: &state, .wallClock(elapsed: .seconds(0)))
    _ = reduce(into: &state, .wallClock(elapsed: .seconds(60)))
    #expect(state.currentBanner != nil)
    _ = reduce(into: &state, .tick(DemoScenario.start + .seconds(26)))
    #expect(state.currentBanner == nil)
  }

  @Test func openingTheNotificationOfTheBannerOnScreenTakesItsBannerAway() throws {
    var state = demoWithBanner()
    let banner = try #require(state.currentBanner)
    state.lockSelection = try #require(
      state.lockScreenStacks().firstIndex { $0.notifications.contains { $0.id == banner.notification } })
    _ = reduce(into: &state, .command(.openSelected))
    #expect(state.screen == .detail(banner.notification))
    #expect(state.currentBanner == nil, "the banner stayed over its own opened notification")
    // The opened notification's box is the first thing under the status bar: no banner over it.
    let lines = rows(frame(state))
    #expect(lines[1].allSatisfy { $0 == " " } && lines[2].contains("╭"), "\(lines.prefix(4))")
  }
}

import PushCore
import PushRender
import PushTestSupport
import PushUI
import Testing

let goldens = Golden.directory(besides: #filePath)

/// The demo device as it opens, without the pushes still to come.
func demoState() -> AppState { AppState.demo(upcoming: false) }

/// A push read from payload text, as a file would be.
func push(_ json: String, bundle: String = "com.example.app") -> DeviceEvent {
  .push(PushReader.readPayloadFile(Array(json.utf8), source: "test.json", format: .payload, bundleID: bundle))
}

/// The demo device, unlocked, one second after one more push (`json`, from `bundle`) arrived,
/// with that app's stack selected on the lock screen.
func demoWithPushSelected(_ json: String, bundle: String) -> AppState {
  var state = AppState.demo(upcoming: false)
  _ = reduce(into: &state, .command(.toggleLock))
  state = AppState(
    device: state.device, timeline: [TimelineEntry(at: state.now + .seconds(1), event: push(json, bundle: bundle))])
  _ = reduce(into: &state, .tick(state.now + .seconds(2)))
  state.lockSelection = state.lockScreenGroups().firstIndex { $0.key.bundleID == bundle } ?? 0
  return state
}

func frame(_ state: AppState, columns: Int = 80, rows: Int = 24) -> CellGrid {
  render(state, size: Size(columns: columns, rows: rows), theme: .builtInDefault)
}

func expectGolden(_ grid: CellGrid, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
  let result = Golden.check(grid.textDump(), named: name, in: goldens)
  #expect(result == .matched, "\(result)", sourceLocation: sourceLocation)
}

@Suite("Lock screen goldens")
struct LockScreenGoldenTests {
  @Test func demoAt80x24() { expectGolden(frame(demoState()), "lockScreen_demo_80x24.txt") }

  @Test func demoAt40x20() { expectGolden(frame(demoState(), columns: 40, rows: 20), "lockScreen_demo_40x20.txt") }

  @Test func tallTerminalShowsEveryStackWithTimeSensitiveLabels() {
    expectGolden(frame(demoState(), columns: 60, rows: 40), "lockScreen_demo_60x40_allStacks.txt")
  }

  @Test func focusIndicatorShowsUnderTheClock() {
    var state = demoState()
    _ = reduce(into: &state, .command(.toggleDoNotDisturb))
    _ = reduce(into: &state, .tick(state.now + .seconds(5)))
    expectGolden(frame(state), "lockScreen_focusDoNotDisturb_80x24.txt")
  }

  @Test func tooSmallTerminalShowsAMessage() {
    let grid = frame(demoState(), columns: 30, rows: 10)
    expectGolden(grid, "lockScreen_tooSmall_30x10.txt")
    #expect(grid.textDump().contains("have 30×10"))
  }

  @Test func hiddenPreviewsShowTheCategoryPlaceholder() {
    let dump = frame(demoState(), columns: 60, rows: 40).textDump()
    #expect(dump.contains("2 new messages"))
    #expect(!dump.contains("I booked a table"))
  }

  @Test func providedNotificationsOnlyInNotificationCenterAreNotOnTheLockScreen() {
    // Daily News is provisional: quiet delivery to Notification Center only.
    let dump = frame(demoState(), columns: 60, rows: 40).textDump()
    #expect(!dump.contains("Morning briefing"))
  }

  @Test func clockAndRelativeTimesFollowTheDevicesNow() {
    var state = demoState()
    _ = reduce(into: &state, .tick(state.now + .minutes(5)))
    let dump = frame(state, columns: 60, rows: 16).textDump()
    #expect(dump.contains("9:46"))
    #expect(dump.contains("8m ago"))
  }

  @Test func sleepFocusDimsTheLockScreen() {
    var state = demoState()
    state = AppState(
      device: {
        var device = state.device
        device.apply(.focus(FocusMode.sleep.id), at: device.now)
        return device
      }(), timeline: [])
    let grid = frame(state)
    #expect(grid.textDump().contains("Sleep"))
    #expect(grid[40, 5].style.isDim)
  }

  @Test func scheduledSummaryCardAppearsWhenHeldNotificationsAreReleased() {
    let start = DemoScenario.start
    var profile = DeviceProfile(start: start, isLocked: true, summaryTimes: [TimeOfDay(hour: 10, minute: 0)])
    var app = AppProfile(info: AppInfo(bundleID: "com.example.shop", displayName: "Shop", iconGlyph: "🛍"))
    app.settings.delivery = .scheduledSummary
    profile.apps = [app]
    let timeline = [
      TimelineEntry(
        at: start + .seconds(5),
        event: push(#"{"aps":{"alert":{"title":"Sale","body":"50% off"}}}"#, bundle: "com.example.shop"))
    ]
    var state = AppState(device: DeviceSimulator(profile: profile), timeline: timeline)
    _ = reduce(into: &state, .tick(start + .minutes(1)))
    #expect(!frame(state).textDump().contains("Scheduled Summary"))
    // Held, it is stored but not in Notification Center, whose count says what it shows (it
    // said "1 notification in 0 groups" above "No Older Notifications").
    #expect(state.device.store.count == 1 && state.device.store.heldCount == 1)
    var center = state
    _ = reduce(into: &center, .command(.toggleCenter))
    let held = frame(center).textDump()
    #expect(held.contains("0 notifications in 0 groups") && held.contains("No Older Notifications"), "\(held)")
    _ = reduce(into: &state, .tick(start + .minutes(20)))
    #expect(state.device.store.heldCount == 0, "released at 10:00")
    expectGolden(frame(state), "lockScreen_scheduledSummary_80x24.txt")
    #expect(frame(state).textDump().contains("Your Scheduled Summary"))
  }
}

@Suite("International payload goldens")
struct InternationalGoldenTests {
  @Test func cjkEmojiAndRightToLeftPayloadsLineUp() {
    let start = DemoScenario.start
    let profile = DeviceProfile(
      start: start, isLocked: false,
      apps: [
        AppProfile(info: AppInfo(bundleID: "com.example.line", displayName: "ライン", iconGlyph: "💚")),
        AppProfile(info: AppInfo(bundleID: "com.example.chat", displayName: "צ׳אט", iconGlyph: "💬")),
      ])
    var device = DeviceSimulator(profile: profile)
    device.apply(
      push(
        #"{"aps":{"alert":{"title":"שלום עולם","body":"مرحبا بالعالم — see you at 12:30 👍🏽"}}}"#,
        bundle: "com.example.chat"),
      at: start + .seconds(1))
    device.apply(
      push(
        #"{"aps":{"alert":{"title":"東京都新宿区西新宿の天気","subtitle":"ｶﾞｲﾄﾞ 🇯🇵 family 👨‍👩‍👧 ❤️","body":"今日は一日中晴れるでしょう。最高気温は二十五度、最低気温は十八度の予報です。"}}}"#,
        bundle: "com.example.line"), at: start + .seconds(2))
    var state = AppState(device: device)
    _ = reduce(into: &state, .tick(start + .minutes(2)))
    expectGolden(frame(state, columns: 50, rows: 22), "lockScreen_cjkEmojiRTL_50x22.txt")
  }
}

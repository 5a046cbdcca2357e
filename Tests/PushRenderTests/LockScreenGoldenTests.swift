import PushCore
import PushRender
import PushTestSupport
import PushUI
import Testing

let goldens = Golden.directory(besides: #filePath)

private func lockScreen(_ device: DeviceSnapshot = DemoScenario.snapshot(), columns: Int, rows: Int)
  -> CellGrid
{
  render(AppState(device: device), size: Size(columns: columns, rows: rows), theme: .builtInDefault)
}

@Suite("Lock screen goldens")
struct LockScreenGoldenTests {
  @Test func demoAt80x24() {
    let result = Golden.check(
      lockScreen(columns: 80, rows: 24).textDump(), named: "lockScreen_demo_80x24.txt", in: goldens)
    #expect(result == .matched, "\(result)")
  }

  @Test func demoAt40x20() {
    let result = Golden.check(
      lockScreen(columns: 40, rows: 20).textDump(), named: "lockScreen_demo_40x20.txt", in: goldens)
    #expect(result == .matched, "\(result)")
  }

  @Test func tallTerminalShowsEveryStackWithTimeSensitiveLabels() {
    let result = Golden.check(
      lockScreen(columns: 60, rows: 40).textDump(), named: "lockScreen_demo_60x40_allStacks.txt",
      in: goldens)
    #expect(result == .matched, "\(result)")
  }

  @Test func focusIndicatorShowsUnderTheClock() {
    var device = DemoScenario.snapshot()
    device.activeFocus = "Do Not Disturb"
    let result = Golden.check(
      lockScreen(device, columns: 80, rows: 24).textDump(),
      named: "lockScreen_focusDoNotDisturb_80x24.txt", in: goldens)
    #expect(result == .matched, "\(result)")
  }

  @Test func tooSmallTerminalShowsAMessage() {
    let grid = lockScreen(columns: 30, rows: 10)
    let result = Golden.check(grid.textDump(), named: "lockScreen_tooSmall_30x10.txt", in: goldens)
    #expect(result == .matched, "\(result)")
    #expect(grid.textDump().contains("have 30×10"))
  }

  @Test func emptyLockScreenHasNoCards() {
    var device = DemoScenario.snapshot()
    device.notifications = []
    let dump = lockScreen(device, columns: 40, rows: 12).textDump()
    #expect(!dump.contains("╭"))
    #expect(dump.contains("9:41"))
  }

  @Test func clockAndRelativeTimesFollowTheDevicesNow() {
    var device = DemoScenario.snapshot()
    device.now = device.now + .minutes(5)
    let dump = lockScreen(device, columns: 60, rows: 16).textDump()
    #expect(dump.contains("9:46"))
    #expect(dump.contains("6m ago"))
  }

  @Test func cardStyleRuns() {
    let stacks = Grouping.stacks(of: DemoScenario.notifications())
    let device = DemoScenario.snapshot()
    var grid = CellGrid(width: 50, height: 7)
    let stack = stacks[1]
    let card = NotificationCardView(
      notification: stack.notifications[0], app: device.app(stack.id.bundleID),
      hiddenCount: stack.hiddenCount, now: device.now)
    card.draw(into: &grid, at: Point(column: 1, row: 0), columns: 48, theme: .builtInDefault)
    let result = Golden.check(
      grid.textDump() + "\n" + grid.styleDump(), named: "card_messagesStack_styles.txt", in: goldens
    )
    #expect(result == .matched, "\(result)")
  }
}

@Suite("Grouping")
struct GroupingTests {
  @Test func stacksAreByAppThenThreadNewestFirst() {
    let stacks = Grouping.stacks(of: DemoScenario.notifications())
    #expect(
      stacks.map(\.id.bundleID) == [
        "com.example.fooddash", "com.example.messages", "com.example.bank",
        "com.example.calendar", "com.example.news",
      ])
    #expect(stacks[1].notifications.map(\.id) == [NotificationID(5), NotificationID(3)])
    #expect(stacks[1].hiddenCount == 1)
  }
}

@Suite("International payload goldens")
struct InternationalGoldenTests {
  @Test func cjkEmojiAndRightToLeftPayloadsLineUp() {
    let start = DemoScenario.start
    let device = DeviceSnapshot(
      now: start,
      apps: [
        "com.example.line": AppInfo(bundleID: "com.example.line", displayName: "ライン", iconGlyph: "💚"),
        "com.example.chat": AppInfo(bundleID: "com.example.chat", displayName: "צ׳אט", iconGlyph: "💬"),
      ],
      notifications: [
        PushNotification(
          id: NotificationID(1), bundleID: "com.example.chat", title: "שלום עולם",
          body: "مرحبا بالعالم — see you at 12:30 👍🏽", receivedAt: start - .minutes(20)),
        PushNotification(
          id: NotificationID(2), bundleID: "com.example.line", title: "東京都新宿区西新宿の天気",
          subtitle: "ｶﾞｲﾄﾞ 🇯🇵 family 👨‍👩‍👧 ❤️",
          body: "今日は一日中晴れるでしょう。最高気温は二十五度、最低気温は十八度の予報です。",
          receivedAt: start - .minutes(2)),
      ])
    let grid = render(
      AppState(device: device), size: Size(columns: 50, rows: 22), theme: .builtInDefault)
    let result = Golden.check(
      grid.textDump(), named: "lockScreen_cjkEmojiRTL_50x22.txt", in: goldens)
    #expect(result == .matched, "\(result)")
  }
}

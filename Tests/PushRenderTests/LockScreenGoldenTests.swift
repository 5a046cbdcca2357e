import PushCore
import PushRender
import PushTestSupport
import PushUI
import Testing

private let goldens = Golden.directory(besides: #filePath)

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

import PushCore
import PushRender
import PushTestSupport
import PushUI
import Testing

/// The demo, unlocked, after the first upcoming push (Ana's message) arrived as a banner.
private func demoWithBanner() -> AppState {
  var state = AppState.demo()
  _ = reduce(into: &state, .command(.toggleLock))
  _ = reduce(into: &state, .tick(DemoScenario.start + .seconds(21)))
  return state
}

@Suite("Front end goldens at 80×24")
struct FrontEndGoldenTests {
  @Test func bannerOverTheLockScreen() {
    let state = demoWithBanner()
    #expect(state.currentBanner != nil)
    expectGolden(frame(state), "banner_overLockScreen_80x24.txt")
  }

  /// A pane as wide as the terminal hides the banner (which shows again when it closes);
  /// beside a pane, the banner drops over the screen's half.
  @Test func aBannerNeverCoversAPane() {
    var state = demoWithBanner()
    #expect(state.currentBanner != nil)
    let banner = "Ana"
    _ = reduce(into: &state, .command(.toggleSettings))
    let full = frame(state, columns: 80, rows: 24).textDump()
    #expect(full.contains("Focus") && full.contains("Show Previews"))
    #expect(!full.contains(banner))
    let beside = frame(state, columns: 120, rows: 24).textDump().split(separator: "\n")
    #expect(beside.contains { $0.prefix(61).contains(banner) })
    #expect(beside.contains { $0.contains("Focus") })
    _ = reduce(into: &state, .command(.toggleSettings))
    #expect(frame(state, columns: 80, rows: 24).textDump().contains(banner))
  }

  @Test func bannerLeavesAfterFiveSimulatedSeconds() {
    var state = demoWithBanner()
    _ = reduce(into: &state, .tick(DemoScenario.start + .seconds(26)))
    #expect(state.currentBanner == nil)
    let lines = frame(state).textDump().split(separator: "\n")
    #expect(lines[2].contains("Monday, November 23"))
  }

  @Test func notificationCenterWithAnExpandedStack() {
    var state = demoWithBanner()
    _ = reduce(into: &state, .command(.openCenter))
    _ = reduce(into: &state, .command(.back))  // the banner
    let messages = state.centerRows().firstIndex { $0.groupKey.bundleID == "com.example.messages" } ?? 0
    state.centerSelection = messages
    _ = reduce(into: &state, .command(.activate))
    expectGolden(frame(state), "center_expandedStack_80x24.txt")
  }

  /// Narrowed (a small terminal, or the inspector open beside it), the header's count is
  /// shortened (and left out where even that does not fit), never run into the title.
  @Test func notificationCenterHeaderFitsItsWidth() throws {
    var state = AppState.demo(upcoming: false)
    _ = reduce(into: &state, .command(.openCenter))
    func header(_ columns: Int) -> String {
      String(frame(state, columns: columns, rows: 24).textDump().split(separator: "\n")[1])
    }
    #expect(header(80).contains("Notification Center  ") && header(80).contains("6 notifications in 5 groups"))
    #expect(header(46).contains("Notification Center  ") && header(46).contains("6 in 5 groups"))
    #expect(!header(46).contains("notifications in"))
    #expect(header(40).contains("Notification Center  ") && header(40).contains("6 in 5 groups"))
    state.isInspectorOpen = true
    let inspected = header(100)
    let title = try #require(inspected.range(of: "Notification Center"))
    #expect(inspected[title.upperBound...].hasPrefix("  "))
    #expect(inspected.contains("6 in 5 groups") || inspected.contains("6 notifications in 5 groups"))
  }

  /// The status line drops key hints that do not fit rather than run the last one into the
  /// counts ("inspect 1 stored"): at every width, two columns at least before the counts.
  @Test func statusLineHintsNeverTouchTheCounts() throws {
    var state = AppState.demo()
    for screen in ["lock", "center"] {
      if screen == "center" { _ = reduce(into: &state, .command(.openCenter)) }
      for columns in 40...120 {
        let line = try #require(frame(state, columns: columns, rows: 24).textDump().split(separator: "\n").last)
        // Too narrow for the counts at all, they are left out (never below 60 columns here).
        guard let counts = line.range(of: "\(state.device.store.count) stored") else {
          #expect(columns < 60, "\(screen) at \(columns): no counts in \(line)")
          continue
        }
        #expect(line[..<counts.lowerBound].hasSuffix("  "), "\(screen) at \(columns): \(line)")
      }
    }
  }

  @Test func notificationCenterShowsKeepAndTurnOffForProvisionalApps() {
    var state = AppState.demo(upcoming: false)
    _ = reduce(into: &state, .command(.openCenter))
    let dump = frame(state, columns: 80, rows: 50).textDump()
    #expect(dump.contains("Morning briefing"))
    #expect(dump.contains("K Keep…") && dump.contains("T Turn Off…"))
  }

  @Test func actionSheetListsTheCategoriesActionsWithDestructiveStyle() {
    var state = demoWithBanner()
    _ = reduce(into: &state, .command(.back))
    _ = reduce(into: &state, .command(.showActions))
    let grid = frame(state)
    expectGolden(grid, "actionSheet_messages_80x24.txt")
    #expect(grid.styleDump().contains("destructiveAction"))
  }

  @Test func openedNotificationShowsSenderAndFullBody() {
    var state = demoWithBanner()
    _ = reduce(into: &state, .command(.back))
    _ = reduce(into: &state, .command(.openSelected))
    let dump = frame(state).textDump()
    #expect(dump.contains("From Ana"))
    #expect(dump.contains("Great, see you there!"))
  }

  @Test func inspectorShowsPayloadDecisionReasonsAndRank() {
    var state = demoWithBanner()
    _ = reduce(into: &state, .command(.back))
    _ = reduce(into: &state, .command(.toggleInspector))
    let grid = frame(state, columns: 80, rows: 40)
    expectGolden(grid, "inspector_message_80x40.txt")
    let dump = grid.textDump()
    #expect(dump.contains("banner"))
    #expect(dump.contains("communication 3"))
    #expect(dump.contains("\"thread-id\""))
  }

  @Test func inspectorIsASidePaneOnWideTerminals() {
    var state = demoWithBanner()
    _ = reduce(into: &state, .command(.back))
    _ = reduce(into: &state, .command(.toggleInspector))
    let dump = frame(state, columns: 120, rows: 30).textDump()
    #expect(dump.contains("Inspector") && dump.contains("Monday, November 23"))
  }

  @Test func helpListsEveryKey() {
    var state = demoState()
    _ = reduce(into: &state, .command(.toggleHelp))
    let grid = frame(state)
    expectGolden(grid, "help_80x24.txt")
  }
}

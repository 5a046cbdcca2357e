import PushCore
import PushTestSupport
import PushUI
import Testing

/// An unlocked phone with default apps and pushes on the timeline, a few seconds apart.
private func unlockedState(_ payloads: [(String, String)], persistent: Set<String> = []) -> AppState {
  let start = DemoScenario.start
  var profile = DeviceProfile(start: start, isLocked: false)
  for (bundle, _) in payloads where !profile.apps.contains(where: { $0.bundleID == bundle }) {
    var app = AppProfile(info: .inferred(from: bundle))
    if persistent.contains(bundle) { app.settings.bannerStyle = .persistent }
    profile.apps.append(app)
  }
  let entries = payloads.enumerated().map { index, item in
    TimelineEntry(at: start + .seconds(Int64(2 + index)), event: push(item.1, bundle: item.0))
  }
  return AppState(device: DeviceSimulator(profile: profile), timeline: entries)
}

private let hello = #"{"aps":{"alert":{"title":"Hello","body":"First"},"thread-id":"t"}}"#
private let again = #"{"aps":{"alert":{"title":"Again","body":"Second"},"thread-id":"t"}}"#

@Suite("Reducer")
struct ReducerTests {
  @Test func hiddenPreviewsCountTheWholeThreadWhereverTheNotificationIsShown() throws {
    // The demo's Messages hides previews while locked behind "%u new messages", two in the thread.
    let state = AppState.demo(upcoming: false)
    let stack = try #require(state.lockScreenStacks().first { $0.key.bundleID == "com.example.messages" })
    let front = try #require(stack.notifications.first)
    #expect(stack.count == 2)
    #expect(state.displayed(front, threadCount: stack.count).body == "2 new messages")
    // The action sheet, banner and detail view do not pass a count: the stack's is used.
    #expect(state.displayed(front).body == "2 new messages")
  }

  @Test func tickAppliesDueTimelineEventsOnly() {
    var state = unlockedState([("com.example.chat", hello), ("com.example.chat", again)])
    #expect(reduce(into: &state, .tick(DemoScenario.start + .seconds(2))) == [])
    #expect(state.device.store.count == 1)
    #expect(state.pendingEventCount == 1)
    _ = reduce(into: &state, .tick(DemoScenario.start + .seconds(3)))
    #expect(state.device.store.count == 2)
    #expect(state.now == DemoScenario.start + .seconds(3))
  }

  @Test func temporaryBannersQueueAndLeaveAfterFiveSimulatedSeconds() {
    var state = unlockedState([("com.example.chat", hello), ("com.example.mail", again)])
    _ = reduce(into: &state, .tick(DemoScenario.start + .seconds(3)))
    #expect(state.banners.count == 2)
    let first = state.currentBanner?.notification
    _ = reduce(into: &state, .tick(DemoScenario.start + .seconds(6)))
    #expect(state.currentBanner?.notification == first)
    _ = reduce(into: &state, .tick(DemoScenario.start + .seconds(7)))
    #expect(state.banners.count == 1)
    #expect(state.currentBanner?.notification != first)
    // The second was shown when the first left (at 7 s), so it stays until 12 s.
    _ = reduce(into: &state, .tick(DemoScenario.start + .seconds(11)))
    #expect(state.banners.count == 1)
    _ = reduce(into: &state, .tick(DemoScenario.start + .seconds(12)))
    #expect(state.banners.isEmpty)
  }

  @Test func persistentBannersStayUntilDismissed() {
    var state = unlockedState([("com.example.chat", hello)], persistent: ["com.example.chat"])
    _ = reduce(into: &state, .tick(DemoScenario.start + .minutes(10)))
    #expect(state.currentBanner?.isPersistent == true)
    _ = reduce(into: &state, .command(.back))
    #expect(state.banners.isEmpty)
  }

  @Test func lockedPhoneShowsNoBanner() {
    var state = AppState.demo()
    _ = reduce(into: &state, .tick(DemoScenario.start + .minutes(2)))
    #expect(state.banners.isEmpty)
    #expect(state.device.store.count == 9)
  }

  @Test func stepMovesTheClockToTheNextPush() {
    var state = unlockedState([("com.example.chat", hello)])
    #expect(reduce(into: &state, .command(.stepToNextEvent)) == [.advanceClock(.seconds(2))])
  }

  @Test func notificationCenterExpandsAndCollapsesAStack() {
    var state = unlockedState([("com.example.chat", hello), ("com.example.chat", again)])
    _ = reduce(into: &state, .tick(DemoScenario.start + .seconds(20)))
    _ = reduce(into: &state, .command(.openCenter))
    #expect(state.screen == .center)
    #expect(state.centerRows().count == 1)
    _ = reduce(into: &state, .command(.activate))
    #expect(state.centerRows().count == 3)
    _ = reduce(into: &state, .command(.moveDown))
    #expect(state.selectedNotification.flatMap { state.device.store[$0]?.notification.title } == "Again")
    _ = reduce(into: &state, .command(.activate))
    #expect(state.screen == .detail(NotificationID(2)))
    _ = reduce(into: &state, .command(.back))
    _ = reduce(into: &state, .command(.toggleExpand))
    #expect(state.centerRows().count == 1)
  }

  @Test func clearingOneGroupOrAll() {
    var state = unlockedState([
      ("com.example.chat", hello), ("com.example.chat", again), ("com.example.mail", hello),
    ])
    _ = reduce(into: &state, .tick(DemoScenario.start + .seconds(10)))
    _ = reduce(into: &state, .command(.openCenter))
    _ = reduce(into: &state, .command(.clearSelected))
    #expect(state.device.store.count == 2)
    let groupSize =
      state.centerRows().first.map { row -> Int in
        if case .stack(let group) = row { return group.count }
        return 0
      } ?? 0
    _ = reduce(into: &state, .command(.clearGroup))
    #expect(state.device.store.count == 2 - groupSize)
    _ = reduce(into: &state, .command(.clearAll))
    #expect(state.device.store.count == 0)
  }

  @Test func provisionalKeepChangesTheAppsAuthorizationLive() {
    var state = AppState.demo(upcoming: false)
    _ = reduce(into: &state, .command(.openCenter))
    let rows = state.centerRows()
    let newsRow = rows.firstIndex { $0.groupKey.bundleID == "com.example.news" } ?? 0
    state.centerSelection = newsRow
    #expect(state.selectedNotification.map(state.isProvisional) == true)
    // Turn Off… asks first: any key but Enter or y keeps it provisional.
    _ = reduce(into: &state, .command(.turnOffProvisional))
    guard case .provisional(let question)? = state.overlay else {
      Issue.record("Turn Off… asked nothing: \(String(describing: state.overlay))")
      return
    }
    #expect(question.kind == .turnOff && state.inputMode == .textEntry)
    _ = reduce(into: &state, .command(.insertText("n")))
    #expect(state.overlay == nil && state.device.app("com.example.news")?.authorization == .provisional)
    // Keep… offers the delivery choices: the demo has a Scheduled Summary, so both.
    _ = reduce(into: &state, .command(.keepProvisional))
    guard case .provisional(let choice)? = state.overlay else {
      Issue.record("Keep… offered no choice: \(String(describing: state.overlay))")
      return
    }
    #expect(choice.options == [.deliverImmediately, .deliverInSummary])
    // Deliver Immediately: authorized, and still quiet until its settings change (reference §4.2).
    _ = reduce(into: &state, .command(.activate))
    let news = state.device.app("com.example.news")
    #expect(news?.authorization == .authorized)
    #expect(news?.settings.banners == false && news?.settings.lockScreen == false)
    #expect(
      news?.settings.sounds == false && news?.settings.badges == false && news?.settings.notificationCenter == true)
    // No longer provisional: Turn Off… has nothing to do.
    _ = reduce(into: &state, .command(.turnOffProvisional))
    #expect(state.device.app("com.example.news")?.authorization == .authorized)
  }

  /// Keep… ▸ Deliver in Scheduled Summary, and Turn Off… confirmed with y.
  @Test func provisionalKeepIntoTheSummaryAndTurnOffConfirmed() {
    func newsSelected() -> AppState {
      var state = AppState.demo(upcoming: false)
      _ = reduce(into: &state, .command(.openCenter))
      state.centerSelection = state.centerRows().firstIndex { $0.groupKey.bundleID == "com.example.news" } ?? 0
      return state
    }
    var state = newsSelected()
    _ = reduce(into: &state, .command(.keepProvisional))
    _ = reduce(into: &state, .command(.moveDown))
    _ = reduce(into: &state, .command(.activate))
    #expect(state.device.app("com.example.news")?.authorization == .authorized)
    #expect(state.device.app("com.example.news")?.settings.delivery == .scheduledSummary)
    #expect(state.toast?.text.contains("Scheduled Summary") == true)
    state = newsSelected()
    _ = reduce(into: &state, .command(.turnOffProvisional))
    _ = reduce(into: &state, .command(.insertText("y")))
    #expect(state.device.app("com.example.news")?.authorization == .denied)
  }

  @Test func authenticationRequiredActionAsksToUnlockThenRunsAndEmitsAnEffect() {
    var state = AppState.demo()
    _ = reduce(into: &state, .tick(DemoScenario.start + .seconds(50)))
    state.lockSelection = state.lockScreenGroups().firstIndex { $0.key.bundleID == "com.example.bank" } ?? 0
    _ = reduce(into: &state, .command(.showActions))
    guard case .actionSheet(let sheet)? = state.overlay else {
      Issue.record("no action sheet")
      return
    }
    #expect(state.actions(for: sheet.notification).map(\.identifier) == ["CONFIRM", "LOCK_ACCOUNT"])
    #expect(reduce(into: &state, .command(.activate)) == [])
    #expect(
      state.overlay
        == .actionSheet(ActionSheet(notification: sheet.notification, stage: .confirmUnlock(actionID: "CONFIRM"))))
    let effects = reduce(into: &state, .command(.activate))
    #expect(state.device.isLocked == false)
    guard case .perform(let invocation)? = effects.first else {
      Issue.record("no perform effect: \(effects)")
      return
    }
    #expect(invocation.actionID == "CONFIRM" && invocation.bundleID == "com.example.bank")
    #expect(state.device.store[sheet.notification] == nil)
    _ = reduce(into: &state, .actionFinished(invocation.id, .succeeded("Confirmed")))
    #expect(state.toast?.text == "Confirmed")
  }

  @Test func textInputActionOpensAReplyFieldAndSendsTheText() {
    var state = AppState.demoAtReplyField()
    #expect(state.inputMode == .textEntry)
    let keys = KeyMap.standard
    for key in [Key.character("O"), .character("k"), .character("!"), .backspace, .character("?")] {
      if let event = keys.event(for: .key(key), mode: state.inputMode) { _ = reduce(into: &state, event) }
    }
    let effects = reduce(into: &state, .command(.activate))
    guard case .perform(let invocation)? = effects.first else {
      Issue.record("no perform effect: \(effects)")
      return
    }
    #expect(invocation.actionID == "REPLY" && invocation.text == "Ok?")
    #expect(state.inputMode == .commands)
    #expect(state.device.responses.last?.text == "Ok?")
  }

  @Test func quitAsksToExitCleanly() {
    var state = demoState()
    #expect(reduce(into: &state, .command(.quit)) == [.exit(status: 0)])
  }

  @Test func signalsExitWith128PlusTheSignalNumber() {
    var state = demoState()
    #expect(reduce(into: &state, .terminationRequested(signal: 2)) == [.exit(status: 130)])
    #expect(reduce(into: &state, .terminationRequested(signal: 15)) == [.exit(status: 143)])
  }

  @Test func resizeIsRemembered() {
    var state = demoState()
    _ = reduce(into: &state, .resize(columns: 100, rows: 30))
    #expect(state.terminalColumns == 100 && state.terminalRows == 30)
  }

  @Test func bracketAdvancesTheClockThroughAnEffect() {
    var state = demoState()
    let event = KeyMap.standard.event(for: .key(.character("]")))
    #expect(event == .command(.advanceClock(.minutes(1))))
    #expect(event.map { reduce(into: &state, $0) } == [.advanceClock(.minutes(1))])
  }

  @Test func everyBoundKeyIsDocumentedOnce() {
    let keys = KeyMap.documented.flatMap { $0.bindings.map(\.0) }
    #expect(Set(keys).count == keys.count)
    #expect(KeyMap.standard.bindings.count == keys.count)
  }
}

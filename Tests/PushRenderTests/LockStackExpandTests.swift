import PushCore
import PushUI
import Testing

@testable import PushRender

/// Space on a lock-screen stack shows its notifications, expanded and selected, in
/// Notification Center: it did nothing there, and a stack's others were out of reach.
@Suite struct LockStackExpandTests {
  @Test func spaceOnALockScreenStackExpandsItInNotificationCenter() throws {
    var state = AppState.demo(upcoming: false)
    let stacks = state.lockScreenStacks()
    let index = try #require(stacks.firstIndex { $0.count > 1 }, "the demo has a stack of two or more")
    let key = stacks[index].key
    state.lockSelection = index
    _ = reduce(into: &state, .command(.toggleExpand))
    #expect(state.screen == .center)
    #expect(state.expanded.contains(key))
    let rows = state.centerRows()
    #expect(rows[state.centerSelection].groupKey == key)
    #expect(rows.filter { $0.groupKey == key }.count > stacks[index].count, "a header and a row per notification")
    let dump = frame(state).textDump()
    #expect(dump.contains("Show less"))
    // Back on the lock screen, a single notification is not "expanded": Space says what opens it.
    _ = reduce(into: &state, .command(.back))
    #expect(state.screen == .lock)
    if let single = state.lockScreenStacks().firstIndex(where: { $0.count == 1 }) {
      state.lockSelection = single
      _ = reduce(into: &state, .command(.toggleExpand))
      #expect(state.screen == .lock)
      #expect(frame(state).textDump().contains("One notification: ⏎ opens it"))
    }
  }
}

/// Clearing says what it cleared: the toast before it stayed, and read as its answer.
@Suite struct ClearFeedbackTests {
  @Test func clearingOneOrAGroupIsSaid() throws {
    var state = AppState.demo(upcoming: false)
    _ = reduce(into: &state, .command(.openCenter))
    _ = reduce(into: &state, .command(.inspectRejected))
    let stored = state.device.store.count
    _ = reduce(into: &state, .command(.clearSelected))
    #expect(state.device.store.count == stored - 1)
    #expect(frame(state).textDump().contains("Cleared a notification from"))
    let key = try #require(state.selectedNotification.flatMap { state.device.store[$0]?.group })
    let inGroup = state.device.store.all.filter { $0.group == key }.count
    _ = reduce(into: &state, .command(.clearGroup))
    let name = state.appInfo(key.bundleID).displayName
    #expect(
      frame(state).textDump().contains("Cleared \(inGroup) notification\(inGroup == 1 ? "" : "s") from \(name)"))
  }
}

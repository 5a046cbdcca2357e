import PushCore
import PushTestSupport
import Testing

@testable import PushUI

/// The front end's journal path (`run --state`): every event the timeline applies goes through
/// the ingest step into the state's change set (``AppState/changes``), which the shell commits
/// each turn. Counted in work, not time: O(n log n) for n events, and the store is copied at
/// most once (the first push after the start, which ``AppState/initialDevice`` shares).
@Suite("Journal scale")
struct JournalScaleTests {
  private func state(pushes count: Int) -> AppState { journallingScaleState(pushes: count) }

  /// Plays the timeline in turns of `turn` seconds, taking the changes after each turn as the
  /// shell's persistence does; returns the work done and what reached the journal.
  private func work(pushes count: Int, turn: Int64 = 600) -> (moves: Int, copies: Int, journalled: Int) {
    var state = state(pushes: count)
    var journalled = 0
    var at = state.now
    let end = state.timeline.last!.at + .seconds(1)
    while at < end {
      at = at + .seconds(turn)
      _ = reduce(into: &state, .tick(at))
      let changes = state.takeChanges()
      journalled +=
        changes.deliveries.count + changes.updates.removals.count + changes.updates.events.count
        + changes.updates.badges.count
    }
    let moves = state.bookkeepingSteps + state.device.store.movedElements + journalled
    return (moves, state.device.store.copiesMade, state.device.receivedCount == count ? journalled : -1)
  }

  @Test func fourTimesTheEventsIsAboutFourTimesTheWorkIntoTheChangeSet() {
    let small = work(pushes: 2_000)
    let large = work(pushes: 8_000)
    #expect(small.journalled >= 2_000 && large.journalled >= 8_000, "every push reached the change set")
    #expect(small.copies <= 1 && large.copies <= 1, "the store is copied once at most: \(small), \(large)")
    // O(n log n) allows 4 × log(8000)/log(2000) ≈ 4.7×; a copy or a scan per push is 16×.
    #expect(large.moves <= small.moves * 5, "\(small.moves) for 2,000 events, \(large.moves) for 8,000")
  }

  /// A seek back replays what the journal already holds: nothing reaches the change set twice.
  @Test func aSeekBackJournalsNothingTwice() {
    var state = state(pushes: 300)
    _ = reduce(into: &state, .tick(state.timeline[150].at))
    let first = state.takeChanges()
    #expect(first.deliveries.count == 151)
    _ = reduce(into: &state, .command(.stepToPreviousPush))
    _ = reduce(into: &state, .tick(state.timeline[299].at))
    let second = state.takeChanges()
    #expect(second.deliveries.count == 149)
    #expect(second.deliveries.first?.record.index == 151)
  }
}

import PushCore
import PushTestSupport
import Testing

@testable import PushUI

/// `run` on a large capture with a state database: no device is played ahead, so the front end
/// keeps checkpoints of its own as it plays (``SeekCheckpoints``). A seek back and into the
/// middle then starts from the nearest one instead of the start, lands on the same state a
/// replay from the start gives, and journals nothing twice. Counted in restores and entries
/// played, not in time.
@Suite("Seeks from the front end's own checkpoints")
struct SeekCheckpointTests {
  static let pushes = 20_000

  /// The journalling scale state, keeping a checkpoint every 2,000 entries (a sixteenth of the
  /// timeline is more: 1,250 here, so 2,000 it is) when `keeps`.
  static func state(keeps: Bool) -> AppState {
    var state = journallingScaleState(pushes: pushes)
    // A large input's lean device, as `run` plays it.
    state.device.keepsPayloadDetails = false
    state.device.recordWindow = 512
    if keeps {
      state.seekCheckpoints = SeekCheckpoints(spacing: 2_000, budget: 1 << 30, bytesPerEntry: 6, records: 64)
    }
    return state
  }

  static func at(_ index: Int) -> SimInstant { DemoScenario.start + .seconds(Int64(index * 3)) }

  /// What a user sees and what the next push depends on.
  static func expectSame(_ state: AppState, _ reference: AppState, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(state.now == reference.now, sourceLocation: sourceLocation)
    #expect(state.timelineCursor == reference.timelineCursor, sourceLocation: sourceLocation)
    #expect(state.device.store.count == reference.device.store.count, sourceLocation: sourceLocation)
    #expect(
      state.device.store.all.map(\.id).sorted() == reference.device.store.all.map(\.id).sorted(),
      sourceLocation: sourceLocation)
    #expect(
      state.device.store.rankedGroups().map(\.key) == reference.device.store.rankedGroups().map(\.key),
      sourceLocation: sourceLocation)
    #expect(state.device.badges == reference.device.badges, sourceLocation: sourceLocation)
    #expect(state.device.isLocked == reference.device.isLocked, sourceLocation: sourceLocation)
    #expect(state.rejectedCount == reference.rejectedCount, sourceLocation: sourceLocation)
  }

  @Test func aSeekBackAndIntoTheMiddleStartsFromTheNearestCheckpoint() {
    var state = Self.state(keeps: true)
    _ = reduce(into: &state, .tick(Self.at(Self.pushes)))
    #expect(state.timelineCursor == Self.pushes)
    #expect(state.seekCheckpoints?.count == 10, "one at each 2,000 entries played")
    let journalled = state.takeChanges().deliveries.count
    #expect(journalled == Self.pushes)
    // Back to the start, then to the middle: from the checkpoint at 10,000 entries (taken
    // before Display As was changed, which the user's view keeps).
    state.device.setLockScreenDisplay(.count)
    _ = state.seek(to: Self.at(0))
    let played = state.playedEntryCount
    _ = reduce(into: &state, .tick(Self.at(11_000)))
    #expect(state.seekCheckpointRestores == 1)
    #expect(state.playedEntryCount - played <= 1_001 + 1, "played from entry 10,000, not from the start")
    #expect(state.device.profile.lockScreenDisplay == .count)
    var reference = Self.state(keeps: false)
    _ = reduce(into: &reference, .tick(Self.at(11_000)))
    Self.expectSame(state, reference)
    // Nothing played again is journalled again; the rest still is, once.
    #expect(state.takeChanges().deliveries.isEmpty)
    _ = reduce(into: &state, .tick(Self.at(Self.pushes)))
    #expect(state.takeChanges().deliveries.isEmpty)
    _ = reduce(into: &reference, .tick(Self.at(Self.pushes)))
    Self.expectSame(state, reference)
  }

  /// A checkpoint stands only for the same history of the user's own events: after a lock
  /// applied in the past, the later checkpoints (taken without it) are passed over.
  @Test func aUserEventInThePastLeavesTheLaterCheckpointsUnused() {
    var state = Self.state(keeps: true)
    _ = reduce(into: &state, .tick(Self.at(Self.pushes)))
    _ = state.seek(to: Self.at(3_000))
    #expect(state.seekCheckpointRestores == 0, "the two before it save too few entries to be taken")
    state.applyNow(.lock)
    _ = reduce(into: &state, .tick(Self.at(15_000)))
    #expect(state.seekCheckpointRestores == 0)
    var reference = Self.state(keeps: false)
    _ = reduce(into: &reference, .tick(Self.at(3_000)))
    reference.applyNow(.lock)
    _ = reduce(into: &reference, .tick(Self.at(15_000)))
    Self.expectSame(state, reference)
    #expect(state.device.isLocked)
    // Back before the lock, which drops it: the checkpoints stand again.
    _ = state.seek(to: Self.at(1_000))
    _ = reduce(into: &state, .tick(Self.at(15_000)))
    #expect(state.seekCheckpointRestores == 1)
    var unlocked = Self.state(keeps: false)
    _ = reduce(into: &unlocked, .tick(Self.at(15_000)))
    Self.expectSame(state, unlocked)
  }

  /// An entry that arrives late, before what a checkpoint played, makes it and the later ones
  /// useless: they are forgotten.
  @Test func aLateEntryForgetsTheCheckpointsPastIt() {
    var state = Self.state(keeps: true)
    _ = reduce(into: &state, .tick(Self.at(9_000)))
    #expect(state.seekCheckpoints?.count == 4)
    _ = state.seek(to: Self.at(5_000))
    state.appendTimeline([TimelineEntry(at: Self.at(5_500) + .seconds(1), event: .lock)])
    #expect(state.seekCheckpoints?.count == 2, "those at 6,000 and 8,000 entries are gone")
  }

  /// A checkpoint holds neither the timeline nor the change set still to be journalled.
  @Test func aCheckpointHoldsNoTimelineAndNoPendingChanges() throws {
    var state = Self.state(keeps: true)
    _ = reduce(into: &state, .tick(Self.at(2_500)))
    let kept = try #require(state.seekCheckpoints?.kept.first)
    #expect(kept.cursor == 2_000)
    #expect(kept.state.timeline.isEmpty)
    #expect(kept.state.changes.isEmpty)
    #expect(kept.state.seekCheckpoints == nil)
    #expect(kept.state.device.records.count <= 64)
  }
}

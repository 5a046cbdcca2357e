import PushCore
import PushTestSupport
import Synchronization
import Testing

@testable import PushUI

/// Keeps the slices a state hands over, as the shell's journal would commit them.
private final class RecordingSlices: ChangeSliceSink {
  let slices = Mutex<[DeviceChanges]>([])
  func commit(slice: DeviceChanges) { slices.withLock { $0.append(slice) } }
}

/// `run` with a state database: a turn that plays many events (a seek to the end of a capture)
/// hands its change set over in slices as it plays, and a seek past what has been read so far
/// plays what is read at its own time instead of moving the clock past it.
@Suite("Change slices and seeks while reading")
struct ChangeSliceTests {
  private func state(pushes count: Int) -> AppState { journallingScaleState(pushes: count) }

  @Test func oneLongTurnHandsItsChangesOverInBoundedSlices() {
    var state = state(pushes: 5_000)
    let sink = RecordingSlices()
    state.changeSlices = sink
    state.changeSliceSize = 512
    _ = reduce(into: &state, .tick(state.timeline.last!.at))
    let slices = sink.slices.withLock { $0 }
    let rest = state.takeChanges()
    #expect(slices.count == 5_000 / 512, "a slice every 512 pushes")
    #expect(slices.allSatisfy { $0.appliedCount <= 512 })
    // Every push once, in order, over the slices and what the turn left.
    let indices = (slices + [rest]).flatMap { $0.deliveries.map(\.record.index) }
    #expect(indices == Array(0..<5_000))
    // Each slice carries the clock after its last push.
    #expect(slices.first?.updates.state?.now == state.timeline[511].at)
  }

  @Test func withoutASinkTheTurnKeepsItsChangesWhole() {
    var state = state(pushes: 2_000)
    state.changeSliceSize = 100
    _ = reduce(into: &state, .tick(state.timeline.last!.at))
    #expect(state.takeChanges().deliveries.count == 2_000)
  }

  /// While the inputs are still read and no device is played ahead (a state database), a seek
  /// past everything read plays what is read, at its own time, and waits for the rest; once
  /// everything is read it reaches the target. No push arrives late, at the target's time.
  @Test func aSeekPastWhatIsReadWaitsForTheRest() {
    let all = scaleTimeline(pushes: 400, from: DemoScenario.start, badges: false)
    var state = AppState(device: DeviceSimulator(profile: DeviceProfile(start: DemoScenario.start, isLocked: false)))
    state.journalsChanges = true
    state.appendTimeline(all[..<200])
    state.readingProgress = 0.5
    let target = DemoScenario.start + .hours(400 * 24)
    _ = reduce(into: &state, .tick(target))
    #expect(state.now == all[199].at - AppState.playAheadWaitMargin, "played what was read, less the margin")
    #expect(state.toast?.text.hasPrefix("Seeking") == true)
    #expect(state.device.records.allSatisfy { $0.at <= all[199].at })
    state.appendTimeline(all[200...])
    state.readingProgress = nil
    _ = reduce(into: &state, .tick(target))
    #expect(state.now == target)
    #expect(state.lateArrivals == 0)
    #expect(state.device.records.count == 400)
    // Each push at its own time, not at the target's.
    #expect(zip(state.device.records, all).allSatisfy { $0.at == $1.at })
  }

  /// The same seek in `run` (a slice a turn): each turn plays at most a slice of what is read,
  /// the screen following it (`following to`), instead of one turn playing everything read
  /// while the screen stands still; then it goes on to the target once everything is read.
  @Test func aSeekPastWhatIsReadPlaysASliceATurn() {
    let all = scaleTimeline(pushes: 400, from: DemoScenario.start, badges: false)
    var state = AppState(device: DeviceSimulator(profile: DeviceProfile(start: DemoScenario.start, isLocked: false)))
    state.journalsChanges = true
    state.playSlice = 64
    state.appendTimeline(all[..<300])
    state.readingProgress = 0.5
    let target = DemoScenario.start + .hours(400 * 24)
    _ = reduce(into: &state, .tick(target))
    #expect(state.playedEntryCount == 64)
    #expect(state.followingTo == target)
    var turns = 1
    while state.followingTo != nil && turns < 100 {
      let before = state.playedEntryCount
      _ = reduce(into: &state, .tick(target))
      #expect(state.playedEntryCount - before <= 64)
      turns += 1
      if state.playedEntryCount == before { break }  // waiting for the rest to be read
    }
    #expect(state.now == all[299].at - AppState.playAheadWaitMargin, "played what was read, less the margin")
    #expect(state.followingTo == target)
    state.appendTimeline(all[300...])
    state.readingProgress = nil
    while state.followingTo != nil && turns < 100 {
      _ = reduce(into: &state, .tick(target))
      turns += 1
    }
    #expect(state.now == target)
    #expect(state.device.records.count == 400)
    #expect(zip(state.device.records, all).allSatisfy { $0.at == $1.at })
  }
}

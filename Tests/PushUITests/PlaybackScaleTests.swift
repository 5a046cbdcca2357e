import PushCore
import PushTestSupport
import Testing

@testable import PushUI

/// Playing n events costs O(n log n), counted in the elements the bookkeeping looks at, not in
/// time: the banner queue, the summary card and the store's removals and releases once looked
/// at every queued banner per push, which made `render` of a 20,000-line capture take a minute.
@Suite("Playback scale")
struct PlaybackScaleTests {
  /// The scale phone (``scaleProfile(start:summaryTimes:maxStored:)``), its summary at 08:00
  /// and 20:00.
  private func state(pushes count: Int) -> AppState {
    let start = DemoScenario.start
    let profile = scaleProfile(
      start: start, summaryTimes: [TimeOfDay(hour: 8, minute: 0), TimeOfDay(hour: 20, minute: 0)],
      maxStored: 1_000_000)
    let entries = scaleTimeline(pushes: count, from: start, badges: false)
    return AppState(device: DeviceSimulator(profile: profile), timeline: entries)
  }

  /// Plays the whole timeline in one tick, as `render` and a seek to the end do.
  private func steps(pushes count: Int) -> (steps: Int, banners: Int, stored: Int) {
    var state = state(pushes: count)
    _ = reduce(into: &state, .tick(state.timeline.last!.at + .seconds(1)))
    return (state.bookkeepingSteps, state.banners.count, state.device.store.count)
  }

  @Test func fourTimesTheEventsIsAboutFourTimesTheWork() {
    let small = steps(pushes: 2_000)
    let large = steps(pushes: 8_000)
    #expect(small.stored > 1_000, "the pushes were stored")
    #expect(large.stored > 4 * 1_000)
    // O(n log n) allows 4 × log(8000)/log(2000) ≈ 4.7×; the quadratic path was 16×.
    #expect(large.steps <= small.steps * 5, "\(small.steps) steps for 2,000 events, \(large.steps) for 8,000")
    #expect(large.banners <= Banner.queueLimit)
  }
}

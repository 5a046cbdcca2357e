import PushCore
import PushTestSupport
import Testing

@testable import PushUI

/// A toast leaves after four simulated seconds, but while the clock plays fast it stays at
/// least two seconds of real time, so the answer to a key can be read; `render`, which has no
/// real time, lets it go on simulated time alone.
@Suite struct ToastTimeTests {
  @Test func aToastStaysTwoRealSecondsAtAnySpeed() {
    var state = AppState.demo(upcoming: false)
    state.configurePlayback(isPlaying: true, speed: 1000)
    _ = reduce(into: &state, .wallClock(elapsed: .seconds(10)))
    state.showToast("Theme: light")
    // A thousand simulated seconds in half a real second: still there.
    _ = reduce(into: &state, .tick(state.now + .seconds(1_000)))
    _ = reduce(into: &state, .wallClock(elapsed: SimDuration(milliseconds: 10_500)))
    #expect(state.toast?.text == "Theme: light")
    // Two real seconds after it was first seen (10.5 s), it goes.
    _ = reduce(into: &state, .wallClock(elapsed: SimDuration(milliseconds: 12_100)))
    #expect(state.toast?.text == "Theme: light")
    _ = reduce(into: &state, .wallClock(elapsed: SimDuration(milliseconds: 12_600)))
    #expect(state.toast == nil)
  }

  @Test func withoutRealTimeAToastGoesOnSimulatedTime() {
    var state = AppState.demo(upcoming: false)
    state.showToast("Back to 09:41:00")
    _ = reduce(into: &state, .tick(state.now + .seconds(3)))
    #expect(state.toast != nil)
    _ = reduce(into: &state, .tick(state.now + .seconds(2)))
    #expect(state.toast == nil)
  }

  /// A rejection arriving on a fast clock does not push out a toast that has not been readable
  /// yet; once it has, the next one shows.
  @Test func aRejectionDoesNotPushOutAFreshToast() {
    var state = AppState.demo(upcoming: false)
    state.configurePlayback(isPlaying: true, speed: 1000)
    _ = reduce(into: &state, .wallClock(elapsed: .seconds(10)))
    state.showToast("Theme: light")
    state.applyNow(push("not json"))
    #expect(state.toast?.text == "Theme: light")
    #expect(state.rejectedCount == 1)
    _ = reduce(into: &state, .wallClock(elapsed: SimDuration(milliseconds: 10_100)))
    _ = reduce(into: &state, .wallClock(elapsed: .seconds(13)))
    state.applyNow(push("still not json"))
    #expect(state.toast?.text.hasPrefix("✗ Rejected") == true)
  }

  /// The rejection that waited for a fresh toast shows when that toast leaves: it was dropped,
  /// so a rejected line right after "New device for …" was only counted (found by the tmux test
  /// of a rejected capture line, which then waited for a toast that never came).
  @Test func aRejectionThatWaitedShowsWhenTheToastLeaves() {
    var state = AppState.demo(upcoming: false)
    state.configurePlayback(isPlaying: false, speed: 1)
    _ = reduce(into: &state, .wallClock(elapsed: .seconds(10)))
    state.showToast("New device for cap.jsonl")
    _ = reduce(into: &state, .wallClock(elapsed: SimDuration(milliseconds: 10_100)))
    state.applyNow(push("not json"))
    state.applyNow(push("still not json"))
    #expect(state.toast?.text == "New device for cap.jsonl")
    // The paused clock's toast leaves after its four seconds of real time; the latest rejection
    // takes its place, and then leaves in turn.
    _ = reduce(into: &state, .wallClock(elapsed: .seconds(15)))
    #expect(state.toast?.text.hasPrefix("✗ Rejected") == true, "\(String(describing: state.toast))")
    _ = reduce(into: &state, .wallClock(elapsed: .seconds(16)))
    _ = reduce(into: &state, .wallClock(elapsed: .seconds(21)))
    #expect(state.toast == nil)
  }
}

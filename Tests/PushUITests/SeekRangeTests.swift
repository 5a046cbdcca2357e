import PushCore
import PushTestSupport
import Testing

@testable import PushUI

/// The seek prompt (`g` in the timeline) reads offsets a person types: a huge one is refused
/// with a toast, never a trap, and the clock stays where it was.
struct SeekRangeTests {
  private func seek(_ text: String, in state: inout AppState) -> [Effect] {
    _ = reduce(into: &state, .command(.beginSeek))
    for character in text { _ = reduce(into: &state, .command(.insertText(String(character)))) }
    return reduce(into: &state, .command(.activate))
  }

  @Test(arguments: [
    "+99999999999999999m", "+9223372036854775807s", "-99999999999999999m", "+106751991167d",
    "+99999999999999999999999s", "-100000d",
  ])
  func aHugeOffsetIsRefusedWithAToast(_ text: String) {
    var state = AppState.demo()
    let before = state.now
    #expect(state.seekTarget(text) == nil)
    #expect(seek(text, in: &state) == [])
    #expect(state.now == before)
    #expect(state.toast?.text.contains("outside the years 1970 to 9999") == true)
  }

  @Test func ordinaryOffsetsStillSeek() {
    var state = AppState.demo()
    #expect(state.seekTarget("+1d") == state.now + .hours(24))
    #expect(state.seekTarget("+1h30m") == state.now + .minutes(90))
    #expect(seek("+5m", in: &state) == [.advanceClock(.minutes(5))])
    _ = seek("+5x", in: &state)
    #expect(state.toast?.text.contains("try +5m") == true)
  }

  /// Display As is how the user looks at the phone, not something that happened on it: a seek
  /// back, which replays the device from its start, keeps it (it used to fall back to the
  /// profile's).
  @Test func aSeekBackKeepsDisplayAs() {
    var state = AppState.demo()
    _ = seek("+10m", in: &state)
    state.device.setLockScreenDisplay(.count)
    _ = seek("-5m", in: &state)
    #expect(state.toast?.text.contains("Back to") == true)
    #expect(state.device.profile.lockScreenDisplay == .count)
  }
}

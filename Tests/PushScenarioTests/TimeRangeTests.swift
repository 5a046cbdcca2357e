import PushCore
import Testing

@testable import PushScenario

/// Times and durations in scenarios stay within the simulated years (`EpochRange`): one that
/// would leave them is a located error, never a trap.
struct TimeRangeTests {
  func error(_ text: String) -> String {
    do {
      _ = try ScenarioLoader(files: .memory([:])).loadScenario(text: text, file: "s.yaml")
      return "no error"
    } catch {
      return error.description
    }
  }

  /// `advance: 106751991167d` is a duration that fits in Int64 milliseconds, but the clock
  /// plus it overflowed (a trap).
  @Test func anAdvancePastTheYear9999IsALocatedError() {
    let message = error(
      """
      profile: {start: 2026-11-23 09:41}
      timeline:
        - advance: 106751991167d
      """)
    #expect(message.hasPrefix(#"s.yaml:3:14: timeline[0].advance: "106751991167d" goes past 9999-12-31T23:59:59.999Z"#))
  }

  @Test func atAndAfterPastTheYear9999AreLocatedErrors() {
    #expect(
      error("timeline:\n  - {at: +106751991167d, lock: true}").hasPrefix(
        #"s.yaml:2:10: timeline[0].at: "+106751991167d" goes past"#))
    #expect(
      error("timeline:\n  - {after: 3000000000d, lock: true}").hasPrefix(
        #"s.yaml:2:13: timeline[0].after: "3000000000d" goes past"#))
  }

  /// Several units that each fit but whose sum overflows Int64 trapped in `TimeGrammar.duration`.
  @Test func aDurationWhoseSumOverflowsIsNotADuration() {
    #expect((try? TimeGrammar.duration("106751991167d106751991167d")) == nil)
    #expect((try? TimeGrammar.duration("1d1h")) == .hours(25))
    #expect(
      error("timeline:\n  - advance: 106751991167d106751991167d").hasPrefix(
        #"s.yaml:2:14: timeline[0].advance: "106751991167d106751991167d" goes past"#))
  }

  @Test func startsBefore1970AreLocatedErrors() {
    #expect(
      error("profile: {start: 1969-12-31T23:59:59Z}\ntimeline: []").hasPrefix(
        "s.yaml:1:18: profile.start: \"1969-12-31T23:59:59Z\" is outside the simulated time 1970-01-01T00:00:00Z"))
    #expect(
      error("timeline:\n  - {at: 0001-01-01T00:00:00Z, lock: true}").hasPrefix(
        "s.yaml:2:10: timeline[0].at: \"0001-01-01T00:00:00Z\" is outside the simulated time"))
  }

  @Test func timesInsideTheRangeLoad() throws {
    let scenario = try ScenarioLoader(files: .memory([:])).loadScenario(
      text: """
        profile: {start: 9999-12-31T23:00:00Z}
        timeline:
          - advance: 59m59s
          - {at: 9999-12-31T23:59:59.999Z, lock: true}
        """, file: "s.yaml")
    #expect(scenario.timeline.last?.at == SimInstant.latest)
  }
}

import PushCore
import Testing

/// The one time grammar (`TimeGrammar`): every form it reads, its boundaries, what is outside
/// the simulated time and what is not a time at all.
struct TimeGrammarTests {
  /// 2026-11-23T09:41:00Z.
  let now = SimInstant(milliseconds: 1_795_426_860_000)
  let berlin = 3600

  private func instant(_ text: String, offset: Int = 0) throws(TimeGrammar.Failure) -> SimInstant {
    try TimeGrammar.instant(text, now: now, utcOffsetSeconds: offset)
  }

  private func iso(_ instant: SimInstant, offset: Int = 0) -> String {
    CivilTime.iso8601(instant, utcOffsetSeconds: offset)
  }

  @Test func timesOfDayAreOnTheCurrentLocalDay() throws {
    #expect(iso(try instant("09:45")) == "2026-11-23T09:45:00Z")
    #expect(iso(try instant("9:45")) == "2026-11-23T09:45:00Z")
    #expect(iso(try instant("08:00:30")) == "2026-11-23T08:00:30Z")
    #expect(try instant("08:00:30.250").milliseconds % 1000 == 250)
    #expect(iso(try instant("00:00")) == "2026-11-23T00:00:00Z")
    #expect(iso(try instant("23:59:59")) == "2026-11-23T23:59:59Z")
    // In Berlin it is 10:41 local: 09:45 local is 08:45 UTC, the same local day.
    #expect(iso(try instant("09:45", offset: berlin)) == "2026-11-23T08:45:00Z")
    // 00:30 local in Berlin is still the 23rd locally (the 22nd 23:30 UTC).
    #expect(iso(try instant("00:30", offset: berlin)) == "2026-11-22T23:30:00Z")
  }

  @Test func isoTimesWithAndWithoutOffsets() throws {
    #expect(iso(try instant("2026-11-23T09:45:00Z")) == "2026-11-23T09:45:00Z")
    #expect(iso(try instant("2026-11-23T09:45:00+01:00")) == "2026-11-23T08:45:00Z")
    #expect(try instant("2026-11-23T09:45:00.250Z").milliseconds % 1000 == 250)
    #expect(iso(try instant("2026-11-23 09:45", offset: berlin)) == "2026-11-23T08:45:00Z")
    #expect(iso(try instant("2024-02-29T12:00Z")) == "2024-02-29T12:00:00Z")
  }

  @Test func relativeTimesAndDurations() throws {
    #expect(try instant("+0s") == now)
    #expect(try instant("+1h30m") == now + .minutes(90))
    #expect(try instant("-30s") == now - .seconds(30))
    #expect(try instant("+250ms") == SimInstant(milliseconds: now.milliseconds + 250))
    #expect(try instant("  +5m ") == now + .minutes(5))
    #expect(try instant("250ms") == SimInstant(milliseconds: now.milliseconds + 250))
    #expect(try instant("1h30m") == now + .minutes(90))
    #expect(try TimeGrammar.duration("250ms") == SimDuration(milliseconds: 250))
    #expect(try TimeGrammar.duration("1d1h") == .hours(25))
    #expect(try TimeGrammar.duration("2min") == .minutes(2))
    #expect(try TimeGrammar.duration("0") == SimDuration(milliseconds: 0))
    #expect(try TimeGrammar.duration("+30s") == .seconds(30))
    #expect(try TimeGrammar.signedDuration("-1h") == .hours(-1))
  }

  @Test func theStartOfTheLocalDayIsOneDefinition() {
    #expect(iso(now.startOfLocalDay(utcOffsetSeconds: 0)) == "2026-11-23T00:00:00Z")
    #expect(iso(now.startOfLocalDay(utcOffsetSeconds: berlin)) == "2026-11-22T23:00:00Z")
    #expect(iso(now.startOfLocalDay(utcOffsetSeconds: -10 * 3600)) == "2026-11-22T10:00:00Z")
    #expect(SimInstant.earliest.startOfLocalDay(utcOffsetSeconds: 0) == .earliest)
    // Far outside the range it saturates instead of trapping.
    _ = SimInstant(milliseconds: .min).startOfLocalDay(utcOffsetSeconds: 14 * 3600)
    _ = SimInstant(milliseconds: .max).startOfLocalDay(utcOffsetSeconds: -14 * 3600)
  }

  @Test(arguments: [
    "+99999999999999999m", "+9223372036854775807s", "+99999999999999999999999s", "-100000d", "+106751991167d",
    "1969-12-31T23:59:59Z", "0001-01-01T00:00:00Z",
  ])
  func outsideTheSimulatedTimeIsOutOfRange(_ text: String) {
    #expect(throws: TimeGrammar.Failure.outOfRange(text)) { try instant(text) }
  }

  @Test func theRangeEndsAreIn() throws {
    #expect(try instant("9999-12-31T23:59:59.999Z") == .latest)
    #expect(try instant("1970-01-01T00:00:00Z") == .earliest)
    #expect(throws: TimeGrammar.Failure.outOfRange("+1ms")) {
      try TimeGrammar.instant("+1ms", now: .latest, utcOffsetSeconds: 0)
    }
    #expect(throws: TimeGrammar.Failure.outOfRange("23:59")) {
      try TimeGrammar.instant("23:59", now: .latest, utcOffsetSeconds: -3600)
    }
  }

  @Test(arguments: [
    "", "soon", "24:00", "9:60", "09:45:60", "9:5", "123:45", "+", "+5", "5", "+5x", "5x", "+m", "+5m30",
    "2026-02-30T00:00Z", "2026-13-01T00:00Z", "2026-11-23T09:45:00+19:00", "09:45Z", "+５m", "٠٩:٤٥", "+1h 30m",
    "2026-11-23T09:45:00Zjunk",
  ])
  func garbageIsUnreadableAndSaysWhatIsAccepted(_ text: String) {
    do {
      _ = try instant(text)
      Issue.record("\(text) was read as a time")
    } catch {
      guard case .unreadable(_, let expected) = error else {
        Issue.record("\(text): \(error)")
        return
      }
      #expect(expected == TimeGrammar.instantForms)
      #expect(error.description.contains("09:45, 08:00:30"))
    }
  }

  @Test(arguments: ["", "-5m", "5", "5x", "m", "1.5h", "ms"])
  func badDurationsAreUnreadable(_ text: String) {
    #expect(throws: TimeGrammar.Failure.self) { try TimeGrammar.duration(text) }
  }

  @Test func aDurationThatOverflowsIsOutOfRangeNotATrap() {
    #expect(throws: TimeGrammar.Failure.outOfRange("106751991167d106751991167d")) {
      try TimeGrammar.duration("106751991167d106751991167d")
    }
    #expect(throws: TimeGrammar.Failure.outOfRange("99999999999999999999ms")) {
      try TimeGrammar.duration("99999999999999999999ms")
    }
  }

  @Test func summaryTimesUseTheSameClockGrammar() {
    #expect(TimeOfDay("8:00")?.minutes == 480)
    #expect(TimeOfDay("18:30")?.minutes == 18 * 60 + 30)
    #expect(TimeOfDay("08:00:30") == nil)
    #expect(TimeOfDay("24:00") == nil)
  }
}

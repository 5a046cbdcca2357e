import PushCore
import Testing

/// Simulated instants are 1970-01-01 to 9999-12-31 (`EpochRange`, docs/DECISIONS.md): numbers
/// from outside are checked where they are read, and time arithmetic never traps.
struct SimInstantRangeTests {
  @Test func theRangeIsTheYears1970To9999() {
    #expect(CivilTime.iso8601(SimInstant.earliest) == "1970-01-01T00:00:00Z")
    #expect(CivilTime.iso8601(SimInstant.latest) == "9999-12-31T23:59:59.999Z")
    #expect(SimInstant.latest.milliseconds == EpochRange.highestMilliseconds)
  }

  /// Written digit by digit (explain writes two a push): padded fields, milliseconds only
  /// when there are some, the offset as ±hh:mm.
  @Test func isoTimesCarryMillisecondsAndTheOffset() {
    let instant = SimInstant(milliseconds: 1_767_225_600_125)  // 2026-01-01 00:00:00.125 UTC
    #expect(CivilTime.iso8601(instant) == "2026-01-01T00:00:00.125Z")
    #expect(CivilTime.iso8601(instant, utcOffsetSeconds: -12_600) == "2025-12-31T20:30:00.125-03:30")
    #expect(CivilTime.iso8601(instant + .seconds(3_725), utcOffsetSeconds: 20_700) == "2026-01-01T06:47:05.125+05:45")
    #expect(CivilTime.iso8601(SimInstant(milliseconds: 5), utcOffsetSeconds: 50_400) == "1970-01-01T14:00:00.005+14:00")
    #expect(
      CivilTime.iso8601(SimInstant(milliseconds: 61_000), utcOffsetSeconds: -3_600) == "1969-12-31T23:01:01-01:00")
  }

  @Test(arguments: [
    1e300, 1e18, 9_223_372_036_854_775_807, -9_223_372_036_854_775_808, 9_223_372_036_854_775_808, -1,
    253_402_300_800, .nan, .infinity, -.infinity,
  ])
  func secondsOutsideTheRangeAreNotAnInstant(_ seconds: Double) {
    #expect(SimInstant(exactlyEpochSeconds: seconds) == nil)
  }

  @Test func secondsInsideTheRangeAreExact() {
    #expect(SimInstant(exactlyEpochSeconds: 0)?.milliseconds == 0)
    #expect(SimInstant(exactlyEpochSeconds: -0.0)?.milliseconds == 0)
    #expect(SimInstant(exactlyEpochSeconds: 1e-400)?.milliseconds == 0)
    #expect(SimInstant(exactlyEpochSeconds: 1_767_225_600.125)?.milliseconds == 1_767_225_600_125)
    #expect(SimInstant(exactlyEpochSeconds: 253_402_300_799.999) == SimInstant.latest)
    #expect(SimInstant(exactlyMilliseconds: EpochRange.highestMilliseconds + 1) == nil)
    #expect(SimInstant(exactlyMilliseconds: -1) == nil)
  }

  /// `SimInstant(epochSeconds:)` trapped converting 1e300 to Int64; it now clamps.
  @Test func theUncheckedInitializerClampsInsteadOfTrapping() {
    #expect(SimInstant(epochSeconds: 1e300) == SimInstant.latest)
    #expect(SimInstant(epochSeconds: 9_223_372_036_854_775) == SimInstant.latest)
    #expect(SimInstant(epochSeconds: -1e300) == SimInstant.earliest)
    #expect(SimInstant(epochSeconds: .nan) == SimInstant.earliest)
  }

  @Test func arithmeticSaturatesInsteadOfOverflowing() {
    let nearTheEnd = SimInstant(milliseconds: .max - 10)
    #expect((nearTheEnd + .seconds(1)).milliseconds == .max)
    #expect((SimInstant(milliseconds: .min + 10) - .seconds(1)).milliseconds == .min)
    #expect((SimInstant(milliseconds: .max) - SimInstant(milliseconds: -1)).milliseconds == .max)
    #expect(SimDuration.seconds(.max).milliseconds == .max)
    #expect(SimDuration.minutes(-9_999_999_999_999_999).milliseconds == .min)
    #expect(SimDuration.hours(106_751_991_167_300).milliseconds == .max)
    #expect(SimDuration.minutes(2).milliseconds == 120_000)
  }

  @Test func addingReportsLeavingTheRange() {
    let start = SimInstant(exactlyEpochSeconds: 1_795_426_860)!
    #expect(start.adding(.minutes(5)) == start + .minutes(5))
    #expect(start.adding(.hours(106_751_991_167 * 24)) == nil)
    #expect(SimInstant.latest.adding(SimDuration(milliseconds: 1)) == nil)
    #expect(SimInstant.earliest.adding(SimDuration(milliseconds: -1)) == nil)
    #expect(SimInstant(milliseconds: .max).adding(.seconds(1)) == nil)
    #expect(SimDuration(exactly: 999_999_999_999_999_999, unitMilliseconds: 60_000) == nil)
    #expect(SimDuration(exactly: 3, unitMilliseconds: 60_000) == .minutes(3))
  }

  /// A Live Activity's `stale-date` or `dismissal-date` outside the range is treated as absent
  /// (1e300 trapped converting to milliseconds).
  @Test func aLiveActivityDateOutOfRangeIsIgnored() {
    var sim = DeviceSimulator(profile: DeviceProfile(start: start))
    let headers = [("apns-push-type", "liveactivity"), ("apns-topic", "com.example.chat.push-type.liveactivity")]
    let startPush =
      #"{"aps": {"timestamp": 10, "event": "start", "stale-date": 1e300, "attributes-type": "Delivery", "attributes": {"id": 1}, "content-state": {"eta": 12}, "alert": {"title": "Order", "body": "Preparing"}}}"#
    #expect(
      sim.apply(.push(push(startPush, headers: headers)), at: at(1))?.decision.reasonCodes == [.liveActivityStarted])
    #expect(sim.liveActivities.first?.staleDate == nil)
    let end =
      #"{"aps": {"timestamp": 30, "event": "end", "content-state": {"eta": 0}, "dismissal-date": -9223372036854775808}}"#
    #expect(sim.apply(.push(push(end, headers: headers)), at: at(4))?.decision.reasonCodes == [.liveActivityEnded])
    #expect(sim.liveActivities.first?.dismissalDate == at(4) + .hours(4))
  }

  /// The next Scheduled Summary of a clock at Int64's ends is a wrong time, never a trap.
  @Test func theNextSummaryOfAClockAtInt64sEndsDoesNotTrap() {
    let times = [TimeOfDay(hour: 8, minute: 0), TimeOfDay(hour: 18, minute: 0)]
    for milliseconds in [Int64.max, Int64.max - 1000, Int64.min, Int64.min + 1000] {
      let context = DeliveryContext(
        now: SimInstant(milliseconds: milliseconds), summaryTimes: times, utcOffsetSeconds: -18 * 3600)
      #expect(context.nextSummary() != nil)
    }
    let ordinary = DeliveryContext(now: start, summaryTimes: times, utcOffsetSeconds: 3600)
    let next = try? #require(ordinary.nextSummary())
    #expect(next.map { $0 > start && $0 - start <= .hours(24) } == true)
  }
}

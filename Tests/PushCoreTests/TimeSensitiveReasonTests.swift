import Testing

@testable import PushCore

/// The reasons say which switch held a time-sensitive push back: the app's entitlement (the
/// developer's to add), its setting (the user's to turn on), or the Focus's own Time Sensitive
/// switch. All three read as if the setting were off.
@Suite struct TimeSensitiveReasonTests {
  private func texts(_ decision: DeliveryDecision) -> [String] { decision.reasons.map(\.text) }

  @Test func noEntitlementIsSaidToBeTheEntitlement() {
    let decision = decide(note(level: .timeSensitive), app { $0.timeSensitiveEntitled = false })
    #expect(decision.effectiveLevel == .active)
    #expect(
      texts(decision).contains(
        "Time Sensitive needs the Time Sensitive Notifications entitlement, which Example does not have: delivered as active."
      ))
  }

  @Test func theSettingOffIsSaidToBeTheSetting() {
    let decision = decide(note(level: .timeSensitive), app { $0.settings.timeSensitive = false })
    #expect(decision.effectiveLevel == .active)
    #expect(
      texts(decision).contains("Time Sensitive is off for Example in its notification settings: delivered as active."))
  }

  @Test func aFocusWithoutTimeSensitiveSaysSo() {
    let decision = decide(
      note(level: .timeSensitive), app(), DeliveryContext(now: now, isLocked: true, focus: workNoTimeSensitive))
    #expect(
      texts(decision).contains { $0.hasPrefix("Work is on and does not allow Time Sensitive notifications or Example") }
    )
    let active = decide(note(), app(), DeliveryContext(now: now, isLocked: true, focus: workNoTimeSensitive))
    #expect(active.reasons.contains { $0.text.hasPrefix("Work is on and does not allow Example:") })
  }
}

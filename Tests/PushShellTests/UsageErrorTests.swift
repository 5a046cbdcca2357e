import PushCore
import PushWire
import Testing

@testable import PushShell

@Suite struct UsageErrorTests {
  @Test func anUnknownPresetIsAUsageErrorThatNamesThePresets() throws {
    let error = #expect(throws: UsageError.self) {
      try Session.presetProfile("no-such-preset", start: SimInstant(milliseconds: 0))
    }
    let message = try #require(error).message
    #expect(message.contains("unlocked"))
    #expect(message.hasSuffix("not no-such-preset"))
  }

  @Test func anEmptyOrOverlongDeviceListIsAUsageError() {
    #expect(throws: UsageError.self) { try DeviceVariant.parse("locked,,dnd") }
    #expect(throws: UsageError.self) {
      try DeviceVariant.parse(Array(repeating: "dnd", count: 9).joined(separator: ","))
    }
  }

  @Test func knownPresetsParseIntoNamedVariants() throws {
    let variants = try DeviceVariant.parse("locked,dnd")
    #expect(variants.map(\.name) == ["locked", "dnd"])
  }
}

/// `--compare`'s presets reach every app the device meets, not only those a profile lists: a
/// capture's and a payload file's apps are installed on first sight.
@Suite struct ComparePresetTests {
  let start = SimInstant(milliseconds: 1_767_225_600_000)

  func disposition(_ preset: String, listed: Bool) throws -> Disposition? {
    var base = DeviceProfile.standard(start: start)
    if listed { base.apps = [AppProfile(info: .inferred(from: "com.example.mail"))] }
    let profile = try DeviceVariant.variant(preset).apply(base)
    var device = DeviceSimulator(profile: profile)
    let payload = #"{"aps":{"alert":{"title":"Inbox","body":"3 new"}}}"#
    let record = PushReader.readPayloadFile(
      Array(payload.utf8), source: "mail.json", format: .payload, bundleID: "com.example.mail")
    device.apply(.push(record), at: start + .seconds(1))
    return device.records.last?.decision.disposition
  }

  @Test(arguments: [true, false])
  func summaryAndProvisionalApplyToListedAndUnlistedApps(listed: Bool) throws {
    #expect(try disposition("locked", listed: listed) == .delivered)
    #expect(try disposition("summary", listed: listed) == .heldForSummary)
    #expect(try disposition("provisional", listed: listed) == .deliveredQuietly)
  }
}

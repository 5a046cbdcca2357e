import PushCore
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

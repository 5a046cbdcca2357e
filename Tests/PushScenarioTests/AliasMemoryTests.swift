import Foundation
import PushCore
import Testing

@testable import PushScenario

/// A value reused through YAML aliases costs memory once (issue 15 §5): pushes whose payload is
/// the same alias share one record, and what distinct payloads repeat through aliases is capped
/// with a located error.
struct AliasMemoryTests {
  let loader = ScenarioLoader(files: .none)
  /// 60,000 characters: a payload far over APNs' 4 KB, as in the 60 KB alias.
  let big = String(repeating: "x", count: 60_000)

  func records(_ scenario: Scenario) -> [PushRecord] {
    scenario.timeline.compactMap { timed in
      if case .device(.push(let record, _)) = timed.event { return record }
      return nil
    }
  }

  @Test func pushesWhosePayloadIsOneAliasShareOneRecord() throws {
    var text = "timeline:\n  - push:\n      bundle: com.example.app\n"
    text += "      payload: &big {aps: {alert: hi}, data: \"\(big)\"}\n"
    for _ in 1..<200 { text += "  - push:\n      bundle: com.example.app\n      payload: *big\n" }
    let pushes = records(try loader.loadScenario(text: text, file: "shared.yaml"))
    #expect(pushes.count == 200)
    let addresses = Set(
      pushes.map { record in record.rawBytes.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) } })
    // The first push (where the anchor is written) and one record shared by all the aliases.
    #expect(addresses.count <= 2, "\(addresses.count) copies of the payload's bytes")
    #expect(pushes.allSatisfy { $0.byteCount == pushes[0].byteCount })
    // Each push still says where it is.
    #expect(Set(pushes.map(\.line)).count >= 2)
  }

  @Test func distinctPayloadsRepeatingAnAliasAreCappedWithALocatedError() throws {
    var text = "timeline:\n"
    for index in 0..<400 {
      text += "  - push:\n      bundle: com.example.app\n"
      text += "      payload: {aps: {alert: n\(index)}, data: " + (index == 0 ? "&big \"\(big)\"" : "*big") + "}\n"
    }
    // Each later push repeats 60,002 bytes of JSON; the 281st takes the total over 16 MiB. The
    // error names its push (the mapping under `push:`, line 3 + 3 × index) and the alias's path.
    let crossing = AliasExpansions.maximumExpandedBytes / 60_002 + 1
    #expect {
      _ = try loader.loadScenario(text: text, file: "cap.yaml")
    } throws: { error in
      guard let error = error as? ScenarioError else { return false }
      return error.file == "cap.yaml" && error.line == 3 + 3 * crossing
        && error.path == "timeline[\(crossing)].push.payload.data"
        && error.message.contains("*big") && error.message.contains("16 MiB")
        && error.message.contains("payload: *big")
    }
  }
}

extension AliasMemoryTests {
  /// A timeline entry repeated through an alias (`- *e`, how a million events fit in the 16 MiB
  /// a scenario file may have) shares its push's record too.
  @Test func anEntryRepeatedThroughAnAliasSharesItsRecord() throws {
    var text = "timeline:\n  - &e {after: 1s, push: {bundle: com.example.app, payload: {aps: {alert: hi}}}}\n"
    for _ in 1..<100 { text += "  - *e\n" }
    let scenario = try loader.loadScenario(text: text, file: "entries.yaml")
    let pushes = records(scenario)
    #expect(pushes.count == 100)
    let addresses = Set(
      pushes.map { record in record.rawBytes.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) } })
    #expect(addresses.count == 1, "\(addresses.count) copies of the payload's bytes")
    // Each entry still comes a second after the one before.
    #expect(scenario.timeline.last!.at == scenario.timeline.first!.at + .seconds(99))
  }
}

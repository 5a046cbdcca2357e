import Foundation
import PushCore
import Testing

@testable import PushScenario

/// A value reused through YAML aliases costs memory once (issue 15 §5): pushes whose payload is
/// the same alias share one record, and what distinct payloads repeat through aliases is capped
/// with a located error.
struct AliasMemoryTests {
  let loader = ScenarioLoader(files: .none)
  /// 60,000 characters: a payload far over APNs' 4 KB, as in the issue's 60 KB alias.
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

extension AliasMemoryTests {
  /// Counted, not timed: a timeline entry repeated through an alias costs its time and one
  /// pointer, whatever the size of the value it repeats. Every repetition holds the first one's
  /// event (one shared copy, by identity), and an entry's own storage is a fixed 16 bytes, so a
  /// 3,000-byte push repeated a thousand times costs what a 2-byte one does.
  @Test(arguments: [2, 3_000]) func aRepeatedEntryCostsTheSameWhateverItsSize(size: Int) throws {
    let data = String(repeating: "x", count: size)
    var text =
      "timeline:\n  - &e {after: 1s, push: {bundle: com.example.app, payload: {aps: {alert: hi}, data: \(data)}}}\n"
    for _ in 1..<1_000 { text += "  - *e\n" }
    let timeline = try loader.loadScenario(text: text, file: "repeat.yaml").timeline
    #expect(timeline.count == 1_000)
    #expect(Set(timeline.map(\.sharedEventID)).count == 1)
    #expect(timeline.allSatisfy { $0.sharesEvent(with: timeline[0]) })
    #expect(MemoryLayout<TimedEvent>.size == 16)
    guard case .device(.push(let record, _)) = timeline[999].event else {
      Issue.record("the last entry is not a push")
      return
    }
    #expect(record.byteCount > size)
    // Each repetition keeps its own time, and says where it was written (the anchored entry).
    #expect(timeline[999].at == timeline[0].at + .seconds(999))
    #expect(timeline[999].source == "repeat.yaml:2")
  }

  /// Entries that are not repeated keep events of their own, and a `push:` repeated through an
  /// alias inside entries of their own shares the push, each entry keeping its own line.
  @Test func onlyRepeatedValuesAreShared() throws {
    let text = """
      timeline:
        - push: &p {bundle: com.example.app, payload: {aps: {alert: hi}}}
        - push: *p
        - {after: 1s, push: *p}
        - push: {bundle: com.example.app, payload: {aps: {alert: hi}}}
      """
    let timeline = try loader.loadScenario(text: text, file: "p.yaml").timeline
    #expect(timeline.count == 4)
    #expect(Set(timeline.map(\.sharedEventID)).count == 4)
    #expect(timeline.map(\.source) == ["p.yaml:2", "p.yaml:3", "p.yaml:4", "p.yaml:5"])
    #expect(timeline[1].event == timeline[0].event)
    #expect(timeline[2].event == timeline[0].event)
    #expect(timeline[2].at == timeline[1].at + .seconds(1))
  }

  /// A repeated entry whose time cannot follow is still an error at the repetition.
  @Test func aRepeatedEntryIsTimedAtEachUse() throws {
    let text = """
      timeline:
        - &e {at: "+1m", lock: true}
        - {at: "+2m", unlock: true}
        - *e
      """
    #expect {
      _ = try loader.loadScenario(text: text, file: "t.yaml")
    } throws: { error in
      guard let error = error as? ScenarioError else { return false }
      return error.file == "t.yaml" && error.message.contains("before the previous one")
    }
  }
}

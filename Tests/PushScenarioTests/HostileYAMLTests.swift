import Foundation
import PushCore
import Testing

@testable import PushScenario

/// YAML written to hurt the loader (issue 7): each case once hung or could crash it, and now
/// ends in a located error, quickly. See docs/RELIABILITY.md.
struct HostileYAMLTests {
  let loader = ScenarioLoader(files: .none)

  /// "Billion laughs": nine levels of ten aliases each stand for 10⁹ strings in a few hundred
  /// bytes. Found by hand while fuzzing; `explain` on this file ran for minutes (killed at 120 s).
  @Test func aliasBombInAnInlinePayloadIsRefused() throws {
    var lines = [
      "timeline:", "  - push:", "      bundle: com.example.app", "      payload:", "        aps: {alert: hi}",
      "        l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]",
    ]
    for level in 1...8 {
      lines.append(
        "        l\(level): &l\(level) [" + Array(repeating: "*l\(level - 1)", count: 10).joined(separator: ", ") + "]")
    }
    let started = ContinuousClock.now
    #expect {
      _ = try loader.loadScenario(text: lines.joined(separator: "\n"), file: "laughs.yaml")
    } throws: { error in
      guard let error = error as? ScenarioError else { return false }
      return error.description.contains("laughs.yaml:5:9: timeline[0].push.payload:")
        && error.description.contains("over 64 KiB once its aliases are expanded")
    }
    #expect(ContinuousClock.now - started < .seconds(30))
  }

  @Test func aliasesThatStaySmallStillWork() throws {
    let text = """
      timeline:
        - push:
            bundle: com.example.app
            payload:
              aps: {alert: hi}
              pair: &pair [1, 2]
              again: *pair
      """
    let scenario = try loader.loadScenario(text: text, file: "small.yaml")
    guard case .device(.push(let record, _)) = try #require(scenario.timeline.first).event else {
      Issue.record("not a push")
      return
    }
    #expect(record.isValid)
    #expect(String(decoding: record.rawBytes, as: UTF8.self).contains(#""again":[1,2]"#))
  }

  /// libyaml stops at 1,000 levels: the error is located, with no stack overflow.
  @Test(arguments: ["[", "{a: "]) func deepNestingIsASyntaxError(_ opener: String) {
    let closer = opener == "[" ? "]" : "}"
    let text = "timeline: " + String(repeating: opener, count: 100_000) + String(repeating: closer, count: 100_000)
    #expect {
      _ = try loader.loadScenario(text: text, file: "deep.yaml")
    } throws: { error in
      (error as? ScenarioError)?.description.contains("Maximum nesting level reached") == true
    }
  }
}

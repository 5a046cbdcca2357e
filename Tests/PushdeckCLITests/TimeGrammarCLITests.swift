import Foundation
import PushTestSupport
import Testing

/// The one time grammar at each of its entry points on the command line: `render --at`,
/// `render --advance` and a scenario's `at:` (the seek prompt is tried in tmux, in
/// InteractionTmuxTests).
@Suite(.requires(PushdeckProcess.binary != nil, "the pushdeck binary was not built"))
struct TimeGrammarCLITests {
  func render(_ arguments: [String], directory: URL = Corpus.repositoryRoot()) throws -> PushdeckProcess.Output {
    try PushdeckProcess.run(["render"] + arguments, directory: directory)
  }

  private func at(_ output: PushdeckProcess.Output) throws -> String? {
    let state = try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any]
    return state?["at"] as? String
  }

  @Test func renderAtTakesEveryInstantForm() throws {
    // Examples/messaging.yaml starts at 2026-11-23 12:02 in Lisbon (UTC+0 in November).
    let cases = [
      ("08:00:30", nil), ("12:03:30", "2026-11-23T12:03:30Z"), ("+0s", "2026-11-23T12:02:00Z"),
      ("+1h30m", "2026-11-23T13:32:00Z"), ("+250ms", nil), ("90s", "2026-11-23T12:03:30Z"),
      ("2026-11-23T12:04:00Z", "2026-11-23T12:04:00Z"),
    ]
    for (text, expected) in cases {
      let output = try render(["Examples/messaging.yaml", "--at", text, "--format", "json"])
      if let expected {
        #expect(output.status == 0, "\(text): \(output.standardError)")
        #expect(try at(output) == expected, "\(text)")
      } else if text == "08:00:30" {
        // A time of day before the device starts is refused, saying when it starts.
        #expect(output.status == 2)
        #expect(output.standardError.contains("--at 08:00:30 is before the device starts (2026-11-23T12:02:00"))
      } else {
        #expect(output.status == 0, "\(text): \(output.standardError)")
      }
    }
  }

  @Test func renderAtRefusesGarbageNamingTheForms() throws {
    let output = try render(["Examples/messaging.yaml", "--at", "noonish"])
    #expect(output.status == 2)
    #expect(output.standardError.contains("--at takes 09:45, 08:00:30, 2026-11-23T09:45:00Z"))
    #expect(output.standardError.contains("not noonish"))
  }

  @Test func renderAdvanceTakesDurationsAndBareMinutes() throws {
    let seconds = try render(["Examples/messaging.yaml", "--at", "+0s", "--advance", "90s", "--format", "json"])
    #expect(seconds.status == 0, "\(seconds.standardError)")
    #expect(try at(seconds) == "2026-11-23T12:03:30Z")
    let minutes = try render(["Examples/messaging.yaml", "--at", "+0s", "--advance", "2", "--format", "json"])
    #expect(try at(minutes) == "2026-11-23T12:04:00Z")
    let bad = try render(["Examples/messaging.yaml", "--advance", "2 minutes"])
    #expect(bad.status == 2)
    #expect(bad.standardError.contains("--advance takes 30s, 5m, 1h30m or 250ms"))
  }

  @Test func aScenarioAtTakesATimeOfDayAndLocatesItsErrors() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pushdeck-tg-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let good = """
      profile: {start: 2026-11-23T09:41:00Z}
      timeline:
        - {at: "09:45:30", lock: true}
      """
    try good.write(to: directory.appendingPathComponent("good.yaml"), atomically: true, encoding: .utf8)
    let output = try render(["good.yaml", "--format", "json"], directory: directory)
    #expect(output.status == 0, "\(output.standardError)")
    #expect(try at(output) == "2026-11-23T09:45:30Z")
    let bad = """
      profile: {start: 2026-11-23T09:41:00Z}
      timeline:
        - {at: "quarter past", lock: true}
      """
    try bad.write(to: directory.appendingPathComponent("bad.yaml"), atomically: true, encoding: .utf8)
    let refused = try render(["bad.yaml"], directory: directory)
    #expect(refused.status != 0)
    #expect(refused.standardError.contains("bad.yaml:3:"))
    #expect(refused.standardError.contains("expected a time such as 09:45, 08:00:30"))
  }
}

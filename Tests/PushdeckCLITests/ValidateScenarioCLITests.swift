import Foundation
import PushTestSupport
import Testing

/// `validate` on a scenario: loaded as explain and run load it, each push it writes checked
/// like a payload file; a scenario that cannot be loaded is an error at its line (it was read
/// as JSON, and "title is not a JSON value" said nothing of the scenario).
@Suite(.requires(PushdeckProcess.binary != nil, "the pushdeck binary was not built"))
struct ValidateScenarioCLITests {
  let directory: URL

  init() async throws { directory = try PushdeckProcess.temporaryDirectory() }

  func file(_ name: String, _ text: String) throws -> String {
    let url = directory.appendingPathComponent(name)
    try Data(text.utf8).write(to: url)
    return url.path
  }

  @Test func eachPushOfAScenarioIsCheckedWhereItIsWritten() async throws {
    let path = try file(
      "s.yaml",
      """
      title: Two pushes
      timeline:
        - at: +1m
          push: {bundle: com.example.chat, payload: {aps: {alert: Hello}}}
        - at: +2m
          push: {bundle: com.example.chat, payload: {aps: {alert: 5}}}
      """)
    let output = try await runPushdeck(["validate", "--strict", path])
    #expect(output.status == 1, "\(output.standardError)")
    #expect(output.standardOutput.contains("s.yaml:6: error[InvalidValue]: aps.alert"), "\(output.standardOutput)")
    #expect(!output.standardOutput.contains("JSON value"))
    #expect(output.standardError.contains("checked 2 payloads: 1 valid, 1 rejected"), "\(output.standardError)")
    let plain = try await runPushdeck(["validate", "--format", "json", path])
    #expect(plain.status == 0)
    #expect(plain.standardOutput.split(separator: "\n").count == 2)
  }

  @Test func aScenarioThatCannotBeLoadedIsAnErrorAtItsLine() async throws {
    let broken = try file("broken.yaml", "title: x\ntimeline:\n  - at: +1m\n    push: [\n")
    let payload = try file("ok.json", #"{"aps": {"alert": "ok"}}"#)
    let output = try await runPushdeck(["validate", broken, payload])
    #expect(output.status == 1)
    #expect(output.standardError.contains("broken.yaml:5:1: YAML syntax error"), "\(output.standardError)")
    #expect(output.standardError.contains("checked 1 payload: 1 valid, 0 rejected"))
    #expect(output.standardError.contains("1 scenario could not be loaded"))
  }
}

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

  @Test func aScenarioThatCannotBeLoadedIsReportedInEveryFormat() async throws {
    let broken = try file("broken.yaml", "title: [unclosed\n")
    let github = try await runPushdeck(["validate", "--format", "github", broken])
    #expect(github.status == 1)
    #expect(
      github.standardOutput.hasPrefix(
        "::error file=\(broken),line=2,col=1,title=pushdeck validate%3A ScenarioNotLoaded::"),
      "\(github.standardOutput)")
    let json = try await runPushdeck(["validate", "--format", "json", broken])
    #expect(json.status == 1)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any],
      "\(json.standardOutput)")
    #expect(object["valid"] as? Bool == false)
    let diagnostic = try #require((object["diagnostics"] as? [[String: Any]])?.first)
    #expect(diagnostic["code"] as? String == "ScenarioNotLoaded")
    #expect(diagnostic["line"] as? Int == 2 && diagnostic["column"] as? Int == 1)
  }

  /// A payload written as a JSON string is checked at the file's line that holds it, with the
  /// place inside the string after the message (it was reported at the string's own 1:24, the
  /// title's line, in the text and GitHub formats).
  @Test func aPayloadStringIsReportedAtItsLineInTheFile() async throws {
    let path = try file(
      "string.yaml",
      """
      title: string payload
      timeline:
        - at: +1m
          push:
            bundle: com.example.shop
            payload: '{"aps": {"alert": "hi",}}'
      """)
    let text = try await runPushdeck(["validate", path])
    #expect(text.status == 1)
    #expect(
      text.standardOutput.contains(
        "string.yaml:6: error[TrailingComma]: trailing comma before '}' (at 1:24 of the payload string)"),
      "\(text.standardOutput)")
    #expect(text.standardOutput.contains(#"   | {"aps": {"alert": "hi",}}"#), "\(text.standardOutput)")
    let github = try await runPushdeck(["validate", "--format", "github", path])
    #expect(github.standardOutput.hasPrefix("::error file=\(path),line=6,title="), "\(github.standardOutput)")
    #expect(github.standardOutput.contains("(at 1:24 of the payload string)"))
  }
}

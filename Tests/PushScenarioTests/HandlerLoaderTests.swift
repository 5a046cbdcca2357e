import PushCore
import Testing

@testable import PushScenario

/// The profile's `handlers:` list.
struct HandlerLoaderTests {
  @Test func readsEveryHandlerKind() throws {
    let text = """
      handlers:
        - {app: com.shop, category: ORDER, action: CANCEL, handler: exec, argv: [./bin/cancel.sh, "--order", "$(x)"], timeout: 2.5}
        - {app: "*", handler: log, file: responses.jsonl}
        - {action: default, handler: open}
        - {action: dismiss, handler: http, url: "http://127.0.0.1:8080/r"}
        - {handler: exec, argv: [echo, hi]}
      """
    let profile = try ScenarioLoader().loadProfile(text: text, file: "dir/profile.yaml")
    #expect(
      profile.handlers == [
        HandlerBinding(
          app: "com.shop", category: "ORDER", action: "CANCEL",
          kind: .exec(argv: ["dir/./bin/cancel.sh", "--order", "$(x)"], timeoutSeconds: 2.5)),
        HandlerBinding(kind: .log(file: "dir/responses.jsonl")),
        HandlerBinding(action: defaultActionIdentifier, kind: .open(file: nil)),
        HandlerBinding(action: dismissActionIdentifier, kind: .http(url: "http://127.0.0.1:8080/r", timeoutSeconds: 5)),
        HandlerBinding(kind: .exec(argv: ["echo", "hi"], timeoutSeconds: 5)),
      ])
  }

  @Test(arguments: [
    (
      "handlers:\n  - {handler: logg, file: x}",
      "p.yaml:2:15: handlers[0].handler: expected one of log, exec, http, open, echo, got \"logg\" (did you mean \"log\"?)"
    ),
    (
      "handlers:\n  - {handler: exec, argv: \"rm -rf /\"}",
      "p.yaml:2:27: handlers[0].argv: expected a list such as [./cancel.sh, --verbose], got \"rm -rf /\"; programs run without a shell, so give each argument separately"
    ),
    (
      "handlers:\n  - {handler: log}",
      "p.yaml:2:5: handlers[0]: missing \"file\": expected the file to append JSON lines to"
    ),
    (
      "handlers:\n  - {handler: log, file: x, url: y}",
      "p.yaml:2:34: handlers[0].url: url does not apply to the log handler; it takes file"
    ),
    (
      "handlers:\n  - {handler: http, url: ftp://x}",
      "p.yaml:2:26: handlers[0].url: expected an http:// or https:// URL, got \"ftp://x\""
    ),
    (
      "handlers:\n  - {handler: exec, argv: [x], timeout: -1}",
      "p.yaml:2:41: handlers[0].timeout: expected a number of seconds between 0 and 600, such as 5 or 0.5, got -1"
    ),
    ("handlers:\n  - {handler: exec, argv: []}", "p.yaml:2:27: handlers[0].argv: expected at least the program to run"),
    (
      "handlers:\n  - {handler: open, acton: X}",
      "p.yaml:2:21: handlers[0].acton: unknown key \"acton\" (did you mean \"action\"?); expected one of app, category, action, handler, file, argv, url, timeout, message"
    ),
  ])
  func badEntriesAreLocated(text: String, expected: String) {
    #expect(throws: ScenarioError.self) { try ScenarioLoader().loadProfile(text: text, file: "p.yaml") }
    do {
      _ = try ScenarioLoader().loadProfile(text: text, file: "p.yaml")
    } catch {
      #expect(error.description == expected)
    }
  }
}

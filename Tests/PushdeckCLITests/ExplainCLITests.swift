import Foundation
import PushTestSupport
import Testing

/// `pushdeck explain`: golden output for every example, and the exit-status contract.
///
/// Goldens live in `Tests/PushdeckCLITests/Goldens/explain`. Run with `PUSHDECK_RECORD=1` to
/// rewrite them; a freshly recorded golden fails the test so it is reviewed before committing.
@Suite(.requires(PushdeckProcess.binary != nil, "the pushdeck binary was not built"))
struct ExplainCLITests {
  static let root = Corpus.repositoryRoot()
  static let examples: [String] = {
    let names =
      (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Examples").path)) ?? []
    return names.filter { $0.hasSuffix(".yaml") }.sorted()
  }()

  func explain(_ arguments: [String], environment: [String: String] = [:]) throws -> PushdeckProcess.Output {
    try PushdeckProcess.run(["explain"] + arguments, environment: environment, directory: Self.root)
  }

  func checkGolden(_ actual: String, name: String) throws {
    let url = Self.root.appendingPathComponent("Tests/PushdeckCLITests/Goldens/explain/\(name)")
    if ProcessInfo.processInfo.environment["PUSHDECK_RECORD"] == "1" {
      try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try actual.write(to: url, atomically: true, encoding: .utf8)
      Issue.record("recorded \(name); review it and run again without PUSHDECK_RECORD")
      return
    }
    let expected = try String(contentsOf: url, encoding: .utf8)
    #expect(actual == expected, "explain output for \(name) changed; rerun with PUSHDECK_RECORD=1 to accept")
  }

  @Test func everyExampleHasAnExample() {
    #expect(Self.examples.count >= 7)
  }

  @Test(arguments: examples)
  func jsonGolden(example: String) throws {
    let output = try explain(["--format", "json", "Examples/\(example)"])
    #expect(output.status == 0, "\(output.standardError)")
    for line in output.standardOutput.split(separator: "\n") {
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      for key in [
        "index", "at", "bundle", "threadId", "collapseId", "interruptionLevel", "disposition", "surfaces", "sound",
        "badge", "reasons", "callbacks", "group", "rank", "rankTerms", "source", "diagnostics",
      ] {
        #expect(object?.keys.contains(key) == true, "\(key) missing")
      }
    }
    try checkGolden(output.standardOutput, name: example.replacingOccurrences(of: ".yaml", with: ".jsonl"))
  }

  @Test(arguments: examples)
  func textGolden(example: String) throws {
    let output = try explain(["Examples/\(example)"], environment: ["NO_COLOR": "1"])
    #expect(output.status == 0, "\(output.standardError)")
    #expect(!output.standardOutput.contains("\u{1B}"))
    try checkGolden(output.standardOutput, name: example.replacingOccurrences(of: ".yaml", with: ".txt"))
  }

  @Test func payloadsAndCapturesUseTheStandardProfile() throws {
    let directory = try PushdeckProcess.temporaryDirectory()
    let capture = directory.appendingPathComponent("c.jsonl")
    try
      (#"{"at": 1795426860, "bundle": "com.a.b", "payload": {"aps": {"alert": "one"}}}"# + "\n"
      + #"{"at": 1795426920, "bundle": "com.a.b", "payload": {"aps": {"alert": "two", "sound": "default"}}}"# + "\n")
      .write(to: capture, atomically: true, encoding: .utf8)
    let output = try explain(["--format", "json", capture.path, "Examples/payloads/message.apns"])
    #expect(output.status == 0)
    let lines = output.standardOutput.split(separator: "\n")
    #expect(lines.count == 3)
    #expect(lines.first?.contains(#""at":"2026-11-23T09:41:00Z""#) == true)
    #expect(lines.dropFirst().first?.contains(#""at":"2026-11-23T09:42:00Z""#) == true)
    #expect(lines.allSatisfy { $0.contains(#""disposition":"delivered""#) })
  }

  /// The Nth payload file arrives at the same time in `explain` as in `render` (and `run`), so a
  /// time read from `explain` is a `render --at` showing that push: files before the first
  /// capture line wait for it, files after it follow the latest push, one spacing apart.
  @Test func payloadFilesArriveWhenRenderShowsThem() throws {
    let directory = try PushdeckProcess.temporaryDirectory()
    var inputs: [String] = []
    func file(_ name: String) throws {
      let url = directory.appendingPathComponent("\(name).json")
      try #"{"aps": {"alert": {"title": "\#(name)", "body": "b"}, "thread-id": "\#(name)"}}"#.write(
        to: url, atomically: true, encoding: .utf8)
      inputs.append(url.path)
    }
    try file("first")
    try file("beforeToo")
    let capture = directory.appendingPathComponent("c.jsonl")
    try
      (#"{"at": 1795430000, "bundle": "com.a.b", "payload": {"aps": {"alert": {"title": "line1"}}}}"# + "\n"
      + #"{"at": 1795430060, "bundle": "com.a.b", "payload": {"aps": {"alert": {"title": "line2"}}}}"# + "\n")
      .write(to: capture, atomically: true, encoding: .utf8)
    inputs.append(capture.path)
    try file("second")
    try file("third")

    func times(_ lines: some Sequence<Substring>) throws -> [String: String] {
      var found: [String: String] = [:]
      for line in lines {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        if let title = object["title"] as? String, let at = object["at"] as? String { found[title] = at }
      }
      return found
    }
    let explained = try explain(["--format", "json", "--bundle", "com.a.b"] + inputs)
    #expect(explained.status == 0, "\(explained.standardError)")
    let explainedTimes = try times(explained.standardOutput.split(separator: "\n"))
    #expect(explainedTimes.count == 6)
    // 2026-11-23T10:33:20Z is the first capture line; the files before it wait for it: the first
    // arrives with it, the next three seconds later, after it (it held the line back to its own
    // time, 10:33:23, before explain played pushes in time order).
    #expect(explainedTimes["first"] == "2026-11-23T10:33:20Z")
    #expect(explainedTimes["beforeToo"] == "2026-11-23T10:33:23Z")
    #expect(explainedTimes["line1"] == "2026-11-23T10:33:20Z")
    #expect(explainedTimes["second"] == "2026-11-23T10:34:23Z")
    #expect(explainedTimes["third"] == "2026-11-23T10:34:26Z")

    let rendered = try PushdeckProcess.run(
      ["render", "--format", "json", "--screen", "center", "--bundle", "com.a.b"] + inputs, directory: Self.root)
    #expect(rendered.status == 0, "\(rendered.standardError)")
    let screen = try #require(
      try JSONSerialization.jsonObject(with: Data(rendered.standardOutput.utf8)) as? [String: Any])
    let groups = try #require(screen["groups"] as? [[String: Any]])
    let notifications = groups.flatMap { $0["notifications"] as? [[String: Any]] ?? [] }
    var renderedTimes: [String: String] = [:]
    for notification in notifications {
      if let title = notification["title"] as? String, let at = notification["at"] as? String {
        renderedTimes[title] = at
      }
    }
    #expect(renderedTimes == explainedTimes)
  }

  /// A capture line that is not JSON is from an unknown app unless it named one before its
  /// mistake; it was shown as from the default app, `com.example.app`.
  @Test func aLineThatIsNotJSONIsFromAnUnknownApp() throws {
    let directory = try PushdeckProcess.temporaryDirectory()
    let capture = directory.appendingPathComponent("c.jsonl")
    try
      (#"{'at': 1795430000, 'bundle': 'com.a.b', 'payload': {}}"# + "\n"
      + #"{"at": 1795430000, "bundle": "com.a.b", "payload": {"aps": {"alert": "x"},}}"# + "\n")
      .write(to: capture, atomically: true, encoding: .utf8)
    let json = try explain(["--format", "json", capture.path])
    #expect(json.status == 1)
    let lines = json.standardOutput.split(separator: "\n")
    #expect(lines.count == 2)
    #expect(lines.first?.contains(#""bundle":null"#) == true, "\(json.standardOutput)")
    #expect(lines.last?.contains(#""bundle":"com.a.b""#) == true, "\(json.standardOutput)")
    #expect(!json.standardOutput.contains("com.example.app"))
    let text = try explain([capture.path], environment: ["NO_COLOR": "1"])
    #expect(text.standardOutput.contains("Unknown app (no bundle id)"), "\(text.standardOutput)")
  }

  /// A rejected capture line is explained at its own `at` (a line that is not JSON included), or
  /// at no time when it gives none: it showed the time of the push before it.
  @Test func aRejectedLineIsExplainedAtItsOwnTime() throws {
    let directory = try PushdeckProcess.temporaryDirectory()
    let capture = directory.appendingPathComponent("c.jsonl")
    let good = #"{"bundle": "com.a.b", "payload": {"aps": {"alert": "ok"}}, "at": "#
    try
      (good + "1767225600}\n"
      + #"{"at": 1767225610, "bundle": "com.a.b", "payload": {"aps": {"alert": {"title": "x",}}}}"# + "\n"
      + good + "1767225620}\n")
      .write(to: capture, atomically: true, encoding: .utf8)
    let json = try explain(["--format", "json", capture.path])
    #expect(json.status == 1)
    let times = json.standardOutput.split(separator: "\n").map { line in
      (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["at"] as? String
    }
    #expect(
      times == ["2026-01-01T00:00:00Z", "2026-01-01T00:00:10Z", "2026-01-01T00:00:20Z"], "\(json.standardOutput)")
    let text = try explain([capture.path], environment: ["NO_COLOR": "1"])
    #expect(text.standardOutput.contains("#2  2026-01-01T00:00:10Z  "), "\(text.standardOutput)")
    let compared = try explain(["--compare", "unlocked,locked", capture.path])
    #expect(compared.standardOutput.contains("#2  2026-01-01T00:00:10Z  "), "\(compared.standardOutput)")

    // Without an "at" of its own: no time, not the time of the push before it.
    try
      (good + "1767225600}\n" + #"{"bundle": "com.a.b", "payload": {"aps": {"alert": "no time"}}}"# + "\n"
      + good + "1767225620}\n")
      .write(to: capture, atomically: true, encoding: .utf8)
    let untimed = try explain(["--format", "json", capture.path])
    let second = try #require(untimed.standardOutput.split(separator: "\n").dropFirst().first)
    let object = try #require(try JSONSerialization.jsonObject(with: Data(second.utf8)) as? [String: Any])
    #expect(object["at"] is NSNull, "\(second)")
    #expect(object["disposition"] as? String == "rejected")
    let untimedText = try explain([capture.path], environment: ["NO_COLOR": "1"])
    #expect(untimedText.standardOutput.contains("#2  (no time)  "), "\(untimedText.standardOutput)")
    #expect(!untimedText.standardOutput.contains("#2  2026"), "\(untimedText.standardOutput)")
    let untimedCompared = try explain(["--compare", "unlocked,locked", capture.path])
    #expect(untimedCompared.standardOutput.contains("#2  (no time)  "), "\(untimedCompared.standardOutput)")
  }

  /// explain's diagnostic objects have the keys validate's have, for the same findings: explain
  /// lacked `effect`, `apns` and `device` (each command wrote its own).
  @Test func explainsDiagnosticsHaveValidatesKeys() throws {
    let payload = "Examples/payloads/mutable-content-true.json"
    func diagnostics(_ output: PushdeckProcess.Output) throws -> [[String: Any]] {
      let line = try #require(output.standardOutput.split(separator: "\n").first)
      let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      return try #require(object["diagnostics"] as? [[String: Any]])
    }
    let validated = try diagnostics(
      try PushdeckProcess.run(["validate", "--format", "json", payload], directory: Self.root))
    let explained = try diagnostics(try explain(["--format", "json", payload]))
    #expect(!validated.isEmpty)
    #expect(validated.contains { $0["severity"] as? String == "warning" })
    #expect(validated.count == explained.count)
    for (fromValidate, fromExplain) in zip(validated, explained) {
      #expect(Set(fromValidate.keys) == Set(fromExplain.keys))
      #expect(fromValidate["code"] as? String == fromExplain["code"] as? String)
      #expect(fromValidate["effect"] as? String == fromExplain["effect"] as? String)
    }
    let keys = Set(try #require(explained.first).keys)
    #expect(keys.isSuperset(of: ["effect", "apns", "device", "hint", "message"]))
  }

  @Test func aRejectedPushExitsOne() throws {
    let output = try explain(["Examples/payloads/trailing-comma.apns"])
    #expect(output.status == 1)
    #expect(output.standardOutput.contains("Rejected"))
    // Where, and what to do, as `validate` says it.
    #expect(output.standardOutput.contains("error[TrailingComma] at 9:3: trailing comma before '}'"))
    #expect(output.standardOutput.contains("    → remove the comma at line 8, column 15"))
    let json = try explain(["Examples/payloads/trailing-comma.apns", "--format", "json"])
    #expect(json.standardOutput.contains(#""line":9,"column":3"#))
    #expect(json.standardOutput.contains(#""hint":"remove the comma at line 8, column 15"#))
  }

  /// A payload written as a JSON string in a scenario is located in that string, and explain
  /// says so: `at 1:23` alone read as the scenario's line 1 (issue found in an exploratory test).
  @Test func aPayloadStringsErrorsSayTheyCountInTheString() throws {
    let directory = try PushdeckProcess.temporaryDirectory()
    let file = directory.appendingPathComponent("e8.yaml")
    try """
    timeline:
      - push: {bundle: com.ex.app, payload: '{"aps": {"alert": "x",}}'}
      - push: {bundle: com.ex.app, payload: {aps: {alert: y, badge: "3"}}}
    """.write(to: file, atomically: true, encoding: .utf8)
    let output = try explain([file.path], environment: ["NO_COLOR": "1"])
    #expect(output.status == 1)
    #expect(
      output.standardOutput.contains(
        "  error[TrailingComma] at 1:23 of the payload string (\(file.path):2): trailing comma before '}'"))
    // A mapping's JSON is made by Pushdeck: no line and column in it, the key path says where.
    #expect(
      output.standardOutput.contains(
        #"  warning[InvalidValue]: aps.badge must be a whole number of 0 or more, not the string "3" (at aps.badge)"#))
    let json = try explain(["--format", "json", file.path])
    #expect(json.standardOutput.contains(#""line":1,"column":23,"within":"the payload string""#))
    #expect(json.standardOutput.contains(#""path":"aps.badge","line":null,"column":null,"message""#))
  }

  @Test func scenarioErrorsExitTwoWithTheLocation() throws {
    let directory = try PushdeckProcess.temporaryDirectory()
    let file = directory.appendingPathComponent("bad.yaml")
    try "timeline:\n  - after: 5 minutes\n    lock:\n".write(to: file, atomically: true, encoding: .utf8)
    let output = try explain([file.path])
    #expect(output.status == 2)
    #expect(
      output.standardError.contains(
        "bad.yaml:2:12: timeline[0].after: expected a duration such as 30s, 5m, 1h30m or 250ms, got \"5 minutes\""))
  }

  @Test func profileErrorsAndMissingFilesExitTwo() throws {
    let missing = try explain(["--profile", "nope.yaml", "Examples/payloads/message.apns"])
    #expect(missing.status == 2)
    #expect(missing.standardError.contains("nope.yaml: cannot read the file"))
    let noInput = try explain(["does-not-exist.apns"])
    #expect(noInput.status == 2)
    let usage = try explain([])
    #expect(usage.status == 2)
  }

  @Test func profileOptionAppliesToPayloads() throws {
    let directory = try PushdeckProcess.temporaryDirectory()
    let profile = directory.appendingPathComponent("p.yaml")
    try "installsUnknownApps: false\nactiveFocus: dnd\napps: [{bundle: com.example.messages}]\n"
      .write(to: profile, atomically: true, encoding: .utf8)
    let output = try explain(["--format", "json", "--profile", profile.path, "Examples/payloads/message.apns"])
    #expect(output.status == 0)
    #expect(output.standardOutput.contains(#""code":"focusSilenced""#))
  }

  /// `--profile` takes the presets render, run and storyboard take; `locked` was read as a file.
  @Test func profilePresetsApplyAsInRender() throws {
    let locked = try explain(["--format", "json", "--profile", "locked", "Examples/payloads/message.apns"])
    #expect(locked.status == 0, "\(locked.standardError)")
    #expect(locked.standardOutput.contains(#""surfaces":["lockScreen","notificationCenter"]"#))
    #expect(locked.standardOutput.contains(#""code":"phoneLocked""#))
    // The same device as --compare's locked column.
    let compared = try explain(["--format", "json", "--compare", "locked", "Examples/payloads/message.apns"])
    #expect(
      compared.standardOutput.contains(#""disposition":"delivered","surfaces":["lockScreen","notificationCenter"]"#))
    // A scenario's own device takes the preset's lock and Focus, as in render.
    let dnd = try explain(["--format", "json", "--profile", "dnd", "Examples/messaging.yaml"])
    #expect(dnd.status == 0, "\(dnd.standardError)")
    #expect(dnd.standardOutput.split(separator: "\n").first?.contains(#""code":"focusSilenced""#) == true)
    let unknown = try explain(["--profile", "lockd", "Examples/payloads/message.apns"])
    #expect(unknown.status == 2)
    #expect(
      unknown.standardError.contains(
        "--profile: lockd is neither a preset (unlocked, locked, dnd, sleep) nor a profile file"))
    let compareOnly = try explain(["--profile", "work", "Examples/payloads/message.apns"])
    #expect(compareOnly.status == 2)
    #expect(compareOnly.standardError.contains("--profile: work is a preset of --compare only"))
  }

  @Test func payloadTextIsMadeTerminalSafe() throws {
    let directory = try PushdeckProcess.temporaryDirectory()
    let file = directory.appendingPathComponent("evil.json")
    try #"{"aps": {"alert": {"title": "a\u001b[2Jb", "body": "\u202eevil"}}}"#.write(
      to: file, atomically: true, encoding: .utf8)
    let output = try explain([file.path])
    #expect(output.status == 0)
    #expect(!output.standardOutput.contains("\u{1B}"))
    #expect(output.standardOutput.contains("a\\u{1B}[2Jb"))
    #expect(output.standardOutput.contains("\\u{202E}evil"))
  }

  /// `--compare` plays each scenario on devices of its own and the payload files on theirs, as
  /// explain does without it: a payload file named after a scenario that locks the phone was
  /// played on the scenario's locked device, so every column said "The phone is locked".
  @Test func compareKeepsEachScenarioOnItsOwnDevices() throws {
    let directory = try PushdeckProcess.temporaryDirectory()
    let scenario = directory.appendingPathComponent("s.yaml")
    try "timeline:\n  - lock:\n  - push: {bundle: com.ex.a, payload: {aps: {alert: hi}}}\n".write(
      to: scenario, atomically: true, encoding: .utf8)
    let payload = directory.appendingPathComponent("p.json")
    try #"{"aps":{"alert":{"title":"T","subtitle":"S","body":"B"}}}"#.write(
      to: payload, atomically: true, encoding: .utf8)
    let text = try explain(["--compare", "unlocked,locked", scenario.path, payload.path])
    #expect(text.status == 0, "\(text.standardError)")
    let blocks = text.standardOutput.components(separatedBy: "\n\n").filter { !$0.isEmpty }
    #expect(blocks.count == 2)
    let fromFile = try #require(blocks.first { $0.contains("Source: \(payload.path)") })
    let unlocked = try #require(fromFile.split(separator: "\n").first { $0.contains("Unlocked") })
    #expect(unlocked.contains("banner") && !unlocked.contains("locked:"), "\(fromFile)")
    #expect(blocks.contains { $0.contains("Source: \(scenario.path):3") })
    // Each group numbers its pushes from 1, as explain does.
    #expect(blocks.allSatisfy { $0.hasPrefix("#1 ") })
    let json = try explain(["--compare", "unlocked", "--format", "json", payload.path])
    #expect(json.standardOutput.contains(#""subtitle":"S","body":"B""#))
    #expect(json.standardOutput.contains(#""source":"\#(payload.path)""#))
  }

  /// A push that replaces another names it by its id, and every record says its own id, in
  /// text and JSON; the JSON has the subtitle and body the text shows.
  @Test func aReplacedNotificationCanBeFoundByItsId() throws {
    let directory = try PushdeckProcess.temporaryDirectory()
    let scenario = directory.appendingPathComponent("col.yaml")
    try """
    timeline:
      - push: {bundle: com.ex.a, payload: '{"aps":{"alert":"broken",}}'}
      - push: {bundle: com.ex.a, headers: {apns-collapse-id: c1}, payload: {aps: {alert: {title: V1, subtitle: S1, body: one}}}}
      - push: {bundle: com.ex.a, headers: {apns-collapse-id: c1}, payload: {aps: {alert: {title: V2, body: two}}}}

    """.write(to: scenario, atomically: true, encoding: .utf8)
    let text = try explain([scenario.path])
    #expect(text.standardOutput.contains("#2  2026-11-23T09:41:00Z  🔔 A (com.ex.a, n1)"), "\(text.standardOutput)")
    #expect(text.standardOutput.contains("apns-collapse-id matches n1"))
    let json = try explain(["--format", "json", scenario.path]).standardOutput.split(separator: "\n")
    #expect(json.count == 3)
    #expect(json[0].contains(#""id":null"#))
    #expect(json[1].contains(#""id":"n1","title":"V1","subtitle":"S1","body":"one""#))
    #expect(json[2].contains(#""id":"n2""#) && json[2].contains(#""replaces":"n1""#))
  }
}

import Foundation
import PushTestSupport
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// `pushdeck test` as a team runs it in CI: the project's own examples, a failing scenario in
/// each format, and `validate --format github`.
@Suite(.requires(PushdeckProcess.binary != nil, "the pushdeck binary was not built"))
struct TestCLITests {
  let directory: URL
  /// No step summary of the CI job running these tests is touched.
  let quiet = ["GITHUB_STEP_SUMMARY": ""]

  init() throws {
    directory = try PushdeckProcess.temporaryDirectory()
    try """
    title: Late order
    profile:
      start: 2026-11-23 09:41
      apps:
        - bundle: com.example.shop
          name: Shop
    timeline:
      - push:
          bundle: com.example.shop
          payload: {aps: {alert: {title: Order shipped, body: "On its way, 100% sure"}, sound: default}}
        expect:
          disposition: deliveredQuietly
          surfaces: [banner, notificationCenter]
      - after: 1m
        expect: {notificationCenter: 1}
    """.write(to: directory.appendingPathComponent("late.yaml"), atomically: true, encoding: .utf8)
  }

  func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

  @Test func theExamplesHoldWhatTheyDocument() throws {
    let output = try PushdeckProcess.run(
      ["test", "Examples"], environment: quiet, directory: Corpus.repositoryRoot())
    #expect(output.status == 0, "\(output.standardOutput)\(output.standardError)")
    let lines = output.standardOutput.split(separator: "\n")
    // Every example but the built-in demo states expectations, and they all hold.
    // The summary counts the scenarios found (Examples and its folders); all but the demo pass.
    let found = try #require(lines.last.flatMap { Int($0.prefix { $0.isNumber }) })
    #expect(found >= 8)
    #expect(lines.filter { $0.hasPrefix("PASS ") }.count == found - 1)
    #expect(
      lines.filter { $0.hasPrefix("NONE ") } == [
        "NONE  Examples/demo.yaml — Monday morning: no expectations (add expect: blocks, docs/SCENARIOS.md)"
      ])
    #expect(lines.last?.hasSuffix(" failed; 1 scenario without expectations") == true)
    #expect(lines.last?.contains(" held, 0 failed") == true)
  }

  @Test func aFailingExpectationSaysWhatAndWhyAndExitsOne() throws {
    let output = try PushdeckProcess.run(["test", path("late.yaml")], environment: quiet)
    #expect(output.status == 1)
    let text = output.standardOutput
    #expect(text.contains("FAIL \(path("late.yaml")) — Late order (2/3 held)"))
    #expect(
      text.contains(
        "  ✗ \(path("late.yaml")):12:20: push 1: disposition: expected deliveredQuietly, got delivered"))
    #expect(text.contains("      explain: delivered (\(path("late.yaml")):10)"))
    #expect(text.contains("[deliveredNormally]"))
    #expect(text.hasSuffix("1 scenario: 2 expectations held, 1 failed\n"))
  }

  @Test func gitHubAnnotationsAreExact() throws {
    let output = try PushdeckProcess.run(["test", "--format", "github", path("late.yaml")], environment: quiet)
    #expect(output.status == 1)
    let lines = output.standardOutput.split(separator: "\n").map(String.init)
    let file = path("late.yaml").replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    #expect(lines.count == 2)
    #expect(
      lines.first?.hasPrefix(
        "::error file=\(file),line=12,col=20,title=pushdeck test%3A push 1%3A disposition::push 1: disposition: expected deliveredQuietly, got delivered%0Aexplain: delivered ("
      ) == true)
    #expect(lines.last == "::notice title=pushdeck test::1 scenario: 2 expectations held, 1 failed")
  }

  @Test func junitAndMarkdownReportsAreWritten() throws {
    let junit = path("report.xml")
    let summary = path("summary.md")
    let output = try PushdeckProcess.run(
      ["test", "--junit", junit, "--summary", summary, path("late.yaml")], environment: quiet)
    #expect(output.status == 1)
    #if canImport(FoundationXML)
      let document = try XMLDocument(contentsOf: URL(fileURLWithPath: junit), options: [])
      let root = try #require(document.rootElement())
      #expect(root.name == "testsuites")
      #expect(root.attribute(forName: "failures")?.stringValue == "1")
      let suites = try root.nodes(forXPath: "testsuite")
      #expect(suites.count == 1)
      let cases = try root.nodes(forXPath: "testsuite/testcase")
      #expect(cases.count == 3)
      let failures = try root.nodes(forXPath: "testsuite/testcase/failure")
      #expect(failures.count == 1)
      let failure = try #require(failures.first as? XMLElement)
      #expect(
        failure.attribute(forName: "message")?.stringValue == "disposition: expected deliveredQuietly, got delivered")
      #expect(failure.attribute(forName: "type")?.stringValue == "disposition")
      #expect((try root.nodes(forXPath: "testsuite/testcase/system-out")).count == 3)
    #endif
    let markdown = try String(contentsOfFile: summary, encoding: .utf8)
    #expect(markdown.contains("| ❌ |"))
    #expect(markdown.contains("push 1: disposition: expected deliveredQuietly, got delivered"))
  }

  @Test func theStepSummaryIsAppendedWhenSet() throws {
    let summary = path("step-summary.md")
    try "earlier step\n".write(toFile: summary, atomically: true, encoding: .utf8)
    let output = try PushdeckProcess.run(
      ["test", "Examples/provisional.yaml"], environment: ["GITHUB_STEP_SUMMARY": summary],
      directory: Corpus.repositoryRoot())
    #expect(output.status == 0)
    let markdown = try String(contentsOfFile: summary, encoding: .utf8)
    #expect(markdown.hasPrefix("earlier step\n## pushdeck test\n"))
    #expect(markdown.contains("| ✅ | Examples/provisional.yaml"))
  }

  @Test func invalidScenariosAndMissingPathsExitTwo() throws {
    try "timeline:\n  - push: {bundle: com.a.b, payload: {aps: {alert: x}}}\n    expect: {surfaces: [homeScreen]}\n"
      .write(to: directory.appendingPathComponent("bad.yaml"), atomically: true, encoding: .utf8)
    let bad = try PushdeckProcess.run(["test", "--format", "github", path("bad.yaml")], environment: quiet)
    #expect(bad.status == 2)
    #expect(
      bad.standardOutput.hasPrefix(
        "::error file=\(path("bad.yaml").replacingOccurrences(of: ":", with: "%3A")),line=3,col=25,title=pushdeck test%3A timeline[0].expect.surfaces[0]::expected one of banner"
      ))
    let missing = try PushdeckProcess.run(["test", path("nowhere")], environment: quiet)
    #expect(missing.status == 2)
    #expect(missing.standardOutput.contains("ERROR \(path("nowhere")): no such file or directory"))
  }

  @Test func snapshotsAreRecordedWithUpdateThenCompared() throws {
    try """
    profile: {start: 2026-11-23 09:41, apps: [{bundle: com.example.shop, name: Shop}]}
    timeline:
      - push: {bundle: com.example.shop, payload: {aps: {alert: {title: Parcel, body: Delivered to the door}}}}
      - after: 2m
        expect: {screen: center, snapshot: shop.txt}
    """.write(to: directory.appendingPathComponent("snap.yaml"), atomically: true, encoding: .utf8)
    #expect(try PushdeckProcess.run(["test", path("snap.yaml")], environment: quiet).status == 1)
    let update = try PushdeckProcess.run(["test", "--update", path("snap.yaml")], environment: quiet)
    #expect(update.status == 0)
    // Recorded, not held: the scenario's line and the summary say the same.
    #expect(
      update.standardOutput.contains("PASS \(path("snap.yaml")) (1 snapshot recorded)"), "\(update.standardOutput)")
    #expect(update.standardOutput.contains("0 expectations held, 0 failed, 1 snapshot recorded"))
    // The snapshot is render's text at that moment.
    let rendered = try PushdeckProcess.run(["render", "--screen", "center", "--at", "+2m", path("snap.yaml")])
    #expect(try String(contentsOfFile: path("shop.txt"), encoding: .utf8) == rendered.standardOutput)
    #expect(try PushdeckProcess.run(["test", path("snap.yaml")], environment: quiet).status == 0)
    try rendered.standardOutput.replacingOccurrences(of: "Delivered to the door", with: "Left with a neighbour")
      .write(toFile: path("shop.txt"), atomically: true, encoding: .utf8)
    let changed = try PushdeckProcess.run(["test", path("snap.yaml")], environment: quiet)
    #expect(changed.status == 1)
    #expect(changed.standardOutput.contains("-       │ Left with a neighbour"))
    #expect(changed.standardOutput.contains("+       │ Delivered to the door"))
  }

  @Test func validateAnnotatesPayloadDiagnosticsForGitHub() throws {
    try "{\n  \"aps\": {\n    \"alert\": \"x\",\n  }\n}\n".write(
      to: directory.appendingPathComponent("trailing.json"), atomically: true, encoding: .utf8)
    let output = try PushdeckProcess.run(["validate", "--format", "github", path("trailing.json")])
    #expect(output.status == 1)
    let file = path("trailing.json").replacingOccurrences(of: ":", with: "%3A")
    let line = try #require(output.standardOutput.split(separator: "\n").first.map(String.init))
    #expect(line.hasPrefix("::error file=\(file),line=4,col=3,title=pushdeck validate%3A "))
    #expect(line.contains("%0Averdict: APNs rejects"))
    #expect(output.standardError.contains("checked 1 payload: 0 valid, 1 rejected"))
  }
}

/// `pushdeck serve` as a backend's mock APNs: the documented example script, end to end.
@Suite(
  .requires(PushdeckProcess.binary != nil, "the pushdeck binary was not built"),
  .requires(FileManager.default.isExecutableFile(atPath: "/usr/bin/curl"), "curl is not installed"))
struct MockAPNsCLITests {
  @Test func theBackendTestExampleRuns() throws {
    let binary = try #require(PushdeckProcess.binary)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["Examples/mock-apns/backend-test.sh", binary]
    process.currentDirectoryURL = Corpus.repositoryRoot()
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let text = String(decoding: data, as: UTF8.self)
    #expect(process.terminationStatus == 0, "\(text)")
    #expect(text.contains("ok: 1 push delivered as a banner with sound and badge 1; 1 bad payload answered 400"))
  }

  @Test func theReadyFileHoldsTheListeningPort() async throws {
    let directory = try PushdeckProcess.temporaryDirectory()
    let ready = directory.appendingPathComponent("port").path
    try "stale\n".write(toFile: ready, atomically: true, encoding: .utf8)
    let server = try ServeProcess(["--ephemeral", "--ready-file", ready])
    defer { server.stop() }
    var text: String?
    try await poll("the ready file to be rewritten", interval: .milliseconds(10)) {
      guard let read = try? String(contentsOfFile: ready, encoding: .utf8), read != "stale\n" else { return false }
      text = read
      return true
    }
    #expect(text == "\(server.port)\n")
  }
}

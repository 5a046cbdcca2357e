import Foundation
import PushCore
import PushTestSupport
import Testing

@testable import PushCheck
@testable import PushScenario

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// A scenario in a fresh temporary directory.
struct ScenarioDirectory {
  let url: URL
  init(_ files: [String: String]) throws {
    url = FileManager.default.temporaryDirectory.appendingPathComponent("pushcheck-\(UUID().uuidString)")
    for (name, text) in files {
      let file = url.appendingPathComponent(name)
      try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(text.utf8).write(to: file)
    }
  }
  func path(_ name: String) -> String { url.appendingPathComponent(name).path }
  func remove() { try? FileManager.default.removeItem(at: url) }
}

let shopProfile = """
  profile:
    start: 2026-11-23 09:41
    apps:
      - bundle: com.example.shop
        name: Shop
  """

/// Reading `expect:` blocks: every key, its location, and the errors.
struct ExpectationLoaderTests {
  func load(_ text: String) throws(ScenarioError) -> CheckedScenario {
    try ScenarioLoader(files: .none).loadCheckedScenario(text: text, file: "s.yaml")
  }

  func error(_ text: String) -> ScenarioError? {
    do throws(ScenarioError) {
      _ = try load(text)
      return nil
    } catch {
      return error
    }
  }

  @Test func readsPushAndMomentExpectationsWithTheirLocations() throws {
    let checked = try load(
      shopProfile + """

        timeline:
          - push:
              bundle: com.example.shop
              payload: {aps: {alert: Hi, sound: default, badge: 3, thread-id: orders}}
            expect:
              disposition: delivered
              surfaces: [notificationCenter, banner]
              sound: default
              badge: 3
              reasons: deliveredNormally
              group: com.example.shop#orders
              rank: 1
          - after: 5m
            expect:
              lockScreen: 1
              contains: [Shop, Hi]
              screen: center
        """)
    #expect(checked.steps.count == 2)
    let push = checked.steps[0]
    #expect(push.push == 1)
    #expect(push.eventsBefore == 1)
    #expect(
      push.expectations.map(\.check) == [
        .disposition(.delivered), .surfaces([.banner, .notificationCenter]), .sound(.named("default")), .badge(3),
        .reasons([.deliveredNormally]), .group("com.example.shop#orders"), .rank(1),
      ])
    let disposition = push.expectations[0]
    #expect(disposition.file == "s.yaml")
    #expect(disposition.line == 11)
    #expect(disposition.column == 20)
    #expect(disposition.path == "timeline[0].expect.disposition")
    let moment = checked.steps[1]
    #expect(moment.push == nil)
    #expect(moment.eventsBefore == 1)
    #expect(moment.at == checked.scenario.profile.start + .seconds(300))
    #expect(moment.expectations.map(\.check) == [.lockScreen(1), .contains("Shop", .center), .contains("Hi", .center)])
    #expect(moment.expectations[2].path == "timeline[1].expect.contains[1]")
    // Other commands see the same timeline: the moment adds no event.
    #expect(checked.scenario.timeline.count == 1)
  }

  @Test func unknownKeysAreLocatedWithASuggestion() {
    let found = error(
      shopProfile + """

        timeline:
          - push: {bundle: com.example.shop, payload: {aps: {alert: Hi}}}
            expect:
              dispositon: delivered
        """)
    #expect(found?.line == 9)
    #expect(found?.path == "timeline[0].expect.dispositon")
    #expect(found?.message.contains("did you mean \"disposition\"") == true)
  }

  @Test func unknownValuesAreLocated() {
    let surface = error(
      shopProfile + """

        timeline:
          - push: {bundle: com.example.shop, payload: {aps: {alert: Hi}}}
            expect: {surfaces: [banner, homeScreen]}
        """)
    #expect(surface?.path == "timeline[0].expect.surfaces[1]")
    #expect(surface?.message.contains("expected one of banner, lockScreen, notificationCenter, liveActivity") == true)
    let reason = error(
      shopProfile + """

        timeline:
          - push: {bundle: com.example.shop, payload: {aps: {alert: Hi}}}
            expect: {reasons: [scheduledSumary]}
        """)
    #expect(reason?.message.contains("did you mean \"scheduledSummary\"") == true)
  }

  @Test func impossibleExpectationsAreErrors() {
    let silentSurfaces = error(
      shopProfile + """

        timeline:
          - push: {bundle: com.example.shop, payload: {aps: {alert: Hi}}}
            expect: {disposition: silent, surfaces: [banner]}
        """)
    #expect(silentSurfaces?.path == "timeline[0].expect.surfaces")
    #expect(silentSurfaces?.message == "no surface can show it: disposition is silent; expected none")

    let backgroundSound = error(
      shopProfile + """

        timeline:
          - push: {bundle: com.example.shop, payload: {aps: {content-available: 1}}}
            expect: {sound: default}
        """)
    #expect(backgroundSound?.path == "timeline[0].expect.sound")
    #expect(backgroundSound?.message.contains("background push") == true)

    let backgroundDelivered = error(
      shopProfile + """

        timeline:
          - push: {bundle: com.example.shop, payload: {aps: {content-available: 1}}}
            expect: {disposition: delivered}
        """)
    #expect(backgroundDelivered?.message.hasSuffix("expected silent") == true)

    let pushKeyOnMoment = error(
      shopProfile + """

        timeline:
          - push: {bundle: com.example.shop, payload: {aps: {alert: Hi}}}
          - after: 1m
            expect: {badge: 1}
        """)
    #expect(pushKeyOnMoment?.path == "timeline[1].expect.badge")
    #expect(pushKeyOnMoment?.message.contains("this entry sends none") == true)

    let handlerWithoutHandlers = error(
      shopProfile + """

        timeline:
          - push: {bundle: com.example.shop, payload: {aps: {alert: Hi}}}
            expect: {handler: succeeded}
        """)
    #expect(handlerWithoutHandlers?.message.contains("binds no handlers") == true)

    let lonelyScreen = error(
      shopProfile + """

        timeline:
          - after: 1m
            expect: {screen: center, lockScreen: 0}
        """)
    #expect(lonelyScreen?.path == "timeline[0].expect.screen")

    let escapingSnapshot = error(
      shopProfile + """

        timeline:
          - after: 1m
            expect: {snapshot: ../../elsewhere.txt}
        """)
    #expect(escapingSnapshot?.path == "timeline[0].expect.snapshot")
    #expect(escapingSnapshot?.message.contains("relative path without ..") == true)

    // An empty list checks nothing: it is an error, as `reasons: []` is, not "no expectations".
    let emptyContains = error(
      shopProfile + """

        timeline:
          - after: 1m
            expect: {screen: center, contains: []}
        """)
    #expect(emptyContains?.path == "timeline[0].expect.contains")
    #expect(emptyContains?.message.contains("at least one text") == true)

    // A snapshot smaller than the smallest screen drawn (40×12) would hold only its note.
    let tinySnapshot = error(
      shopProfile + """

        timeline:
          - after: 1m
            expect: {snapshot: {file: s.txt, size: 40x10}}
        """)
    #expect(tinySnapshot?.path == "timeline[0].expect.snapshot.size")
    #expect(tinySnapshot?.message.contains("40 to 400 columns, 12 to 200 rows") == true)
  }
}

/// Playing scenarios against their expectations.
struct ScenarioTesterTests {
  let scenario =
    shopProfile + """

      timeline:
        - push:
            bundle: com.example.shop
            payload: {aps: {alert: {title: Order shipped, body: On its way}, sound: default, badge: 1}}
          expect:
            disposition: delivered
            surfaces: [banner, notificationCenter]
            badge: 1
            sound: none
        - after: 1m
          expect:
            notificationCenter: 1
            lockScreen: 1
            contains: Order shipped
            notContains: Refund
        - lock:
          expect: {lockScreen: 2}
      """

  @Test func heldAndFailedExpectationsSayWhatWasExpectedAndWhy() throws {
    let checked = try ScenarioLoader(files: .none).loadCheckedScenario(text: scenario, file: "shop.yaml")
    let report = ScenarioTester().test(checked)
    #expect(report.results.count == 9)
    #expect(report.failures.map(\.expectation.key) == ["sound", "lockScreen"])
    let sound = try #require(report.failures.first)
    #expect(sound.expected == "none")
    #expect(sound.got == "default")
    #expect(sound.name == "push 1: sound")
    // explain's reasons for the push, with their codes.
    #expect(sound.details.first == "explain: delivered (shop.yaml:9)")
    #expect(sound.details.contains { $0.hasPrefix("  • ") && $0.hasSuffix("[badgeApplied]") })
    let lock = report.failures[1]
    #expect(lock.expected == "2 on the lock screen")
    #expect(lock.got == "1")
    #expect(lock.location == "shop.yaml:22:26")
    let run = TestRun(reports: [report])
    #expect(run.exitCode == 1)
    #expect(run.summaryLine == "1 scenario: 7 expectations held, 2 failed")
  }

  @Test func handlerOutcomesAreCheckedForThePushTheResponsesWereTo() throws {
    let directory = try ScenarioDirectory([
      "shop.yaml": """
      profile:
        start: 2026-11-23 09:41
        apps:
          - bundle: com.example.shop
            name: Shop
            categories: [{id: ORDER, actions: [{id: CANCEL, title: Cancel order}]}]
        handlers:
          - {app: com.example.shop, action: CANCEL, handler: log, file: responses.jsonl}
          - {app: com.example.shop, action: default, handler: exec, argv: [/bin/false]}
      timeline:
        - push: {bundle: com.example.shop, payload: {aps: {alert: Order 1234, category: ORDER}}}
          expect:
            handler: {outcome: succeeded, message: Cancel order logged}
        - push: {bundle: com.example.shop, payload: {aps: {alert: Order 1235, category: ORDER}}}
          expect: {handler: succeeded}
        - push: {bundle: com.example.shop, payload: {aps: {alert: Order 1236}}}
          expect: {handler: unhandled}
        - action: {notification: 1, id: CANCEL}
        - open: 2
      """
    ])
    defer { directory.remove() }
    let report = ScenarioTester().test(path: directory.path("shop.yaml"))
    #expect(report.error == nil)
    #expect(report.results.map(\.outcome) == [.held, .failed, .failed])
    #expect(report.results[1].expected == "succeeded")
    #expect(report.results[1].got.hasPrefix("failed: "))
    #expect(report.results[2].got == "no response to it reached a handler")
    // The log handler really ran, as explain runs it.
    let log = try String(contentsOfFile: directory.path("responses.jsonl"), encoding: .utf8)
    #expect(log.contains("\"action\":\"CANCEL\""))
  }

  @Test func aScenarioWithoutExpectationsIsReportedNotFailed() throws {
    let checked = try ScenarioLoader(files: .none).loadCheckedScenario(
      text: shopProfile + "\ntimeline:\n  - push: {bundle: com.example.shop, payload: {aps: {alert: Hi}}}\n",
      file: "plain.yaml")
    let report = ScenarioTester().test(checked)
    #expect(report.hasNoExpectations)
    let run = TestRun(reports: [report])
    #expect(run.exitCode == 0)
    #expect(run.summaryLine == "1 scenario: 0 expectations held, 0 failed; 1 scenario without expectations")
  }

  @Test func invalidScenariosAndMissingPathsExitTwo() throws {
    let directory = try ScenarioDirectory([
      "bad.yaml": "timeline:\n  - push: {bundle: x, payload: {}}\n    expect: {rank: 0}\n"
    ])
    defer { directory.remove() }
    let (files, problems) = ScenarioTester.scenarioFiles(in: [directory.url.path, directory.path("missing")])
    #expect(files == [directory.path("bad.yaml")])
    #expect(problems == ["\(directory.path("missing")): no such file or directory"])
    let report = ScenarioTester().test(path: files[0])
    #expect(report.error?.path == "timeline[0].expect.rank")
    #expect(TestRun(reports: [report]).exitCode == 2)
  }

  @Test func directoriesAreWalkedForScenariosOnly() throws {
    let directory = try ScenarioDirectory([
      "a/one.yaml": "timeline: []\n", "b/two.yml": "timeline: []\n", "profile.yaml": "start: 2026-11-23 09:41\n",
      "payload.json": "{}", ".hidden/three.yaml": "timeline: []\n",
    ])
    defer { directory.remove() }
    let (files, _) = ScenarioTester.scenarioFiles(in: [directory.url.path])
    #expect(files == [directory.path("a/one.yaml"), directory.path("b/two.yml")])
    // Named again, directly and through "./": played once.
    let again = ScenarioTester.scenarioFiles(in: [
      directory.url.path, directory.path("a/one.yaml"), directory.url.path + "/./b/two.yml",
    ]).files
    #expect(again == files)
  }

  /// A shop scenario whose one expectation is a 60x16 snapshot, `snapshots/shop.txt`.
  func shopSnapshotScenario() throws -> ScenarioDirectory {
    try ScenarioDirectory([
      "shop.yaml": shopProfile + """

        timeline:
          - push: {bundle: com.example.shop, payload: {aps: {alert: {title: Order shipped, body: On its way}}}}
          - after: 1m
            expect: {snapshot: {file: snapshots/shop.txt, size: 60x16}}
        """
    ])
  }

  @Test func snapshotsAreRecordedComparedAndDiffed() throws {
    let directory = try shopSnapshotScenario()
    defer { directory.remove() }
    let path = directory.path("shop.yaml")
    let missing = ScenarioTester().test(path: path)
    #expect(missing.failures.first?.got == "no such file")

    let recorded = ScenarioTester(update: true).test(path: path)
    #expect(recorded.results.first?.outcome == .recorded)
    let text = try String(contentsOfFile: directory.path("snapshots/shop.txt"), encoding: .utf8)
    #expect(text.contains("Order shipped"))
    #expect(text.split(separator: "\n", omittingEmptySubsequences: false).count == 17)  // 16 rows and a final newline
    #expect(ScenarioTester().test(path: path).results.first?.outcome == .held)

    try Data(text.replacingOccurrences(of: "Order shipped", with: "Order lost").utf8).write(
      to: URL(fileURLWithPath: directory.path("snapshots/shop.txt")))
    let changed = try #require(ScenarioTester().test(path: path).failures.first)
    #expect(changed.got == "a different screen")
    #expect(changed.details.contains { $0.hasPrefix("-") && $0.contains("Order lost") })
    #expect(changed.details.contains { $0.hasPrefix("+") && $0.contains("Order shipped") })
    #expect(changed.details.contains { $0.hasPrefix("@@ ") })
  }

  /// A folder where the snapshot file goes is said to be one, by `test` and by `--update` (they
  /// said "no such file", then gave a Foundation error).
  @Test func aFolderWhereTheSnapshotGoesIsSaidToBeOne() throws {
    let directory = try shopSnapshotScenario()
    defer { directory.remove() }
    try FileManager.default.createDirectory(
      atPath: directory.path("snapshots/shop.txt"), withIntermediateDirectories: true)
    let path = directory.path("shop.yaml")
    for update in [false, true] {
      let failure = try #require(ScenarioTester(update: update).test(path: path).failures.first)
      #expect(failure.got == "a folder, not a file")
    }
  }

  /// A snapshot checked out with Windows line endings (core.autocrlf) is the same screen, and a
  /// changed one is diffed line by line: before, it never held and its diff was one line, the
  /// whole file with its "\u{D}\u{A}"s, since a Character takes "\r\n" for one.
  @Test func aSnapshotWithWindowsLineEndingsHoldsAndIsDiffedByLine() throws {
    let directory = try shopSnapshotScenario()
    defer { directory.remove() }
    let path = directory.path("shop.yaml")
    #expect(ScenarioTester(update: true).test(path: path).results.first?.outcome == .recorded)
    let file = URL(fileURLWithPath: directory.path("snapshots/shop.txt"))
    let text = try String(contentsOf: file, encoding: .utf8)
    let crlf = text.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\r\n")
    try Data(crlf.utf8).write(to: file)
    #expect(ScenarioTester().test(path: path).results.first?.outcome == .held)
    let unchanged = ScenarioTester(update: true).test(path: path).results.first
    #expect(unchanged?.got == "unchanged")

    try Data(crlf.replacingOccurrences(of: "Order shipped", with: "Order lost").utf8).write(to: file)
    let changed = try #require(ScenarioTester().test(path: path).failures.first)
    #expect(changed.got == "a different screen")
    let removed = changed.details.filter { $0.hasPrefix("-") && !$0.hasPrefix("---") }
    #expect(removed.count == 1 && removed[0].contains("Order lost"), "\(changed.details)")
    #expect(!changed.details.contains { $0.contains("\r") }, "\(changed.details)")
  }
}

/// The report formats: exact GitHub escaping, JUnit XML's structure, Markdown.
struct TestReportTests {
  @Test func gitHubEscapingIsTheToolkits() {
    #expect(GitHubAnnotation.escapeData("50% done\r\nnext: a,b") == "50%25 done%0D%0Anext: a,b")
    #expect(GitHubAnnotation.escapeProperty("50% done\r\nnext: a,b") == "50%25 done%0D%0Anext%3A a%2Cb")
    #expect(
      GitHubAnnotation.command(
        "error", file: "ci/a,b.yaml", line: 12, column: 7, title: "push 1: sound", message: "expected none\ngot 100%")
        == "::error file=ci/a%2Cb.yaml,line=12,col=7,title=push 1%3A sound::expected none%0Agot 100%25")
    #expect(
      GitHubAnnotation.command("notice", file: nil, line: nil, column: nil, title: nil, message: "ok") == "::notice::ok"
    )
  }

  func failingRun() throws -> TestRun {
    let hostile =
      shopProfile + """

        title: "Ünïcode <&> \\"quotes\\" \\u0007bell"
        timeline:
          - push:
              bundle: com.example.shop
              payload: {aps: {alert: {title: "<b>&amp;</b> \\u001b[31m"}, sound: default}}
            expect: {disposition: delivered, sound: none}
        """
    let checked = try ScenarioLoader(files: .none).loadCheckedScenario(text: hostile, file: "a&b.yaml")
    let plain = try ScenarioLoader(files: .none).loadCheckedScenario(
      text: shopProfile + "\ntimeline: []\n", file: "plain.yaml")
    let broken = ScenarioReport(
      file: "broken.yaml",
      error: ScenarioError(file: "broken.yaml", line: 3, column: 5, path: "timeline", message: "bad"))
    return TestRun(reports: [ScenarioTester().test(checked), ScenarioTester().test(plain), broken])
  }

  @Test func gitHubAnnotationsPointAtTheExpectation() throws {
    let lines = GitHubAnnotation.render(try failingRun()).split(separator: "\n").map(String.init)
    #expect(lines.count == 3)
    #expect(lines[0].hasPrefix("::error file=a&b.yaml,line=11,col=45,title=pushdeck test%3A push 1%3A sound::"))
    #expect(lines[0].contains("sound: expected none, got default%0Aexplain: delivered"))
    #expect(lines[1] == "::error file=broken.yaml,line=3,col=5,title=pushdeck test%3A timeline::bad")
    #expect(lines[2].hasPrefix("::notice title=pushdeck test::3 scenarios"))
  }

  @Test func junitXMLHasTheJUnitStructure() throws {
    let xml = JUnitReport.render(try failingRun())
    try JUnitSchema.check(xml)
    #expect(xml.contains("<failure message=\"sound: expected none, got default\" type=\"sound\">"))
    #expect(xml.contains("name=\"a&amp;b.yaml — Ünïcode &lt;&amp;&gt; &quot;quotes&quot; \u{FFFD}bell\""))
    #expect(!xml.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
  }

  @Test func markdownSummaryListsScenariosAndFailures() throws {
    let markdown = MarkdownSummary.render(try failingRun())
    #expect(markdown.hasPrefix("## pushdeck test\n\n3 scenarios: 1 expectation held, 1 failed;"))
    #expect(markdown.contains("| ❌ | a&b.yaml — Ünïcode \\<&\\> \"quotes\" \u{FFFD}bell | 1 | 1 |"))
    #expect(markdown.contains("| ➖ | plain.yaml | 0 | 0 |"))
    #expect(markdown.contains("- **a&b.yaml:11:45** push 1: sound: expected none, got default"))
    #expect(!markdown.unicodeScalars.contains { $0.value == 0x1B })
  }

  @Test func lineDiffShowsChangedLinesWithContext() {
    let old = "a\nb\nc\nd\ne\nf\ng"
    let new = "a\nb\nC\nd\ne\nf\ng\nh"
    #expect(LineDiff.unified(old, new) == ["@@ -1 +1 @@", " a", " b", "-c", "+C", " d", " e", " f", " g", "+h"])
    #expect(LineDiff.unified(old, old).isEmpty)
    let far = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10"
    #expect(
      LineDiff.unified(far, far.replacingOccurrences(of: "2", with: "two").replacingOccurrences(of: "9", with: "nine"))
        == ["@@ -1 +1 @@", " 1", "-2", "+two", " 3", " 4", "@@ -7 +7 @@", " 7", " 8", "-9", "+nine", " 10"])
  }
}

/// A schema-like check of the JUnit XML `pushdeck test --junit` writes, after the Jenkins
/// junit-10 XSD: element nesting, required attributes, integer counts that add up.
enum JUnitSchema {
  struct Violation: Error, CustomStringConvertible {
    var description: String
  }

  static func check(_ xml: String) throws {
    #if canImport(FoundationXML)
      let document = try XMLDocument(data: Data(xml.utf8), options: [])
      guard let root = document.rootElement(), root.name == "testsuites" else {
        throw Violation(description: "the root is not <testsuites>")
      }
      func int(_ element: XMLElement, _ name: String) throws -> Int {
        guard let text = element.attribute(forName: name)?.stringValue, let value = Int(text), value >= 0 else {
          throw Violation(description: "<\(element.name ?? "")> lacks a non-negative integer \(name)")
        }
        return value
      }
      func required(_ element: XMLElement, _ names: [String]) throws {
        for name in names where element.attribute(forName: name) == nil {
          throw Violation(description: "<\(element.name ?? "")> lacks \(name)")
        }
      }
      // The attributes junit-10.xsd allows on each element.
      let allowed: [String: Set<String>] = [
        "testsuites": ["name", "time", "tests", "failures", "disabled", "errors"],
        "testsuite": [
          "name", "tests", "failures", "errors", "time", "disabled", "skipped", "timestamp", "hostname", "id",
          "package",
        ],
        "testcase": ["name", "assertions", "time", "classname", "status"],
        "failure": ["message", "type"], "error": ["message", "type"], "skipped": ["message"],
        "system-out": [], "system-err": [],
      ]
      func attributesAllowed(_ element: XMLElement) throws {
        let names = Set((element.attributes ?? []).compactMap(\.name))
        let extra = names.subtracting(allowed[element.name ?? ""] ?? [])
        guard extra.isEmpty else {
          throw Violation(description: "<\(element.name ?? "")> has attributes junit-10 does not: \(extra.sorted())")
        }
      }
      try attributesAllowed(root)
      var totalFailures = 0
      for suite in root.children ?? [] {
        guard let suite = suite as? XMLElement else { continue }
        guard suite.name == "testsuite" else { throw Violation(description: "<\(suite.name ?? "")> in <testsuites>") }
        try required(suite, ["name", "tests"])
        try attributesAllowed(suite)
        var cases = 0
        var failures = 0
        var errors = 0
        var skipped = 0
        for child in suite.children ?? [] {
          guard let testcase = child as? XMLElement else { continue }
          guard ["testcase", "properties", "system-out", "system-err"].contains(testcase.name ?? "") else {
            throw Violation(description: "<\(testcase.name ?? "")> in <testsuite>")
          }
          guard testcase.name == "testcase" else { continue }
          cases += 1
          try required(testcase, ["name", "classname"])
          try attributesAllowed(testcase)
          for result in testcase.children ?? [] {
            guard let result = result as? XMLElement else { continue }
            try attributesAllowed(result)
            switch result.name {
            case "failure":
              failures += 1
              try required(result, ["message", "type"])
            case "error":
              errors += 1
              try required(result, ["message", "type"])
            case "skipped": skipped += 1
            case "system-out", "system-err": break
            default: throw Violation(description: "<\(result.name ?? "")> in <testcase>")
            }
          }
        }
        guard try int(suite, "tests") == cases, try int(suite, "failures") == failures,
          try int(suite, "errors") == errors, try int(suite, "skipped") == skipped
        else {
          throw Violation(
            description:
              "the counts of <testsuite name=\"\(suite.attribute(forName: "name")?.stringValue ?? "")\"> do not add up")
        }
        totalFailures += failures
      }
      guard try int(root, "failures") == totalFailures else {
        throw Violation(description: "<testsuites failures> is not the sum")
      }
    #else
      throw Violation(description: "FoundationXML is not available")
    #endif
  }
}

import PushCore

/// Everything `pushdeck test` found: a report per scenario and the paths it could not read.
public struct TestRun: Equatable, Sendable {
  public var reports: [ScenarioReport]
  /// Paths that could not be read (not a scenario's own errors).
  public var problems: [String]

  /// Creates a run.
  public init(reports: [ScenarioReport], problems: [String] = []) {
    self.reports = reports
    self.problems = problems
  }

  public var held: Int { reports.reduce(0) { $0 + $1.results.count { $0.outcome == .held } } }
  public var failed: Int { reports.reduce(0) { $0 + $1.failures.count } }
  public var recorded: Int { reports.reduce(0) { $0 + $1.results.count { $0.outcome == .recorded } } }
  public var invalid: Int { reports.count { $0.error != nil } }
  public var withoutExpectations: Int { reports.count(where: \.hasNoExpectations) }

  /// 0 when every expectation held, 1 when any failed, 2 for unreadable or invalid inputs.
  public var exitCode: Int32 {
    if !problems.isEmpty || invalid > 0 || reports.isEmpty { return 2 }
    return failed > 0 ? 1 : 0
  }

  /// `3 scenarios: 24 expectations held, 1 failed; 1 scenario without expectations`.
  public var summaryLine: String {
    func plural(_ count: Int, _ word: String) -> String { "\(count) \(word)\(count == 1 ? "" : "s")" }
    var text = plural(reports.count, "scenario") + ": " + plural(held, "expectation") + " held, \(failed) failed"
    if recorded > 0 { text += ", \(recorded) snapshot\(recorded == 1 ? "" : "s") recorded" }
    if withoutExpectations > 0 {
      text += "; " + plural(withoutExpectations, "scenario") + " without expectations"
    }
    if invalid > 0 { text += "; " + plural(invalid, "scenario") + " could not be played" }
    if !problems.isEmpty { text += "; " + plural(problems.count, "path") + " could not be read" }
    return text
  }
}

/// The readable report: a line per scenario, each failure with expected, got and explain's
/// reasons. `clean` makes untrusted text (titles, payload text, screen text) safe to print.
public enum TestText {
  public static func render(_ run: TestRun, verbose: Bool = false, clean: (String) -> String = { $0 }) -> String {
    var lines: [String] = []
    for report in run.reports {
      let title = report.title.map { " — " + clean($0) } ?? ""
      if let error = report.error {
        lines.append("ERROR \(clean(report.file))\(title)")
        lines.append("  " + clean(error.description))
        continue
      }
      if report.hasNoExpectations {
        lines.append("NONE  \(clean(report.file))\(title): no expectations (add expect: blocks, docs/SCENARIOS.md)")
        continue
      }
      let failures = report.failures
      let status = failures.isEmpty ? "PASS " : "FAIL "
      // Snapshots written by --update were not checked: counted apart from what held.
      let recorded = report.results.count { $0.outcome == .recorded }
      let checked = report.results.count - recorded
      let recordedText = "\(recorded) snapshot\(recorded == 1 ? "" : "s") recorded"
      let counts =
        checked == 0
        ? recordedText : "\(checked - failures.count)/\(checked) held" + (recorded > 0 ? ", " + recordedText : "")
      lines.append(status + clean(report.file) + title + " (\(counts))")
      for result in report.results where verbose || result.outcome != .held {
        let mark =
          switch result.outcome {
          case .held: "✓"
          case .failed: "✗"
          case .recorded: "●"
          }
        lines.append("  \(mark) \(clean(result.location)): \(clean(result.name)): " + clean(result.summaryAfterKey))
        for detail in result.details { lines.append("      " + clean(detail)) }
      }
    }
    for problem in run.problems { lines.append("ERROR " + clean(problem)) }
    lines.append(run.summaryLine)
    return lines.joined(separator: "\n") + "\n"
  }
}

extension ExpectationResult {
  /// The summary without the key (the name already has it).
  var summaryAfterKey: String {
    switch outcome {
    case .held: expected
    case .failed: "expected \(expected), got \(got)"
    case .recorded: "recorded \(expected) (\(got))"
    }
  }

  /// The failure's message for annotations and JUnit: the summary and the details.
  public var message: String {
    ([name + ": " + summaryAfterKey] + details).joined(separator: "\n")
  }
}

/// GitHub Actions workflow commands, escaped as `@actions/core` escapes them.
public enum GitHubAnnotation {
  /// A command's message: `%` → `%25`, CR → `%0D`, LF → `%0A`.
  public static func escapeData(_ text: String) -> String {
    escape(text, property: false)
  }

  /// A command's property value: as data, and `:` → `%3A`, `,` → `%2C`.
  public static func escapeProperty(_ text: String) -> String {
    escape(text, property: true)
  }

  /// By scalar: a CR LF pair is one `Character` in Swift, and each half is escaped.
  private static func escape(_ text: String, property: Bool) -> String {
    var output = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "%": output += "%25"
      case "\r": output += "%0D"
      case "\n": output += "%0A"
      case ":" where property: output += "%3A"
      case "," where property: output += "%2C"
      default: output.unicodeScalars.append(scalar)
      }
    }
    return output
  }

  /// `::error file=…,line=…,col=…,title=…::message` (`kind` is error, warning or notice).
  public static func command(
    _ kind: String, file: String?, line: Int?, column: Int?, title: String?, message: String
  ) -> String {
    var properties: [String] = []
    if let file { properties.append("file=" + escapeProperty(file)) }
    if let line { properties.append("line=\(line)") }
    if let column { properties.append("col=\(column)") }
    if let title { properties.append("title=" + escapeProperty(title)) }
    return "::" + kind + (properties.isEmpty ? "" : " " + properties.joined(separator: ",")) + "::"
      + escapeData(message)
  }

  /// An annotation per failed expectation and per scenario that could not be played, then the
  /// summary as a notice.
  public static func render(_ run: TestRun, clean: (String) -> String = { $0 }) -> String {
    var lines: [String] = []
    for report in run.reports {
      if let error = report.error {
        lines.append(
          command(
            "error", file: error.file, line: error.line, column: error.column,
            title: "pushdeck test: " + (error.path.isEmpty ? "invalid scenario" : error.path),
            message: clean(error.message)))
      }
      for result in report.results where result.outcome == .failed {
        let expectation = result.expectation
        lines.append(
          command(
            "error", file: expectation.file, line: expectation.line, column: expectation.column,
            title: "pushdeck test: " + clean(result.name),
            message: result.message.split(separator: "\n", omittingEmptySubsequences: false).map { clean(String($0)) }
              .joined(separator: "\n")))
      }
    }
    for problem in run.problems {
      lines.append(command("error", file: nil, line: nil, column: nil, title: "pushdeck test", message: clean(problem)))
    }
    lines.append(command("notice", file: nil, line: nil, column: nil, title: "pushdeck test", message: run.summaryLine))
    return lines.joined(separator: "\n") + "\n"
  }
}

/// JUnit XML in the common (Jenkins, junit-10) shape: `testsuites` › a `testsuite` per scenario
/// › a `testcase` per expectation, with `failure`, `error`, `skipped` and `system-out`.
public enum JUnitReport {
  public static func render(_ run: TestRun) -> String {
    var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    let errors = run.invalid + run.problems.count
    xml +=
      "<testsuites name=\"pushdeck test\" tests=\"\(run.held + run.failed + run.recorded + run.invalid + run.withoutExpectations)\""
      + " failures=\"\(run.failed)\" errors=\"\(errors)\" time=\"0\">\n"
    for (index, report) in run.reports.enumerated() {
      let name = attribute(report.title.map { "\(report.file) — \($0)" } ?? report.file)
      let failures = report.failures.count
      let tests = max(report.results.count, 1)
      let skipped = report.hasNoExpectations ? 1 : 0
      xml +=
        "  <testsuite name=\"\(name)\" id=\"\(index)\" tests=\"\(tests)\" failures=\"\(failures)\""
        + " errors=\"\(report.error == nil ? 0 : 1)\" skipped=\"\(skipped)\" time=\"0\">\n"
      if let error = report.error {
        xml += "    <testcase name=\"load\" classname=\"\(attribute(report.file))\" time=\"0\">\n"
        xml +=
          "      <error message=\"\(attribute(error.message))\" type=\"invalid scenario\">\(text(error.description))</error>\n"
        xml += "    </testcase>\n"
      } else if report.hasNoExpectations {
        xml += "    <testcase name=\"no expectations\" classname=\"\(attribute(report.file))\" time=\"0\">\n"
        xml += "      <skipped message=\"the scenario states no expectations\"/>\n"
        xml += "    </testcase>\n"
      }
      for result in report.results {
        let expectation = result.expectation
        xml +=
          "    <testcase name=\"\(attribute(result.name))\" classname=\"\(attribute(report.file))\""
          + " time=\"0\">\n"
        if result.outcome == .failed {
          xml +=
            "      <failure message=\"\(attribute(result.expectation.key + ": expected " + result.expected + ", got " + result.got))\""
            + " type=\"\(attribute(expectation.key))\">\(text(result.location + ": " + result.message))</failure>\n"
        }
        xml +=
          "      <system-out>\(text(([result.location + ": " + result.summary] + result.details).joined(separator: "\n")))</system-out>\n"
        xml += "    </testcase>\n"
      }
      xml += "  </testsuite>\n"
    }
    return xml + "</testsuites>\n"
  }

  /// Element text (the one XML escaper, ``XMLText``): a failure's log keeps its line breaks.
  static func text(_ value: String) -> String { XMLText.escaped(value, .elementText) }

  /// An attribute value: quotes and line breaks escaped as well, so they come back exactly.
  static func attribute(_ value: String) -> String { XMLText.escaped(value, .attributeValue) }
}

/// A Markdown summary for `$GITHUB_STEP_SUMMARY`: a table of scenarios and each failure.
public enum MarkdownSummary {
  public static func render(_ run: TestRun) -> String {
    var lines = ["## pushdeck test", "", run.summaryLine, "", "| | Scenario | Held | Failed |", "|---|---|---:|---:|"]
    for report in run.reports {
      let mark =
        report.error != nil ? "⚠️" : report.hasNoExpectations ? "➖" : report.failures.isEmpty ? "✅" : "❌"
      let title = report.title.map { " — " + cell($0) } ?? ""
      let held = report.results.count { $0.outcome != .failed }
      lines.append("| \(mark) | \(cell(report.file))\(title) | \(held) | \(report.failures.count) |")
    }
    let failing = run.reports.filter { $0.error != nil || !$0.failures.isEmpty }
    if !failing.isEmpty || !run.problems.isEmpty {
      lines += ["", "### Failures", ""]
      for report in failing {
        if let error = report.error { lines.append("- \(cell(error.description))") }
        for result in report.failures {
          lines.append("- **\(cell(result.location))** \(cell(result.name)): \(cell(result.summaryAfterKey))")
          if !result.details.isEmpty {
            lines.append("  ```")
            lines += result.details.map { "  " + cleanBlock($0) }
            lines.append("  ```")
          }
        }
      }
      for problem in run.problems { lines.append("- \(cell(problem))") }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// A line in a fenced block: no fence, no control characters.
  static func cleanBlock(_ text: String) -> String {
    String(
      text.replacing("```", with: "`‵`").unicodeScalars.map {
        $0.value < 0x20 || (0x7F...0x9F).contains($0.value) ? "\u{FFFD}" : Character($0)
      })
  }

  /// Text for a table cell or list item: no line breaks, pipes and markup characters escaped.
  static func cell(_ text: String) -> String {
    var output = ""
    for character in text {
      switch character {
      case "\n", "\r": output += " "
      case "|", "`", "*", "_", "<", ">", "[", "]", "\\": output += "\\" + String(character)
      default:
        let isControl = character.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
        output += isControl ? "\u{FFFD}" : String(character)
      }
    }
    return output
  }
}

import ArgumentParser
import Foundation
import PushCheck
import PushScenario
import PushShell

/// `pushdeck test`: plays scenarios and checks their `expect:` blocks, for people and CI.
struct TestCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "test",
    abstract: "Play scenarios and check their expect: blocks (text, JUnit XML, GitHub annotations).",
    discussion: """
      PATHS are scenario files and directories (walked for .yaml and .yml files with a \
      timeline:; profiles and other YAML are skipped). Each scenario plays on its own device as \
      explain plays it, and each expectation is checked: a push's disposition, surfaces, sound, \
      badge, reasons, group, thread, rank, level and handler outcome; a moment's screen text, \
      lock screen and Notification Center counts and snapshot files (docs/SCENARIOS.md, \
      Expectations). A scenario without expectations is reported as such, not failed.

      --junit writes JUnit XML, --summary (or $GITHUB_STEP_SUMMARY when set) a Markdown \
      summary; --format github prints GitHub Actions annotations at each failed expectation's \
      line. --update writes the snapshot files instead of comparing them.

      Exit status: 0 when every expectation held, 1 when any failed, 2 for usage errors, \
      unreadable paths and invalid scenarios.
      """
  )

  enum Format: String, ExpressibleByArgument, CaseIterable {
    case text, github
  }

  @Option(name: .long, help: "Output format: text (for people) or github (GitHub Actions annotations).")
  var format: Format = .text

  @Option(name: .long, help: "Write a JUnit XML report to this file.")
  var junit: String?

  @Option(name: .long, help: "Write a Markdown summary to this file (default: $GITHUB_STEP_SUMMARY when set).")
  var summary: String?

  @Flag(name: .long, help: "Record snapshot files from the screens now, instead of comparing them.")
  var update = false

  @Flag(name: .shortAndLong, help: "List the expectations that held too.")
  var verbose = false

  @Argument(help: "Scenario files and directories (default: the current directory).")
  var paths: [String] = []

  func run() throws {
    let out = OutputStream.standardOutput()
    let err = OutputStream.standardError()
    let loader = ScenarioLoader()
    let (files, problems) = ScenarioTester.scenarioFiles(in: paths.isEmpty ? ["."] : paths, loader: loader)
    let tester = ScenarioTester(update: update, loader: loader)
    let run = TestRun(reports: files.map { tester.test(path: $0) }, problems: problems)
    switch format {
    case .text: out.write(TestText.render(run, verbose: verbose, clean: terminalSafe))
    case .github: out.write(GitHubAnnotation.render(run, clean: terminalSafe))
    }
    out.flush()
    if run.reports.isEmpty && problems.isEmpty {
      err.line(
        "pushdeck: no scenarios (.yaml, .yml with a timeline:) in \(paths.map(terminalSafe).joined(separator: ", "))")
    }
    var writeFailed = false
    if let junit {
      if let problem = Self.write(JUnitReport.render(run), to: junit, append: false) {
        err.line("pushdeck: cannot write the JUnit report \(terminalSafe(junit)): \(problem)")
        writeFailed = true
      }
    }
    let environment = ProcessInfo.processInfo.environment["GITHUB_STEP_SUMMARY"].flatMap { $0.isEmpty ? nil : $0 }
    if let target = summary ?? environment {
      // The step summary file is shared by a job's steps: append to it; a named file is ours.
      if let problem = Self.write(MarkdownSummary.render(run), to: target, append: summary == nil) {
        err.line("pushdeck: cannot write the summary \(terminalSafe(target)): \(problem)")
        writeFailed = true
      }
    }
    err.flush()
    let code = writeFailed ? 2 : run.exitCode
    if code != 0 { throw ExitCode(code) }
  }

  /// Writes or appends a report; a problem's description, or nil.
  static func write(_ text: String, to path: String, append: Bool) -> String? {
    let url = URL(fileURLWithPath: path)
    do {
      if append, let handle = try? FileHandle(forWritingTo: url) {
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(text.utf8))
      } else {
        try Data(text.utf8).write(to: url, options: .atomic)
      }
      return nil
    } catch {
      return error.localizedDescription
    }
  }
}

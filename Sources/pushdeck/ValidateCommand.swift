import ArgumentParser
import PushCheck
import PushCore
import PushScenario
import PushShell
import PushWire

/// `pushdeck validate`: the payload linter for people and CI.
struct ValidateCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "validate",
    abstract: "Check APNs payloads, .apns files and JSON Lines captures.",
    discussion: """
      Reads files, directories (recursively: .apns, .json, .jsonl, .ndjson) and - for standard \
      input. A scenario (.yaml, .yml) is loaded as explain and run load it, and each push it \
      writes is checked like a payload file; a scenario that cannot be loaded is an error at its \
      line and column. Every problem is reported with its file, line and column or key path, what is wrong, \
      what a device will do because of it, and how to fix it.

      Each finding says what APNs answers (accepts, or rejects with a status and reason) and \
      what the device does (drops the push, ignores the key, or shows it), from the same table \
      explain, serve, run and replay use. An error is a push that does not arrive: APNs rejects \
      it or the device drops it. A warning is a push that arrives but not as meant (the device \
      ignores a key, say).

      Exit status: 0 when no payload has an error, 1 when any has (with --strict, any warning \
      too), 2 for usage or I/O errors, or when the inputs held no push at all.
      """
  )

  enum Format: String, ExpressibleByArgument, CaseIterable {
    case text, json, github
  }

  @Option(
    name: .long,
    help:
      "Output format: text (compiler style), json (JSON Lines, one object per payload) or github (GitHub Actions annotations)."
  )
  var format: Format = .text

  @Flag(name: .long, help: "Treat warnings as errors.")
  var strict = false

  @Flag(
    name: .shortAndLong, help: "Print no findings, only the summary line (on standard error, where it always goes).")
  var quiet = false

  @Option(
    name: .long,
    help:
      "The app for payload files (over a file's Simulator Target Bundle, as xcrun simctl push does; capture lines name their own).",
    transform: BundleOption.parse)
  var bundle: String?

  @Argument(help: "Files, directories, or - for standard input.")
  var paths: [String]

  func validate() throws {
    if paths.isEmpty { throw ValidationError("name at least one file, directory or - for standard input") }
  }

  func run() throws {
    tuneAllocatorForStreaming()
    let out = OutputStream.standardOutput()
    let err = OutputStream.standardError()
    let (inputs, problems) = resolveInputs(paths.filter { !Session.isScenario($0) })
    let printer = DiagnosticPrinter(color: format == .text && colorEnabled(for: out), strict: strict)
    var tally = Tally()
    var ioProblems = problems
    // Each record is checked and rendered on the decoding workers; only the counts and the
    // text come back to this thread, in order.
    let (strict, quiet, format) = (self.strict, self.quiet, self.format)
    let check: @Sendable (PushRecord) -> (Tally, String?) = { record in
      var delta = Tally()
      delta.count(record, strict: strict)
      guard !quiet else { return (delta, nil) }
      switch format {
      case .text: return (delta, record.diagnostics.isEmpty ? nil : printer.render(record))
      case .json: return (delta, ValidationJSON.line(for: record, strict: strict) + "\n")
      case .github:
        return (delta, record.diagnostics.isEmpty ? nil : ValidationAnnotations.render(record, strict: strict))
      }
    }
    // Scenarios first, in the order named: each loaded whole (they are small), each push checked.
    var unloadable = 0
    for path in paths where Session.isScenario(path) {
      do throws(ScenarioError) {
        let scenario = try ScenarioLoader().loadScenario(path: path)
        for entry in scenario.timeline {
          guard case .device(.push(let record, _)) = entry.event else { continue }
          let (delta, text) = check(record)
          tally.add(delta)
          if let text { out.write(text) }
        }
      } catch {
        unloadable += 1
        // Said where each format's reader looks: an annotation, a JSON line, and always stderr.
        if !quiet, let report = Self.unloadable(error, format: format) { out.write(report) }
        out.flush()
        err.line("pushdeck: \(terminalSafe(error.description))")
      }
    }
    for input in inputs {
      do throws(InputProblem) {
        try readRecords(
          from: input, bundleID: bundle, keepsCustomValues: false,
          transform: check
        ) { result in
          tally.add(result.0)
          if let text = result.1 { out.write(text) }
        }
      } catch {
        ioProblems.append(error)
      }
    }
    out.flush()
    for problem in ioProblems {
      err.line("pushdeck: \(terminalSafe(problem.path)): \(problem.message)")
    }
    if format != .json || quiet {
      var summary = tally.summary(strict: strict, ioProblems: ioProblems.count)
      if unloadable > 0 { summary += "; \(unloadable) scenario\(unloadable == 1 ? "" : "s") could not be loaded" }
      err.line(summary)
    }
    // Checking nothing is no pass: in CI an empty input is a generator that wrote nothing, or
    // a capture cut to nothing (`: | pushdeck validate -` exited 0; found by an exploratory
    // test), as a folder with no payload files already is.
    // (A scenario of steps and no push is a scenario, and was checked.)
    if ioProblems.isEmpty, unloadable == 0, tally.payloads == 0, !paths.contains(where: Session.isScenario) {
      let named = inputs.map(\.displayPath)
      err.line(
        "pushdeck: nothing was checked: \(terminalSafe(named.joined(separator: ", "))) held no push; "
          + "an empty input is not a pass (check what wrote it)")
      err.flush()
      throw ExitCode(2)
    }
    err.flush()
    if !ioProblems.isEmpty { throw ExitCode(2) }
    if tally.invalid > 0 || unloadable > 0 { throw ExitCode(1) }
  }

  /// A scenario that cannot be loaded, for `--format github` (an error annotation at its line
  /// and column) and `--format json` (a line like a payload's, not valid, with one diagnostic of
  /// code `ScenarioNotLoaded`); nil for text, which says it on stderr only.
  static func unloadable(_ error: ScenarioError, format: Format) -> String? {
    let message = (error.path.isEmpty ? "" : error.path + ": ") + error.message
    switch format {
    case .text:
      return nil
    case .github:
      return GitHubAnnotation.command(
        "error", file: terminalSafe(error.file), line: error.line, column: error.column,
        title: "pushdeck validate: ScenarioNotLoaded",
        message: terminalSafe(message) + "\nhint: fix the scenario; no push in it was checked") + "\n"
    case .json:
      var json = JSONWriter(capacity: 256)
      json.beginObject()
      json.member("source", error.file + (error.line.map { ":\($0)" } ?? ""))
      json.member("valid", false)
      json.key("diagnostics")
      json.beginArray()
      json.beginObject()
      json.member("severity", "error")
      json.member("code", "ScenarioNotLoaded")
      json.member("path", error.path.isEmpty ? nil : error.path)
      json.member("line", error.line)
      json.member("column", error.column)
      json.member("message", error.message)
      json.member("hint", "fix the scenario; no push in it was checked")
      json.endObject()
      json.endArray()
      json.endObject()
      return json.text + "\n"
    }
  }
}

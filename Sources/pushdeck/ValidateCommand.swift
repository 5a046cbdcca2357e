import ArgumentParser
import PushCheck
import PushShell
import PushWire

/// `pushdeck validate`: the payload linter for people and CI.
struct ValidateCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "validate",
    abstract: "Check APNs payloads, .apns files and JSON Lines captures.",
    discussion: """
      Reads files, directories (recursively: .apns, .json, .jsonl, .ndjson) and - for standard \
      input. Every problem is reported with its file, line and column or key path, what is wrong, \
      what a device will do because of it, and how to fix it.

      Each finding says what APNs answers (accepts, or rejects with a status and reason) and \
      what the device does (drops the push, ignores the key, or shows it), from the same table \
      explain, serve, run and replay use. An error is a push that does not arrive: APNs rejects \
      it or the device drops it. A warning is a push that arrives but not as meant (the device \
      ignores a key, say).

      Exit status: 0 when no payload has an error, 1 when any has (with --strict, any warning \
      too), 2 for usage or I/O errors.
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

  @Flag(name: .shortAndLong, help: "Print only the summary line.")
  var quiet = false

  @Option(
    name: .long, help: "The app's bundle id, for payload files without 'Simulator Target Bundle'.",
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
    let (inputs, problems) = resolveInputs(paths)
    let printer = DiagnosticPrinter(color: format == .text && colorEnabled(for: out), strict: strict)
    var tally = Tally()
    var ioProblems = problems
    // Each record is checked and rendered on the decoding workers; only the counts and the
    // text come back to this thread, in order.
    let (strict, quiet, format) = (self.strict, self.quiet, self.format)
    for input in inputs {
      do throws(InputProblem) {
        try readRecords(
          from: input, bundleID: bundle, keepsCustomValues: false,
          transform: { record -> (Tally, String?) in
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
      err.line(tally.summary(strict: strict, ioProblems: ioProblems.count))
    }
    err.flush()
    if !ioProblems.isEmpty { throw ExitCode(2) }
    if tally.invalid > 0 { throw ExitCode(1) }
  }
}

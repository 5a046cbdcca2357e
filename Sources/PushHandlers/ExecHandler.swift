import Foundation
import PushUI
import Subprocess

/// The `exec` handler: runs a program for each response, as the app's code would run.
///
/// The program is started through Subprocess from an argv list — never through a shell, so
/// nothing in the payload or the typed text is ever interpreted. It gets:
/// - the response JSON (``ResponseJSON``) on standard input;
/// - `PUSHDECK_APP`, `PUSHDECK_CATEGORY`, `PUSHDECK_ACTION`, `PUSHDECK_ACTION_TITLE`,
///   `PUSHDECK_NOTIFICATION_ID` and `PUSHDECK_TEXT` (set only for typed text) on top of
///   pushdeck's environment;
/// - its own process group, killed with SIGKILL when the timeout runs out.
///
/// Exit status 0 is success; the first lines of standard output become the message. Any other
/// status, a signal or the timeout is a failure whose message says which, with the first line
/// of standard error (or output).
public struct ExecHandler: ActionHandler {
  /// The program and its arguments; `argv[0]` without a slash is looked up in `PATH`.
  public var argv: [String]
  /// Seconds before the program is killed.
  public var timeoutSeconds: Double
  /// How many lines of output make the message.
  public var messageLines: Int
  private let now: @Sendable () -> Date

  /// Creates a handler.
  public init(
    argv: [String], timeoutSeconds: Double = 5, messageLines: Int = 2, now: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.argv = argv
    self.timeoutSeconds = timeoutSeconds
    self.messageLines = messageLines
    self.now = now
    // A program that exits without reading its input must not take pushdeck down with it.
    signal(SIGPIPE, SIG_IGN)
  }

  /// What a finished run produced.
  public struct Result: Equatable, Sendable {
    /// The exit status, when the program exited.
    public var status: Int32?
    /// The signal that ended it, when one did.
    public var signal: Int32?
    /// Whether the timeout killed it.
    public var timedOut: Bool
    /// Standard output and error (each capped at 64 KiB).
    public var output: String
    public var errorOutput: String
  }

  public func perform(_ invocation: ActionInvocation) async -> ActionOutcome {
    guard let program = argv.first, !program.isEmpty else { return .failed("exec has no program to run") }
    var environment = ProcessInfo.processInfo.environment
    for key in environment.keys where key.hasPrefix("PUSHDECK_") { environment[key] = nil }
    environment["PUSHDECK_APP"] = invocation.bundleID
    environment["PUSHDECK_CATEGORY"] = invocation.categoryID ?? ""
    environment["PUSHDECK_ACTION"] = invocation.actionID
    environment["PUSHDECK_ACTION_TITLE"] = invocation.actionTitle
    environment["PUSHDECK_NOTIFICATION_ID"] = String(invocation.notification.rawValue)
    if let text = invocation.text { environment["PUSHDECK_TEXT"] = text }
    let input = ResponseJSON.line(for: invocation, at: now()) + "\n"
    let run: Swift.Result<Result, SpawnError>
    do throws(SpawnError) {
      run = .success(
        try await Self.run(
          argv: argv, environment: environment, input: Array(input.utf8), timeoutSeconds: timeoutSeconds))
    } catch {
      run = .failure(error)
    }
    let name = (program as NSString).lastPathComponent
    switch run {
    case .failure(let error):
      return .failed("cannot run \(program): \(error.message)")
    case .success(let result) where result.timedOut:
      return .failed("\(name) timed out after \(secondsText(timeoutSeconds)) and was killed")
    case .success(let result) where result.status == 0:
      let message = firstLines(result.output)
      return .succeeded(message.isEmpty ? nil : message)
    case .success(let result):
      let ended = result.signal.map { "was killed by signal \($0)" } ?? "exited with status \(result.status ?? -1)"
      let detail = firstLines(result.errorOutput.isEmpty ? result.output : result.errorOutput)
      return .failed("\(name) \(ended)" + (detail.isEmpty ? "" : ": \(detail)"))
    }
  }

  private func firstLines(_ text: String) -> String {
    let lines = text.split(whereSeparator: \.isNewline).map { ToastText.clean(String($0)) }.filter { !$0.isEmpty }
    return lines.prefix(messageLines).joined(separator: " · ")
  }

  /// Why a program could not be started.
  public struct SpawnError: Error, Equatable, Sendable {
    public var message: String

    public init(message: String) { self.message = message }

    /// The system's words for Subprocess's error ("No such file or directory", "Permission denied").
    init(_ error: SubprocessError, program: String) {
      if error.code == .executableNotFound {
        // Subprocess reports a path that exists but cannot run as not found; `access` says which.
        let reason = program.contains("/") && access(program, X_OK) != 0 ? errno : ENOENT
        message = String(cString: strerror(reason))
      } else if let underlying = error.underlyingError {
        message = String(cString: strerror(underlying.rawValue))
      } else {
        message = "\(error)"
      }
    }
  }

  /// The most either stream keeps; the rest is read and dropped.
  static let outputCap = 64 * 1024

  /// Runs a program to its end or the timeout, through Subprocess: no shell, `argv` as given,
  /// exactly `environment`, `input` on standard input, its own process group.
  ///
  /// At the timeout the process group is killed with SIGKILL; when the program ends, anything it
  /// left running in its group goes too. `onOutput`, when given, is called with each chunk of
  /// standard output as it arrives (a service extension reads its attempts this way).
  public static func run(
    argv: [String], environment: [String: String], input: [UInt8], timeoutSeconds: Double,
    onOutput: (@Sendable ([UInt8]) -> Void)? = nil
  ) async throws(SpawnError) -> Result {
    guard let program = argv.first, !program.isEmpty else { throw SpawnError(message: "no program to run") }
    var options = PlatformOptions()
    // Its own group (pgid = its pid), so a kill takes the children it started too.
    options.processGroupID = 0
    // If the waiting task is cancelled, the group is killed rather than left running.
    options.teardownSequence = [.send(signal: .kill, toProcessGroup: true, allowedDurationToNextStep: .zero)]
    let configuration = Configuration(
      executable: program.contains("/") ? .path(.init(program)) : .name(program),
      arguments: Arguments(Array(argv.dropFirst())),
      environment: .custom(Self.variables(environment)),
      platformOptions: options)
    // Seconds as read from a profile are range-checked there; clamped again so a Duration never traps.
    let timeout = Duration.milliseconds(Int64(min(max(0, timeoutSeconds), 31_536_000) * 1000))
    // ETXTBSY: a script just written may still be open for writing in a child another thread is
    // forking; that passes in a moment. Up to about 4 s in all: under load the other thread's
    // child can take that long to exec.
    for attempt in 1...50 {
      do {
        return try await runOnce(configuration, input: input, timeout: timeout, onOutput: onOutput)
      } catch let error as SubprocessError where error.underlyingError?.rawValue == ETXTBSY && attempt < 50 {
        try? await Task.sleep(for: .milliseconds(min(100, 5 * attempt)))
      } catch let error as SubprocessError {
        throw SpawnError(error, program: program)
      } catch {
        throw SpawnError(message: "\(error)")
      }
    }
    throw SpawnError(message: String(cString: strerror(ETXTBSY)))
  }

  /// The environment as Subprocess takes it. A C string ends at its first NUL, so a value is
  /// cut there as it always was (Subprocess would refuse it instead, with the text in its message).
  private static func variables(_ environment: [String: String]) -> [Environment.Key: String] {
    var variables: [Environment.Key: String] = [:]
    for (name, value) in environment where !name.isEmpty && !name.contains("=") && !name.contains("\0") {
      guard let key = Environment.Key(rawValue: name) else { continue }
      variables[key] = String(value.prefix { $0 != "\0" })
    }
    return variables
  }

  private enum Event: Sendable {
    case output([UInt8])
    case errorOutput([UInt8])
    case inputWritten
    case deadline
  }

  private static func runOnce(
    _ configuration: Configuration, input: [UInt8], timeout: Duration, onOutput: (@Sendable ([UInt8]) -> Void)?
  ) async throws -> Result {
    let run = try await Subprocess.run(configuration, input: .inputWriter, output: .sequence, error: .sequence) {
      execution in
      try await withThrowingTaskGroup(of: Event.self) { group in
        group.addTask { .output(try await collect(execution.standardOutput, onChunk: onOutput)) }
        group.addTask { .errorOutput(try await collect(execution.standardError, onChunk: nil)) }
        group.addTask {
          // A program may exit without reading its input (SIGPIPE is ignored): not a failure.
          if !input.isEmpty { _ = try? await execution.standardInputWriter.write(input) }
          try? await execution.standardInputWriter.finish()
          return .inputWritten
        }
        group.addTask {
          try? await Task.sleep(for: timeout)
          return .deadline
        }
        var output: [UInt8]?
        var errorOutput: [UInt8]?
        var timedOut = false
        // Both streams end when the program has exited (Subprocess stops reading then, even if a
        // child still holds them open) or closed them.
        while output == nil || errorOutput == nil, let event = try await group.next() {
          switch event {
          case .output(let bytes): output = bytes
          case .errorOutput(let bytes): errorOutput = bytes
          case .inputWritten: break
          case .deadline:
            guard !Task.isCancelled else { break }
            timedOut = true
            try? execution.send(signal: .kill, toProcessGroup: true)
            try? execution.send(signal: .kill)
          }
        }
        group.cancelAll()
        return (output ?? [], errorOutput ?? [], timedOut)
      }
    }
    // Whatever the program left running in its group (its pgid is its pid) goes with it.
    kill(-run.processIdentifier.value, SIGKILL)
    let (output, errorOutput, timedOut) = run.closureResult
    var status: Int32?
    var signal: Int32?
    switch run.terminationStatus {
    case .exited(let code): status = code
    case .signaled(let code): signal = code
    }
    return Result(
      status: timedOut ? nil : status, signal: timedOut ? nil : signal, timedOut: timedOut,
      output: String(decoding: output, as: UTF8.self), errorOutput: String(decoding: errorOutput, as: UTF8.self))
  }

  /// Reads a stream to its end, keeping the first ``outputCap`` bytes.
  private static func collect(_ stream: SubprocessOutputSequence, onChunk: (@Sendable ([UInt8]) -> Void)?)
    async throws -> [UInt8]
  {
    var kept: [UInt8] = []
    for try await buffer in stream {
      let chunk = buffer.withUnsafeBytes { Array($0) }
      if kept.count < outputCap { kept += chunk.prefix(outputCap - kept.count) }
      onChunk?(chunk)
    }
    return kept
  }
}

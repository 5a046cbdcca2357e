import Foundation
import PushUI

/// The `exec` handler: runs a program for each response, as the app's code would run.
///
/// The program is started with `posix_spawn` from an argv list — never through a shell, so
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
    do {
      run = .success(
        try await Self.run(
          argv: argv, environment: environment, input: Array(input.utf8), timeoutSeconds: timeoutSeconds))
    } catch let error as SpawnError {
      run = .failure(error)
    } catch {
      run = .failure(SpawnError(message: "\(error)"))
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
  }

  /// Runs a program to the end or the timeout on a thread of its own, so no task waits on it.
  ///
  /// `onOutput`, when given, is called on that thread with each chunk of standard output as it
  /// arrives (a service extension reads its attempts this way).
  public static func run(
    argv: [String], environment: [String: String], input: [UInt8], timeoutSeconds: Double,
    onOutput: (@Sendable ([UInt8]) -> Void)? = nil
  ) async throws -> Result {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Result, any Error>) in
      let thread = Thread {
        do {
          continuation.resume(
            returning: try runBlocking(
              argv: argv, environment: environment, input: input, timeoutSeconds: timeoutSeconds,
              onOutput: onOutput))
        } catch {
          continuation.resume(throwing: error)
        }
      }
      thread.name = "pushdeck-exec"
      thread.start()
    }
  }

  /// Spawns, feeds stdin, drains stdout and stderr with `poll`, and reaps — or kills the
  /// process group at the deadline.
  static func runBlocking(
    argv: [String], environment: [String: String], input: [UInt8], timeoutSeconds: Double,
    onOutput: (@Sendable ([UInt8]) -> Void)? = nil
  ) throws(SpawnError) -> Result {
    var stdinPipe: [Int32] = [-1, -1]
    var stdoutPipe: [Int32] = [-1, -1]
    var stderrPipe: [Int32] = [-1, -1]
    guard pipe(&stdinPipe) == 0, pipe(&stdoutPipe) == 0, pipe(&stderrPipe) == 0 else {
      for fd in stdinPipe + stdoutPipe + stderrPipe where fd >= 0 { close(fd) }
      throw SpawnError(message: "cannot create pipes: \(String(cString: strerror(errno)))")
    }
    // Only the child's dup2'ed copies survive exec.
    for fd in stdinPipe + stdoutPipe + stderrPipe { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, stdinPipe[0], 0)
    posix_spawn_file_actions_adddup2(&actions, stdoutPipe[1], 1)
    posix_spawn_file_actions_adddup2(&actions, stderrPipe[1], 2)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    posix_spawnattr_setsigmask(&attributes, &noSignals)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for signal in [SIGPIPE, SIGINT, SIGTERM, SIGQUIT, SIGHUP, SIGCHLD] { sigaddset(&defaults, signal) }
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setpgroup(&attributes, 0)
    posix_spawnattr_setflags(
      &attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

    let cArguments = argv.map { strdup($0) } + [nil]
    let cEnvironment = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      for pointer in cArguments + cEnvironment { free(pointer) }
    }
    var pid: pid_t = 0
    var spawned: Int32 = 0
    // ETXTBSY: a script just written may still be open for writing in a child another thread
    // is forking; that passes in a moment.
    // Up to about 4 s in all: under load the other thread's child can take that long to exec.
    for attempt in 0..<50 {
      spawned =
        argv[0].contains("/")
        ? posix_spawn(&pid, argv[0], &actions, &attributes, cArguments, cEnvironment)
        : posix_spawnp(&pid, argv[0], &actions, &attributes, cArguments, cEnvironment)
      guard spawned == ETXTBSY else { break }
      usleep(UInt32(min(100_000, 5_000 * (attempt + 1))))
    }
    close(stdinPipe[0])
    close(stdoutPipe[1])
    close(stderrPipe[1])
    guard spawned == 0 else {
      close(stdinPipe[1])
      close(stdoutPipe[0])
      close(stderrPipe[0])
      throw SpawnError(message: String(cString: strerror(spawned)))
    }

    let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(0, timeoutSeconds) * 1e9)
    var writeFD: Int32 = input.isEmpty ? -1 : stdinPipe[1]
    if writeFD < 0 { close(stdinPipe[1]) }
    var written = 0
    var readFDs = [stdoutPipe[0], stderrPipe[0]]
    var collected: [[UInt8]] = [[], []]
    let cap = 64 * 1024
    var waitStatus: Int32 = 0
    var exited = false
    var exitedAt: UInt64 = 0
    var timedOut = false
    if writeFD >= 0 { _ = fcntl(writeFD, F_SETFL, fcntl(writeFD, F_GETFL) | O_NONBLOCK) }

    while true {
      let now = DispatchTime.now().uptimeNanoseconds
      if !exited, waitpid(pid, &waitStatus, WNOHANG) == pid {
        exited = true
        exitedAt = now
      }
      let pipesOpen = readFDs.contains { $0 >= 0 }
      // Done when the program has exited and its output is drained (or held open by a
      // grandchild for more than a moment).
      if exited && (!pipesOpen || now > exitedAt + 200_000_000) { break }
      if now >= deadline {
        timedOut = !exited
        break
      }
      var fds: [pollfd] = []
      if writeFD >= 0 { fds.append(pollfd(fd: writeFD, events: Int16(POLLOUT), revents: 0)) }
      for fd in readFDs where fd >= 0 { fds.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0)) }
      let waitMs = Int32(min(20, max(1, (deadline - now) / 1_000_000)))
      if fds.isEmpty {
        usleep(UInt32(waitMs) * 1000)
        continue
      }
      let ready = poll(&fds, nfds_t(fds.count), waitMs)
      guard ready > 0 else { continue }
      for entry in fds where entry.revents != 0 {
        if entry.fd == writeFD {
          let count = input[written...].withUnsafeBytes { write(writeFD, $0.baseAddress, $0.count) }
          if count > 0 { written += count }
          if count < 0 && errno != EAGAIN && errno != EINTR || written >= input.count {
            close(writeFD)
            writeFD = -1
          }
        } else if let slot = readFDs.firstIndex(of: entry.fd) {
          var buffer = [UInt8](repeating: 0, count: 4096)
          let count = read(entry.fd, &buffer, buffer.count)
          if count > 0 {
            if collected[slot].count < cap { collected[slot] += buffer[0..<min(count, cap - collected[slot].count)] }
            if slot == 0 { onOutput?(Array(buffer[0..<count])) }
          } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
            close(entry.fd)
            readFDs[slot] = -1
          }
        }
      }
    }
    if writeFD >= 0 { close(writeFD) }
    let outputHeldOpen = readFDs.contains { $0 >= 0 }
    for fd in readFDs where fd >= 0 { close(fd) }
    if timedOut {
      kill(-pid, SIGKILL)
      kill(pid, SIGKILL)
      while waitpid(pid, &waitStatus, 0) < 0 && errno == EINTR {}
    } else if exited && outputHeldOpen {
      // A program that left children holding its output open: they go with it.
      kill(-pid, SIGKILL)
    }
    let termSignal = waitStatus & 0x7f
    let status: Int32? = !timedOut && termSignal == 0 ? (waitStatus >> 8) & 0xff : nil
    let signal: Int32? = !timedOut && termSignal != 0 ? termSignal : nil
    return Result(
      status: status, signal: signal, timedOut: timedOut,
      output: String(decoding: collected[0], as: UTF8.self), errorOutput: String(decoding: collected[1], as: UTF8.self))
  }
}

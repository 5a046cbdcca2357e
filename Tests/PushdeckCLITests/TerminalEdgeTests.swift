import Foundation
import PushTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The terminal's edges (issue 16 §7), in a real terminal (tmux): a `kill -STOP` and
/// `kill -CONT`, a `TERM` the screen cannot be drawn with, and a locale that is not UTF-8.
@Suite(
  .requires(ListenTmux.tmux != nil, "tmux is not installed"),
  .requires(PushdeckProcess.binary != nil, "the pushdeck binary was not built"),
  .timeLimit(.minutes(2)))
struct TerminalEdgeTmuxTests {
  /// While `run` is stopped (`kill -STOP`, which it cannot catch), a shell takes the terminal
  /// back as bash does for a stopped job: it sets the mode to canonical with echo (`stty sane`)
  /// and writes over the screen. After `kill -CONT` the session must have its raw mode back (a
  /// single `q`, with no Enter, quits) and redraw the lock screen over the shell's text.
  @Test func continuingAfterAStopRestoresTheModeAndRedraws() async throws {
    let tmux = ListenTmux()
    defer { tmux.kill() }
    let binary = try #require(PushdeckProcess.binary)
    let pidFile = NSTemporaryDirectory() + tmux.socket + ".pid"
    defer { try? FileManager.default.removeItem(atPath: pidFile) }
    let inner = "echo $$ > \(pidFile); exec \"\(binary)\" run --clock manual"
    try tmux.run([
      "new-session", "-d", "-s", "t", "-x", "80", "-y", "24",
      "LANG=C.UTF-8 TERM=tmux-256color sh -c '\(inner)'; echo exit=$?; sleep 120",
    ])
    try await tmux.waitUntil("the lock screen") { $0.contains("Monday, November 23") && $0.contains("Messages") }
    let pid = try #require(
      Int32((try String(contentsOfFile: pidFile, encoding: .utf8)).trimmingCharacters(in: .whitespacesAndNewlines)))
    let tty = try tmux.run(["display-message", "-p", "-t", "t", "#{pane_tty}"], readingOutput: true)
      .trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(try Self.stty(tty).contains("-icanon"), "the session starts in raw mode")

    #expect(kill(pid, SIGSTOP) == 0)
    try await Self.waitFor("pushdeck to stop") { Self.processState(pid) == "T" }
    _ = try Self.stty(tty, "sane")
    let handle = try #require(FileHandle(forWritingAtPath: tty))
    handle.write(Data("\u{1B}[2J\u{1B}[H[1]+  Stopped by the shell\r\n$ ".utf8))
    try handle.close()
    try await tmux.waitUntil("the shell's text over the screen") { $0.contains("Stopped by the shell") }
    #expect(try Self.stty(tty).contains(" icanon"), "the shell set canonical mode")

    #expect(kill(pid, SIGCONT) == 0)
    try await tmux.waitUntil("the lock screen redrawn over the shell's text") { screen in
      !screen.contains("Stopped by the shell") && screen.contains("Monday, November 23") && screen.contains("Messages")
    }
    try await Self.waitFor("raw mode again") { ((try? Self.stty(tty)) ?? "").contains("-icanon") }
    #expect(try Self.stty(tty).contains("-echo "))
    try tmux.run(["send-keys", "-t", "t", "q"])
    try await tmux.waitUntil("q alone (no Enter) to quit") { $0.contains("exit=0") }
  }

  /// `run` with a `TERM` it cannot draw with is refused before it starts, saying what to set.
  @Test(arguments: [
    ("env -u TERM", "TERM is not set"),
    ("env TERM=dumb", "TERM=dumb is a terminal that cannot move the cursor"),
    ("env TERM=no-such-terminal", "TERM=no-such-terminal is not a terminal type this system knows"),
  ])
  func anUnusableTermIsRefusedWithWhatToSet(environment: String, message: String) async throws {
    let tmux = ListenTmux()
    defer { tmux.kill() }
    let binary = try #require(PushdeckProcess.binary)
    try tmux.run([
      "new-session", "-d", "-s", "t", "-x", "200", "-y", "24",
      "\(environment) LANG=C.UTF-8 \"\(binary)\" run --clock manual; echo exit=$?; sleep 120",
    ])
    try await tmux.waitUntil("the refusal and exit status 2") { screen in
      screen.contains("exit=2") && screen.contains(message) && screen.contains("TERM=xterm-256color")
    }
  }

  /// Under a locale that is not UTF-8 (`LANG=C`) the screen's symbols would be garbled: `run`
  /// refuses, saying which locale to set.
  @Test func aLocaleThatIsNotUTF8IsRefusedWithWhatToSet() async throws {
    let tmux = ListenTmux()
    defer { tmux.kill() }
    let binary = try #require(PushdeckProcess.binary)
    try tmux.run([
      "new-session", "-d", "-s", "t", "-x", "200", "-y", "24",
      "env -u LC_ALL -u LC_CTYPE LANG=C TERM=tmux-256color \"\(binary)\" run --clock manual; echo exit=$?; sleep 120",
    ])
    try await tmux.waitUntil("the refusal and exit status 2") { screen in
      screen.contains("exit=2") && screen.contains("not UTF-8") && screen.contains("LANG=C.UTF-8")
    }
  }

  /// `stty -a` of a terminal, or `stty SETTING` on it.
  static func stty(_ tty: String, _ setting: String? = nil) throws -> String {
    try runSubprocess("/bin/stty", ["-F", tty] + (setting.map { [$0] } ?? ["-a"]), captureOutput: true).output
  }

  /// The state letter of a process (`T` stopped), from /proc.
  static func processState(_ pid: Int32) -> String? {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = stat.lastIndex(of: ")")
    else { return nil }
    return stat[stat.index(after: close)...].split(separator: " ").first.map(String.init)
  }

  /// Polls `condition` every 50 ms for up to 10 s.
  static func waitFor(
    _ description: String, sourceLocation: SourceLocation = #_sourceLocation, _ condition: () -> Bool
  ) async throws {
    if try await !poll(description, sourceLocation: sourceLocation, until: condition) { throw CancellationError() }
  }
}

/// File names that are not UTF-8: they open, and show escaped (`\xE9`).
@Suite(.requires(PushdeckProcess.binary != nil, "the pushdeck binary was not built"))
struct RawFileNameCLITests {
  /// A directory holding `good.json` and `caf\xE9.json` (a Latin-1 byte in its name).
  static func makeDirectory() throws -> URL {
    let directory = try PushdeckProcess.temporaryDirectory()
    try #"{"aps": {"alert": {"title": "Good", "body": "plain name"}}}"#
      .write(to: directory.appendingPathComponent("good.json"), atomically: true, encoding: .utf8)
    let name: [UInt8] = Array((directory.path + "/caf").utf8) + [0xE9] + Array(".json".utf8) + [0]
    let descriptor = name.withUnsafeBufferPointer {
      $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
    }
    #expect(descriptor >= 0)
    let body = Array(#"{"aps": {"alert": {"title": "Latin", "body": "odd name"}}}"#.utf8)
    #expect(write(descriptor, body, body.count) == body.count)
    close(descriptor)
    return directory
  }

  @Test func aDirectoryWithANonUTF8NameIsReadWhole() throws {
    let directory = try Self.makeDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let validate = try PushdeckProcess.run(["validate", "--format", "json", directory.path])
    #expect(validate.status == 0, "\(validate.standardOutput)\(validate.standardError)")
    #expect(validate.standardOutput.contains(#"caf\\xE9.json","valid":true"#), "\(validate.standardOutput)")
    let render = try PushdeckProcess.run(["render", "--screen", "center", directory.path])
    #expect(render.status == 0, "\(render.standardError)")
    // Both stored (one stack, the newer on top).
    #expect(render.standardOutput.contains("Latin") && render.standardOutput.contains("2 stored"))
  }

  /// Named on the command line (its bytes as given, through a shell's printf).
  @Test func aNonUTF8NameOnTheCommandLineOpensAndShowsEscaped() throws {
    let directory = try Self.makeDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let binary = try #require(PushdeckProcess.binary)
    let result = try runSubprocess(
      "/bin/sh", ["-c", #"exec "$0" explain "$(printf '%s/caf\351.json' "$1")""#, binary, directory.path],
      captureOutput: true)
    #expect(result.status == 0, "\(result.output)")
    #expect(result.output.contains("Latin — odd name"), "\(result.output)")
    #expect(result.output.contains("Source: \(directory.path)/caf\\xE9.json"), "\(result.output)")
  }
}

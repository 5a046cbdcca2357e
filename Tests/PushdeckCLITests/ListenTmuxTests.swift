import Foundation
import PushTestSupport
import Testing

/// `pushdeck run --listen`: the front end with the APNs endpoint inside, in a real terminal
/// (tmux); a push sent with curl shows as a banner.
@Suite(
  .requires(ListenTmux.tmux != nil, "tmux is not installed"),
  .requires(PushdeckProcess.binary != nil, "the pushdeck binary was not built"),
  .requires(FileManager.default.isExecutableFile(atPath: "/usr/bin/curl"), "curl is not installed"),
  .requires(FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3"), "sqlite3 is not installed"),
  .timeLimit(.minutes(2)))
struct ListenTmuxTests {
  @Test func aPushSentWithCurlShowsAsABanner() async throws {
    let tmux = ListenTmux()
    defer { tmux.kill() }
    let binary = try #require(PushdeckProcess.binary)
    try tmux.run([
      "new-session", "-d", "-s", "t", "-x", "80", "-y", "24",
      "LANG=C.UTF-8 TERM=tmux-256color \"\(binary)\" run --clock manual --listen 0; echo exit=$?; sleep 300",
    ])
    let listening = try await tmux.listeningPort()
    // Banners show on an unlocked phone.
    try tmux.run(["send-keys", "-t", "t", "l"])
    try await tmux.waitUntil("the phone to unlock") { $0.contains("🔓") }

    let status = try ListenTmux.push(
      #"{"aps":{"alert":{"title":"Live from curl","body":"Sent to the endpoint"}}}"#, port: listening)
    #expect(status == "200")
    try await tmux.waitUntil("the push as a banner at the top") { screen in
      let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
      return lines.prefix(6).contains { $0.contains("Messages") }
        && lines.prefix(6).contains { $0.contains("Live from curl") }
        && lines.prefix(6).contains { $0.contains("Sent to the endpoint") }
    }
    try tmux.run(["send-keys", "-t", "t", "q"])
    try await tmux.waitUntil("exit=0") { $0.contains("exit=0") }
  }
}

extension ListenTmuxTests {
  /// A push through `run --listen` goes through the app's service extension, as a push from a
  /// file, a capture or `serve` does, and is answered 200 once the state has saved it.
  @Test func aPushSentToTheFrontEndRunsTheServiceExtensionAndIsSavedFirst() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("listen-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let script = directory.appendingPathComponent("rewrite.sh")
    try Executable.write(
      "#!/bin/sh\ncat > /dev/null\necho '{\"title\":\"Rewritten\",\"body\":\"by the extension\"}'\n", to: script.path)
    let profile = directory.appendingPathComponent("profile.yaml")
    try """
    locked: false
    apps:
      - bundle: com.example.messages
        name: Messages
        serviceExtension: {type: exec, argv: [\(script.path)], budget: 10}
    """.write(to: profile, atomically: true, encoding: .utf8)
    let state = directory.appendingPathComponent("device.sqlite").path
    let tmux = ListenTmux()
    defer { tmux.kill() }
    let binary = try #require(PushdeckProcess.binary)
    try tmux.run([
      "new-session", "-d", "-s", "t", "-x", "80", "-y", "24",
      "LANG=C.UTF-8 TERM=tmux-256color \"\(binary)\" run --clock manual --listen 0 --profile \(profile.path) "
        + "--state \(state); echo exit=$?; sleep 300",
    ])
    let listening = try await tmux.listeningPort()
    let status = try ListenTmux.push(
      #"{"aps":{"alert":{"title":"Original","body":"as sent"},"mutable-content":1}}"#, port: listening)
    #expect(status == "200")
    // Answered only once saved: the state already holds the rewritten notification.
    let saved = try ExternalTools.run("/usr/bin/sqlite3", [state, "SELECT title FROM delivery"])
    #expect(saved.contains("Rewritten"), "\(saved)")
    try await tmux.waitUntil("the rewritten push") { screen in
      screen.contains("Rewritten") && screen.contains("by the extension") && !screen.contains("Original")
    }
    try tmux.run(["send-keys", "-t", "t", "q"])
    try await tmux.waitUntil("exit=0") { $0.contains("exit=0") }
  }
}

/// A tmux server on a private socket.
struct ListenTmux {
  static let tmux: String? = ["/usr/bin/tmux", "/usr/local/bin/tmux"].first {
    FileManager.default.isExecutableFile(atPath: $0)
  }
  let socket = "pushdeck-listen-\(UUID().uuidString)"

  /// Runs a tmux command (with `runSubprocess`: see there why not Foundation's `Process`).
  @discardableResult
  func run(_ arguments: [String], readingOutput: Bool = false) throws -> String {
    try runSubprocess(
      Self.tmux ?? "/usr/bin/tmux", ["-L", socket, "-f", "/dev/null"] + arguments, captureOutput: readingOutput
    ).output
  }

  func capture() -> String { (try? run(["capture-pane", "-p", "-t", "t"], readingOutput: true)) ?? "" }

  /// The port `run --listen 0` picked, read from the status line (the toast that first says it
  /// leaves after a few seconds, sooner than a loaded machine may read it).
  func listeningPort() async throws -> Int {
    var port: Int?
    try await waitUntil("the listening toast") { screen in
      guard let range = screen.range(of: "⇄ :") else { return false }
      port = Int(screen[range.upperBound...].prefix { $0.isNumber })
      return port != nil
    }
    return try #require(port)
  }

  /// Sends a push for com.example.messages with curl; returns the HTTP status.
  static func push(_ payload: String, port: Int) throws -> String {
    try ExternalTools.run(
      "/usr/bin/curl",
      [
        "-s", "-o", "/dev/null", "-w", "%{http_code}", "--http2-prior-knowledge", "--max-time", "30",
        "-H", "apns-topic: com.example.messages", "-H", "apns-push-type: alert", "--data-binary", payload,
        "http://127.0.0.1:\(port)/3/device/\(String(repeating: "ab", count: 32))",
      ])
  }

  func kill() { _ = try? run(["kill-server"]) }

  /// Polls the pane until `predicate` holds; records the last screen on timeout.
  func waitUntil(
    _ description: String, timeout: Duration = .seconds(30), sourceLocation: SourceLocation = #_sourceLocation,
    _ predicate: (String) -> Bool
  ) async throws {
    var screen = ""
    let seen = try await poll(
      description, timeout: timeout, interval: .milliseconds(100), sourceLocation: sourceLocation,
      detail: { "last screen:\n\(screen)" }
    ) {
      screen = capture()
      return predicate(screen)
    }
    if !seen { throw CancellationError() }
  }
}

extension ListenTmuxTests {
  /// A push the endpoint refuses (not JSON: 400 before it reaches the device) is not hidden:
  /// the front end says so in a toast, counts it on the status line, and `r` shows what was sent.
  @Test func aPushTheEndpointRefusesIsShownNotHidden() async throws {
    let tmux = ListenTmux()
    defer { tmux.kill() }
    let binary = try #require(PushdeckProcess.binary)
    try tmux.run([
      "new-session", "-d", "-s", "t", "-x", "80", "-y", "24",
      "LANG=C.UTF-8 TERM=tmux-256color \"\(binary)\" run --clock manual --listen 0; echo exit=$?; sleep 300",
    ])
    let listening = try await tmux.listeningPort()
    let status = try ListenTmux.push(#"{"aps":{"alert":"cut off"#, port: listening)
    #expect(status == "400")
    // The status line keeps the count; the toast that says it first leaves after a few wall-clock
    // seconds under a manual clock, sooner than a loaded machine may read the screen (the toast's
    // text is checked in PushUITests' EndpointRefusalTests).
    try await tmux.waitUntil("the refusal counted") { $0.contains("✗ 1 rejected") }
    // `r` opens the inspector on it: the answer, the headers and the body as sent.
    try tmux.run(["send-keys", "-t", "t", "r"])
    try await tmux.waitUntil("the refusal inspected") { screen in
      screen.contains("✗ Refused on the endpoint 1 of 1 · com.example.messages")
        && screen.contains("answered 400 BadRequest")
        && screen.contains("• UnterminatedString at 1:17: the string starting here never ends")
        && screen.contains("apns-topic: com.example.messages") && screen.contains(#"{"aps":{"alert":"cut off"#)
    }
    try tmux.run(["send-keys", "-t", "t", "Escape"])
    try tmux.run(["send-keys", "-t", "t", "q"])
    try await tmux.waitUntil("exit=0") { $0.contains("exit=0") }
  }
}

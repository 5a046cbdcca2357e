import Foundation
import PushTestSupport
import Testing

/// `pushdeck run --listen`: the front end with the APNs endpoint inside, in a real terminal
/// (tmux); a push sent with curl shows as a banner.
@Suite(
  .requires(ListenTmux.tmux != nil, "tmux is not installed"),
  .requires(PushdeckProcess.binary != nil, "the pushdeck binary was not built"),
  .requires(FileManager.default.isExecutableFile(atPath: "/usr/bin/curl"), "curl is not installed"),
  .timeLimit(.minutes(2)))
struct ListenTmuxTests {
  @Test func aPushSentWithCurlShowsAsABanner() async throws {
    let tmux = ListenTmux()
    defer { tmux.kill() }
    let binary = try #require(PushdeckProcess.binary)
    try tmux.run([
      "new-session", "-d", "-s", "t", "-x", "80", "-y", "24",
      "LANG=C.UTF-8 TERM=tmux-256color \"\(binary)\" run --clock manual --listen 0; echo exit=$?; sleep 5",
    ])
    // The port it picked is in the toast.
    var port: Int?
    try await tmux.waitUntil("the listening toast") { screen in
      guard let range = screen.range(of: "Listening on h2c://127.0.0.1:") else { return false }
      port = Int(screen[range.upperBound...].prefix { $0.isNumber })
      return port != nil
    }
    let listening = try #require(port)
    // Banners show on an unlocked phone.
    try tmux.run(["send-keys", "-t", "t", "l"])
    try await tmux.waitUntil("the phone to unlock") { $0.contains("🔓") }

    let status = try ExternalTools.run(
      "/usr/bin/curl",
      [
        "-s", "-o", "/dev/null", "-w", "%{http_code}", "--http2-prior-knowledge", "--max-time", "20",
        "-H", "apns-topic: com.example.messages", "-H", "apns-push-type: alert", "--data-binary",
        #"{"aps":{"alert":{"title":"Live from curl","body":"Sent to the endpoint"}}}"#,
        "http://127.0.0.1:\(listening)/3/device/\(String(repeating: "ab", count: 32))",
      ])
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

  func kill() { _ = try? run(["kill-server"]) }

  /// Polls the pane until `predicate` holds; records the last screen on timeout.
  func waitUntil(
    _ description: String, timeout: Duration = .seconds(30), sourceLocation: SourceLocation = #_sourceLocation,
    _ predicate: (String) -> Bool
  ) async throws {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    var screen = capture()
    while !predicate(screen) {
      if clock.now >= deadline {
        Issue.record("timed out waiting for \(description); last screen:\n\(screen)", sourceLocation: sourceLocation)
        throw CancellationError()
      }
      try await Task.sleep(for: .milliseconds(100))
      screen = capture()
    }
  }
}

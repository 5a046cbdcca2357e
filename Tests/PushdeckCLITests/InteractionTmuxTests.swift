import Foundation
import PushTestSupport
import Testing

/// The interaction items of issue 17 tried as a user does: `pushdeck run` in a tmux pane, keys
/// sent with `send-keys`, the screen read with `capture-pane` and polled (no bare sleeps).
@Suite(
  "Interaction in tmux", .requires(tmuxPath != nil, "tmux is not installed"),
  .requires(pushdeckBinary() != nil, "the pushdeck binary was not built"), .timeLimit(.minutes(1)))
struct InteractionTmuxTests {
  /// Runs `pushdeck` with `arguments` in a `columns`×`rows` pane, from `directory`.
  private func start(
    _ server: TmuxServer, _ arguments: [String], columns: Int = 80, rows: Int = 24, directory: String? = nil
  ) throws {
    let binary = try #require(pushdeckBinary())
    let quoted = arguments.map { "\"\($0)\"" }.joined(separator: " ")
    let change = directory.map { "cd \"\($0)\" && " } ?? ""
    let command = "\(change)LANG=C.UTF-8 TERM=tmux-256color \"\(binary)\" \(quoted); echo exit=$?; sleep 300"
    try server.run(["new-session", "-d", "-s", "t", "-x", "\(columns)", "-y", "\(rows)", command])
  }

  private func keys(_ server: TmuxServer, _ keys: String...) throws {
    try server.run(["send-keys", "-t", "t"] + keys)
  }

  @Test func aRejectedCaptureLineShowsAToastAndOpensInTheInspector() async throws {
    let server = TmuxServer(executable: try #require(tmuxPath))
    defer { server.kill() }
    let directory = NSTemporaryDirectory() + "pushdeck-rejected-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let capture = """
      {"at": 1795426900, "bundle": "com.example.chat", "payload": {"aps": {"alert": "All good"}}}
      {"at": 1795426910, "bundle": "com.example.chat", "payload": {"aps": {"alert": "Broken", "badge": }}}
      """
    try capture.write(toFile: directory + "/cap.jsonl", atomically: true, encoding: .utf8)
    try start(server, ["run", "--clock", "manual", "cap.jsonl"], directory: directory)
    // Both lines read before the step: a step taken earlier finds nothing on the timeline.
    guard
      try await server.waitUntil(
        "the lock screen with both lines to come", { $0.contains("Lock Screen · manual") && $0.contains("2 to come") })
    else { return }
    // The broken line's `at` cannot be read: it arrives with the push before it (ArrivalClock),
    // so one step plays both.
    try keys(server, ".")
    guard
      try await server.waitUntilShown(
        "the rejection toast", { $0.contains("✗ Rejected cap.jsonl:2") && $0.contains("✗ 1 rejected") })
    else { return }
    try keys(server, "r")
    try await server.waitUntil("the rejected push in the inspector") { screen in
      screen.contains("Rejected push 1 of 1") && screen.contains("Text as received")
    }
    try keys(server, "Escape", "t")
    try await server.waitUntil("the timeline marking it") { $0.contains("· rejected: ") }
    try keys(server, "q")
    try await server.waitUntil("exit=0") { $0.contains("exit=0") }
  }

  @Test func nTogglesAndClearingEverythingAsksFirst() async throws {
    let server = TmuxServer(executable: try #require(tmuxPath))
    defer { server.kill() }
    try start(server, ["run", "--clock", "manual"])
    guard try await server.waitUntil("the lock screen", { $0.contains("Lock Screen · manual") }) else { return }
    try keys(server, "n")
    guard try await server.waitUntil("Notification Center", { $0.contains("Notification Center · manual") }) else {
      return
    }
    try keys(server, "n")
    guard try await server.waitUntil("back to the lock screen", { $0.contains("Lock Screen · manual") }) else {
      return
    }
    try keys(server, "C")
    guard try await server.waitUntil("the question", { $0.contains("Clear all 6 notifications?") }) else { return }
    try keys(server, "Escape")
    guard
      try await server.waitUntil(
        "the notifications kept", { !$0.contains("Clear all 6") && $0.contains("6 stored") })
    else { return }
    try keys(server, "C")
    try await server.waitUntil("the question again") { $0.contains("Clear all 6 notifications?") }
    try keys(server, "y")
    try await server.waitUntilShown("everything cleared") {
      $0.contains("Cleared 6 notifications") && $0.contains("0 stored")
    }
    try keys(server, "q")
    try await server.waitUntil("exit=0") { $0.contains("exit=0") }
  }

  @Test func helpScrollsWithEndAndHomeAt40x12() async throws {
    let server = TmuxServer(executable: try #require(tmuxPath))
    defer { server.kill() }
    try start(server, ["run", "--clock", "manual"], columns: 40, rows: 12)
    guard try await server.waitUntil("the front end", { $0.contains("9:41") }) else { return }
    try keys(server, "?")
    guard try await server.waitUntil("the help's first rows", { $0.contains("Keys 1–") && $0.contains("▼ more") })
    else {
      return
    }
    try keys(server, "End")
    guard try await server.waitUntil("the help's last row", { $0.contains("quit") && !$0.contains("▼ more") }) else {
      return
    }
    try keys(server, "Home")
    guard try await server.waitUntil("the top again", { $0.contains("Keys 1–") && $0.contains("▼ more") }) else {
      return
    }
    try keys(server, "PPage")  // harmless at the top
    try keys(server, "NPage")
    try await server.waitUntil("a page down") { !$0.contains("Keys 1–") && $0.contains("Keys ") }
    try keys(server, "q")
    try await server.waitUntil("exit=0") { $0.contains("exit=0") }
  }

  @Test func underAManualClockABannerLeavesAfterAFewSeconds() async throws {
    let server = TmuxServer(executable: try #require(tmuxPath))
    defer { server.kill() }
    try start(server, ["run", "--clock", "manual"])
    guard try await server.waitUntil("the lock screen", { $0.contains("Lock Screen · manual") }) else { return }
    try keys(server, "l")
    guard try await server.waitUntil("the phone to unlock", { $0.contains("🔓") }) else { return }
    try keys(server, ".")
    /// The banner drops over the top of the screen (row 1); the lock screen's own rows are there otherwise.
    @Sendable func showsBanner(_ screen: String) -> Bool {
      let lines = screen.split(separator: "\n")
      return lines.count > 3 && lines[1].contains("Messages") && lines[2].contains("Ana")
    }
    guard try await server.waitUntilShown("Ana's message as a banner", showsBanner) else { return }
    // Five seconds of real time at the front of the queue, with the simulated clock standing still.
    guard
      try await server.waitUntil(
        "the banner to leave", timeout: .seconds(15), { !showsBanner($0) && $0.contains("Monday, November 23") })
    else { return }
    #expect(server.capture().contains("9:41:20"), "the simulated clock stood still")
    try keys(server, "q")
    try await server.waitUntil("exit=0") { $0.contains("exit=0") }
  }

  @Test func theSeekPromptReadsSecondsAndSaysWhatItTakes() async throws {
    let server = TmuxServer(executable: try #require(tmuxPath))
    defer { server.kill() }
    try start(server, ["run", "--clock", "manual", "--speed", "60"])
    guard try await server.waitUntil("the lock screen", { $0.contains("Lock Screen · manual") }) else { return }
    try keys(server, "g")
    try keys(server, "-l", "09:45:30")
    try keys(server, "Enter")
    guard try await server.waitUntil("the clock at 09:45:30", { $0.contains("9:45:30") }) else { return }
    try keys(server, "g")
    try keys(server, "-l", "later")
    try keys(server, "Enter")
    guard try await server.waitUntilShown("the accepted forms", { $0.contains("Go to: try +5m") }) else { return }
    // --speed 60 is the speed shown once playing (on the status line: the toast that says it
    // too gives way to the demo's next push at this speed).
    try keys(server, "p")
    try await server.waitUntil("60× shown") { $0.contains("▶ 60×") }
    try keys(server, "q")
    try await server.waitUntil("exit=0") { $0.contains("exit=0") }
  }

  @Test func pageAndJumpThroughTwoHundredTwentyNineGroups() async throws {
    let server = TmuxServer(executable: try #require(tmuxPath))
    defer { server.kill() }
    let directory = NSTemporaryDirectory() + "pushdeck-groups-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    var capture = ""
    for n in 0..<229 {
      let app = String(format: "%03d", n)
      capture +=
        #"{"at": \#(1_767_254_400 + n), "bundle": "com.example.app\#(app)", "#
        + #""payload": {"aps": {"alert": {"title": "Group \#(app)", "body": "hello"}}}}"# + "\n"
    }
    try capture.write(toFile: directory + "/groups.jsonl", atomically: true, encoding: .utf8)
    try start(server, ["run", "--clock", "manual", "groups.jsonl"], directory: directory)
    guard try await server.waitUntil("the lock screen", { $0.contains("Lock Screen · manual") }) else { return }
    try keys(server, "g")
    try keys(server, "-l", "+1h")
    try keys(server, "Enter")
    guard try await server.waitUntil("every group arrived", { $0.contains("229 stored") && $0.contains("App228") })
    else { return }
    try keys(server, "End")
    guard try await server.waitUntil("the last group", { $0.contains("App000") && !$0.contains("App228") }) else {
      return
    }
    try keys(server, "PPage")
    guard try await server.waitUntil("a page up", { $0.contains("App006") && $0.contains("5 more notifications") })
    else { return }
    try keys(server, "Home")
    guard try await server.waitUntil("the first group again", { $0.contains("App228") }) else { return }
    try keys(server, "NPage")
    guard try await server.waitUntil("a page down", { !$0.contains("App228") }) else { return }
    try keys(server, "q")
    try await server.waitUntil("exit=0") { $0.contains("exit=0") }
  }
}

import Foundation
import PushTestSupport
import Testing

/// `pushdeck run --compare`: two devices side by side in a real terminal (tmux), one key
/// moving both on one clock.
@Suite(
  .requires(ListenTmux.tmux != nil, "tmux is not installed"),
  .requires(PushdeckProcess.binary != nil, "the pushdeck binary was not built"),
  .timeLimit(.minutes(2)))
struct SplitTmuxTests {
  @Test func twoPanesNameTheirDevicesAndAdvanceTogether() async throws {
    let tmux = ListenTmux()
    defer { tmux.kill() }
    let binary = try #require(PushdeckProcess.binary)
    let example = Corpus.repositoryRoot().appendingPathComponent("Examples/health-critical-dnd.yaml").path
    try tmux.run([
      "new-session", "-d", "-s", "t", "-x", "100", "-y", "30",
      "LANG=C.UTF-8 TERM=tmux-256color \"\(binary)\" run --clock manual --compare locked,dnd \"\(example)\"; echo exit=$?; sleep 300",
    ])
    try await tmux.waitUntil("both pane headers") { screen in
      screen.contains("1 Locked") && screen.contains("2 Do Not Disturb")
    }
    // The scenario starts at 02:55; both status lines show it.
    try await tmux.waitUntil("both panes at 2:55") { $0.components(separatedBy: "2:55:00").count - 1 == 2 }
    try tmux.run(["send-keys", "-t", "t", "]"])
    try await tmux.waitUntil("both panes one minute on") { $0.components(separatedBy: "2:56:00").count - 1 == 2 }
    try tmux.run(["send-keys", "-t", "t", "q"])
    try await tmux.waitUntil("exit=0") { $0.contains("exit=0") }
  }

  @Test func fiveDevicesAreAUsageError() throws {
    let binary = try #require(PushdeckProcess.binary)
    let result = try runSubprocess(
      binary, ["run", "--compare", "locked,dnd,sleep,work,summary"], captureOutput: true)
    #expect(result.status == 2)
    #expect(result.output.contains("2 to 4 devices"))
    let unknown = try runSubprocess(binary, ["run", "--compare", "locked,bogus"], captureOutput: true)
    #expect(unknown.status == 2)
    #expect(unknown.output.contains("bogus is neither a preset"))
    let listening = try runSubprocess(binary, ["run", "--compare", "locked,dnd", "--listen"], captureOutput: true)
    #expect(listening.status == 2)
    #expect(listening.output.contains("cannot be combined with --listen"))
  }
}

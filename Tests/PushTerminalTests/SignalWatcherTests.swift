import Glibc
import PushTerminal
import Testing

/// A signal sent the moment a watcher exists is seen: `pushdeck run` started by a script that
/// stops it at once must stop, not run on because the signal fell between SIG_IGN and the
/// dispatch source's registration (which happens some time after `resume()` returns).
///
/// Real-time signals stand in for SIGINT and SIGTERM, a new one each round: the watcher leaves
/// its signals ignored for the rest of the process (the test runner must stay stoppable), and a
/// signal some earlier source still watches would be seen whether or not the new one is armed.
@Suite("signal watcher", .serialized)
struct SignalWatcherTests {
  @Test func aSignalRaisedRightAfterStartIsNeverLost() async throws {
    let first = __libc_current_sigrtmin() + 4
    let last = __libc_current_sigrtmax() - 4
    try #require(last - first >= 10, "too few real-time signals: \(first)...\(last)")
    for number in first...last {
      let round = number - first + 1
      let watcher = SignalWatcher(signals: [number], watchesContinue: false)
      defer { watcher.stop() }
      kill(getpid(), number)
      var seen: Int32?
      for _ in 0..<400 where seen == nil {
        seen = watcher.takePending()
        if seen == nil { try await Task.sleep(for: .milliseconds(5)) }
      }
      #expect(seen == number, "round \(round): signal \(number) raised right after start was lost")
      if seen != number { return }
    }
  }
}

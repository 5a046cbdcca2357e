import Testing

/// Waits for a condition instead of sleeping: checks `condition` at once and then every
/// `interval` until it holds (true) or `timeout` has passed (false, after recording an issue that
/// names what was awaited, followed by `detail()`, e.g. the last screen).
///
/// Every wait in the tests (a tmux screen, a file, a process state) goes through here, so a slow
/// machine costs time, never a wrong answer, and a condition that never comes fails with a
/// message instead of hanging.
@discardableResult
public func poll(
  _ description: String, timeout: Duration = .seconds(10), interval: Duration = .milliseconds(50),
  sourceLocation: SourceLocation = #_sourceLocation, detail: () -> String = { "" },
  until condition: () throws -> Bool
) async throws -> Bool {
  let clock = ContinuousClock()
  let deadline = clock.now + timeout
  // The timeout counts checks as well as time: on two cores, a full test run queues this task
  // behind others for minutes (a wait that slept 50 ms woke after 120 s), and a deadline of
  // time alone failed a wait that had looked twice. It ends when the time has passed and at
  // least half the checks the timeout allows have been made.
  let checks = Int(timeout / interval) / 2
  var checked = 0
  while try !condition() {
    checked += 1
    if clock.now >= deadline, checked >= checks {
      let more = detail()
      Issue.record(
        "timed out after \(timeout) waiting for \(description)\(more.isEmpty ? "" : "; " + more)",
        sourceLocation: sourceLocation)
      return false
    }
    try await Task.sleep(for: interval)
  }
  return true
}

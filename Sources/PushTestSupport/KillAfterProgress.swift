import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Runs a child that reports progress as lines `PREFIX N …` on a pipe and kills it with
/// `SIGKILL` once it has reported `reports` times, after a further random delay: the set-up of
/// the kill-and-reopen tests.
public enum KillAfterProgress {
  /// The outcome of one run.
  public struct Outcome: Sendable {
    /// The last count the child reported before it died.
    public var lastCount: Int
    /// Whether the test killed it (false: it ended on its own first).
    public var killed: Bool
    /// Whether it died of `SIGKILL`.
    public var diedOfSIGKILL: Bool
  }

  /// Starts `process` (already configured, with `pipe` as the reported-on output), reads its
  /// lines, and kills it after `reports` lines that start with `prefix` plus up to `maximumDelay`
  /// microseconds. Returns when the child is gone.
  public static func run(
    _ process: Process, reportingOn pipe: Pipe, prefix: String, reports: Int, maximumDelay: UInt32
  ) throws -> Outcome {
    try process.run()
    var seen = 0
    var lastCount = 0
    var pending = Data()
    var killed = false
    let handle = pipe.fileHandleForReading
    while true {
      let chunk = handle.availableData
      if chunk.isEmpty { break }  // end of file: the child is gone
      pending.append(chunk)
      while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
        let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
        pending.removeSubrange(pending.startIndex...newline)
        if line.hasPrefix(prefix), let count = Int(line.dropFirst(prefix.count).prefix { $0.isNumber }) {
          lastCount = count
          seen += 1
        }
      }
      if !killed && seen >= reports {
        usleep(UInt32.random(in: 0...maximumDelay))
        kill(process.processIdentifier, SIGKILL)
        killed = true
      }
    }
    process.waitUntilExit()
    return Outcome(
      lastCount: lastCount, killed: killed,
      diedOfSIGKILL: process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL)
  }
}

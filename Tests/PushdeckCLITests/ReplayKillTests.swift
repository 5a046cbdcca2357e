import Foundation
import PushStore
import PushTestSupport
import Testing

/// `kill -9` during a 100,000-push `pushdeck replay`, at random points, three times on the same
/// state: every push the replay reported saved is still there, the database is intact, each run
/// resumes after the last line the state holds, and the restored Notification Center is exactly
/// the one an uninterrupted replay of the same lines builds. A last run finishes the capture
/// with every line delivered once.
@Suite(
  .requires(PushdeckProcess.binary != nil, "the pushdeck binary was not built"),
  .requires(CaptureGenerator.isAvailable, "../shared/tools/gen_capture.py or python3 is missing"))
struct ReplayKillTests {
  static let batchSize = 500

  /// Runs `pushdeck replay --progress` on the capture and kills it with SIGKILL after a random
  /// number of saved batches plus a random delay; returns the last count it reported saved.
  func replayAndKill(capture: String, state: String) async throws -> Int {
    let binary = try #require(PushdeckProcess.binary)
    let batchSize = Self.batchSize
    // Off the concurrency pool: the wait is long and blocking (PushTestSupport.offPool).
    let outcome = try await offPool {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: binary)
      process.arguments = [
        "replay", "--state", state, "--batch", String(batchSize), "--progress", "--format", "json", capture,
      ]
      let errors = Pipe()
      process.standardError = errors
      process.standardOutput = FileHandle.nullDevice
      return try KillAfterProgress.run(
        process, reportingOn: errors, prefix: "saved ", reports: Int.random(in: 2...24), maximumDelay: 50_000)
    }
    #expect(outcome.killed, "the replay ended before it was killed")
    #expect(outcome.diedOfSIGKILL)
    return outcome.lastCount
  }

  /// The number after `"key":` in a one-line JSON summary.
  func number(_ key: String, in json: String) -> Int? {
    guard let range = json.range(of: "\"\(key)\":") else { return nil }
    return Int(json[range.upperBound...].prefix { $0.isNumber })
  }

  @Test func killingAReplayLosesNoSavedPush() async throws {
    let (capture, expected) = try CaptureGenerator.generate(lines: 100_000, seed: 29)
    let directory = try PushdeckProcess.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let state = directory.appendingPathComponent("device.sqlite").path
    // Bytes, not a String: the capture's planted bad lines include invalid UTF-8.
    let lines = try Data(contentsOf: capture).split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
    #expect(lines.count >= expected.lines)
    var previous = 0
    for round in 1...3 {
      let reported = try await replayAndKill(capture: capture.path, state: state)
      #expect(reported > 0, "round \(round): nothing was saved before the kill")
      let journal = try DeviceJournal.open(at: state)
      let (count, isContiguous) = try journal.deliveryCount()
      // Everything reported is there; at most the batch whose line was not yet written is more.
      #expect(
        count >= previous + reported && count <= previous + reported + Self.batchSize,
        "round \(round): \(count) saved vs \(previous) + \(reported) reported")
      #expect((count - previous) % Self.batchSize == 0, "round \(round): a batch was torn")
      #expect(isContiguous)
      #expect(try journal.integrityProblems().isEmpty)
      let restored = try journal.restore(keepsPayloadDetails: false)
      try journal.close()
      previous = count
      // Each run resumed after the saved lines: the state holds the capture's first lines, once.
      var delivered = Data()
      for line in lines.prefix(count) {
        delivered += line
        delivered.append(UInt8(ascii: "\n"))
      }

      // The same pushes replayed without interruption build the same Notification Center.
      let prefix = directory.appendingPathComponent("delivered-\(round).jsonl")
      try delivered.write(to: prefix)
      let whole = try await PushdeckProcess.runOffPool(["replay", "--ephemeral", "--format", "json", prefix.path])
      #expect(number("pushes", in: whole.standardOutput) == count, "\(whole.standardError)")
      #expect(
        number("stored", in: whole.standardOutput) == restored.notifications.count,
        "round \(round): the restored device differs from an uninterrupted replay")
    }
    // The last run resumes after the last saved line and delivers the rest of the capture once.
    let last = try await PushdeckProcess.runOffPool([
      "replay", "--state", state, "--batch", String(Self.batchSize), "--format", "json", capture.path,
    ])
    let next = String(previous + 1).reversed().enumerated().map {
      $0.offset > 0 && $0.offset % 3 == 0 ? ",\($0.element)" : "\($0.element)"
    }
    #expect(
      last.standardError.contains("resumed at line \(String(next.joined().reversed())) of"), "\(last.standardError)")
    #expect(number("pushes", in: last.standardOutput) == expected.lines - previous, "\(last.standardOutput)")
    let journal = try DeviceJournal.open(at: state)
    defer { try? journal.close() }
    #expect(try journal.deliveryCount() == (count: expected.lines, isContiguous: true))
  }
}

import Foundation
import PushStore
import PushTestSupport
import Testing

/// `kill -9` during a 100,000-push `pushdeck replay`, at random points, three times on the same
/// state: every push the replay reported saved is still there, the database is intact, and the
/// restored Notification Center is exactly the one an uninterrupted replay of the same pushes
/// builds.
@Suite(
  .enabled(if: PushdeckProcess.binary != nil, "the pushdeck binary was not built"),
  .enabled(if: CaptureGenerator.isAvailable, "../shared/tools/gen_capture.py or python3 is missing"))
struct ReplayKillTests {
  static let batchSize = 500

  /// Runs `pushdeck replay --progress` on the capture and kills it with SIGKILL after a random
  /// number of saved batches plus a random delay; returns the last count it reported saved.
  func replayAndKill(capture: String, state: String) throws -> Int {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try #require(PushdeckProcess.binary))
    process.arguments = [
      "replay", "--state", state, "--batch", String(Self.batchSize), "--progress", "--format", "json", capture,
    ]
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    let outcome = try KillAfterProgress.run(
      process, reportingOn: errors, prefix: "saved ", reports: Int.random(in: 2...24), maximumDelay: 50_000)
    #expect(outcome.killed, "the replay ended before it was killed")
    #expect(outcome.diedOfSIGKILL)
    return outcome.lastCount
  }

  /// The number after `"key":` in a one-line JSON summary.
  func number(_ key: String, in json: String) -> Int? {
    guard let range = json.range(of: "\"\(key)\":") else { return nil }
    return Int(json[range.upperBound...].prefix { $0.isNumber })
  }

  @Test func killingAReplayLosesNoSavedPush() throws {
    let (capture, expected) = try CaptureGenerator.generate(lines: 100_000, seed: 29)
    let directory = try PushdeckProcess.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let state = directory.appendingPathComponent("device.sqlite").path
    // Bytes, not a String: the capture's planted bad lines include invalid UTF-8.
    let lines = try Data(contentsOf: capture).split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
    #expect(lines.count >= expected.lines)
    // What the killed replays delivered, as one capture: each run starts again at line 1.
    var delivered = Data()
    var previous = 0
    for round in 1...3 {
      let reported = try replayAndKill(capture: capture.path, state: state)
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
      for line in lines.prefix(count - previous) {
        delivered += line
        delivered.append(UInt8(ascii: "\n"))
      }
      previous = count

      // The same pushes replayed without interruption build the same Notification Center.
      let prefix = directory.appendingPathComponent("delivered-\(round).jsonl")
      try delivered.write(to: prefix)
      let whole = try PushdeckProcess.run(["replay", "--ephemeral", "--format", "json", prefix.path])
      #expect(number("pushes", in: whole.standardOutput) == count, "\(whole.standardError)")
      #expect(
        number("stored", in: whole.standardOutput) == restored.notifications.count,
        "round \(round): the restored device differs from an uninterrupted replay")
    }
  }
}

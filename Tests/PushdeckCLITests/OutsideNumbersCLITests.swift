import Foundation
import PushCore
import PushStore
import PushTestSupport
import Testing

/// Every number from outside is a range (issue 16 §1): each of these crashed a command on
/// main (SIGILL converting to Int64 or overflowing). Now each is an error where it is read.
@Suite(.requires(PushdeckProcess.binary != nil, "the pushdeck binary was not built"))
struct OutsideNumbersCLITests {
  static let extremes = [
    "1e300", "1E18", "9223372036854775807", "-9223372036854775808", "9223372036854775808",
  ]

  /// A capture with an in-range push, each extreme `at`, `-0` and `1e-400` (both 1970), and a
  /// last in-range push.
  func capture() throws -> (directory: URL, path: String) {
    let directory = try PushdeckProcess.temporaryDirectory()
    var lines = [#"{"at": 1767225600, "bundle": "com.a.b", "payload": {"aps": {"alert": "first"}}}"#]
    for number in Self.extremes + ["-0", "1e-400"] {
      lines.append(#"{"at": \#(number), "bundle": "com.a.b", "payload": {"aps": {"alert": "at \#(number)"}}}"#)
    }
    lines.append(#"{"at": 1767225700, "bundle": "com.a.b", "payload": {"aps": {"alert": "last"}}}"#)
    let path = directory.appendingPathComponent("extremes.jsonl").path
    try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
    return (directory, path)
  }

  @Test func validateReportsEachOutOfRangeAtWhereItIs() throws {
    let (_, path) = try capture()
    let output = try PushdeckProcess.run(["validate", path])
    #expect(output.status == 1, "\(output.standardError)")
    for (index, number) in Self.extremes.enumerated() {
      #expect(
        output.standardOutput.contains(
          "\(path):\(index + 2):8: error[InvalidEnvelope]: \"at\" is \(number) UNIX seconds, outside the simulated time"
        ),
        "\(output.standardOutput)")
    }
    #expect(output.standardError.contains("checked 9 payloads: 4 valid, 5 rejected"), "\(output.standardError)")
  }

  @Test func explainShowsTheRejectedLinesAndGoesOn() throws {
    let (_, path) = try capture()
    let output = try PushdeckProcess.run(["explain", "--format", "json", path])
    #expect(output.status == 1, "\(output.standardError)")
    let lines = output.standardOutput.split(separator: "\n")
    #expect(lines.count == 9, "\(output.standardOutput)")
    #expect(lines.filter { $0.contains(#""disposition":"rejected""#) }.count == 5)
    #expect(lines.filter { $0.contains(#""disposition":"rejected""#) == false }.count == 4)
  }

  @Test func replayRejectsThemAndAStateContinuesPastThem() throws {
    let (directory, path) = try capture()
    let state = directory.appendingPathComponent("device.sqlite").path
    // Twice: the second replay continues the state past the rejected lines (the whole capture
    // again with --again), where a trap once stopped it for good.
    for arguments in [[], ["--again"]] {
      let output = try PushdeckProcess.run(["replay", "--format", "json", "--state", state] + arguments + [path])
      #expect(output.status == 1, "\(output.standardOutput)\(output.standardError)")
      #expect(output.standardOutput.contains(#""rejected":5"#), "\(output.standardOutput)")
    }
    let resumed = try PushdeckProcess.run(["replay", "--format", "json", "--state", state, path])
    #expect(resumed.status == 0, "\(resumed.standardError)")
    #expect(resumed.standardError.contains("already in the state"), "\(resumed.standardError)")
  }

  @Test func renderDrawsTheValidPushes() throws {
    let (_, path) = try capture()
    let output = try PushdeckProcess.run(["render", "--format", "json", path])
    #expect(output.status == 0, "\(output.standardError)")
    #expect(output.standardOutput.contains("last"))
  }

  @Test(arguments: [
    (["--at", "+99999999999999999m"], "--at +99999999999999999m goes past 9999-12-31T23:59:59.999Z"),
    (["--advance", "999999999999999"], "--advance 999999999999999 moves the clock outside the simulated time"),
    (["--advance=-999999999999999"], "--advance moves the clock forward: give 0 or more minutes"),
    (["--at", "0001-01-01T00:00:00Z"], "--at 0001-01-01T00:00:00Z is outside 1970-01-01T00:00:00Z"),
  ])
  func renderRefusesTimesOutsideTheRange(_ arguments: [String], _ message: String) throws {
    let output = try PushdeckProcess.run(
      ["render", "Examples/messaging.yaml"] + arguments, directory: Corpus.repositoryRoot())
    #expect(output.status == 2, "\(output.standardError)")
    #expect(output.standardError.contains(message), "\(output.standardError)")
  }

  @Test func aScenarioAdvancePastTheYear9999IsALocatedError() throws {
    let directory = try PushdeckProcess.temporaryDirectory()
    let path = directory.appendingPathComponent("far.yaml").path
    try "profile: {start: 2026-11-23 09:41}\ntimeline:\n  - advance: 106751991167d\n".write(
      toFile: path, atomically: true, encoding: .utf8)
    for command in ["explain", "render"] {
      let output = try PushdeckProcess.run([command, path])
      #expect(output.status == 2, "\(command): \(output.standardError)")
      #expect(
        output.standardError.contains("\(path):3:14: timeline[0].advance: \"106751991167d\" goes past"),
        "\(command): \(output.standardError)")
    }
  }

  /// A state whose saved clock is near Int64.max is damaged: `replay` says so, and leaves it.
  @Test func aSavedClockNearInt64MaxIsReportedAsDamaged() throws {
    let directory = try PushdeckProcess.temporaryDirectory()
    let state = directory.appendingPathComponent("device.sqlite").path
    let journal = try DeviceJournal.open(at: state)
    var batch = JournalBatch()
    batch.updates.state = RestoredDevice.State(
      now: SimInstant(milliseconds: 9_223_372_036_854_775_000), isLocked: false, activeFocusID: nil)
    try journal.commit(batch)
    try journal.close()
    let path = directory.appendingPathComponent("one.jsonl").path
    try #"{"at": 1767225600, "bundle": "com.a.b", "payload": {"aps": {"alert": "in range"}}}"#.write(
      toFile: path, atomically: true, encoding: .utf8)
    let output = try PushdeckProcess.run(["replay", "--state", state, path])
    #expect(output.status == 2, "\(output.standardOutput)\(output.standardError)")
    #expect(
      output.standardError.contains("column now_ms holds the time 9223372036854775000 ms, outside"),
      "\(output.standardError)")
  }

  /// `apns-expiration: 9223372036854775` was answered 200, then `serve` died with SIGILL. It is
  /// now 400 BadExpirationDate, and the next push is served.
  @Test(.requires(FileManager.default.isExecutableFile(atPath: "/usr/bin/curl"), "curl is not installed"))
  func serveAnswersBadExpirationDateAndKeepsServing() throws {
    let serve = try ServeProcess(["--ephemeral"])
    defer { serve.stop() }
    let port = serve.port
    func curl(expiration: String) throws -> String {
      let curl = Process()
      curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
      curl.arguments = [
        "-s", "-w", " %{http_code}", "--http2-prior-knowledge", "--max-time", "20", "-H",
        "apns-topic: com.example.app", "-H", "apns-expiration: \(expiration)", "-d", #"{"aps":{"alert":"x"}}"#,
        "http://127.0.0.1:\(port)/3/device/" + String(repeating: "ab", count: 32),
      ]
      let pipe = Pipe()
      curl.standardOutput = pipe
      try curl.run()
      let data = pipe.fileHandleForReading.readDataToEndOfFile()
      curl.waitUntilExit()
      return String(decoding: data, as: UTF8.self)
    }
    #expect(try curl(expiration: "9223372036854775") == #"{"reason":"BadExpirationDate"} 400"#)
    #expect(try curl(expiration: "253402300800") == #"{"reason":"BadExpirationDate"} 400"#)
    #expect(try curl(expiration: "0") == " 200")
    #expect(try curl(expiration: "253402300799") == " 200")
    serve.stop()  // SIGINT, then waits
    let process = serve.process
    #expect(process.terminationReason == .exit && process.terminationStatus == 0)
  }
}

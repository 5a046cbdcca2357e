import Foundation
import PushStore
import PushTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// What a bounded run of `pushdeck` gave.
struct BoundedOutput {
  var status: Int32
  var standardOutput: String
  var standardError: String
}

/// Runs `pushdeck` with a bound on how long it may take: past `seconds` it is killed and the
/// result says so, so a reader that spins or hangs fails the test instead of hanging it.
func runBounded(
  _ arguments: [String], input: Data? = nil, seconds: Double = 120
) throws -> (output: BoundedOutput, timedOut: Bool) {
  let binary = try #require(PushdeckProcess.binary)
  let process = Process()
  process.executableURL = URL(fileURLWithPath: binary)
  process.arguments = arguments
  let stdout = Pipe()
  let stderr = Pipe()
  let stdin = Pipe()
  process.standardOutput = stdout
  process.standardError = stderr
  process.standardInput = input == nil ? FileHandle.nullDevice : stdin
  let exited = DispatchSemaphore(value: 0)
  process.terminationHandler = { _ in exited.signal() }
  try process.run()
  nonisolated(unsafe) var outputData = Data()
  nonisolated(unsafe) var errorData = Data()
  let readers = DispatchGroup()
  readers.enter()
  DispatchQueue.global().async {
    outputData = stdout.fileHandleForReading.readDataToEndOfFile()
    readers.leave()
  }
  readers.enter()
  DispatchQueue.global().async {
    errorData = stderr.fileHandleForReading.readDataToEndOfFile()
    readers.leave()
  }
  if let input {
    DispatchQueue.global().async {
      stdin.fileHandleForWriting.write(input)
      try? stdin.fileHandleForWriting.close()
    }
  }
  var timedOut = false
  if exited.wait(timeout: .now() + seconds) == .timedOut {
    timedOut = true
    kill(process.processIdentifier, SIGKILL)
    exited.wait()
  }
  readers.wait()
  return (
    BoundedOutput(
      status: process.terminationStatus, standardOutput: String(decoding: outputData, as: UTF8.self),
      standardError: String(decoding: errorData, as: UTF8.self)),
    timedOut
  )
}

/// `pushdeck replay` is idempotent and resumable (issue 15 §4): the state remembers how far each
/// capture was saved, in the batch's own transaction; standard input is a stream; no line
/// length or kind of file makes a reader spin or hang.
@Suite(.requires(PushdeckProcess.binary != nil, "the pushdeck binary was not built"))
struct ReplayResumeCLITests {
  /// A capture line for push `n`.
  static func line(_ n: Int, bundle: String = "com.example.chat") -> String {
    #"{"at": \#(1_800_000_000 + n), "bundle": "\#(bundle)", "payload": {"aps": {"alert": "n\#(n)"}}}"#
  }

  static func capture(_ range: ClosedRange<Int>) -> String {
    range.map { line($0) }.joined(separator: "\n") + "\n"
  }

  /// How many delivery rows the state holds.
  static func rows(_ state: String) throws -> Int {
    let journal = try DeviceJournal.open(at: state)
    defer { try? journal.close() }
    return try journal.deliveryCount().count
  }

  @Test func theSameCaptureTwiceIsReplayedOnceAndAgainOnlyWithAgain() throws {
    let directory = try PushdeckProcess.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let state = directory.appendingPathComponent("device.sqlite").path
    let capture = directory.appendingPathComponent("capture.jsonl")
    try Self.capture(1...300).write(to: capture, atomically: true, encoding: .utf8)
    let first = try PushdeckProcess.run(["replay", "--state", state, "--batch", "64", capture.path])
    #expect(first.status == 0, "\(first.standardError)")
    #expect(try Self.rows(state) == 300)

    let second = try PushdeckProcess.run(["replay", "--state", state, "--format", "json", capture.path])
    #expect(second.status == 0, "\(second.standardError)")
    #expect(
      second.standardError.contains("capture.jsonl is already in the state (300 lines)"), "\(second.standardError)")
    #expect(second.standardOutput.contains(#""pushes":0"#))
    #expect(try Self.rows(state) == 300)

    // A copy under another name is the same capture.
    let copy = directory.appendingPathComponent("copy.jsonl")
    try FileManager.default.copyItem(at: capture, to: copy)
    let copied = try PushdeckProcess.run(["replay", "--state", state, copy.path])
    #expect(copied.standardError.contains("copy.jsonl is already in the state"), "\(copied.standardError)")
    #expect(try Self.rows(state) == 300)

    let again = try PushdeckProcess.run(["replay", "--state", state, "--again", "--format", "json", capture.path])
    #expect(again.status == 0, "\(again.standardError)")
    #expect(again.standardOutput.contains(#""pushes":300"#))
    #expect(try Self.rows(state) == 600)
    let help = try PushdeckProcess.run(["replay", "--help"])
    #expect(help.standardOutput.contains("--again"))
  }

  /// A capture cut back to fewer lines (the same first bytes, or shorter than the bytes that
  /// identified it) is not replayed as a new capture: that delivered every line it still held
  /// a second time. Another capture at the same path is replayed as new, and said to be.
  @Test func aCaptureCutBackIsNotReplayedAgainAndAnotherAtItsPathIsNew() throws {
    let directory = try PushdeckProcess.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let state = directory.appendingPathComponent("device.sqlite").path
    let capture = directory.appendingPathComponent("c.jsonl")
    try Self.capture(1...4).write(to: capture, atomically: true, encoding: .utf8)
    #expect(try PushdeckProcess.run(["replay", "--state", state, capture.path]).status == 0)
    try Self.capture(1...2).write(to: capture, atomically: true, encoding: .utf8)
    let shorter = try PushdeckProcess.run(["replay", "--state", state, capture.path])
    #expect(shorter.status == 0)
    #expect(
      shorter.standardError.contains("c.jsonl is shorter than when the state read it (it holds 4 lines of it"),
      "\(shorter.standardError)")
    #expect(try Self.rows(state) == 4)
    // Grown back past what was saved, it resumes after line 4.
    try Self.capture(1...6).write(to: capture, atomically: true, encoding: .utf8)
    let grown = try PushdeckProcess.run(["replay", "--state", state, capture.path])
    #expect(grown.standardError.contains("resumed at line 5"), "\(grown.standardError)")
    #expect(try Self.rows(state) == 6)
    // Another capture, as long, at the same path: new, and said so.
    try Self.capture(101...106).write(to: capture, atomically: true, encoding: .utf8)
    let other = try PushdeckProcess.run(["replay", "--state", state, capture.path])
    #expect(other.standardError.contains("is not the capture the state read at this path"), "\(other.standardError)")
    #expect(try Self.rows(state) == 12)
    // Rotated to a shorter capture: refused once; replayed with --again; then, grown, it
    // resumes (an older row of the path, longer than it, no longer refuses it).
    try Self.capture(201...202).write(to: capture, atomically: true, encoding: .utf8)
    #expect(try PushdeckProcess.run(["replay", "--state", state, capture.path]).standardError.contains("is shorter"))
    #expect(try PushdeckProcess.run(["replay", "--state", state, "--again", capture.path]).status == 0)
    #expect(try Self.rows(state) == 14)
    try Self.capture(201...203).write(to: capture, atomically: true, encoding: .utf8)
    let rotated = try PushdeckProcess.run(["replay", "--state", state, capture.path])
    #expect(rotated.standardError.contains("resumed at line 3"), "\(rotated.standardError)")
    #expect(try Self.rows(state) == 15)
  }

  /// An empty stream holds no push, as an empty capture file does (it was one rejected
  /// "empty payload", exit 1).
  @Test func anEmptyStandardInputReplaysNothing() throws {
    let (output, timedOut) = try runBounded(["replay", "--ephemeral", "--format", "json", "-"], input: Data())
    #expect(!timedOut)
    #expect(output.status == 0, "\(output.standardError)")
    #expect(output.standardOutput.contains(#""pushes":0"#), "\(output.standardOutput)")
  }

  @Test func aGrownCaptureResumesAfterItsLastSavedLine() throws {
    let directory = try PushdeckProcess.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let state = directory.appendingPathComponent("device.sqlite").path
    let capture = directory.appendingPathComponent("live.jsonl")
    try Self.capture(1...100).write(to: capture, atomically: true, encoding: .utf8)
    #expect(try PushdeckProcess.run(["replay", "--state", state, capture.path]).status == 0)
    let handle = try FileHandle(forWritingTo: capture)
    try handle.seekToEnd()
    try handle.write(contentsOf: Data(Self.capture(101...150).utf8))
    try handle.close()
    let resumed = try PushdeckProcess.run(["replay", "--state", state, "--format", "json", capture.path])
    #expect(resumed.status == 0, "\(resumed.standardError)")
    #expect(resumed.standardError.contains("resumed at line 101 of"), "\(resumed.standardError)")
    #expect(resumed.standardOutput.contains(#""pushes":50"#), "\(resumed.standardOutput)")
    #expect(try Self.rows(state) == 150)
    // The rows are the capture's lines, each once, in order.
    let journal = try DeviceJournal.open(at: state)
    defer { try? journal.close() }
    let titles = try journal.restore().notifications.map { $0.notification.body }
    #expect(titles == (1...150).map { "n\($0)" })
  }

  /// A capture replayed while its writer was half-way through a line (its last line cut short,
  /// no newline) used to be replayed whole once the line was finished: the saved offset was no
  /// longer a line's start, so the state knew nothing of it and delivered every push twice.
  @Test func aCaptureReplayedMidLineResumesAtThatLineOnceItIsWritten() throws {
    let directory = try PushdeckProcess.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let state = directory.appendingPathComponent("device.sqlite").path
    let capture = directory.appendingPathComponent("live.jsonl")
    let cut = Self.line(11)
    let half = cut.index(cut.startIndex, offsetBy: cut.count / 2)
    try (Self.capture(1...10) + cut[..<half]).write(to: capture, atomically: true, encoding: .utf8)
    let first = try PushdeckProcess.run(["replay", "--state", state, capture.path])
    #expect(first.status == 1, "the cut line is rejected: \(first.standardError)")
    #expect(try Self.rows(state) == 11)
    let handle = try FileHandle(forWritingTo: capture)
    try handle.seekToEnd()
    try handle.write(contentsOf: Data((cut[half...] + "\n" + Self.capture(12...12)).utf8))
    try handle.close()
    let resumed = try PushdeckProcess.run(["replay", "--state", state, "--format", "json", capture.path])
    #expect(resumed.status == 0, "\(resumed.standardError)")
    #expect(resumed.standardError.contains("resumed at line 11 of"), "\(resumed.standardError)")
    #expect(resumed.standardOutput.contains(#""pushes":2"#), "\(resumed.standardOutput)")
    #expect(try Self.rows(state) == 13)
    let journal = try DeviceJournal.open(at: state)
    defer { try? journal.close() }
    let bodies = try journal.restore().notifications.map { $0.notification.body }
    #expect(bodies == (1...12).map { "n\($0)" })
  }

  /// A capture written without a final newline and then appended to goes on after its last
  /// line, which the append ends: that line is not delivered a second time.
  @Test func aCaptureWithoutAFinalNewlineResumesAfterItsLastLineOnceItGrows() throws {
    let directory = try PushdeckProcess.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let state = directory.appendingPathComponent("device.sqlite").path
    let capture = directory.appendingPathComponent("capture.jsonl")
    try String(Self.capture(1...10).dropLast()).write(to: capture, atomically: true, encoding: .utf8)
    #expect(try PushdeckProcess.run(["replay", "--state", state, capture.path]).status == 0)
    let again = try PushdeckProcess.run(["replay", "--state", state, capture.path])
    #expect(again.standardError.contains("is already in the state (10 lines)"), "\(again.standardError)")
    let handle = try FileHandle(forWritingTo: capture)
    try handle.seekToEnd()
    try handle.write(contentsOf: Data(("\n" + Self.capture(11...12)).utf8))
    try handle.close()
    let resumed = try PushdeckProcess.run(["replay", "--state", state, "--format", "json", capture.path])
    #expect(resumed.status == 0, "\(resumed.standardError)")
    #expect(resumed.standardError.contains("resumed at line 11 of"), "\(resumed.standardError)")
    #expect(resumed.standardOutput.contains(#""pushes":2"#), "\(resumed.standardOutput)")
    #expect(try Self.rows(state) == 12)
  }

  @Test func standardInputIsAStreamSavedAsLinesArrive() async throws {
    let directory = try PushdeckProcess.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let state = directory.appendingPathComponent("device.sqlite").path
    let binary = try #require(PushdeckProcess.binary)
    // Three lines, then the pipe stays open: with batches of 1,000 only time can save them.
    let outcome = try await offPool { () -> (sawSaved: Bool, status: Int32, errors: String) in
      let process = Process()
      process.executableURL = URL(fileURLWithPath: binary)
      process.arguments = ["replay", "--state", state, "--progress", "-"]
      let input = Pipe()
      let errors = Pipe()
      process.standardInput = input
      process.standardError = errors
      process.standardOutput = FileHandle.nullDevice
      try process.run()
      input.fileHandleForWriting.write(Data(Self.capture(1...3).utf8))
      // Bounded: the stream is closed after 60 s whatever happened, so the test cannot hang.
      let closer = DispatchWorkItem { try? input.fileHandleForWriting.close() }
      DispatchQueue.global().asyncAfter(deadline: .now() + 60, execute: closer)
      var seen = Data()
      var sawSaved = false
      let reader = errors.fileHandleForReading
      while true {
        let chunk = reader.availableData
        if chunk.isEmpty { break }
        seen.append(chunk)
        if !sawSaved && String(decoding: seen, as: UTF8.self).contains("saved 3 pushes") {
          // Saved while the stream is still open: now end it.
          sawSaved = !closer.isCancelled
          closer.cancel()
          try? input.fileHandleForWriting.close()
        }
      }
      process.waitUntilExit()
      return (sawSaved, process.terminationStatus, String(decoding: seen, as: UTF8.self))
    }
    #expect(outcome.sawSaved, "the three lines were not saved while standard input stayed open: \(outcome.errors)")
    #expect(outcome.status == 0, "\(outcome.errors)")
    #expect(try Self.rows(state) == 3)
  }

  @Test func aLineOverTheLimitIsRejectedAtItsLineAndTheReplayGoesOn() throws {
    let directory = try PushdeckProcess.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let state = directory.appendingPathComponent("device.sqlite").path
    let capture = directory.appendingPathComponent("long.jsonl")
    // 2.5 MiB on line 2: longer than a replay's 1 MiB job and twice the line limit.
    let long =
      #"{"at": 1800000002, "bundle": "com.example.chat", "payload": {"aps": {"alert": ""#
      + String(repeating: "x", count: 5 << 19) + #""}}}"#
    let text = Self.line(1) + "\n" + long + "\n" + Self.line(3) + "\n"
    try text.write(to: capture, atomically: true, encoding: .utf8)
    let length = long.utf8.count
    let (replayed, timedOut) = try runBounded(["replay", "--state", state, "--format", "json", capture.path])
    #expect(!timedOut, "the replay did not finish")
    #expect(replayed.status == 1, "\(replayed.standardError)")
    #expect(replayed.standardOutput.contains(#""pushes":3"#), "\(replayed.standardOutput)")
    #expect(replayed.standardOutput.contains(#""rejected":1"#))
    #expect(try Self.rows(state) == 3)

    let (validated, validateTimedOut) = try runBounded(["validate", capture.path])
    #expect(!validateTimedOut)
    #expect(validated.standardOutput.contains("long.jsonl:2:1"), "\(validated.standardOutput)")
    #expect(validated.standardOutput.contains("the line is \(length) bytes; the limit is 1048576"))
    #expect(validated.standardOutput.contains("one envelope per line"))

    // The same from a pipe, which hands it over in small pieces.
    let (piped, pipeTimedOut) = try runBounded(
      ["replay", "--ephemeral", "--format", "json", "-"], input: Data(text.utf8))
    #expect(!pipeTimedOut, "the replay of standard input did not finish")
    #expect(piped.standardOutput.contains(#""pushes":3"#), "\(piped.standardOutput) \(piped.standardError)")
    #expect(piped.standardOutput.contains(#""rejected":1"#))
  }

  @Test func aDirectoryWalkSkipsAFIFOInsteadOfWaitingForAWriter() throws {
    let directory = try PushdeckProcess.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let inputs = directory.appendingPathComponent("inputs")
    try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
    try Self.capture(1...2).write(to: inputs.appendingPathComponent("a.jsonl"), atomically: true, encoding: .utf8)
    #expect(mkfifo(inputs.appendingPathComponent("b.jsonl").path, 0o600) == 0)
    #expect(mkfifo(inputs.appendingPathComponent("c.json").path, 0o600) == 0)
    for command in [["validate"], ["explain"], ["render", "--size", "60x20"], ["replay", "--ephemeral"]] {
      let (result, timedOut) = try runBounded(command + [inputs.path], seconds: 60)
      #expect(!timedOut, "\(command[0]) waited on the FIFO")
      #expect(result.status == 0, "\(command[0]): \(result.standardError)")
    }
    // Named on the command line, a device is refused rather than read forever.
    let (device, timedOut) = try runBounded(["replay", "--ephemeral", "/dev/zero"], seconds: 60)
    #expect(!timedOut)
    #expect(device.status == 2)
    #expect(device.standardError.contains("is a character device"), "\(device.standardError)")
  }
}

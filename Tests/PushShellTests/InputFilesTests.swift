import Foundation
import PushTestSupport
import PushWire
import Testing

@testable import PushShell

/// `resolveInputs`: what `validate`, `explain`, `replay` and `render` read from the paths a user
/// names. Until the shell became a library this was tested only through the binary.
@Suite struct InputFilesTests {
  /// A fresh directory; removed by the caller.
  private func directory() throws -> String {
    let path = NSTemporaryDirectory() + "pushdeck-inputs-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path + "/sub", withIntermediateDirectories: true)
    return path
  }

  private func write(_ path: String) throws {
    try #"{"aps": {"alert": "x"}}"#.write(toFile: path, atomically: true, encoding: .utf8)
  }

  /// A directory is walked recursively and sorted; only names Pushdeck reads are taken, each
  /// with the format its name implies, and a FIFO among them is skipped (opening it would wait
  /// for a writer forever).
  @Test func aDirectoryWalkTakesKnownRegularFilesSortedAndSkipsAFIFO() throws {
    let root = try directory()
    defer { try? FileManager.default.removeItem(atPath: root) }
    for name in ["b.json", "a.apns", "sub/c.jsonl", "sub/d.NDJSON", "notes.txt"] { try write(root + "/" + name) }
    try #require(mkfifo(root + "/pipe.json", 0o600) == 0, "mkfifo failed: \(errno)")
    try #require(mkfifo(root + "/sub/pipe.jsonl", 0o600) == 0, "mkfifo failed: \(errno)")

    let (inputs, problems) = resolveInputs([root])
    #expect(problems.isEmpty, "\(problems)")
    #expect(
      inputs.map { $0.path ?? "-" } == ["a.apns", "b.json", "sub/c.jsonl", "sub/d.NDJSON"].map { root + "/" + $0 })
    #expect(inputs.map(\.format) == [.simulator, .payload, .capture, .capture])
    #expect(inputs.allSatisfy { $0.displayPath == $0.path })
  }

  /// A trailing slash does not double the separator in the paths found.
  @Test func aTrailingSlashGivesTheSamePaths() throws {
    let root = try directory()
    defer { try? FileManager.default.removeItem(atPath: root) }
    try write(root + "/sub/one.json")
    #expect(resolveInputs([root + "/"]).inputs.map { $0.path ?? "-" } == [root + "/sub/one.json"])
  }

  /// Named on the command line, a FIFO is read as a stream, and a file with an unknown name is
  /// read as a payload.
  @Test func aFIFOOrAnUnknownNameGivenExplicitlyIsRead() throws {
    let root = try directory()
    defer { try? FileManager.default.removeItem(atPath: root) }
    try #require(mkfifo(root + "/live.jsonl", 0o600) == 0)
    try write(root + "/payload.txt")
    let (inputs, problems) = resolveInputs([root + "/live.jsonl", root + "/payload.txt"])
    #expect(problems.isEmpty)
    #expect(inputs.map(\.format) == [.capture, .payload])
  }

  /// `-` is standard input, its format sniffed later.
  @Test func aDashIsStandardInput() {
    let (inputs, problems) = resolveInputs(["-"])
    #expect(problems.isEmpty)
    #expect(inputs.count == 1)
    #expect(inputs.first?.path == nil)
    #expect(inputs.first?.displayPath == "<stdin>")
    #expect(inputs.first?.format == nil)
  }

  /// A missing path and a device are problems naming the path and what to do; the other paths
  /// are still resolved.
  @Test func aMissingPathAndADeviceAreProblemsThatNameThePath() throws {
    let root = try directory()
    defer { try? FileManager.default.removeItem(atPath: root) }
    try write(root + "/ok.json")
    let (inputs, problems) = resolveInputs([root + "/absent.json", "/dev/null", root + "/ok.json"])
    #expect(inputs.map { $0.path ?? "-" } == [root + "/ok.json"])
    #expect(problems.map(\.path) == [root + "/absent.json", "/dev/null"])
    #expect(problems.first?.message == "no such file or directory")
    let device = try #require(problems.last?.message)
    #expect(device.hasPrefix("is a character device, not a file"))
    #expect(device.contains("pipe it to standard input"))
  }

  /// `readWholeFile` refuses a file over its limit with a message that says why, instead of
  /// reading it whole.
  @Test func aFileOverTheLimitIsRefused() throws {
    let root = try directory()
    defer { try? FileManager.default.removeItem(atPath: root) }
    let path = root + "/big.json"
    try String(repeating: " ", count: (1 << 20) + 1).write(toFile: path, atomically: true, encoding: .utf8)
    let error = #expect(throws: InputProblem.self) { try readWholeFile(path, limit: 1 << 20) }
    #expect(error?.path == path)
    #expect(error?.message.hasPrefix("the file is over 1 MiB") == true)
    #expect(try readWholeFile(path, limit: 2 << 20).count == (1 << 20) + 1)
  }
}

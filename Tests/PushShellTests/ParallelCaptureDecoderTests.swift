import Foundation
import PushWire
import Testing

@testable import PushShell

/// The capture decoder `validate`, `explain`, `replay` and `render` share: records come out in
/// file order with the line and byte offset where each ends, whatever the job size, and a line
/// over ``PushReader/maximumLineBytes`` comes out as one rejected record at its own line.
@Suite struct ParallelCaptureDecoderTests {
  private static func envelope(_ index: Int) -> String {
    #"{"at": \#(1_700_000_000 + index), "bundle": "com.example.app", "payload": {"aps": {"alert": "push \#(index)"}}}"#
  }

  /// Decodes `bytes` through a file, with jobs of at least 64 KiB (the decoder's floor).
  private func decode(_ bytes: [UInt8], jobBytes: Int = 1 << 16) throws -> (
    records: [PushRecord], positions: [CapturePosition], end: CapturePosition
  ) {
    let path = NSTemporaryDirectory() + "pushdeck-decoder-" + UUID().uuidString + ".jsonl"
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let descriptor = open(path, O_RDONLY)
    try #require(descriptor >= 0)
    defer { close(descriptor) }
    var records: [PushRecord] = []
    var positions: [CapturePosition] = []
    let decoder = ParallelCaptureDecoder<PushRecord>(
      file: "c.jsonl", keepsCustomValues: false, jobBytes: jobBytes, transform: { $0 },
      body: { record, position in
        records.append(record)
        positions.append(position)
      })
    try decoder.readToEnd(from: descriptor, name: "c.jsonl")
    return (records, positions, decoder.position)
  }

  @Test func recordsComeOutInFileOrderWithTheirLinesAndEnds() throws {
    // About 3,000 lines over several 64 KiB jobs, decoded on worker threads.
    let lines = (1...3_000).map { Self.envelope($0) + "\n" }
    let (records, positions, end) = try decode(Array(lines.joined().utf8))
    #expect(records.map { $0.line ?? 0 } == Array(1...3_000))
    #expect(records.allSatisfy { $0.isValid })
    #expect(records.map { $0.payload?.aps.alert?.body ?? "" } == (1...3_000).map { "push \($0)" })
    var offset: Int64 = 0
    let expected = lines.enumerated().map { index, line in
      offset += Int64(line.utf8.count)
      return CapturePosition(line: index + 1, offset: offset)
    }
    #expect(positions == expected)
    #expect(end == expected.last)
  }

  /// A line of 1 MiB + 10 bytes between two good lines: one rejected record at line 2 with its
  /// whole length and a located `lineTooLong`; the lines around it are read, and the positions
  /// count its bytes.
  @Test(.timeLimit(.minutes(1)))
  func aLineOverTheLimitIsOneRejectedRecordAtItsLine() throws {
    let first = Self.envelope(1) + "\n"
    let long = String(repeating: "x", count: PushReader.maximumLineBytes + 10) + "\n"
    let third = Self.envelope(3) + "\n"
    let (records, positions, end) = try decode(Array((first + long + third).utf8))
    #expect(records.map(\.line) == [1, 2, 3])
    let rejected = try #require(records.dropFirst().first)
    #expect(!rejected.isValid)
    #expect(rejected.byteCount == PushReader.maximumLineBytes + 10)
    #expect(rejected.rawBytes.count <= 4096)
    let diagnostic = try #require(rejected.diagnostics.first)
    #expect(diagnostic.code == .lineTooLong)
    #expect(diagnostic.location?.line == 2)
    #expect(rejected.source == "c.jsonl:2")
    #expect(records.first?.isValid == true)
    #expect(records.last?.isValid == true)
    #expect(records.last?.payload?.aps.alert?.body == "push 3")
    let total = Int64(first.utf8.count + long.utf8.count + third.utf8.count)
    #expect(positions.map(\.offset) == [Int64(first.utf8.count), Int64(first.utf8.count + long.utf8.count), total])
    #expect(end == CapturePosition(line: 3, offset: total))
  }

  /// An overlong last line without a newline is still one record, and nothing after it.
  @Test(.timeLimit(.minutes(1)))
  func anOverlongLastLineWithoutANewlineEndsTheCapture() throws {
    let first = Self.envelope(1) + "\n"
    let long = String(repeating: "y", count: PushReader.maximumLineBytes * 2)
    let (records, _, end) = try decode(Array((first + long).utf8))
    #expect(records.map(\.line) == [1, 2])
    #expect(records.last?.diagnostics.first?.code == .lineTooLong)
    #expect(records.last?.byteCount == PushReader.maximumLineBytes * 2)
    #expect(end.line == 2)
    #expect(end.offset == Int64(first.utf8.count + long.utf8.count))
  }

  /// Reading can start in the middle (a resumed replay): line numbers and offsets go on from
  /// the given start.
  @Test func aStartPositionContinuesTheNumbering() throws {
    let lines = (1...5).map { Self.envelope($0) + "\n" }
    let skipped = lines.prefix(2).joined()
    let path = NSTemporaryDirectory() + "pushdeck-decoder-" + UUID().uuidString + ".jsonl"
    try Data(lines.joined().utf8).write(to: URL(fileURLWithPath: path))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let descriptor = open(path, O_RDONLY)
    try #require(descriptor >= 0)
    defer { close(descriptor) }
    let start = CapturePosition(line: 2, offset: Int64(skipped.utf8.count))
    #expect(lseek(descriptor, off_t(start.offset), SEEK_SET) == off_t(start.offset))
    var seen: [(Int?, String?)] = []
    let decoder = ParallelCaptureDecoder<PushRecord>(
      file: "c.jsonl", keepsCustomValues: false, start: start, transform: { $0 },
      body: { record, _ in seen.append((record.line, record.payload?.aps.alert?.body)) })
    try decoder.readToEnd(from: descriptor, name: "c.jsonl")
    #expect(seen.map(\.0) == [3, 4, 5])
    #expect(seen.map(\.1) == ["push 3", "push 4", "push 5"])
    #expect(decoder.position == CapturePosition(line: 5, offset: Int64(lines.joined().utf8.count)))
  }
}

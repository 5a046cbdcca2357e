import Foundation
import PushTestSupport
import Testing

@testable import PushWire

/// Reads a capture made by the shared generator and checks Pushdeck finds what the generator
/// planted: the accepted lines, the groups and the text checksum.
@Suite(.requires(CaptureGenerator.isAvailable, "python3 or ../shared/tools/gen_capture.py is missing"))
struct GeneratedCaptureTests {
  @Test func strictReadingFindsWhatTheGeneratorPlanted() throws {
    let (url, expected) = try CaptureGenerator.generate(lines: 20_000)
    defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
    let bytes = try [UInt8](Data(contentsOf: url))
    var accepted = 0
    var tooLargeOnly = 0
    var groups: Set<String> = []
    var checksum = 0
    var rejectedWithoutLocation = 0
    var lines = 0
    LineSplitter.forEachLine(in: bytes) { range, number in
      lines += 1
      let record = PushReader.readCaptureLine(Array(bytes[range]), lineNumber: number, source: "capture.jsonl")
      let isTooLargeOnly =
        !record.isStrictlyValid && record.diagnostics.allSatisfy { $0.code == .payloadTooLarge } && range.count <= 5120
      if record.isStrictlyValid || isTooLargeOnly {
        if record.isStrictlyValid { accepted += 1 } else { tooLargeOnly += 1 }
        groups.insert((record.bundleID ?? "") + "\u{0}" + (record.payload?.aps.threadID ?? ""))
        let alert = record.payload?.aps.alert
        checksum += (alert?.title?.unicodeScalars.count ?? 0) + (alert?.body?.unicodeScalars.count ?? 0)
      } else {
        if record.diagnostics.contains(where: { $0.severity >= .warning && $0.location == nil && $0.path == nil }) {
          rejectedWithoutLocation += 1
        }
      }
    }
    #expect(lines == expected.lines)
    // The generator only limits a line to 5120 bytes; APNs limits the payload to 4096, so a
    // payload of 4097–5000 bytes in a short envelope is rejected here and accepted there.
    #expect(accepted + tooLargeOnly == expected.accepted)
    #expect(rejectedWithoutLocation == 0)
    #expect(groups.count == expected.groups)
    #expect(checksum == expected.checksumScalars)
  }
}

import Foundation
import PushCore
import PushUI
import PushWire
import Testing

@testable import PushShell

/// A lean timeline's capture lines, read again from the file when played.
@Suite("Capture lines read again")
struct CaptureLinesTests {
  @Test(arguments: [
    ("{\"a\":1}", "{\"a\":1}"),
    ("{\"a\":1}\n", "{\"a\":1}"),
    ("{\"a\":1}\r\n", "{\"a\":1}"),
    ("\n\n{\"a\":1}\n", "{\"a\":1}"),
    ("x\n{\"a\":1}", "{\"a\":1}"),
    ("", ""),
    ("\n", ""),
  ])
  func theLastLineOfAReferenceIsCutAtItsNewlines(bytes: String, line: String) {
    let slice = ArraySlice(Array(bytes.utf8))
    #expect(String(decoding: CaptureLines.lastLine(slice), as: UTF8.self) == line)
    // The same in a slice that does not start at 0.
    let padded = Array(("zz" + bytes).utf8)
    #expect(String(decoding: CaptureLines.lastLine(padded[2...]), as: UTF8.self) == line)
  }

  static func title(_ event: TimelineEvent) -> String? {
    guard case .device(.push(let record, _)) = event else { return nil }
    return record.payload?.aps.alert?.title
  }

  /// Lines of different lengths decoded one after another and on two threads at once (the
  /// token tape is shared between calls) give the pushes the file holds.
  @Test func linesDecodeTheSameInAnyOrderAndOnTwoThreads() async throws {
    let path = NSTemporaryDirectory() + "pushdeck-lines-\(UUID().uuidString).jsonl"
    defer { try? FileManager.default.removeItem(atPath: path) }
    var text = ""
    var references: [CaptureLineRef] = []
    for n in 0..<200 {
      let extra = (0..<(n % 17)).map { #""k\#($0)": [1, 2, {"x": "\#(n)"}]"# }.joined(separator: ", ")
      let line =
        #"{"at": \#(1_767_254_400 + n), "bundle": "com.example.app\#(n % 3)", "payload": {"aps": "#
        + #"{"alert": {"title": "Push \#(n)"}}\#(extra.isEmpty ? "" : ", " + extra)}}"#
      references.append(CaptureLineRef(input: 0, offset: text.utf8.count, length: line.utf8.count, line: n + 1))
      text += line + "\n"
    }
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    let lines = CaptureLines(
      [ResolvedInput(displayPath: "lines.jsonl", path: path, format: .capture)], keepsCustomValues: true)
    for index in references.indices.reversed() {
      #expect(Self.title(lines.event(of: references[index])) == "Push \(index)")
    }
    let all = references
    let titles = await withTaskGroup(of: [String?].self) { group in
      for _ in 0..<2 { group.addTask { all.map { Self.title(lines.event(of: $0)) } } }
      return await group.reduce(into: []) { $0.append($1) }
    }
    let expected = references.indices.map { Optional("Push \($0)") }
    #expect(titles == [expected, expected])
  }
}

/// A refused body as the inspector shows it: UTF-8 as it is, other bytes as `\xFF`.
@Suite("Refused bodies as text")
struct RefusedBodyTextTests {
  @Test(arguments: [
    ([UInt8]("{\"a\":\"é\"}".utf8), "{\"a\":\"é\"}"),
    ([0x7B, 0xFF, 0x7D], "{\\xFF}"),
    ([0x61, 0xF0, 0x9F], "a\\xF0\\x9F"),
    ([0xC0, 0x80, 0x62], "\\xC0\\x80b"),
    ([0xE2, 0x82, 0xAC, 0xED, 0xA0, 0x80], "€\\xED\\xA0\\x80"),
  ])
  func bytesThatAreNotUTF8AreShownAsEscapes(bytes: [UInt8], text: String) {
    #expect(EndpointRefusal.text(bytes) == text)
  }
}

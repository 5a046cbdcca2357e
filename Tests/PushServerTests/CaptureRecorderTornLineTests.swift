import Foundation
import PushServer
import PushTestSupport
import PushWire
import Testing

/// A capture left with a torn last line (a `kill -9` in the middle of a write) is ended with a
/// newline when `--record` opens it again: the next push was appended to the torn line, and a
/// push answered 200 was lost in a line no reader could read.
@Suite struct CaptureRecorderTornLineTests {
  @Test func theNextPushStartsALineOfItsOwn() throws {
    let directory = try PushdeckProcess.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let capture = directory.appendingPathComponent("torn.jsonl")
    let whole = #"{"at": 1795758449, "bundle": "com.example.app", "payload": {"aps": {"alert": "before"}}}"#
    let torn = #"{"at": 1795758449.25, "bundle": "com.example.app", "headers": {"apns-top"#
    try Data((whole + "\n" + torn).utf8).write(to: capture)
    let recorder = try CaptureRecorder(path: capture.path)
    try recorder.append(
      lines: Array(
        (#"{"at": 1795758450, "bundle": "com.example.app", "payload": {"aps": {"alert": "after"}}}"# + "\n").utf8))
    let lines = try String(contentsOf: capture, encoding: .utf8).split(
      separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.count == 4, "\(lines)")
    #expect(lines[1] == torn[...], "the torn line is kept as it was, a line of its own")
    let after = PushReader.readCaptureLine(Array(lines[2].utf8), lineNumber: 3, source: "torn.jsonl")
    #expect(after.isValid && after.payload?.aps.alert?.body == "after")
    #expect(lines[3].isEmpty)
    // A capture that ends in a newline is left as it is.
    let size = try FileManager.default.attributesOfItem(atPath: capture.path)[.size] as? Int
    _ = try CaptureRecorder(path: capture.path)
    #expect(try FileManager.default.attributesOfItem(atPath: capture.path)[.size] as? Int == size)
  }
}

import Foundation
import PushTestSupport
import PushWire
import Testing

@testable import PushShell

/// The default app (`fallbackBundleID`) goes to payload files that were read and name no app,
/// never to a capture line or a text that is not JSON: those show as from an unknown app unless
/// they named one before their mistake.
@Suite struct DefaultAppTests {
  /// The apps `readRecords` gives each record of `text`, written to a file named `name`.
  private func apps(_ name: String, _ text: String) throws -> [String?] {
    let path = NSTemporaryDirectory() + "pushdeck-default-app-" + UUID().uuidString + "-" + name
    defer { try? FileManager.default.removeItem(atPath: path) }
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    let (inputs, problems) = resolveInputs([path])
    #expect(problems.isEmpty)
    var apps: [String?] = []
    for input in inputs {
      try readRecords(from: input, defaultBundleID: fallbackBundleID) { apps.append($0.bundleID) }
    }
    return apps
  }

  @Test func aCaptureLineThatIsNotJSONIsNotGivenTheDefaultApp() throws {
    let lines = [
      #"{"at": 1795430000, "bundle": "com.acme.chat", "payload": {"aps": {"alert": "x"}}}"#,
      #"{"at": 1795430000, "bundle": "com.acme.chat", "payload": {"aps": {"alert": "x"},}}"#,
      #"{'at': 1795430000, 'bundle': 'com.acme.chat', 'payload': {}}"#,
      #"{"at": 1795430000, "payload": {"aps": {"alert": "x"}}}"#,
      #"{"at": 1795430000, "bundle": "com.a b", "payload": {"aps": {"alert": "x"}}}"#,
    ]
    #expect(
      try apps("c.jsonl", lines.joined(separator: "\n") + "\n") == ["com.acme.chat", "com.acme.chat", nil, nil, nil])
  }

  @Test func aPayloadFileThatNamesNoAppGetsTheDefaultUnlessItIsNotJSON() throws {
    #expect(try apps("a.json", #"{"aps": {"alert": "x"}}"#) == [fallbackBundleID])
    #expect(try apps("b.json", #"{"alert": "no aps"}"#) == [fallbackBundleID])
    #expect(try apps("c.json", #"{"aps": {"alert": "x"},}"#) == [nil])
    #expect(
      try apps("d.apns", #"{"Simulator Target Bundle": "com.example.shop", "aps": {"badge": 1,}}"#) == [
        "com.example.shop"
      ])
  }
}

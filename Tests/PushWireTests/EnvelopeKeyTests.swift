import Testing

@testable import PushWire

/// A capture line's envelope keys (`at`, `bundle`, `token`, `headers`, `payload`).
@Suite struct EnvelopeKeyTests {
  /// A repeated envelope key is reported where it repeats, and the first value counts, as in a
  /// payload (found by an exploratory test: a second `"at"` silently moved the push).
  @Test func aRepeatedEnvelopeKeyIsReportedAndTheFirstCounts() throws {
    let line =
      #"{"at": 1767225600, "bundle": "com.example.a", "at": 1767229200, "bundle": "com.example.b", "payload": {"aps": {"alert": "hi"}}}"#
    let record = PushReader.readCaptureLine(Array(line.utf8), lineNumber: 7, source: "c.jsonl")
    #expect(record.at == 1_767_225_600)
    #expect(record.bundleID == "com.example.a")
    let repeats = record.diagnostics.filter { $0.code == .duplicateKey }
    #expect(repeats.map(\.path) == ["at", "bundle"])
    #expect(repeats.first?.location?.line == 7)
    #expect(repeats.first?.location?.column == 47)
    #expect(repeats.first?.message == #"the envelope key "at" appears twice"#)
    // A warning: the push is still delivered.
    #expect(record.verdict.isDelivered)
  }

  /// Each envelope key once: no repeat reported.
  @Test func distinctEnvelopeKeysReportNothing() {
    let line = #"{"at": 1767225600, "bundle": "com.example.a", "payload": {"aps": {"alert": "hi"}}}"#
    let record = PushReader.readCaptureLine(Array(line.utf8), lineNumber: 1, source: "c.jsonl")
    #expect(!record.diagnostics.contains { $0.code == .duplicateKey })
  }

  /// The time a line that is not JSON gives before its mistake: the first `at`, a number whole
  /// before the mistake and inside the simulated time; nil for anything else.
  @Test func theTimeBeforeALinesMistake() {
    func time(_ line: String) -> Double? { PushReader.timeBeforeSyntaxError(inCaptureLine: Array(line.utf8)[...]) }
    #expect(time(#"{"at": 1767225610, "payload": {"aps": {"alert": 1,}}}"#) == 1_767_225_610)
    #expect(time(#"{"at": 1767225610.5 , "at": 1767229200, "payload": {,}}"#) == 1_767_225_610.5)
    #expect(time(#"{"payload": {"at": 1767225610}, "x": ,}"#) == nil)  // not at the top level
    #expect(time(#"{"at": 176722561x}"#) == nil)  // cut by the mistake
    #expect(time(#"{"at": 1e300, "payload": ,}"#) == nil)  // outside the simulated time
    #expect(time(#"{"at": "1767225610", "payload": ,}"#) == nil)  // not a number
    #expect(time(#"{"at": 1767225610, "payload": {"aps": {}}}"#) == nil)  // valid JSON: its record has it
  }

  /// A text that starts with a UTF-16 or UTF-32 byte-order mark is said to be in that
  /// encoding, at line 1, column 1; a capture's first line too, not its later ones.
  @Test func aByteOrderMarkNamesTheEncoding() throws {
    let body = Array(#"{"aps": {}}"#.utf8)
    let marks: [([UInt8], String)] = [
      ([0xFF, 0xFE], "UTF-16"), ([0xFE, 0xFF], "UTF-16"), ([0xFF, 0xFE, 0, 0], "UTF-32"),
    ]
    for (mark, encoding) in marks {
      let record = PushReader.readPayloadFile(mark + body, source: "p.json", format: .payload)
      let diagnostic = try #require(record.diagnostics.first)
      #expect(diagnostic.code == .invalidUTF8)
      #expect(diagnostic.message == "the file is \(encoding) (byte-order mark at byte 0); save it as UTF-8")
      #expect(diagnostic.location?.line == 1 && diagnostic.location?.column == 1)
      let body = PushReader.readPayloadFile(mark + body, source: "apns", format: .payload, isRequestBody: true)
      #expect(
        body.diagnostics.first?.message == "the body is \(encoding) (byte-order mark at byte 0); send it as UTF-8")
    }
    let first = PushReader.readCaptureLine([0xFF, 0xFE] + body, lineNumber: 1, source: "c.jsonl")
    #expect(first.diagnostics.first?.message.hasPrefix("the file is UTF-16") == true)
    let later = PushReader.readCaptureLine([0xFF, 0xFE] + body, lineNumber: 2, source: "c.jsonl")
    #expect(later.diagnostics.first?.message.hasPrefix("invalid UTF-8 byte 0xFF") == true)
    // A UTF-8 byte-order mark is read past, as before.
    #expect(PushReader.readPayloadFile([0xEF, 0xBB, 0xBF] + body, source: "p.json", format: .payload).payload != nil)
  }
}

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
}

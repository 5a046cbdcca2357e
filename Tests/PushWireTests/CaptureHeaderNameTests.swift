import PushWire
import Testing

/// A capture's header names are read as HTTP reads them, case-insensitively, and an `apns-` name
/// APNs does not define is a warning that names the header it is closest to (before, both were
/// kept silently as other headers: `Apns-Priority: 7` passed where APNs answers 400).
struct CaptureHeaderNameTests {
  private func line(_ headers: String) -> PushRecord {
    PushReader.readCaptureLine(
      Array(
        #"{"at": 1767225600, "bundle": "com.example.app", "headers": {\#(headers)}, "payload": {"aps": {"alert": "x"}}}"#
          .utf8),
      lineNumber: 1, source: "c.jsonl")
  }

  @Test func aHeaderNameInAnyCaseIsThatHeader() {
    let mixed = line(#""Apns-Priority": "7""#)
    #expect(mixed.diagnostics.map(\.code) == [.badPriority])
    #expect(mixed.diagnostics.first?.path == "headers.apns-priority")
    let upper = line(#""APNS-PUSH-TYPE": "alert", "APNS-PRIORITY": "5""#)
    #expect(upper.diagnostics.isEmpty)
    #expect(upper.headers.pushType == .alert && upper.headers.priority?.rawValue == 5)
  }

  @Test func anAPNsNameAPNsDoesNotDefineIsAWarningWithTheNearestHeader() throws {
    let record = line(#""apns-prority": "10", "apns-channel-id": "dGVzdA==", "x-trace": "1""#)
    let warning = try #require(record.diagnostics.first { $0.code == .unknownHeader })
    #expect(warning.severity == .warning)
    #expect(warning.message == #""apns-prority" is not an APNs header; did you mean "apns-priority"?"#)
    // Other headers (not apns-) and the ones kept as sent are not reported.
    #expect(record.diagnostics.count { $0.code == .unknownHeader } == 1)
    #expect(record.headers.otherHeaders.map(\.name) == ["apns-prority", "apns-channel-id", "x-trace"])
  }
}

import Testing

@testable import PushWire

/// A silent push with apns-priority 10 and no apns-push-type is said: APNs takes it for a
/// background push, which must be priority 5 (with the type written out it is BadPriority).
@Suite struct SilentPriorityTests {
  private func line(_ headers: String) -> PushRecord {
    let text =
      #"{"at": 1, "bundle": "com.a.b", "headers": {\#(headers)}, "payload": {"aps": {"content-available": 1}}}"#
    return PushReader.readCaptureLine(Array(text.utf8), lineNumber: 1, source: "c.jsonl")
  }

  @Test func priorityTenWithoutAPushTypeIsAWarning() throws {
    let record = line(#""apns-priority": "10""#)
    let diagnostic = try #require(record.diagnostics.first { $0.code == .pushTypeMismatch })
    #expect(diagnostic.severity == .warning)
    #expect(diagnostic.message.contains("apns-priority 10 and no apns-push-type"))
    #expect(record.isValid)
  }

  @Test(arguments: [#""apns-priority": "5""#, "", #""apns-priority": "10", "apns-push-type": "background""#])
  func otherwiseNotThisWarning(_ headers: String) {
    // Priority 5 and no priority are right; background with 10 is BadPriority, an error.
    #expect(!line(headers).diagnostics.contains { $0.code == .pushTypeMismatch })
  }
}

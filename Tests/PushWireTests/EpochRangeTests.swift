import Testing

@testable import PushWire

/// Numbers of UNIX seconds read from captures and headers are checked against `EpochRange`
/// where they are read (docs/DECISIONS.md, "Every number from outside is a range").
@Suite struct EpochRangeTests {
  private func line(_ text: String, number: Int = 3) -> PushRecord {
    PushReader.readCaptureLine(Array(text.utf8), lineNumber: number, source: "c.jsonl")
  }

  /// `"at": 1e300` (and the others) crashed explain, replay and render, and validate called the
  /// line valid. Each is now an error located at the number, and the line is kept as rejected.
  @Test(arguments: [
    "1e300", "1E18", "9223372036854775807", "-9223372036854775808", "9223372036854775808", "-1",
    "253402300800",
  ])
  func anAtOutsideTheRangeIsALocatedError(_ number: String) throws {
    let record = line(#"{"at": \#(number), "bundle": "com.a.b", "payload": {"aps": {"alert": "x"}}}"#)
    #expect(record.at == nil)
    #expect(!record.isValid)
    let diagnostic = try #require(record.diagnostics.first { $0.path == "at" })
    #expect(diagnostic.code == .invalidEnvelope)
    #expect(diagnostic.severity == .error)
    #expect(diagnostic.location?.line == 3 && diagnostic.location?.column == 8)
    #expect(diagnostic.message.contains(number) && diagnostic.message.contains("9999-12-31T23:59:59Z"))
    #expect(record.payload != nil, "the rest of the line is still read")
  }

  @Test(arguments: [("-0", 0.0), ("1e-400", 0.0), ("0", 0.0), ("253402300799.5", 253_402_300_799.5)])
  func anAtInsideTheRangeIsKept(_ number: String, _ seconds: Double) {
    let record = line(#"{"at": \#(number), "bundle": "com.a.b", "payload": {"aps": {"alert": "x"}}}"#)
    #expect(record.at == seconds)
    #expect(record.isValid)
  }

  @Test func aVeryLongNumberIsShortenedInTheMessage() throws {
    let number = "1" + String(repeating: "0", count: 5000)
    let record = line(#"{"at": \#(number), "bundle": "com.a.b", "payload": {"aps": {"alert": "x"}}}"#)
    let message = try #require(record.diagnostics.first { $0.path == "at" }?.message)
    #expect(message.count < 200)
  }

  /// `apns-expiration: 9223372036854775` was accepted and killed `serve` (SIGILL converting to
  /// milliseconds). APNs answers 400 BadExpirationDate for an expiration it cannot use.
  @Test(arguments: ["9223372036854775", "253402300800", "999999999999999999"])
  func anExpirationAfter9999IsBadExpirationDate(_ value: String) throws {
    let record = line(
      #"{"at": 1, "bundle": "com.a.b", "headers": {"apns-expiration": "\#(value)"}, "payload": {"aps": {"alert": "x"}}}"#
    )
    #expect(record.headers.expiration == nil)
    let diagnostic = try #require(record.diagnostics.first { $0.code == .badExpirationDate })
    #expect(diagnostic.severity == .error)
    #expect(diagnostic.path == "headers.apns-expiration")
    #expect(diagnostic.location?.line == 3)
  }

  /// A whole number out of range is said to be before 1970 or after 9999, whatever its size;
  /// only text that is no number is "must be UNIX seconds".
  @Test(arguments: [
    ("-1", "apns-expiration -1 is before 1970-01-01T00:00:00Z"),
    ("9223372036854775808", "apns-expiration 9223372036854775808 is after 9999-12-31T23:59:59Z"),
    ("1.5", #"apns-expiration must be UNIX seconds, not "1.5""#),
  ])
  func anExpirationOutOfRangeSaysWhichEnd(_ value: String, _ message: String) throws {
    let record = line(
      #"{"at": 1, "bundle": "com.a.b", "headers": {"apns-expiration": "\#(value)"}, "payload": {"aps": {"alert": "x"}}}"#
    )
    let diagnostic = try #require(record.diagnostics.first { $0.code == .badExpirationDate })
    #expect(diagnostic.message.hasPrefix(message), "\(diagnostic.message)")
  }

  /// Leading zeros are dropped and `-0` is 0 (docs/DECISIONS.md): `000…01` was "after 9999"
  /// and `-0` "before 1970".
  @Test(arguments: [
    ("0", 0), ("1", 1), ("253402300799", 253_402_300_799), ("-0", 0), ("-000", 0),
    ("000000000000000000000000000001", 1), ("00000000000000000000253402300799", 253_402_300_799),
  ])
  func anExpirationInTheRangeIsKept(_ value: String, _ seconds: Int) {
    let record = line(
      #"{"at": 1, "bundle": "com.a.b", "headers": {"apns-expiration": "\#(value)"}, "payload": {"aps": {"alert": "x"}}}"#
    )
    #expect(record.headers.expiration == seconds)
    #expect(record.isValid)
  }

  @Test func theRangeContainsItsEndsAndNothingElse() {
    #expect(EpochRange.contains(seconds: 0.0) && EpochRange.contains(seconds: -0.0))
    #expect(EpochRange.contains(seconds: 253_402_300_799.999))
    #expect(!EpochRange.contains(seconds: 253_402_300_800.0))
    #expect(!EpochRange.contains(seconds: -0.001))
    #expect(!EpochRange.contains(seconds: Double.nan))
    #expect(EpochRange.milliseconds(seconds: 253_402_300_799.9999) == EpochRange.highestMilliseconds)
  }
}

/// The instants Pushdeck simulates: 1970-01-01T00:00:00Z through 9999-12-31T23:59:59.999Z.
///
/// Every number of UNIX seconds read from outside (a capture's `at`, `apns-expiration`, a
/// provider token's `iat`, a saved clock, a time or offset typed on the command line) is checked
/// against this range where it is read, and one outside it is an error there. Inside it, an
/// instant in milliseconds is far from `Int64`'s limits (about 2.5 × 10¹⁴ of 9.2 × 10¹⁸), so
/// simulated time never overflows. See docs/DECISIONS.md, "Every number from outside is a range".
public enum EpochRange {
  /// The first second: 1970-01-01T00:00:00Z.
  public static let lowestSeconds: Int64 = 0
  /// The last second: 9999-12-31T23:59:59Z.
  public static let highestSeconds: Int64 = 253_402_300_799
  /// The first millisecond.
  public static let lowestMilliseconds: Int64 = 0
  /// The last millisecond: 9999-12-31T23:59:59.999Z.
  public static let highestMilliseconds: Int64 = 253_402_300_799_999
  /// The range as people read it, for messages.
  public static let text = "1970-01-01T00:00:00Z to 9999-12-31T23:59:59Z"

  /// Whether a (possibly fractional) number of UNIX seconds is in the range; false for NaN and
  /// the infinities.
  public static func contains(seconds: Double) -> Bool {
    seconds.isFinite && seconds >= Double(lowestSeconds) && seconds < Double(highestSeconds + 1)
  }

  /// Whether a whole number of UNIX seconds is in the range.
  public static func contains(seconds: Int64) -> Bool { seconds >= lowestSeconds && seconds <= highestSeconds }

  /// Milliseconds since the epoch for UNIX seconds, rounded; nil outside the range.
  public static func milliseconds(seconds: Double) -> Int64? {
    guard contains(seconds: seconds) else { return nil }
    let rounded = (seconds * 1000).rounded()
    return min(Int64(rounded), highestMilliseconds)
  }
}

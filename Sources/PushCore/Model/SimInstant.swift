/// A point in simulated time: milliseconds since the Unix epoch.
///
/// The core never reads a clock; every instant is handed in. This is what makes replays,
/// goldens and end-to-end tests deterministic.
///
/// Simulated instants are meant to lie in ``EpochRange`` (years 1970 to 9999). Numbers from
/// outside are checked where they are read (``init(exactlyEpochSeconds:)``,
/// ``init(exactlyMilliseconds:)``, ``adding(_:)``); the operators never trap: they saturate at
/// `Int64`'s limits instead of overflowing.
public struct SimInstant: Comparable, Hashable, Sendable, Codable {
  /// Milliseconds since 1970-01-01T00:00:00Z.
  public var milliseconds: Int64

  /// Creates an instant from milliseconds since the Unix epoch.
  public init(milliseconds: Int64) { self.milliseconds = milliseconds }

  /// Creates an instant from (possibly fractional) seconds since the Unix epoch, clamped to
  /// ``EpochRange`` (NaN becomes its start). For a number read from outside, use
  /// ``init(exactlyEpochSeconds:)`` and report the nil.
  public init(epochSeconds: Double) {
    if let exact = EpochRange.milliseconds(seconds: epochSeconds) {
      milliseconds = exact
    } else {
      milliseconds = epochSeconds > 0 ? EpochRange.highestMilliseconds : EpochRange.lowestMilliseconds
    }
  }

  /// Creates an instant from (possibly fractional) seconds since the Unix epoch; nil when they
  /// are not finite or lie outside ``EpochRange``.
  public init?(exactlyEpochSeconds seconds: Double) {
    guard let exact = EpochRange.milliseconds(seconds: seconds) else { return nil }
    milliseconds = exact
  }

  /// Creates an instant from milliseconds since the Unix epoch; nil outside ``EpochRange``.
  public init?(exactlyMilliseconds value: Int64) {
    guard Self.isInRange(value) else { return nil }
    milliseconds = value
  }

  /// The first simulated instant, 1970-01-01T00:00:00Z.
  public static let earliest = SimInstant(milliseconds: EpochRange.lowestMilliseconds)
  /// The last simulated instant, 9999-12-31T23:59:59.999Z.
  public static let latest = SimInstant(milliseconds: EpochRange.highestMilliseconds)

  static func isInRange(_ milliseconds: Int64) -> Bool {
    milliseconds >= EpochRange.lowestMilliseconds && milliseconds <= EpochRange.highestMilliseconds
  }

  /// Whether the instant lies in ``EpochRange``.
  public var isInRange: Bool { Self.isInRange(milliseconds) }

  /// Seconds since the Unix epoch.
  public var epochSeconds: Double { Double(milliseconds) / 1000 }

  /// The instant `duration` later, or nil when that is outside ``EpochRange`` (or overflows).
  public func adding(_ duration: SimDuration) -> SimInstant? {
    let (sum, overflow) = milliseconds.addingReportingOverflow(duration.milliseconds)
    return overflow ? nil : SimInstant(exactlyMilliseconds: sum)
  }

  public static func < (lhs: SimInstant, rhs: SimInstant) -> Bool { lhs.milliseconds < rhs.milliseconds }

  /// Returns the instant `duration` later, saturating at `Int64`'s limits.
  public static func + (lhs: SimInstant, rhs: SimDuration) -> SimInstant {
    SimInstant(milliseconds: lhs.milliseconds.saturatingAdd(rhs.milliseconds))
  }

  /// Returns the instant `duration` earlier, saturating at `Int64`'s limits.
  public static func - (lhs: SimInstant, rhs: SimDuration) -> SimInstant {
    SimInstant(milliseconds: lhs.milliseconds.saturatingSubtract(rhs.milliseconds))
  }

  /// Returns the duration between two instants, saturating at `Int64`'s limits.
  public static func - (lhs: SimInstant, rhs: SimInstant) -> SimDuration {
    SimDuration(milliseconds: lhs.milliseconds.saturatingSubtract(rhs.milliseconds))
  }
}

/// A span of simulated time in milliseconds.
public struct SimDuration: Comparable, Hashable, Sendable, Codable {
  /// The length in milliseconds; may be negative.
  public var milliseconds: Int64

  /// Creates a duration from milliseconds.
  public init(milliseconds: Int64) { self.milliseconds = milliseconds }

  /// A duration of whole seconds, saturating at `Int64`'s limits.
  public static func seconds(_ value: Int64) -> SimDuration {
    SimDuration(milliseconds: value.saturatingMultiply(1000))
  }

  /// A duration of whole minutes, saturating at `Int64`'s limits.
  public static func minutes(_ value: Int64) -> SimDuration { .seconds(value.saturatingMultiply(60)) }

  /// A duration of whole hours, saturating at `Int64`'s limits.
  public static func hours(_ value: Int64) -> SimDuration { .minutes(value.saturatingMultiply(60)) }

  /// The span of `count` units of `unit` milliseconds each; nil when it overflows `Int64`.
  ///
  /// A span longer than ``EpochRange`` can never be added to an instant and stay in it, so
  /// callers usually follow this with ``SimInstant/adding(_:)``.
  public init?(exactly count: Int64, unitMilliseconds unit: Int64) {
    let (product, overflow) = count.multipliedReportingOverflow(by: unit)
    guard !overflow else { return nil }
    milliseconds = product
  }

  public static func < (lhs: SimDuration, rhs: SimDuration) -> Bool { lhs.milliseconds < rhs.milliseconds }
}

extension Int64 {
  /// `self + other`, at `Int64.max` or `Int64.min` instead of overflowing.
  func saturatingAdd(_ other: Int64) -> Int64 {
    let (sum, overflow) = addingReportingOverflow(other)
    return overflow ? (other > 0 ? .max : .min) : sum
  }

  /// `self - other`, at `Int64.max` or `Int64.min` instead of overflowing.
  func saturatingSubtract(_ other: Int64) -> Int64 {
    let (difference, overflow) = subtractingReportingOverflow(other)
    return overflow ? (other < 0 ? .max : .min) : difference
  }

  /// `self * other`, at `Int64.max` or `Int64.min` instead of overflowing.
  func saturatingMultiply(_ other: Int64) -> Int64 {
    let (product, overflow) = multipliedReportingOverflow(by: other)
    return overflow ? ((self < 0) == (other < 0) ? .max : .min) : product
  }
}

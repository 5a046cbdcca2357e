/// A point in simulated time: milliseconds since the Unix epoch.
///
/// The core never reads a clock; every instant is handed in. This is what makes replays,
/// goldens and end-to-end tests deterministic.
public struct SimInstant: Comparable, Hashable, Sendable, Codable {
  /// Milliseconds since 1970-01-01T00:00:00Z.
  public var milliseconds: Int64

  /// Creates an instant from milliseconds since the Unix epoch.
  public init(milliseconds: Int64) { self.milliseconds = milliseconds }

  /// Creates an instant from (possibly fractional) seconds since the Unix epoch.
  public init(epochSeconds: Double) { self.milliseconds = Int64((epochSeconds * 1000).rounded()) }

  /// Seconds since the Unix epoch.
  public var epochSeconds: Double { Double(milliseconds) / 1000 }

  public static func < (lhs: SimInstant, rhs: SimInstant) -> Bool { lhs.milliseconds < rhs.milliseconds }

  /// Returns the instant `duration` later.
  public static func + (lhs: SimInstant, rhs: SimDuration) -> SimInstant {
    SimInstant(milliseconds: lhs.milliseconds + rhs.milliseconds)
  }

  /// Returns the instant `duration` earlier.
  public static func - (lhs: SimInstant, rhs: SimDuration) -> SimInstant {
    SimInstant(milliseconds: lhs.milliseconds - rhs.milliseconds)
  }

  /// Returns the duration between two instants.
  public static func - (lhs: SimInstant, rhs: SimInstant) -> SimDuration {
    SimDuration(milliseconds: lhs.milliseconds - rhs.milliseconds)
  }
}

/// A span of simulated time in milliseconds.
public struct SimDuration: Comparable, Hashable, Sendable, Codable {
  /// The length in milliseconds; may be negative.
  public var milliseconds: Int64

  /// Creates a duration from milliseconds.
  public init(milliseconds: Int64) { self.milliseconds = milliseconds }

  /// A duration of whole seconds.
  public static func seconds(_ value: Int64) -> SimDuration { SimDuration(milliseconds: value * 1000) }

  /// A duration of whole minutes.
  public static func minutes(_ value: Int64) -> SimDuration { .seconds(value * 60) }

  /// A duration of whole hours.
  public static func hours(_ value: Int64) -> SimDuration { .minutes(value * 60) }

  public static func < (lhs: SimDuration, rhs: SimDuration) -> Bool { lhs.milliseconds < rhs.milliseconds }
}

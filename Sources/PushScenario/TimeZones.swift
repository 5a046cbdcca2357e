import Foundation
import PushCore

/// The time zones a profile names, looked up in the system's zone database (Foundation): the
/// one thing about time the Foundation-free core cannot do. Everything written about time —
/// instants, dates, durations, fixed offsets — is read by PushCore's ``TimeGrammar``.
enum TimeZones {
  /// The UTC offset of a time zone at an instant: a name Foundation knows (`Europe/Berlin`),
  /// or a fixed offset ``TimeGrammar/fixedOffset(_:)`` reads (`UTC`, `+01:00`).
  static func offset(ofZone name: String, at instant: SimInstant) -> Int? {
    if let fixed = TimeGrammar.fixedOffset(name) { return fixed }
    guard let zone = TimeZone(identifier: name) else { return nil }
    return zone.secondsFromGMT(for: Date(timeIntervalSince1970: instant.epochSeconds))
  }

  /// The instant of a local wall-clock time in a named zone (the offset that holds then).
  static func instant(ofLocal stamp: TimeGrammar.Stamp, inZone name: String) -> SimInstant? {
    TimeGrammar.instant(ofLocal: stamp) { offset(ofZone: name, at: $0) }
  }

  /// Whether a Foundation time zone has this name.
  static func isKnownZone(_ name: String) -> Bool {
    offset(ofZone: name, at: SimInstant(milliseconds: 0)) != nil
  }
}

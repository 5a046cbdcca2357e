import Foundation
import PushCore

/// Dates, times and durations as people write them in scenarios.
enum TimeText {
  /// A date and time as written (``TimeGrammar/Stamp``).
  typealias Stamp = TimeGrammar.Stamp

  /// Parses ISO 8601 and the short local form, with ``TimeGrammar/stamp(_:)``.
  static func stamp(_ text: String) -> Stamp? { TimeGrammar.stamp(text) }

  /// Parses a duration (`30s`, `+5m`, `1h30m`, `250ms`, `2d`, `0`) with
  /// ``TimeGrammar/duration(_:)``; nil when unreadable or too long.
  static func duration(_ text: String) -> SimDuration? { try? TimeGrammar.duration(text) }

  /// A duration as people read it: `1h 30m`, `45s`, `0s`.
  static func describe(_ duration: SimDuration) -> String {
    var seconds = duration.milliseconds / 1000
    guard seconds > 0 else { return "\(duration.milliseconds)ms" }
    var parts: [String] = []
    for (unit, size) in [("d", Int64(86_400)), ("h", 3600), ("m", 60), ("s", 1)] where seconds >= size {
      parts.append("\(seconds / size)\(unit)")
      seconds %= size
    }
    return parts.joined(separator: " ")
  }

  /// The UTC offset of a time zone at an instant: a name Foundation knows (`Europe/Berlin`),
  /// `UTC`, or a fixed offset `+01:00`.
  static func offset(ofZone name: String, at instant: SimInstant) -> Int? {
    if name == "UTC" || name == "Z" { return 0 }
    if let first = name.first, first == "+" || first == "-",
      let stamp = stamp("2000-01-01T00:00" + name), let offset = stamp.offset
    {
      return offset
    }
    guard let zone = TimeZone(identifier: name) else { return nil }
    return zone.secondsFromGMT(for: Date(timeIntervalSince1970: instant.epochSeconds))
  }

  /// The instant of a local wall-clock time in a named zone (the offset that holds then).
  static func instant(ofLocal stamp: Stamp, inZone name: String) -> SimInstant? {
    guard let first = offset(ofZone: name, at: stamp.localAsUTC) else { return nil }
    let guess = stamp.instant(fallbackOffset: first)
    guard let second = offset(ofZone: name, at: guess) else { return nil }
    return stamp.instant(fallbackOffset: second)
  }

  /// Whether a Foundation time zone has this name.
  static func isKnownZone(_ name: String) -> Bool {
    offset(ofZone: name, at: SimInstant(milliseconds: 0)) != nil
  }
}

import Foundation
import PushCore

/// Dates, times and durations as people write them in scenarios.
enum TimeText {
  /// A date and time as written: the instant it names at UTC, and its offset if it gave one.
  struct Stamp: Equatable {
    /// The wall-clock time read as if it were UTC.
    var localAsUTC: SimInstant
    /// The offset written after it (`Z` is 0), or nil for a local time.
    var offset: Int?

    /// The instant, using `offset` or else `fallbackOffset`.
    func instant(fallbackOffset: Int) -> SimInstant {
      localAsUTC - .seconds(Int64(offset ?? fallbackOffset))
    }
  }

  /// Parses ISO 8601 (`2026-11-23T09:45:00Z`, `2026-11-23T09:45:00.250+01:00`) and the short
  /// local form `2026-11-23 09:41` (seconds and offset optional; `T` or a space between).
  static func stamp(_ text: String) -> Stamp? {
    let scalars = Array(text.unicodeScalars)
    var index = 0
    func number(_ width: Int) -> Int? {
      guard index + width <= scalars.count else { return nil }
      var value = 0
      for scalar in scalars[index..<(index + width)] {
        guard scalar.isASCII, scalar.properties.numericType == .decimal, let digit = Int(String(scalar)) else {
          return nil
        }
        value = value * 10 + digit
      }
      index += width
      return value
    }
    func take(_ character: Character) -> Bool {
      guard index < scalars.count, Character(scalars[index]) == character else { return false }
      index += 1
      return true
    }
    guard let year = number(4), take("-"), let month = number(2), take("-"), let day = number(2),
      take("T") || take(" ") || take("t"), let hour = number(2), take(":"), let minute = number(2)
    else { return nil }
    var second = 0
    var millis = 0
    if take(":") {
      guard let value = number(2) else { return nil }
      second = value
      if take(".") || take(",") {
        var digits = 0
        var fraction = 0
        while index < scalars.count, scalars[index].isASCII, scalars[index].properties.numericType == .decimal,
          let digit = Int(String(scalars[index]))
        {
          if digits < 3 {
            fraction = fraction * 10 + digit
            digits += 1
          }
          index += 1
        }
        guard digits > 0 else { return nil }
        while digits < 3 {
          fraction *= 10
          digits += 1
        }
        millis = fraction
      }
    }
    guard (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day), (0...23).contains(hour),
      (0...59).contains(minute), (0...60).contains(second)
    else { return nil }
    var offset: Int?
    if take("Z") || take("z") {
      offset = 0
    } else if index < scalars.count, scalars[index] == "+" || scalars[index] == "-" {
      let sign = scalars[index] == "-" ? -1 : 1
      index += 1
      guard let offsetHours = number(2) else { return nil }
      _ = take(":")
      guard let offsetMinutes = number(2), offsetHours <= 18, offsetMinutes < 60 else { return nil }
      offset = sign * (offsetHours * 3600 + offsetMinutes * 60)
    }
    guard index == scalars.count else { return nil }
    let days = daysFromCivil(year: year, month: month, day: day)
    let seconds = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    return Stamp(localAsUTC: SimInstant(milliseconds: seconds * 1000 + Int64(millis)), offset: offset)
  }

  /// Parses a duration: `30s`, `+5m`, `1h30m`, `250ms`, `2d`, or `0`.
  static func duration(_ text: String) -> SimDuration? {
    var rest = Substring(text.trimmingCharacters(in: .whitespaces))
    if rest.first == "+" { rest = rest.dropFirst() }
    if rest == "0" { return SimDuration(milliseconds: 0) }
    guard !rest.isEmpty else { return nil }
    var total: Int64 = 0
    while !rest.isEmpty {
      let digits = rest.prefix { $0.isASCII && $0.isNumber }
      guard !digits.isEmpty, let value = Int64(digits) else { return nil }
      rest = rest.dropFirst(digits.count)
      let unit = rest.prefix { $0.isASCII && $0.isLetter }
      rest = rest.dropFirst(unit.count)
      let scale: Int64
      switch unit {
      case "ms": scale = 1
      case "s": scale = 1000
      case "m", "min": scale = 60_000
      case "h": scale = 3_600_000
      case "d": scale = 86_400_000
      default: return nil
      }
      let (product, overflow) = value.multipliedReportingOverflow(by: scale)
      let (sum, sumOverflow) = total.addingReportingOverflow(product)
      guard !overflow, !sumOverflow else { return nil }
      total = sum
    }
    return SimDuration(milliseconds: total)
  }

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

  private static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  /// Howard Hinnant's `days_from_civil`.
  private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }
}

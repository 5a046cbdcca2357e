/// The one grammar for the times people type: scenarios' `at:` and `after:`, `render --at` and
/// `--advance`, and the front end's "go to" prompt all read instants and durations here.
///
/// Instants:
/// - a time of day on the current local day: `09:45`, `9:45`, `08:00:30`, `08:00:30.250`;
/// - a date and time, ISO 8601: `2026-11-23T09:45:00Z`, `2026-11-23T09:45:00.250+01:00`, or
///   the short local form `2026-11-23 09:45` (no offset: the device's time zone);
/// - relative to now: `+0s`, `+5m`, `-30s`, `+1h30m`, `+250ms` (a duration without a sign,
///   `250ms`, counts forward).
///
/// Durations: one or more `<digits><unit>` with the units `d`, `h`, `m` (or `min`), `s` and
/// `ms` (`30s`, `1h30m`, `250ms`, `2d`), optionally after `+`, or `0`.
///
/// Every instant is checked against ``EpochRange``; nothing here traps on any input.
public enum TimeGrammar {
  /// The instant forms, as error messages list them.
  public static let instantForms =
    "09:45, 08:00:30, 2026-11-23T09:45:00Z, 2026-11-23 09:45, +0s, +1h30m, -30s or 250ms"
  /// The duration forms, as error messages list them.
  public static let durationForms = "30s, 5m, 1h30m or 250ms"

  /// Why a text is not a time.
  public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not in the grammar: the text and the forms that are.
    case unreadable(String, expected: String)
    /// In the grammar, but outside ``EpochRange`` (or too large to compute).
    case outOfRange(String)

    public var description: String {
      switch self {
      case .unreadable(let text, let expected): "“\(text)” is not a time: use \(expected)"
      case .outOfRange(let text): "“\(text)” is outside \(EpochRange.text), the time Pushdeck simulates"
      }
    }
  }

  /// A date and time as written: the instant it names read as UTC, and its offset if it gave one.
  public struct Stamp: Equatable, Sendable {
    /// The wall-clock time read as if it were UTC.
    public var localAsUTC: SimInstant
    /// The offset written after it (`Z` is 0), or nil for a local time.
    public var offset: Int?

    /// The instant, using `offset` or else `fallbackOffset`.
    public func instant(fallbackOffset: Int) -> SimInstant {
      localAsUTC - .seconds(Int64(offset ?? fallbackOffset))
    }
  }

  /// A wall-clock time of day: `9:45`, `08:00:30`, `08:00:30.250`.
  public struct ClockTime: Equatable, Sendable {
    public var hour: Int
    public var minute: Int
    public var second: Int
    public var millisecond: Int

    /// Milliseconds after midnight.
    public var millisecondsOfDay: Int64 {
      Int64(((hour * 60 + minute) * 60 + second) * 1000 + millisecond)
    }
  }

  // MARK: - Instants

  /// Reads an instant: a time of day on `now`'s local day, an ISO 8601 date and time, or a
  /// signed duration from `now`.
  ///
  /// - Parameters:
  ///   - text: what was typed; spaces around it are ignored.
  ///   - now: what relative times and times of day count from.
  ///   - utcOffsetSeconds: the device's offset, for times of day and dates without one.
  public static func instant(_ text: String, now: SimInstant, utcOffsetSeconds: Int) throws(Failure) -> SimInstant {
    let trimmed = trim(text)
    if let first = trimmed.first, first == "+" || first == "-" {
      let span: SimDuration
      do {
        span = try signedDuration(trimmed)
      } catch .unreadable {
        throw .unreadable(trimmed, expected: instantForms)
      }
      guard let target = now.adding(span) else { throw .outOfRange(trimmed) }
      return target
    }
    if let time = clockTime(trimmed) {
      let dayStart = now.startOfLocalDay(utcOffsetSeconds: utcOffsetSeconds)
      guard let target = SimInstant(exactlyMilliseconds: dayStart.milliseconds.saturatingAdd(time.millisecondsOfDay))
      else { throw .outOfRange(trimmed) }
      return target
    }
    if let stamp = stamp(trimmed) {
      let target = stamp.instant(fallbackOffset: utcOffsetSeconds)
      guard target.isInRange else { throw .outOfRange(trimmed) }
      return target
    }
    // A duration without a sign (`250ms`, `90s`) counts forward from now, as `+250ms` does.
    if let first = trimmed.first, first.isASCII, first.isNumber, trimmed.contains(where: \.isLetter) {
      let span: SimDuration
      do {
        span = try duration(trimmed)
      } catch .unreadable {
        throw .unreadable(trimmed, expected: instantForms)
      }
      guard let target = now.adding(span) else { throw .outOfRange(trimmed) }
      return target
    }
    throw .unreadable(trimmed, expected: instantForms)
  }

  /// Reads a time of day: `H:MM`, `HH:MM`, `HH:MM:SS` or `HH:MM:SS.fff`; nil otherwise.
  public static func clockTime(_ text: String) -> ClockTime? {
    var scanner = Scanner(trim(text))
    guard let hour = scanner.digits(1...2), scanner.take(":"), let minute = scanner.digits(2...2) else { return nil }
    var second = 0
    var millisecond = 0
    if scanner.take(":") {
      guard let value = scanner.digits(2...2) else { return nil }
      second = value
      if scanner.take(".") || scanner.take(",") {
        guard let fraction = scanner.fraction() else { return nil }
        millisecond = fraction
      }
    }
    guard scanner.isAtEnd, (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second) else {
      return nil
    }
    return ClockTime(hour: hour, minute: minute, second: second, millisecond: millisecond)
  }

  /// Reads ISO 8601 (`2026-11-23T09:45:00Z`, `2026-11-23T09:45:00.250+01:00`) and the short
  /// local form `2026-11-23 09:41` (seconds and offset optional; `T` or a space between); nil
  /// otherwise. Years are four digits, so every stamp lies within 0000…9999.
  public static func stamp(_ text: String) -> Stamp? {
    var scanner = Scanner(trim(text))
    guard let year = scanner.digits(4...4), scanner.take("-"), let month = scanner.digits(2...2), scanner.take("-"),
      let day = scanner.digits(2...2), scanner.take("T") || scanner.take(" ") || scanner.take("t"),
      let hour = scanner.digits(2...2), scanner.take(":"), let minute = scanner.digits(2...2)
    else { return nil }
    var second = 0
    var millis = 0
    if scanner.take(":") {
      guard let value = scanner.digits(2...2) else { return nil }
      second = value
      if scanner.take(".") || scanner.take(",") {
        guard let fraction = scanner.fraction() else { return nil }
        millis = fraction
      }
    }
    guard (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day), (0...23).contains(hour),
      (0...59).contains(minute), (0...60).contains(second)
    else { return nil }
    var offset: Int?
    if scanner.take("Z") || scanner.take("z") {
      offset = 0
    } else if let sign = scanner.sign() {
      guard let offsetHours = scanner.digits(2...2) else { return nil }
      _ = scanner.take(":")
      guard let offsetMinutes = scanner.digits(2...2), offsetHours <= 18, offsetMinutes < 60 else { return nil }
      offset = sign * (offsetHours * 3600 + offsetMinutes * 60)
    }
    guard scanner.isAtEnd else { return nil }
    let days = daysFromCivil(year: year, month: month, day: day)
    let seconds = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    return Stamp(localAsUTC: SimInstant(milliseconds: seconds * 1000 + Int64(millis)), offset: offset)
  }

  // MARK: - Time zones

  /// A fixed UTC offset as a time zone value writes it: `UTC` or `Z` (0), or `+01:00`, `-0530`
  /// (the offsets ``stamp(_:)`` reads), in seconds; nil for anything else, such as a zone name.
  public static func fixedOffset(_ name: String) -> Int? {
    if name == "UTC" || name == "Z" { return 0 }
    guard let first = name.first, first == "+" || first == "-" else { return nil }
    return stamp("2000-01-01T00:00" + name)?.offset
  }

  /// The instant of a local wall-clock time in a zone whose offset changes (daylight saving
  /// time): the offset at the time read as UTC gives a first guess, and the offset that holds at
  /// that guess gives the instant. Nil when the zone gives no offset.
  ///
  /// - Parameter offsetAt: the zone's UTC offset in seconds at an instant.
  public static func instant(ofLocal stamp: Stamp, offsetAt: (SimInstant) -> Int?) -> SimInstant? {
    guard let first = offsetAt(stamp.localAsUTC) else { return nil }
    let guess = stamp.instant(fallbackOffset: first)
    guard let second = offsetAt(guess) else { return nil }
    return stamp.instant(fallbackOffset: second)
  }

  // MARK: - Durations

  /// Reads a duration that cannot be negative: `30s`, `+5m`, `1h30m`, `250ms`, `2d`, `0`.
  public static func duration(_ text: String) throws(Failure) -> SimDuration {
    let trimmed = trim(text)
    guard trimmed.first != "-" else { throw .unreadable(trimmed, expected: durationForms) }
    return try signedDuration(trimmed)
  }

  /// Reads a duration with an optional sign: `-30s`, `+1h30m`, `250ms`, `0`.
  public static func signedDuration(_ text: String) throws(Failure) -> SimDuration {
    let trimmed = trim(text)
    var rest = Substring(trimmed)
    var sign: Int64 = 1
    if rest.first == "+" {
      rest = rest.dropFirst()
    } else if rest.first == "-" {
      sign = -1
      rest = rest.dropFirst()
    }
    if rest == "0" { return SimDuration(milliseconds: 0) }
    guard !rest.isEmpty else { throw .unreadable(trimmed, expected: durationForms) }
    // Milliseconds; nil once they overflow (read to the end, to tell a typo from a huge span).
    var total: Int64? = 0
    while !rest.isEmpty {
      let digits = rest.prefix { $0.isASCII && $0.isNumber }
      guard !digits.isEmpty else { throw .unreadable(trimmed, expected: durationForms) }
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
      default: throw .unreadable(trimmed, expected: durationForms)
      }
      guard let sum = total, let value = Int64(digits) else {
        total = nil
        continue
      }
      let (product, overflow) = value.multipliedReportingOverflow(by: scale)
      let (next, sumOverflow) = sum.addingReportingOverflow(product)
      total = overflow || sumOverflow ? nil : next
    }
    guard let total else { throw .outOfRange(trimmed) }
    return SimDuration(milliseconds: sign * total)
  }

  // MARK: - Helpers

  private static func trim(_ text: String) -> String {
    String(text.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
  }

  static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  /// Howard Hinnant's `days_from_civil`.
  static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// Reads ASCII text left to right.
  private struct Scanner {
    var scalars: [Unicode.Scalar]
    var index = 0

    init(_ text: String) { scalars = Array(text.unicodeScalars) }

    var isAtEnd: Bool { index == scalars.count }

    private func digit(at position: Int) -> Int? {
      guard position < scalars.count else { return nil }
      let value = scalars[position].value
      return (48...57).contains(value) ? Int(value - 48) : nil
    }

    /// A number of `widths` ASCII digits (as many as there are, up to the most).
    mutating func digits(_ widths: ClosedRange<Int>) -> Int? {
      var count = 0
      var value = 0
      while count < widths.upperBound, let digit = digit(at: index + count) {
        value = value * 10 + digit
        count += 1
      }
      guard widths.contains(count) else { return nil }
      index += count
      return value
    }

    /// Fractional digits as milliseconds (at least one digit; digits past the third are read
    /// and dropped).
    mutating func fraction() -> Int? {
      var digits = 0
      var value = 0
      while let digit = digit(at: index) {
        if digits < 3 {
          value = value * 10 + digit
          digits += 1
        }
        index += 1
      }
      guard digits > 0 else { return nil }
      while digits < 3 {
        value *= 10
        digits += 1
      }
      return value
    }

    mutating func take(_ character: Unicode.Scalar) -> Bool {
      guard index < scalars.count, scalars[index] == character else { return false }
      index += 1
      return true
    }

    mutating func sign() -> Int? {
      if take("+") { return 1 }
      if take("-") { return -1 }
      return nil
    }
  }
}

extension SimInstant {
  /// The local midnight that starts this instant's day at a UTC offset: the one definition
  /// behind times of day (`09:45`), Scheduled Summary times and the clock. Saturating, so an
  /// instant outside ``EpochRange`` gives a wrong day, never a trap.
  public func startOfLocalDay(utcOffsetSeconds: Int) -> SimInstant {
    let offset = Int64(utcOffsetSeconds).saturatingMultiply(1000)
    let local = milliseconds.saturatingAdd(offset)
    let dayStart = local.floorDivided(by: 86_400_000).saturatingMultiply(86_400_000)
    return SimInstant(milliseconds: dayStart.saturatingSubtract(offset))
  }
}

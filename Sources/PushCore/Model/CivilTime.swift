/// A calendar date and wall-clock time, computed without Foundation.
///
/// Used to show the simulated clock on the lock screen. The conversion is Howard Hinnant's
/// `civil_from_days` algorithm, exact for the proleptic Gregorian calendar.
public struct CivilTime: Equatable, Sendable {
  public var year: Int
  /// 1...12
  public var month: Int
  /// 1...31
  public var day: Int
  /// 0...23
  public var hour: Int
  /// 0...59
  public var minute: Int
  /// 0...59
  public var second: Int
  /// 0 = Sunday ... 6 = Saturday
  public var weekday: Int

  /// Breaks an instant into local calendar fields at a fixed UTC offset.
  ///
  /// - Parameters:
  ///   - instant: the simulated instant.
  ///   - utcOffsetSeconds: the time zone's offset from UTC at that instant.
  public init(_ instant: SimInstant, utcOffsetSeconds: Int = 0) {
    let totalSeconds = instant.milliseconds.floorDivided(by: 1000) + Int64(utcOffsetSeconds)
    let days = totalSeconds.floorDivided(by: 86_400)
    let secondsOfDay = Int(totalSeconds - days * 86_400)
    hour = secondsOfDay / 3600
    minute = (secondsOfDay % 3600) / 60
    second = secondsOfDay % 60
    // 1970-01-01 was a Thursday (weekday 4).
    weekday = Int((days + 4).floorModulo(7))
    let z = days + 719_468
    let era = z.floorDivided(by: 146_097)
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthPrime = (5 * dayOfYear + 2) / 153
    day = Int(dayOfYear - (153 * monthPrime + 2) / 5 + 1)
    month = Int(monthPrime < 10 ? monthPrime + 3 : monthPrime - 9)
    year = Int(yearOfEra + era * 400 + (month <= 2 ? 1 : 0))
  }

  /// English weekday names, Sunday first.
  public static let weekdayNames = [
    "Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday",
  ]
  /// English month names, January first.
  public static let monthNames = [
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December",
  ]

  /// The lock screen's date line, for example "Monday, November 23".
  public var lockScreenDate: String {
    "\(Self.weekdayNames[weekday]), \(Self.monthNames[month - 1]) \(day)"
  }

  /// The lock screen's clock, 24-hour, for example "9:41".
  public var clock: String {
    "\(hour):\(minute < 10 ? "0" : "")\(minute)"
  }

  /// ISO 8601 with the offset, for example `2026-11-23T09:41:00Z` or `...+01:00`.
  public static func iso8601(_ instant: SimInstant, utcOffsetSeconds: Int = 0) -> String {
    let t = CivilTime(instant, utcOffsetSeconds: utcOffsetSeconds)
    let millis = Int(instant.milliseconds.floorModulo(1000))
    let offsetHours = utcOffsetSeconds.magnitude / 3600
    // Written digit by digit into one buffer (explain writes two a push); the general form
    // below for a year or offset that does not fit the usual widths.
    if (0...9999).contains(t.year), offsetHours < 100 {
      return String(unsafeUninitializedCapacity: 29) { buffer in
        var count = 0
        func put(_ byte: UInt8) {
          buffer[count] = byte
          count += 1
        }
        func digits(_ value: Int, _ width: Int) {
          var divisor = 1
          for _ in 1..<width { divisor *= 10 }
          var rest = value
          while divisor > 0 {
            put(UInt8(truncatingIfNeeded: 0x30 + rest / divisor))
            rest %= divisor
            divisor /= 10
          }
        }
        digits(t.year, 4)
        put(0x2D)
        digits(t.month, 2)
        put(0x2D)
        digits(t.day, 2)
        put(0x54)
        digits(t.hour, 2)
        put(0x3A)
        digits(t.minute, 2)
        put(0x3A)
        digits(t.second, 2)
        if millis != 0 {
          put(0x2E)
          digits(millis, 3)
        }
        if utcOffsetSeconds == 0 {
          put(0x5A)
        } else {
          put(utcOffsetSeconds < 0 ? 0x2D : 0x2B)
          digits(Int(offsetHours), 2)
          put(0x3A)
          digits(Int(utcOffsetSeconds.magnitude % 3600) / 60, 2)
        }
        return count
      }
    }
    func pad(_ value: Int, _ width: Int = 2) -> String {
      let text = String(value)
      return String(repeating: "0", count: max(0, width - text.count)) + text
    }
    var text = "\(pad(t.year, 4))-\(pad(t.month))-\(pad(t.day))T\(pad(t.hour)):\(pad(t.minute)):\(pad(t.second))"
    if millis != 0 { text += "." + pad(millis, 3) }
    if utcOffsetSeconds == 0 {
      text += "Z"
    } else {
      let sign = utcOffsetSeconds < 0 ? "-" : "+"
      let magnitude = abs(utcOffsetSeconds)
      text += "\(sign)\(pad(magnitude / 3600)):\(pad((magnitude % 3600) / 60))"
    }
    return text
  }
}

extension Int64 {
  /// Division rounding towards negative infinity.
  func floorDivided(by divisor: Int64) -> Int64 {
    let quotient = self / divisor
    return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
  }

  /// The remainder of ``floorDivided(by:)``, always in `0..<divisor` for a positive divisor.
  func floorModulo(_ divisor: Int64) -> Int64 {
    self - floorDivided(by: divisor) * divisor
  }
}

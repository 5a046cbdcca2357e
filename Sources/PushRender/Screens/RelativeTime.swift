import PushCore

/// Short relative times as the lock screen shows them: "now", "3m ago", "2h ago", "5d ago".
public enum RelativeTime {
  /// Describes how long before `now` an instant was; future instants read as "now".
  public static func describe(_ instant: SimInstant, now: SimInstant) -> String {
    let seconds = (now - instant).milliseconds / 1000
    if seconds < 60 { return "now" }
    if seconds < 3600 { return "\(seconds / 60)m ago" }
    if seconds < 86_400 { return "\(seconds / 3600)h ago" }
    return "\(seconds / 86_400)d ago"
  }

  /// Like ``describe(_:now:)``, but a future instant reads "in 18 min", "in 2 h", "in 3 d"
  /// (a Live Activity's arrival time).
  public static func describeEither(_ instant: SimInstant, now: SimInstant) -> String {
    let seconds = (instant - now).milliseconds / 1000
    guard seconds >= 60 else { return describe(instant, now: now) }
    if seconds < 3600 { return "in \(seconds / 60) min" }
    if seconds < 86_400 { return "in \(seconds / 3600) h" }
    return "in \(seconds / 86_400) d"
  }

  /// The shortest form, for a Live Activity's compact view in the Dynamic Island: "18m", "2h",
  /// "3d", "now", either side of `now` (as SwiftUI's `Text(_:style: .relative)` counts both
  /// ways). The island's trailing side has room for three or four characters.
  public static func compact(_ instant: SimInstant, now: SimInstant) -> String {
    let seconds = abs((instant - now).milliseconds / 1000)
    if seconds < 60 { return "now" }
    if seconds < 3600 { return "\(seconds / 60)m" }
    if seconds < 86_400 { return "\(seconds / 3600)h" }
    return "\(seconds / 86_400)d"
  }
}

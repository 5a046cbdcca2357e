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
}

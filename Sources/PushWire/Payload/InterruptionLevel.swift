/// How strongly a notification may interrupt the user (`aps.interruption-level`, iOS 15+).
///
/// The raw values are the wire spellings. An absent key means ``active``.
public enum InterruptionLevel: String, Sendable, CaseIterable, Comparable, Codable {
  /// Added to Notification Center only: no sound, no banner, the screen stays dark.
  case passive
  /// The default: may sound and show a banner.
  case active
  /// Breaks through Focus (when allowed) and Scheduled Summary.
  case timeSensitive = "time-sensitive"
  /// Always sounds, breaks through Do Not Disturb and the mute switch.
  case critical

  /// The numeric rank used for ordering, matching `UNNotificationInterruptionLevel`'s raw values.
  public var rank: Int {
    switch self {
    case .passive: 0
    case .active: 1
    case .timeSensitive: 2
    case .critical: 3
    }
  }

  public static func < (lhs: InterruptionLevel, rhs: InterruptionLevel) -> Bool {
    lhs.rank < rhs.rank
  }
}

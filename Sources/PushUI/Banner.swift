import PushCore

/// A banner the policy asked for: queued, shown one at a time at the top of any screen.
public struct Banner: Equatable, Sendable {
  /// How long a temporary banner stays on screen.
  public static let temporaryDuration = SimDuration.seconds(5)
  /// The most banners kept waiting: a burst keeps its newest (the rest are in Notification
  /// Center), so a capture of a million pushes never queues a million banners.
  public static let queueLimit = 16

  /// The notification shown.
  public var notification: NotificationID
  /// When it arrived.
  public var arrivedAt: SimInstant
  /// Persistent banners stay until acted on (Settings ▸ Banner Style).
  public var isPersistent: Bool
  /// When it reached the front of the queue, once it has.
  public var shownAt: SimInstant?
  /// The real time (``AppState/wallElapsed``) at which it was first seen at the front, for
  /// leaving on the wall clock while the simulated clock is paused or manual.
  public var wallShownAt: SimDuration?
  /// A Live Activity's banner: the activity is not in Notification Center, so the banner does
  /// not leave with a notification.
  public var isLiveActivity: Bool
  /// What the banner shows when the store does not hold it: a Live Activity's push, or a
  /// notification whose app has Notification Center off (nil for other banners, which show the
  /// stored notification). Kept with the banner, so that a device need not keep every delivery
  /// record for the banners to find theirs.
  public var carriedContent: PushNotification?

  /// Creates a queued banner.
  public init(
    notification: NotificationID, arrivedAt: SimInstant, isPersistent: Bool, shownAt: SimInstant? = nil,
    isLiveActivity: Bool = false, carriedContent: PushNotification? = nil
  ) {
    self.notification = notification
    self.arrivedAt = arrivedAt
    self.isPersistent = isPersistent
    self.shownAt = shownAt
    self.isLiveActivity = isLiveActivity
    self.carriedContent = carriedContent
  }

  /// When a temporary banner leaves, once shown; nil for persistent ones.
  public var expiresAt: SimInstant? {
    guard !isPersistent else { return nil }
    return (shownAt ?? arrivedAt) + Self.temporaryDuration
  }
}

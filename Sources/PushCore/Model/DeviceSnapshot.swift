/// Everything a screen needs to know about the simulated device at one instant.
///
/// This is the hand-off between the device simulation and the front end: the front end draws
/// a snapshot and never reaches back into the simulation.
public struct DeviceSnapshot: Equatable, Sendable {
  /// The simulated now.
  public var now: SimInstant
  /// The time zone's offset from UTC, in seconds.
  public var utcOffsetSeconds: Int
  /// Whether the phone is locked.
  public var isLocked: Bool
  /// The name of the active Focus (for example "Do Not Disturb"), if any.
  public var activeFocus: String?
  /// The installed apps by bundle id.
  public var apps: [String: AppInfo]
  /// Delivered notifications, oldest first.
  public var notifications: [PushNotification]

  /// Creates a snapshot.
  public init(
    now: SimInstant, utcOffsetSeconds: Int = 0, isLocked: Bool = true, activeFocus: String? = nil,
    apps: [String: AppInfo] = [:], notifications: [PushNotification] = []
  ) {
    self.now = now
    self.utcOffsetSeconds = utcOffsetSeconds
    self.isLocked = isLocked
    self.activeFocus = activeFocus
    self.apps = apps
    self.notifications = notifications
  }

  /// The app description for a bundle id, inferred when the app is unknown.
  public func app(_ bundleID: String) -> AppInfo {
    apps[bundleID] ?? AppInfo.inferred(from: bundleID)
  }
}

/// What a durable journal remembers of a simulated device: enough to rebuild a
/// ``DeviceSimulator`` with the same Notification Center, badges, Live Activities and
/// engagement, with ``DeviceSimulator/init(profile:restoring:)``.
///
/// A plain value: the core knows nothing about where it was stored.
public struct RestoredDevice: Equatable, Sendable {
  /// The device's clock, lock, Focus and lock-screen display when it was last saved.
  public struct State: Equatable, Sendable {
    /// The simulated time.
    public var now: SimInstant
    /// Whether the phone is locked.
    public var isLocked: Bool
    /// The Focus that is on, by id.
    public var activeFocusID: String?
    /// Settings ▸ Notifications ▸ Display As, nil where not saved (a state from before it was).
    public var lockScreenDisplay: LockScreenDisplay?

    /// Creates a device state.
    public init(
      now: SimInstant, isLocked: Bool, activeFocusID: String?, lockScreenDisplay: LockScreenDisplay? = nil
    ) {
      self.now = now
      self.isLocked = isLocked
      self.activeFocusID = activeFocusID
      self.lockScreenDisplay = lockScreenDisplay
    }
  }

  /// A change to one app's settings, in the order it was made.
  public struct SettingChange: Equatable, Sendable {
    /// The app.
    public var bundleID: String
    /// The change.
    public var change: AppSettingChange

    /// Creates a setting change.
    public init(bundleID: String, change: AppSettingChange) {
      self.bundleID = bundleID
      self.change = change
    }
  }

  /// The notifications in Notification Center (held ones included), in delivery order.
  public var notifications: [StoredNotification]
  /// Taps and dismissals per app.
  public var engagement: [String: Engagement]
  /// Badge numbers per app (absent means no badge).
  public var badges: [String: Int]
  /// The Live Activities on the lock screen.
  public var liveActivities: [LiveActivity]
  /// Setting changes since the profile, oldest first.
  public var settingChanges: [SettingChange]
  /// The clock, lock and Focus, when any was saved.
  public var state: State?
  /// When the journal's last delivery or event happened, if it holds any: a floor for the
  /// restored clock when ``state`` is missing or older (a state written before the clock was
  /// saved with every batch).
  public var latestActivity: SimInstant?
  /// The next notification id to hand out.
  public var nextNotificationID: Int
  /// How many pushes the device has received (the next delivery record's index).
  public var deliveryCount: Int
  /// When each app's silent pushes woke it in the hour before the saved time, oldest first: the
  /// background budget a restored device goes on counting against.
  public var silentPushes: [String: [SimInstant]] = [:]
  /// The broadcast channels, oldest first (schema version 6).
  public var channels: [BroadcastChannel] = []

  /// The simulated time the device resumes at: the saved clock, never earlier than the last
  /// delivery or event the journal holds; nil when it remembers neither.
  public var clock: SimInstant? {
    switch (state?.now, latestActivity) {
    case (let saved?, let latest?): max(saved, latest)
    case (let saved?, nil): saved
    case (nil, let latest?): latest
    case (nil, nil): nil
    }
  }

  /// Creates a remembered device; everything defaults to empty.
  public init(
    notifications: [StoredNotification] = [], engagement: [String: Engagement] = [:],
    badges: [String: Int] = [:],
    liveActivities: [LiveActivity] = [], settingChanges: [SettingChange] = [], state: State? = nil,
    nextNotificationID: Int = 1, deliveryCount: Int = 0, latestActivity: SimInstant? = nil
  ) {
    self.notifications = notifications
    self.engagement = engagement
    self.badges = badges
    self.liveActivities = liveActivities
    self.settingChanges = settingChanges
    self.state = state
    self.nextNotificationID = nextNotificationID
    self.deliveryCount = deliveryCount
    self.latestActivity = latestActivity
  }
}

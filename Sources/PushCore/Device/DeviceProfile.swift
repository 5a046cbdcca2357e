/// A time of day, for Scheduled Summary deliveries.
public struct TimeOfDay: Comparable, Hashable, Sendable, CustomStringConvertible {
  /// Minutes after midnight, 0..<1440.
  public var minutes: Int

  public init(hour: Int, minute: Int) { minutes = hour * 60 + minute }

  /// Parses `8:00` or `18:30` (``TimeGrammar/clockTime(_:)`` without seconds).
  public init?(_ text: String) {
    guard let time = TimeGrammar.clockTime(text), time.second == 0, time.millisecond == 0, !text.contains(".") else {
      return nil
    }
    self.init(hour: time.hour, minute: time.minute)
  }

  public static func < (lhs: TimeOfDay, rhs: TimeOfDay) -> Bool { lhs.minutes < rhs.minutes }

  public var description: String {
    "\(minutes / 60):\(minutes % 60 < 10 ? "0" : "")\(minutes % 60)"
  }
}

/// Taps and dismissals of an app's notifications, which feed the ranking.
public struct Engagement: Equatable, Sendable {
  public var taps: Int
  public var dismissals: Int

  public init(taps: Int = 0, dismissals: Int = 0) {
    self.taps = taps
    self.dismissals = dismissals
  }

  /// A score from -0.5 (always dismissed) to +0.5 (always opened); 0 without history.
  public var score: Double {
    // In doubles: counts read from a file may be large enough for `taps + dismissals` to overflow.
    let taps = Double(max(0, self.taps))
    return (taps + 1) / (taps + Double(max(0, dismissals)) + 2) - 0.5
  }
}

/// How the lock screen shows notifications (Settings ▸ Notifications ▸ Display As, iOS 16+).
public enum LockScreenDisplay: String, Sendable, CaseIterable, Codable {
  /// Only "N Notifications" at the bottom.
  case count
  /// Piled cards, newest in front (iOS's default).
  case stack
  /// Every stack as its own card (the look before iOS 16).
  case list

  /// The word the Settings app shows.
  public var title: String {
    switch self {
    case .count: "Count"
    case .stack: "Stack"
    case .list: "List"
    }
  }
}

/// Everything that describes the simulated phone before the timeline starts.
public struct DeviceProfile: Equatable, Sendable {
  /// The simulated start.
  public var start: SimInstant
  /// The time zone's name, for display (for example `Europe/Berlin`).
  public var timeZoneName: String
  /// The time zone's offset from UTC at the start, in seconds.
  public var utcOffsetSeconds: Int
  /// Whether the phone starts locked.
  public var isLocked: Bool
  /// Whether the Ring/Silent switch is on silent.
  public var isSilentMode: Bool
  /// The installed apps, in the order the profile lists them.
  public var apps: [AppProfile]
  /// Whether a bundle the profile does not list is treated as an installed, authorized app with
  /// iOS's default settings (the default profile does this).
  public var installsUnknownApps: Bool
  /// How an app installed on demand (``installsUnknownApps``) is authorized: iOS's default for
  /// an app the user allowed, unless a preset asks for another (`--compare provisional`).
  public var unknownAppAuthorization = AuthorizationStatus.authorized
  /// How an app installed on demand delivers: at once, unless a preset asks for the Scheduled
  /// Summary (`--compare summary`), so the presets reach a capture's apps as well as listed ones.
  public var unknownAppDelivery = DeliverySetting.immediate
  /// The Focus modes the user has set up.
  public var focusModes: [FocusMode]
  /// The Focus that is on at the start, by id.
  public var activeFocusID: String?
  /// Scheduled Summary delivery times, in local time; empty when the summary is off.
  public var summaryTimes: [TimeOfDay]
  /// How many silent pushes per app per hour the system lets through.
  public var silentPushesPerHour: Int
  /// Past engagement per app.
  public var engagement: [String: Engagement]
  /// How the lock screen shows notifications (Display As). iOS's default is Stack; Pushdeck
  /// starts in List so every stack is in view (see DECISIONS.md), and a profile may say stack.
  public var lockScreenDisplay = LockScreenDisplay.list
  /// Where the user's responses (actions, taps, dismissals) go, in the order the profile lists them.
  public var handlers: [HandlerBinding] = []
  /// The most notifications Notification Center holds; past it the oldest is removed to make
  /// room (``ReasonCode/notificationCenterFull``). iOS documents no number; see DECISIONS.md.
  public var maxStoredNotifications = DeviceProfile.defaultMaxStoredNotifications
  /// A million: a replay of the largest benchmark capture (800,000 stored) stays under it, and
  /// a full store stays within about 650 MiB.
  public static let defaultMaxStoredNotifications = 1_000_000

  public init(
    start: SimInstant, timeZoneName: String = "UTC", utcOffsetSeconds: Int = 0, isLocked: Bool = false,
    isSilentMode: Bool = false, apps: [AppProfile] = [], installsUnknownApps: Bool = true,
    focusModes: [FocusMode] = [.doNotDisturb, .sleep], activeFocusID: String? = nil,
    summaryTimes: [TimeOfDay] = [], silentPushesPerHour: Int = 3, engagement: [String: Engagement] = [:]
  ) {
    self.start = start
    self.timeZoneName = timeZoneName
    self.utcOffsetSeconds = utcOffsetSeconds
    self.isLocked = isLocked
    self.isSilentMode = isSilentMode
    self.apps = apps
    self.installsUnknownApps = installsUnknownApps
    self.focusModes = focusModes
    self.activeFocusID = activeFocusID
    self.summaryTimes = summaryTimes
    self.silentPushesPerHour = silentPushesPerHour
    self.engagement = engagement
  }

  /// The profile `explain` uses without `--profile`: every bundle it meets is an installed,
  /// authorized app with iOS's defaults, in the background, on an unlocked phone with no Focus.
  public static func standard(start: SimInstant) -> DeviceProfile {
    DeviceProfile(start: start)
  }

  /// The app with this bundle id, or a default one when unknown apps are installed on demand.
  public func app(_ bundleID: String) -> AppProfile? {
    if let app = apps.first(where: { $0.bundleID == bundleID }) { return app }
    guard installsUnknownApps else { return nil }
    var app = AppProfile(info: .inferred(from: bundleID), authorization: unknownAppAuthorization)
    if unknownAppDelivery != .immediate { app.settings.delivery = unknownAppDelivery }
    return app
  }
}

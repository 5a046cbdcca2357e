/// Whether the user allowed an app's notifications (`UNAuthorizationStatus`).
public enum AuthorizationStatus: String, Sendable, CaseIterable, Codable {
  /// Never asked: nothing is shown.
  case notDetermined
  /// Turned off: APNs drops visible pushes.
  case denied
  /// Shown according to the app's settings.
  case authorized
  /// Trial quiet delivery: Notification Center only, with Keep… and Turn Off.
  case provisional
  /// App Clips: allowed for 8 hours after each launch.
  case ephemeral
}

/// Temporary banners leave after a few seconds; persistent ones stay until acted on.
public enum BannerStyle: String, Sendable, CaseIterable, Codable {
  case temporary, persistent
}

/// When the notification's content shows (Settings ▸ Notifications ▸ Show Previews).
public enum PreviewSetting: String, Sendable, CaseIterable, Codable {
  case always, whenUnlocked, never
}

/// How an app's notifications are grouped (Settings ▸ Notifications ▸ app ▸ Notification Grouping).
public enum GroupingSetting: String, Sendable, CaseIterable, Codable {
  /// By app, split by `thread-id`.
  case automatic
  /// One group per app; `thread-id` ignored.
  case byApp
  /// No grouping.
  case off
}

/// Immediate delivery or the Scheduled Summary.
public enum DeliverySetting: String, Sendable, CaseIterable, Codable {
  case immediate, scheduledSummary
}

/// The per-app notification settings, with iOS's defaults.
public struct AppNotificationSettings: Equatable, Sendable {
  public var lockScreen = true
  public var notificationCenter = true
  public var banners = true
  public var bannerStyle = BannerStyle.temporary
  public var sounds = true
  public var badges = true
  public var showPreviews = PreviewSetting.whenUnlocked
  public var grouping = GroupingSetting.automatic
  public var timeSensitive = true
  public var criticalAlerts = true
  public var directMessages = true
  public var delivery = DeliverySetting.immediate

  /// iOS's defaults for a newly authorized app.
  public init() {}
}

/// Whether an app is running, as the system sees it.
public enum AppRunState: String, Sendable, CaseIterable, Codable {
  case foreground, background, notRunning, forceQuit
}

/// What an app's `willPresent` returns while it is in the foreground.
public struct PresentationOptions: OptionSet, Sendable, Hashable {
  public let rawValue: Int
  public init(rawValue: Int) { self.rawValue = rawValue }
  public static let badge = PresentationOptions(rawValue: 1 << 0)
  public static let sound = PresentationOptions(rawValue: 1 << 1)
  public static let list = PresentationOptions(rawValue: 1 << 3)
  public static let banner = PresentationOptions(rawValue: 1 << 4)
  /// Names as written in profiles.
  public static let names: [(String, PresentationOptions)] = [
    ("badge", .badge), ("sound", .sound), ("list", .list), ("banner", .banner),
  ]
}

/// `UNNotificationActionOptions`.
public struct ActionOptions: OptionSet, Sendable, Hashable {
  public let rawValue: Int
  public init(rawValue: Int) { self.rawValue = rawValue }
  public static let authenticationRequired = ActionOptions(rawValue: 1 << 0)
  public static let destructive = ActionOptions(rawValue: 1 << 1)
  public static let foreground = ActionOptions(rawValue: 1 << 2)
}

/// A button on a notification (`UNNotificationAction` or `UNTextInputNotificationAction`).
public struct NotificationAction: Equatable, Sendable {
  public var identifier: String
  public var title: String
  public var options: ActionOptions
  /// Set for a text-input action: the send button's title.
  public var textInputButtonTitle: String?
  /// The reply field's placeholder.
  public var textInputPlaceholder: String?

  public init(
    identifier: String, title: String, options: ActionOptions = [], textInputButtonTitle: String? = nil,
    textInputPlaceholder: String? = nil
  ) {
    self.identifier = identifier
    self.title = title
    self.options = options
    self.textInputButtonTitle = textInputButtonTitle
    self.textInputPlaceholder = textInputPlaceholder
  }

  /// Whether the action opens a reply field.
  public var isTextInput: Bool { textInputButtonTitle != nil }
}

/// `UNNotificationCategoryOptions`.
public struct CategoryOptions: OptionSet, Sendable, Hashable {
  public let rawValue: Int
  public init(rawValue: Int) { self.rawValue = rawValue }
  public static let customDismissAction = CategoryOptions(rawValue: 1 << 0)
  public static let hiddenPreviewsShowTitle = CategoryOptions(rawValue: 1 << 2)
  public static let hiddenPreviewsShowSubtitle = CategoryOptions(rawValue: 1 << 3)
}

/// A format with `%u` and its plural forms, as an app's `.stringsdict` gives them: `one` for
/// a count of 1, `other` for every other count. A plain string is used for every count.
public struct PluralFormat: Equatable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
  /// The form for 1, if the app gives one.
  public var one: String?
  /// The form for every other count.
  public var other: String

  public init(one: String? = nil, other: String) {
    self.one = one
    self.other = other
  }

  public init(stringLiteral value: String) { self.init(other: value) }

  /// The form for a count, read as iOS reads a `.stringsdict` or `categorySummaryFormat`
  /// format with the count as its one argument (docs/DECISIONS.md, "Summary format
  /// placeholders"): an integer conversion (`%u`, `%d`, `%i`, with a length such as `%lu` or
  /// `%ld`, or as the first argument, `%1$u`) is the count and `%%` is `%`. Anything else
  /// stays as written: `%@` (the summary argument, which iOS 15 and later ignore, so there is
  /// none), a second argument (`%2$u`), another conversion, or a lone `%`.
  public func format(_ count: Int) -> String {
    let form = Array((count == 1 ? (one ?? other) : other).unicodeScalars)
    var result = String.UnicodeScalarView()
    var index = 0
    while index < form.count {
      let scalar = form[index]
      index += 1
      guard scalar == "%" else {
        result.append(scalar)
        continue
      }
      var end = index
      if end < form.count, form[end] == "%" {
        result.append("%")
        index = end + 1
        continue
      }
      // An argument's position, `1$`: the count is the only argument, so only 1 is it.
      var isCount = true
      var digits = end
      while digits < form.count, ("0"..."9").contains(form[digits]) { digits += 1 }
      if digits > end, digits < form.count, form[digits] == "$" {
        isCount = String(String.UnicodeScalarView(form[end..<digits])).drop { $0 == "0" } == "1"
        end = digits + 1
      }
      // A length: h, hh, l, ll, q, z, t, j.
      while end < form.count, "hlqztj".unicodeScalars.contains(form[end]) { end += 1 }
      if isCount, end < form.count, "udi".unicodeScalars.contains(form[end]) {
        result.append(contentsOf: String(count).unicodeScalars)
        index = end + 1
      } else {
        // Kept as written, the `%` alone: what follows is copied as text.
        result.append("%")
      }
    }
    return String(result)
  }

  public var description: String { one.map { "{one: \($0), other: \(other)}" } ?? other }

  /// English counted nouns for Pushdeck's own wording: `counted(1, "notification")` is
  /// "1 notification", `counted(2, "notification")` "2 notifications".
  public static func counted(_ count: Int, _ noun: String, plural: String? = nil) -> String {
    "\(count) " + (count == 1 ? noun : plural ?? noun + "s")
  }
}

/// A registered category: the actions a notification with this `category` shows.
public struct NotificationCategory: Equatable, Sendable {
  public var identifier: String
  public var actions: [NotificationAction]
  public var options: CategoryOptions
  /// Body shown when previews are hidden; `%u` is the number of notifications in the thread.
  public var hiddenPreviewsBodyPlaceholder: PluralFormat?
  /// The line under a stack ("2 more messages"); `%u` is how many are behind the front card.
  public var summaryFormat: PluralFormat?

  public init(
    identifier: String, actions: [NotificationAction] = [], options: CategoryOptions = [],
    hiddenPreviewsBodyPlaceholder: PluralFormat? = nil, summaryFormat: PluralFormat? = nil
  ) {
    self.identifier = identifier
    self.actions = actions
    self.options = options
    self.hiddenPreviewsBodyPlaceholder = hiddenPreviewsBodyPlaceholder
    self.summaryFormat = summaryFormat
  }

  /// The action a reply goes to: the one named, else the category's first text-input action
  /// (`reply:`'s `action: default`), else `reply`, which no category offers, so the response is
  /// refused as a reply without a text-input action (``ResponseProblem``).
  public static func replyAction(_ named: String?, in category: NotificationCategory?) -> String {
    named ?? category?.actions.first(where: \.isTextInput)?.identifier ?? "reply"
  }
}

/// An installed app as the simulated device knows it.
///
/// Its fields live in one copy-on-write box, as ``PushNotification``'s do: the policy reads the
/// app's profile for every push, and a copy of its dozen strings, arrays and dictionaries
/// retained and released each of them.
public struct AppProfile: Equatable, Sendable {
  /// The stored fields (what the struct held before it was boxed).
  struct Fields: Equatable, Sendable {
    var info: AppInfo
    var authorization: AuthorizationStatus
    var settings: AppNotificationSettings
    var state: AppRunState
    var foregroundPresentation: PresentationOptions?
    var categories: [NotificationCategory]
    var localizations: [String: String]
    var hasServiceExtension: Bool
    var serviceExtension: ServiceExtensionConfig? = nil
    var backgroundRemoteNotifications: Bool
    var criticalAlertsEntitled: Bool
    var timeSensitiveEntitled: Bool
    var liveActivityLayouts: [String: LiveActivityLayout] = [:]
    var pushToStartToken: String? = nil
    var channels: [BroadcastChannel] = []
  }

  /// The box; written only through ``unique()`` (see ``PushNotification/Storage``).
  final class Storage: @unchecked Sendable {
    @exclusivity(unchecked) var fields: Fields

    init(_ fields: Fields) { self.fields = fields }
  }

  private var storage: Storage

  /// The box, made this profile's own first when another copy shares it.
  private mutating func unique() -> Storage {
    if !isKnownUniquelyReferenced(&storage) { storage = Storage(storage.fields) }
    return storage
  }

  public static func == (lhs: AppProfile, rhs: AppProfile) -> Bool {
    lhs.storage === rhs.storage || lhs.storage.fields == rhs.storage.fields
  }

  /// Name, bundle id and icon.
  public var info: AppInfo {
    get { storage.fields.info }
    _modify { yield &unique().fields.info }
  }
  public var authorization: AuthorizationStatus {
    get { storage.fields.authorization }
    _modify { yield &unique().fields.authorization }
  }
  public var settings: AppNotificationSettings {
    get { storage.fields.settings }
    _modify { yield &unique().fields.settings }
  }
  public var state: AppRunState {
    get { storage.fields.state }
    _modify { yield &unique().fields.state }
  }
  /// What `willPresent` returns in the foreground; nil when the app does not implement it
  /// (then nothing is presented).
  public var foregroundPresentation: PresentationOptions? {
    get { storage.fields.foregroundPresentation }
    _modify { yield &unique().fields.foregroundPresentation }
  }
  public var categories: [NotificationCategory] {
    get { storage.fields.categories }
    _modify { yield &unique().fields.categories }
  }
  /// `Localizable.strings`: key → format with `%@` / `%1$@` placeholders.
  public var localizations: [String: String] {
    get { storage.fields.localizations }
    _modify { yield &unique().fields.localizations }
  }
  /// Whether the app ships a Notification Service Extension.
  public var hasServiceExtension: Bool {
    get { storage.fields.hasServiceExtension }
    _modify { yield &unique().fields.hasServiceExtension }
  }
  /// What the extension does, when the profile says (nil with `serviceExtension: true`).
  public var serviceExtension: ServiceExtensionConfig? {
    get { storage.fields.serviceExtension }
    _modify { yield &unique().fields.serviceExtension }
  }
  /// Whether `UIBackgroundModes` contains `remote-notification`.
  public var backgroundRemoteNotifications: Bool {
    get { storage.fields.backgroundRemoteNotifications }
    _modify { yield &unique().fields.backgroundRemoteNotifications }
  }
  /// Whether the app holds the critical-alerts entitlement (and the user consented).
  public var criticalAlertsEntitled: Bool {
    get { storage.fields.criticalAlertsEntitled }
    _modify { yield &unique().fields.criticalAlertsEntitled }
  }
  /// Whether the app has the time-sensitive capability.
  public var timeSensitiveEntitled: Bool {
    get { storage.fields.timeSensitiveEntitled }
    _modify { yield &unique().fields.timeSensitiveEntitled }
  }
  /// How its Live Activities draw their content-state, by `attributes-type`.
  public var liveActivityLayouts: [String: LiveActivityLayout] {
    get { storage.fields.liveActivityLayouts }
    _modify { yield &unique().fields.liveActivityLayouts }
  }
  /// The app's push-to-start token (`Activity.pushToStartTokenUpdates`), lowercase hex: a
  /// Live Activity `start` sent to another token starts nothing. Nil: any token starts one.
  public var pushToStartToken: String? {
    get { storage.fields.pushToStartToken }
    _modify { yield &unique().fields.pushToStartToken }
  }
  /// The broadcast channels the profile declares for the app (created when the device starts).
  public var channels: [BroadcastChannel] {
    get { storage.fields.channels }
    _modify { yield &unique().fields.channels }
  }

  /// Creates an installed app with iOS's defaults: authorized, in the background, presenting
  /// banners, list, sound and badge in the foreground.
  public init(
    info: AppInfo, authorization: AuthorizationStatus = .authorized,
    settings: AppNotificationSettings = AppNotificationSettings(), state: AppRunState = .background,
    foregroundPresentation: PresentationOptions? = [.banner, .list, .sound, .badge],
    categories: [NotificationCategory] = [], localizations: [String: String] = [:],
    hasServiceExtension: Bool = false, backgroundRemoteNotifications: Bool = true,
    criticalAlertsEntitled: Bool = false, timeSensitiveEntitled: Bool = true
  ) {
    storage = Storage(
      Fields(
        info: info, authorization: authorization, settings: settings, state: state,
        foregroundPresentation: foregroundPresentation, categories: categories, localizations: localizations,
        hasServiceExtension: hasServiceExtension, backgroundRemoteNotifications: backgroundRemoteNotifications,
        criticalAlertsEntitled: criticalAlertsEntitled, timeSensitiveEntitled: timeSensitiveEntitled))
  }

  /// The bundle id.
  public var bundleID: String { info.bundleID }

  /// The registered category with this identifier, if any.
  public func category(_ identifier: String?) -> NotificationCategory? {
    guard let identifier else { return nil }
    return categories.first { $0.identifier == identifier }
  }
}

extension AppProfile {
  /// Applies one setting change, as the Settings app or a timeline makes it.
  public mutating func apply(_ change: AppSettingChange) {
    switch change {
    case .authorization(let status): authorization = status
    case .state(let state): self.state = state
    case .lockScreen(let on): settings.lockScreen = on
    case .notificationCenter(let on): settings.notificationCenter = on
    case .banners(let on): settings.banners = on
    case .sounds(let on): settings.sounds = on
    case .badges(let on): settings.badges = on
    case .bannerStyle(let style): settings.bannerStyle = style
    case .showPreviews(let setting): settings.showPreviews = setting
    case .grouping(let setting): settings.grouping = setting
    case .timeSensitive(let on): settings.timeSensitive = on
    case .criticalAlerts(let on): settings.criticalAlerts = on
    case .directMessages(let on): settings.directMessages = on
    case .delivery(let setting): settings.delivery = setting
    }
  }
}

import PushWire

/// A stable identifier for a notification on the simulated device, handed out by a counter.
public struct NotificationID: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
  /// The counter value.
  public let rawValue: Int

  /// Wraps a counter value.
  public init(_ rawValue: Int) { self.rawValue = rawValue }

  public static func < (lhs: NotificationID, rhs: NotificationID) -> Bool { lhs.rawValue < rhs.rawValue }

  public var description: String { "n\(rawValue)" }
}

/// What sound a notification asks for, normalised from `aps.sound`.
public enum SoundRequest: Equatable, Sendable {
  /// The system's default notification sound (`"default"`, or a named sound that is missing).
  case systemDefault
  /// A sound file from the app bundle.
  case named(String)
  /// A critical alert sound, which plays even when the phone is muted.
  case critical(name: String, volume: Double)
}

/// A notification as the simulated device holds it: validated, typed and normalised.
///
/// Nothing past validation looks at raw JSON; the raw payload text is kept only for the
/// inspector.
public struct PushNotification: Equatable, Sendable, Identifiable {
  /// The device-local identifier.
  public var id: NotificationID
  /// The app's bundle identifier.
  public var bundleID: String
  /// `aps.thread-id`, used for grouping.
  public var threadID: String?
  /// The resolved title (from `title` or `title-loc-key`), if any.
  public var title: String?
  /// The resolved subtitle, if any.
  public var subtitle: String?
  /// The resolved body, if any. A string `alert` becomes the body.
  public var body: String?
  /// `aps.category`.
  public var category: String?
  /// The interruption level; `active` when absent.
  public var level: InterruptionLevel
  /// `aps.relevance-score`, clamped to 0...1.
  public var relevanceScore: Double?
  /// The requested sound, if any.
  public var sound: SoundRequest?
  /// The requested badge, if any; 0 clears the badge.
  public var badge: Int?
  /// `aps.content-available == 1`.
  public var isContentAvailable: Bool
  /// `aps.mutable-content == 1`.
  public var isMutableContent: Bool
  /// `aps.target-content-id`.
  public var targetContentID: String?
  /// `aps.filter-criteria`.
  public var filterCriteria: String?
  /// The `apns-collapse-id` header, if any; becomes the request identifier.
  public var collapseID: String?
  /// When the device received it.
  public var receivedAt: SimInstant
  /// The payload exactly as received, for the inspector.
  public var rawPayload: String
  /// `apns-push-type` (from the headers, or implied by the payload).
  public var pushType: PushType = .alert
  /// `apns-priority`, when given.
  public var priority: PushPriority?
  /// `apns-expiration` as an instant; nil when absent or 0.
  public var expiration: SimInstant?
  /// For a communication notification, the sender (as the app's service extension would set
  /// with `INSendMessageIntent`); nil for ordinary notifications.
  public var sender: String?
  /// The Live Activity part of the payload, for `liveactivity` pushes.
  public var liveActivity: LiveActivityContent?
  /// `launch-image`, `target-content-id` and other custom keys, kept whole for handlers.
  public var customKeys: [JSONMember] = []
  /// Files the app's service extension attached and the device accepted.
  public var attachments: [NotificationAttachment] = []

  /// Creates a notification; every content field defaults to absent.
  public init(
    id: NotificationID, bundleID: String, threadID: String? = nil, title: String? = nil,
    subtitle: String? = nil, body: String? = nil, category: String? = nil,
    level: InterruptionLevel = .active, relevanceScore: Double? = nil, sound: SoundRequest? = nil,
    badge: Int? = nil, isContentAvailable: Bool = false, isMutableContent: Bool = false,
    targetContentID: String? = nil, filterCriteria: String? = nil, collapseID: String? = nil,
    receivedAt: SimInstant, rawPayload: String = ""
  ) {
    self.id = id
    self.bundleID = bundleID
    self.threadID = threadID
    self.title = title
    self.subtitle = subtitle
    self.body = body
    self.category = category
    self.level = level
    self.relevanceScore = relevanceScore
    self.sound = sound
    self.badge = badge
    self.isContentAvailable = isContentAvailable
    self.isMutableContent = isMutableContent
    self.targetContentID = targetContentID
    self.filterCriteria = filterCriteria
    self.collapseID = collapseID
    self.receivedAt = receivedAt
    self.rawPayload = rawPayload
  }

  /// Whether the payload alerts, badges or plays a sound.
  public var isUserVisible: Bool { hasVisibleContent || sound != nil || badge != nil }

  /// Whether it is a pure background push.
  public var isSilent: Bool { isContentAvailable && !isUserVisible && liveActivity == nil }

  /// Whether the notification shows anything to the user (title, subtitle or body).
  public var hasVisibleContent: Bool {
    // Not `[title, subtitle, body].contains`: that allocated an array on every call, and the
    // policy asks several times per push.
    !(title?.isEmpty ?? true) || !(subtitle?.isEmpty ?? true) || !(body?.isEmpty ?? true)
  }
}

/// How an installed app presents itself on the simulated device.
public struct AppInfo: Equatable, Sendable {
  /// The bundle identifier.
  public var bundleID: String
  /// The name shown on notifications, for example "Messages".
  public var displayName: String
  /// A one-grapheme icon, for example "💬".
  public var iconGlyph: String

  /// Creates an app description.
  public init(bundleID: String, displayName: String, iconGlyph: String) {
    self.bundleID = bundleID
    self.displayName = displayName
    self.iconGlyph = iconGlyph
  }

  /// The description used for a bundle the device has never been told about: the last
  /// component of the bundle id, capitalised, and a generic bell.
  public static func inferred(from bundleID: String) -> AppInfo {
    let last = bundleID.split(separator: ".").last.map(String.init) ?? bundleID
    let name = last.prefix(1).uppercased() + last.dropFirst()
    return AppInfo(bundleID: bundleID, displayName: name.isEmpty ? bundleID : name, iconGlyph: "🔔")
  }
}

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
///
/// Its fields live in one box that copies share, and a change to a shared box copies it first
/// (copy on write, as an array's elements): a push's notification goes into the delivery
/// record, the store and the journal's batch, and a copy of two dozen fields retained and
/// released every string and array among them each time (docs/PERFORMANCE.md, "Issue 15, 26 Nov
/// (fifth session)").
public struct PushNotification: Equatable, Sendable, Identifiable {
  /// The stored fields (what the struct held before it was boxed).
  struct Fields: Equatable, Sendable {
    var id: NotificationID
    var bundleID: String
    var threadID: String? = nil
    var title: String? = nil
    var subtitle: String? = nil
    var body: String? = nil
    var category: String? = nil
    var level: InterruptionLevel
    var relevanceScore: Double? = nil
    var sound: SoundRequest? = nil
    var badge: Int? = nil
    var isContentAvailable: Bool
    var isMutableContent: Bool
    var targetContentID: String? = nil
    var filterCriteria: String? = nil
    var collapseID: String? = nil
    var receivedAt: SimInstant
    var rawPayload: String
    var pushType: PushType = .alert
    var priority: PushPriority? = nil
    var expiration: SimInstant? = nil
    var sender: String? = nil
    var liveActivity: LiveActivityContent? = nil
    var customKeys: [JSONMember] = []
    var attachments: [NotificationAttachment] = []
  }

  /// The box. Its field is read and written in place without the run-time exclusivity check
  /// of a class property (a call on every read): it is written only through ``unique()``, by
  /// the one notification that holds it.
  final class Storage: @unchecked Sendable {
    @exclusivity(unchecked) var fields: Fields

    init(_ fields: consuming Fields) { self.fields = fields }
  }

  private var storage: Storage

  /// A notification whose fields are `fields`.
  init(fields: consuming Fields) { storage = Storage(fields) }

  /// The box, made this notification's own first when another copy shares it.
  private mutating func unique() -> Storage {
    if !isKnownUniquelyReferenced(&storage) { storage = Storage(storage.fields) }
    return storage
  }

  public static func == (lhs: PushNotification, rhs: PushNotification) -> Bool {
    lhs.storage === rhs.storage || lhs.storage.fields == rhs.storage.fields
  }

  /// The device-local identifier.
  public var id: NotificationID {
    get { storage.fields.id }
    _modify { yield &unique().fields.id }
  }
  /// The app's bundle identifier.
  public var bundleID: String {
    get { storage.fields.bundleID }
    _modify { yield &unique().fields.bundleID }
  }
  /// `aps.thread-id`, used for grouping.
  public var threadID: String? {
    get { storage.fields.threadID }
    _modify { yield &unique().fields.threadID }
  }
  /// The resolved title (from `title` or `title-loc-key`), if any.
  public var title: String? {
    get { storage.fields.title }
    _modify { yield &unique().fields.title }
  }
  /// The resolved subtitle, if any.
  public var subtitle: String? {
    get { storage.fields.subtitle }
    _modify { yield &unique().fields.subtitle }
  }
  /// The resolved body, if any. A string `alert` becomes the body.
  public var body: String? {
    get { storage.fields.body }
    _modify { yield &unique().fields.body }
  }
  /// `aps.category`.
  public var category: String? {
    get { storage.fields.category }
    _modify { yield &unique().fields.category }
  }
  /// The interruption level; `active` when absent.
  public var level: InterruptionLevel {
    get { storage.fields.level }
    _modify { yield &unique().fields.level }
  }
  /// `aps.relevance-score`, clamped to 0...1.
  public var relevanceScore: Double? {
    get { storage.fields.relevanceScore }
    _modify { yield &unique().fields.relevanceScore }
  }
  /// The requested sound, if any.
  public var sound: SoundRequest? {
    get { storage.fields.sound }
    _modify { yield &unique().fields.sound }
  }
  /// The requested badge, if any; 0 clears the badge.
  public var badge: Int? {
    get { storage.fields.badge }
    _modify { yield &unique().fields.badge }
  }
  /// `aps.content-available == 1`.
  public var isContentAvailable: Bool {
    get { storage.fields.isContentAvailable }
    _modify { yield &unique().fields.isContentAvailable }
  }
  /// `aps.mutable-content == 1`.
  public var isMutableContent: Bool {
    get { storage.fields.isMutableContent }
    _modify { yield &unique().fields.isMutableContent }
  }
  /// `aps.target-content-id`.
  public var targetContentID: String? {
    get { storage.fields.targetContentID }
    _modify { yield &unique().fields.targetContentID }
  }
  /// `aps.filter-criteria`.
  public var filterCriteria: String? {
    get { storage.fields.filterCriteria }
    _modify { yield &unique().fields.filterCriteria }
  }
  /// The `apns-collapse-id` header, if any; becomes the request identifier.
  public var collapseID: String? {
    get { storage.fields.collapseID }
    _modify { yield &unique().fields.collapseID }
  }
  /// When the device received it.
  public var receivedAt: SimInstant {
    get { storage.fields.receivedAt }
    _modify { yield &unique().fields.receivedAt }
  }
  /// The payload exactly as received, for the inspector.
  public var rawPayload: String {
    get { storage.fields.rawPayload }
    _modify { yield &unique().fields.rawPayload }
  }
  /// `apns-push-type` (from the headers, or implied by the payload).
  public var pushType: PushType {
    get { storage.fields.pushType }
    _modify { yield &unique().fields.pushType }
  }
  /// `apns-priority`, when given.
  public var priority: PushPriority? {
    get { storage.fields.priority }
    _modify { yield &unique().fields.priority }
  }
  /// `apns-expiration` as an instant; nil when absent or 0.
  public var expiration: SimInstant? {
    get { storage.fields.expiration }
    _modify { yield &unique().fields.expiration }
  }
  /// For a communication notification, the sender (as the app's service extension would set
  /// with `INSendMessageIntent`); nil for ordinary notifications.
  public var sender: String? {
    get { storage.fields.sender }
    _modify { yield &unique().fields.sender }
  }
  /// The Live Activity part of the payload, for `liveactivity` pushes.
  public var liveActivity: LiveActivityContent? {
    get { storage.fields.liveActivity }
    _modify { yield &unique().fields.liveActivity }
  }
  /// `launch-image`, `target-content-id` and other custom keys, kept whole for handlers.
  public var customKeys: [JSONMember] {
    get { storage.fields.customKeys }
    _modify { yield &unique().fields.customKeys }
  }
  /// Files the app's service extension attached and the device accepted.
  public var attachments: [NotificationAttachment] {
    get { storage.fields.attachments }
    _modify { yield &unique().fields.attachments }
  }

  /// Creates a notification; every content field defaults to absent.
  public init(
    id: NotificationID, bundleID: String, threadID: String? = nil, title: String? = nil,
    subtitle: String? = nil, body: String? = nil, category: String? = nil,
    level: InterruptionLevel = .active, relevanceScore: Double? = nil, sound: SoundRequest? = nil,
    badge: Int? = nil, isContentAvailable: Bool = false, isMutableContent: Bool = false,
    targetContentID: String? = nil, filterCriteria: String? = nil, collapseID: String? = nil,
    receivedAt: SimInstant, rawPayload: String = ""
  ) {
    storage = Storage(
      Fields(
        id: id, bundleID: bundleID, threadID: threadID, title: title, subtitle: subtitle, body: body,
        category: category, level: level, relevanceScore: relevanceScore, sound: sound, badge: badge,
        isContentAvailable: isContentAvailable, isMutableContent: isMutableContent, targetContentID: targetContentID,
        filterCriteria: filterCriteria, collapseID: collapseID, receivedAt: receivedAt, rawPayload: rawPayload))
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

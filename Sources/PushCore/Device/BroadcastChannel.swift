/// A broadcast channel (iOS 18): one APNs channel of an app, to which Live Activities on the
/// device subscribe, so that one `POST /4/broadcasts/apps/<bundle>` updates every one of them.
///
/// Channels belong to APNs, not to the phone; the simulator keeps them next to the device
/// because Pushdeck plays both parts (`docs/DECISIONS.md`, "Broadcast channels").
public struct BroadcastChannel: Equatable, Sendable {
  /// `message-storage-policy`: what APNs keeps of a channel's messages.
  public enum StoragePolicy: Int, Sendable, CaseIterable, Codable {
    /// 0, "No Messages Stored": a message reaches the activities subscribed now, no later one.
    case noStorage = 0
    /// 1, "Most Recent Message Stored": the last message is kept (at most 8 hours) and given to
    /// an activity that subscribes later.
    case mostRecent = 1

    /// `none` or `mostRecent`, as profiles write it.
    public var name: String { self == .noStorage ? "none" : "mostRecent" }
  }

  /// The last message of a `mostRecent` channel: the Live Activity keys it carried.
  public struct StoredMessage: Equatable, Sendable {
    /// When the channel received it.
    public var at: SimInstant
    public var event: LiveActivityEvent
    /// `aps.timestamp`, seconds.
    public var timestamp: Double
    public var contentState: JSONValue?
    public var staleDate: Double?
    public var dismissalDate: Double?
    public var title: String?
    public var body: String?

    public init(
      at: SimInstant, event: LiveActivityEvent, timestamp: Double, contentState: JSONValue? = nil,
      staleDate: Double? = nil, dismissalDate: Double? = nil, title: String? = nil, body: String? = nil
    ) {
      self.at = at
      self.event = event
      self.timestamp = timestamp
      self.contentState = contentState
      self.staleDate = staleDate
      self.dismissalDate = dismissalDate
      self.title = title
      self.body = body
    }
  }

  /// The channel id APNs gave out: base64 text, sent back in `apns-channel-id`.
  public var id: String
  /// The app it belongs to.
  public var bundleID: String
  public var storagePolicy: StoragePolicy
  /// When it was created.
  public var createdAt: SimInstant
  /// The last message, for a `mostRecent` channel that has had one.
  public var lastMessage: StoredMessage?

  public init(
    id: String, bundleID: String, storagePolicy: StoragePolicy, createdAt: SimInstant,
    lastMessage: StoredMessage? = nil
  ) {
    self.id = id
    self.bundleID = bundleID
    self.storagePolicy = storagePolicy
    self.createdAt = createdAt
    self.lastMessage = lastMessage
  }

  /// How many channels one app may hold (per environment, Apple's limit).
  public static let maximumPerApp = 10_000
  /// How long a stored message is kept.
  public static let storedMessageLifetime = SimDuration.hours(8)

  /// Whether `text` is a channel id as APNs writes them (``ChannelID/isWellFormed(_:)``).
  public static func isWellFormedID(_ text: String) -> Bool { ChannelID.isWellFormed(text) }

  /// Why APNs refuses a broadcast on this channel, nil when it takes it.
  ///
  /// - Parameter expiration: the request's `apns-expiration`, nil when absent. A channel that
  ///   stores nothing takes only `0` (or no header): a later delivery would need storage.
  public func refusal(expiration: Int?) -> BroadcastRefusal? {
    if storagePolicy == .noStorage, let expiration, expiration != 0 { return .expirationNeedsStorage }
    return nil
  }
}

/// Why APNs refuses a broadcast or a channel request, beyond the request's syntax.
public enum BroadcastRefusal: Equatable, Sendable {
  /// No channel with this id for this app: 400 `ChannelNotRegistered`.
  case channelNotRegistered
  /// A nonzero `apns-expiration` on a channel that stores nothing: 400 `BadExpirationDate`.
  case expirationNeedsStorage
  /// The app already holds ``BroadcastChannel/maximumPerApp`` channels: 400 `CannotCreateChannelConfig`.
  case tooManyChannels

  /// The APNs status and reason.
  public var status: Int { 400 }
  public var reason: String {
    switch self {
    case .channelNotRegistered: "ChannelNotRegistered"
    case .expirationNeedsStorage: "BadExpirationDate"
    case .tooManyChannels: "CannotCreateChannelConfig"
    }
  }

  /// Why, for the log.
  public var detail: String {
    switch self {
    case .channelNotRegistered: "no such channel for this app"
    case .expirationNeedsStorage: "the channel stores no messages (message-storage-policy 0): apns-expiration must be 0"
    case .tooManyChannels: "the app holds \(BroadcastChannel.maximumPerApp) channels, Apple's limit"
    }
  }
}

extension DeviceSimulator {
  /// The app's channel with this id.
  public func channel(_ id: String, bundleID: String) -> BroadcastChannel? {
    channels.first { $0.id == id && $0.bundleID == bundleID }
  }

  /// The app's channels, oldest first.
  public func channels(of bundleID: String) -> [BroadcastChannel] {
    channels.filter { $0.bundleID == bundleID }
  }

  /// Creates a channel (the management API's POST). The id is the caller's: APNs makes it up,
  /// so the shell gives a random one and profiles name theirs.
  public mutating func createChannel(
    id: String, bundleID: String, storagePolicy: BroadcastChannel.StoragePolicy
  ) -> BroadcastRefusal? {
    guard channels.lazy.filter({ $0.bundleID == bundleID }).count < BroadcastChannel.maximumPerApp else {
      return .tooManyChannels
    }
    guard channel(id, bundleID: bundleID) == nil else { return nil }
    channels.append(BroadcastChannel(id: id, bundleID: bundleID, storagePolicy: storagePolicy, createdAt: now))
    return nil
  }

  /// Deletes a channel (the management API's DELETE). The activities subscribed to it keep
  /// running and get no more broadcasts. Returns false when there was none.
  public mutating func deleteChannel(_ id: String, bundleID: String) -> Bool {
    guard let index = channels.firstIndex(where: { $0.id == id && $0.bundleID == bundleID }) else { return false }
    channels.remove(at: index)
    return true
  }

  /// Why APNs refuses a broadcast to this channel, nil when it takes it.
  public func broadcastRefusal(channelID: String, bundleID: String, expiration: Int?) -> BroadcastRefusal? {
    guard let channel = channel(channelID, bundleID: bundleID) else { return .channelNotRegistered }
    return channel.refusal(expiration: expiration)
  }
}

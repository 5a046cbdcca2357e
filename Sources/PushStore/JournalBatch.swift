import PushCore

/// Everything that changed on the device since the last commit; ``DeviceJournal/commit(_:)``
/// writes it in one transaction, so either all of it is durable or none of it is.
///
/// Build one with ``DeviceSimulator/apply(_:at:journalingInto:)``, or fill it by hand.
public struct JournalBatch: Sendable {
  /// A notification that left Notification Center, and why.
  public struct Removal: Equatable, Sendable {
    /// The notification.
    public var id: NotificationID
    /// When it left.
    public var at: SimInstant
    /// Why: `opened`, `cleared`, `action` or `replaced`.
    public var reason: String

    /// Creates a removal.
    public init(id: NotificationID, at: SimInstant, reason: String) {
      self.id = id
      self.at = at
      self.reason = reason
    }
  }

  /// A device event other than a push (pushes are ``deliveries``), with its time.
  public struct Event: Equatable, Sendable {
    /// The event.
    public var event: DeviceEvent
    /// When it happened.
    public var at: SimInstant

    /// Creates a logged event.
    public init(_ event: DeviceEvent, at: SimInstant) {
      self.event = event
      self.at = at
    }
  }

  /// How far one replayed input has been read, saved with the rows of the lines it counts.
  public struct SourceProgress: Equatable, Sendable {
    /// The input's number in the journal (one row per input ever replayed into it).
    public var id: Int64
    /// The input's resolved path when it was last read.
    public var path: String
    /// How many of its first bytes ``headHash`` covers (all of them for a short file).
    public var headBytes: Int
    /// A hash of its first ``headBytes`` bytes, which identifies it whatever its path.
    public var headHash: String
    /// Its last line saved (1-based; blank lines count).
    public var line: Int
    /// The offset of the byte after that line (its newline included).
    public var offset: Int64

    /// Creates a progress row.
    public init(id: Int64, path: String, headBytes: Int, headHash: String, line: Int, offset: Int64) {
      self.id = id
      self.path = path
      self.headBytes = headBytes
      self.headHash = headHash
      self.line = line
      self.offset = offset
    }
  }

  /// What the device did with each push, in order.
  public var deliveries: [DeliveryRecord] = []
  /// Whether ``DeviceSimulator/apply(_:at:journalingInto:)`` packs each push's delivery into
  /// ``packed`` at once instead of keeping its record in ``deliveries``: a replay, which needs
  /// the records no longer, frees each on the thread that made it.
  public var packsDeliveries = false
  /// Deliveries packed into rows (see ``packsDeliveries``); written before ``deliveries``.
  public private(set) var packed = PackedDeliveries()

  /// How many deliveries the batch holds, packed or not.
  public var deliveryCount: Int { packed.count + deliveries.count }

  /// Adds a delivery: packed when ``packsDeliveries`` is on, else to ``deliveries``.
  ///
  /// - Parameter rawPayload: the push's payload bytes as received, journaled as its text when the
  ///   device kept none in the notification (``DeviceSimulator/keepsPayloadDetails`` off).
  public mutating func append(_ record: DeliveryRecord, rawPayload: ArraySlice<UInt8>? = nil) {
    let bytes = record.notification?.rawPayload.isEmpty == true ? rawPayload : nil
    if packsDeliveries {
      packed.append(record, rawPayload: bytes)
    } else if let bytes {
      var kept = record
      kept.notification?.rawPayload = String(decoding: bytes, as: UTF8.self)
      deliveries.append(kept)
    } else {
      deliveries.append(record)
    }
  }
  /// Notifications removed from Notification Center.
  public var removals: [Removal] = []
  /// Events other than pushes, in order.
  public var events: [Event] = []
  /// Engagement per app that changed.
  public var engagement: [String: Engagement] = [:]
  /// Badges that changed; 0 means the app has no badge.
  public var badges: [String: Int] = [:]
  /// The Live Activities, when they changed (the whole list replaces the saved one).
  public var liveActivities: [LiveActivity]?
  /// The broadcast channels, when they changed (the whole list replaces the saved one).
  public var channels: [BroadcastChannel]?
  /// The clock, lock and Focus after the batch.
  public var state: RestoredDevice.State?
  /// How far the inputs whose lines are in the batch have been read (replaces their saved
  /// progress).
  public var sources: [SourceProgress] = []

  /// Creates an empty batch; with `reasonLists`, packed deliveries store repeating reason lists
  /// once (see ``ReasonLists``).
  public init(packsDeliveries: Bool = false, reasonLists: ReasonLists? = nil) {
    self.packsDeliveries = packsDeliveries
    packed = PackedDeliveries(reasonLists: reasonLists)
  }

  /// Whether there is nothing to write.
  public var isEmpty: Bool {
    deliveryCount == 0 && removals.isEmpty && events.isEmpty && engagement.isEmpty && badges.isEmpty
      && liveActivities == nil && channels == nil && state == nil && sources.isEmpty
  }
}

extension DeviceSimulator {
  /// Applies an event, like ``DeviceSimulator/apply(_:at:)``, and adds what it changed to
  /// `batch`, so that committing the batch keeps the journal in step with the device.
  ///
  /// Costs O(1) beyond the event itself, except for clearing a stack or everything, which lists
  /// the notifications it removes.
  @discardableResult
  public mutating func apply(
    _ event: DeviceEvent, at instant: SimInstant, journalingInto batch: inout JournalBatch
  ) -> DeliveryRecord? {
    if case .push(let pushed, let sender) = event {
      return apply(push: pushed, sender: sender, at: instant, journalingInto: &batch)
    }
    // (Pushes took the fast path above.)
    var candidates: [NotificationID] = []
    var bundles: Set<String> = []
    let reason: String
    switch event {
    case .push(let record, _):
      bundles.insert(record.bundleID ?? "")
      reason = "replaced"
    case .open(let id), .clear(let id), .action(let id, _, _):
      if let stored = store[id] {
        candidates = [id]
        bundles.insert(stored.notification.bundleID)
      }
      if case .open = event {
        reason = "opened"
      } else if case .clear = event {
        reason = "cleared"
      } else {
        reason = "action"
      }
    case .clearGroup(let key):
      candidates = store.notifications(in: key).map(\.id)
      bundles.insert(key.bundleID)
      reason = "cleared"
    case .clearAll:
      let all = store.all
      candidates = all.map(\.id)
      bundles.formUnion(all.map(\.notification.bundleID))
      reason = "cleared"
    case .setting(let bundleID, _):
      bundles.insert(bundleID)
      reason = ""
    case .focus, .lock, .unlock:
      reason = ""
    }
    let engagementBefore = bundles.map { ($0, profile.engagement[$0]) }
    let badgesBefore = bundles.map { ($0, badges[$0]) }
    let liveBefore = liveActivities
    let channelsBefore = channelsVersion
    let record = apply(event, at: instant)
    for id in candidates where store[id] == nil {
      batch.removals.append(JournalBatch.Removal(id: id, at: now, reason: reason))
    }
    for (bundleID, before) in engagementBefore where profile.engagement[bundleID] != before {
      batch.engagement[bundleID] = profile.engagement[bundleID] ?? Engagement()
    }
    for (bundleID, before) in badgesBefore where badges[bundleID] != before {
      batch.badges[bundleID] = badges[bundleID] ?? 0
    }
    if liveActivities != liveBefore { batch.liveActivities = liveActivities }
    if channelsVersion != channelsBefore { batch.channels = channels }
    if let record {
      batch.append(record)
    } else if case .push = event {
      // A push always gives a record; nothing to log otherwise.
    } else {
      batch.events.append(JournalBatch.Event(event, at: instant))
    }
    batch.state = RestoredDevice.State(now: now, isLocked: isLocked, activeFocusID: activeFocusID)
    return record
  }

  /// Applies a push, like ``DeviceSimulator/apply(push:sender:at:)``, and adds what it changed
  /// to `batch`: the hot path of a replay. A push changes at most its app's badge and the Live
  /// Activities, never engagement, and removes only what it replaces (in its record).
  @discardableResult
  public mutating func apply(
    push record: PushRecord, sender: String? = nil, at instant: SimInstant, journalingInto batch: inout JournalBatch
  ) -> DeliveryRecord {
    let bundleID = record.bundleID ?? ""
    let badgeBefore = badges[bundleID]
    let liveBefore = liveActivities
    let channelsBefore = channelsVersion
    let delivery = apply(push: record, sender: sender, at: instant)
    if badges[bundleID] != badgeBefore { batch.badges[bundleID] = badges[bundleID] ?? 0 }
    if liveActivities != liveBefore { batch.liveActivities = liveActivities }
    if channelsVersion != channelsBefore { batch.channels = channels }
    batch.append(delivery, rawPayload: record.rawBytes)
    batch.state = RestoredDevice.State(now: now, isLocked: isLocked, activeFocusID: activeFocusID)
    return delivery
  }
}

extension DeviceSimulator {
  /// Creates a channel, like ``createChannel(id:bundleID:storagePolicy:)``, and adds the
  /// channels to `batch` when they changed.
  public mutating func createChannel(
    id: String, bundleID: String, storagePolicy: BroadcastChannel.StoragePolicy,
    journalingInto batch: inout JournalBatch
  ) -> BroadcastRefusal? {
    let before = channelsVersion
    let refusal = createChannel(id: id, bundleID: bundleID, storagePolicy: storagePolicy)
    if channelsVersion != before { batch.channels = channels }
    return refusal
  }

  /// Deletes a channel, like ``deleteChannel(_:bundleID:)``, and adds the channels to `batch`
  /// when they changed.
  public mutating func deleteChannel(_ id: String, bundleID: String, journalingInto batch: inout JournalBatch) -> Bool {
    let deleted = deleteChannel(id, bundleID: bundleID)
    if deleted { batch.channels = channels }
    return deleted
  }
}

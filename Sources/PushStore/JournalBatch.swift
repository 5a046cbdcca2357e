import PushCore

/// Everything that changed on the device since the last commit; ``DeviceJournal/commit(_:)``
/// writes it in one transaction, so either all of it is durable or none of it is.
///
/// Filled by the ingest step (``DeviceSimulator/ingest(_:sender:at:extensions:into:)``, the
/// device's own change set), from a front end's ``DeviceChanges`` (``append(_:)``), or by hand.
public struct JournalBatch: Sendable {
  /// A notification that left Notification Center, and why.
  public typealias Removal = DeviceChanges.Removal

  /// A device event other than a push (pushes are ``deliveries``), with its time.
  public typealias Event = DeviceChanges.Event

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
  ///
  /// `reservingBytes` sizes the packed rows' buffer at once (a replay passes the previous batch's
  /// ``packedBytes``): growing it by doubling copied about a batch's worth of bytes again and
  /// touched fresh pages for each batch.
  public init(packsDeliveries: Bool = false, reasonLists: ReasonLists? = nil, reservingBytes: Int = 0) {
    self.packsDeliveries = packsDeliveries
    packed = PackedDeliveries(reasonLists: reasonLists, reservingBytes: reservingBytes)
  }

  /// How many bytes the packed rows take.
  public var packedBytes: Int { packed.byteCount }

  /// Whether there is nothing to write.
  public var isEmpty: Bool {
    deliveryCount == 0 && removals.isEmpty && events.isEmpty && engagement.isEmpty && badges.isEmpty
      && liveActivities == nil && channels == nil && state == nil && sources.isEmpty
  }
}

extension JournalBatch: DeviceChangeSink {
  public mutating func delivered(_ record: DeliveryRecord, rawPayload: ArraySlice<UInt8>?) {
    append(record, rawPayload: rawPayload)
  }
  public mutating func removed(_ id: NotificationID, at instant: SimInstant, reason: String) {
    removals.append(Removal(id: id, at: instant, reason: reason))
  }
  public mutating func happened(_ event: DeviceEvent, at instant: SimInstant) {
    events.append(Event(event, at: instant))
  }
  public mutating func engagementChanged(_ bundleID: String, to engagement: Engagement) {
    self.engagement[bundleID] = engagement
  }
  public mutating func badgeChanged(_ bundleID: String, to count: Int) { badges[bundleID] = count }
  public mutating func liveActivitiesChanged(to activities: [LiveActivity]) { liveActivities = activities }
  public mutating func channelsChanged(to channels: [BroadcastChannel]) { self.channels = channels }
  public mutating func stateChanged(to state: RestoredDevice.State) { self.state = state }

  /// Adds a front end's change set, in the order it was made (its clock, lock and Focus too).
  public mutating func append(_ changes: DeviceChanges) {
    for delivery in changes.deliveries { append(delivery.record, rawPayload: delivery.rawPayload) }
    removals += changes.removals
    events += changes.events
    engagement.merge(changes.engagement) { $1 }
    badges.merge(changes.badges) { $1 }
    if let live = changes.liveActivities { liveActivities = live }
    if let channels = changes.channels { self.channels = channels }
    if let state = changes.state { self.state = state }
  }
}

extension DeviceSimulator {
  /// ``apply(_:at:into:)`` into a journal batch.
  @discardableResult
  public mutating func apply(
    _ event: DeviceEvent, at instant: SimInstant, journalingInto batch: inout JournalBatch
  ) -> DeliveryRecord? {
    apply(event, at: instant, into: &batch)
  }

  /// ``ingest(_:sender:at:extensions:into:)`` into a journal batch.
  @discardableResult
  public mutating func apply(
    push record: PushRecord, sender: String? = nil, at instant: SimInstant, journalingInto batch: inout JournalBatch
  ) -> DeliveryRecord {
    ingest(record, sender: sender, at: instant, into: &batch)
  }

  /// ``createChannel(id:bundleID:storagePolicy:into:)`` into a journal batch.
  public mutating func createChannel(
    id: String, bundleID: String, storagePolicy: BroadcastChannel.StoragePolicy,
    journalingInto batch: inout JournalBatch
  ) -> BroadcastRefusal? {
    createChannel(id: id, bundleID: bundleID, storagePolicy: storagePolicy, into: &batch)
  }

  /// ``deleteChannel(_:bundleID:into:)`` into a journal batch.
  public mutating func deleteChannel(_ id: String, bundleID: String, journalingInto batch: inout JournalBatch) -> Bool {
    deleteChannel(id, bundleID: bundleID, into: &batch)
  }
}

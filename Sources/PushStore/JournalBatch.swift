import PushCore

/// Everything that changed on the device since the last commit; ``DeviceJournal/commit(_:)``
/// writes it in one transaction, so either all of it is durable or none of it is.
///
/// Filled by the ingest step (``DeviceSimulator/ingest(_:sender:at:extensions:into:)``, the
/// device's own change set), from a front end's ``DeviceChanges`` (``append(_:)``), or by hand.
public struct JournalBatch: DeviceUpdateKeeping, Sendable {
  /// A notification that left Notification Center, and why.
  public typealias Removal = DeviceUpdates.Removal

  /// A device event other than a push (pushes are ``deliveries``), with its time.
  public typealias Event = DeviceUpdates.Event

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
  /// Everything else the device changed: removals, events, engagement, badges, Live
  /// Activities, channels, its clock.
  public var updates = DeviceUpdates()
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
    deliveryCount == 0 && updates.isEmpty && sources.isEmpty
  }
}

extension JournalBatch {
  public mutating func delivered(_ record: DeliveryRecord, rawPayload: ArraySlice<UInt8>?) {
    append(record, rawPayload: rawPayload)
  }

  /// Adds a front end's change set, in the order it was made (its clock, lock and Focus too).
  public mutating func append(_ changes: DeviceChanges) {
    for delivery in changes.deliveries { append(delivery.record, rawPayload: delivery.rawPayload) }
    updates.append(changes.updates)
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

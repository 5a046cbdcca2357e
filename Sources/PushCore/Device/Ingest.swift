/// Runs an app's Notification Service Extension on a push before the device reads it.
///
/// The extensions themselves are the shell's (PushHandlers' `ServiceExtensionRegistry`, which
/// runs processes and decrypts); the core only asks for the push as the extension left it
/// (``PushRecord/serviceExtension``), so ``DeviceSimulator/ingest(_:sender:at:extensions:into:)``
/// stays one step for every input.
public protocol ServiceExtensionStep {
  /// The push with its app's extension run on it, or as it was when none runs for it.
  func prepare(_ record: PushRecord, profile: DeviceProfile) -> PushRecord
}

/// Where the ingest step writes what the device changed: a journal's batch (PushStore's
/// `JournalBatch`), a front end's pending ``DeviceChanges``, or nothing (``DiscardedChanges``).
///
/// The change set is the device's own: each method is called with what the event just did,
/// so a journal never recomputes it on a second device.
public protocol DeviceChangeSink {
  /// A push was delivered (or rejected); `rawPayload` is its payload as received, for a
  /// notification that keeps no text of it (``DeviceSimulator/keepsPayloadDetails`` off).
  mutating func delivered(_ record: DeliveryRecord, rawPayload: ArraySlice<UInt8>?)
  /// A notification left Notification Center (`opened`, `cleared`, `action`).
  mutating func removed(_ id: NotificationID, at instant: SimInstant, reason: String)
  /// A device event other than a push happened.
  mutating func happened(_ event: DeviceEvent, at instant: SimInstant)
  /// An app's engagement changed.
  mutating func engagementChanged(_ bundleID: String, to engagement: Engagement)
  /// An app's badge changed (0: no badge).
  mutating func badgeChanged(_ bundleID: String, to count: Int)
  /// The Live Activities changed (the whole list).
  mutating func liveActivitiesChanged(to activities: [LiveActivity])
  /// The broadcast channels changed (the whole list).
  mutating func channelsChanged(to channels: [BroadcastChannel])
  /// The clock, lock and Focus after the event.
  mutating func stateChanged(to state: RestoredDevice.State)
  /// Whether the sink keeps anything (false: the ingest step skips noting what changed).
  static var keepsChanges: Bool { get }
}

extension DeviceChangeSink {
  public static var keepsChanges: Bool { true }
}

/// A sink that keeps nothing: a device that is not journalled (`--ephemeral`, `explain`,
/// `render`, a front end without a state).
public struct DiscardedChanges: DeviceChangeSink {
  public init() {}
  public static var keepsChanges: Bool { false }
  @inlinable public mutating func delivered(_ record: DeliveryRecord, rawPayload: ArraySlice<UInt8>?) {}
  @inlinable public mutating func removed(_ id: NotificationID, at instant: SimInstant, reason: String) {}
  @inlinable public mutating func happened(_ event: DeviceEvent, at instant: SimInstant) {}
  @inlinable public mutating func engagementChanged(_ bundleID: String, to engagement: Engagement) {}
  @inlinable public mutating func badgeChanged(_ bundleID: String, to count: Int) {}
  @inlinable public mutating func liveActivitiesChanged(to activities: [LiveActivity]) {}
  @inlinable public mutating func channelsChanged(to channels: [BroadcastChannel]) {}
  @inlinable public mutating func stateChanged(to state: RestoredDevice.State) {}
}

/// What a device changed besides its deliveries: removals, other events, engagement, badges,
/// Live Activities, channels and its clock. A front end's ``DeviceChanges`` and the journal's
/// batch (PushStore's `JournalBatch`) each hold one and add their own deliveries.
public struct DeviceUpdates: Sendable {
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

  /// A device event other than a push (pushes are deliveries), with its time.
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
  /// The clock, lock and Focus after the last change.
  public var state: RestoredDevice.State?

  public init() {}

  /// Whether nothing changed.
  public var isEmpty: Bool {
    removals.isEmpty && events.isEmpty && engagement.isEmpty && badges.isEmpty && liveActivities == nil
      && channels == nil && state == nil
  }

  /// Adds updates made after these, in order (later values replace earlier ones).
  public mutating func append(_ later: DeviceUpdates) {
    removals += later.removals
    events += later.events
    engagement.merge(later.engagement) { $1 }
    badges.merge(later.badges) { $1 }
    if let live = later.liveActivities { liveActivities = live }
    if let channels = later.channels { self.channels = channels }
    if let state = later.state { self.state = state }
  }
}

/// A sink that keeps what the device changed besides its deliveries in ``updates``.
public protocol DeviceUpdateKeeping: DeviceChangeSink {
  var updates: DeviceUpdates { get set }
}

extension DeviceUpdateKeeping {
  public mutating func removed(_ id: NotificationID, at instant: SimInstant, reason: String) {
    updates.removals.append(DeviceUpdates.Removal(id: id, at: instant, reason: reason))
  }
  public mutating func happened(_ event: DeviceEvent, at instant: SimInstant) {
    updates.events.append(DeviceUpdates.Event(event, at: instant))
  }
  public mutating func engagementChanged(_ bundleID: String, to engagement: Engagement) {
    updates.engagement[bundleID] = engagement
  }
  public mutating func badgeChanged(_ bundleID: String, to count: Int) { updates.badges[bundleID] = count }
  public mutating func liveActivitiesChanged(to activities: [LiveActivity]) { updates.liveActivities = activities }
  public mutating func channelsChanged(to channels: [BroadcastChannel]) { updates.channels = channels }
  public mutating func stateChanged(to state: RestoredDevice.State) { updates.state = state }
}

/// What the device changed since it was last taken: the front end collects it as it plays
/// (``DeviceSimulator/ingest(_:sender:at:extensions:into:)``), and the shell's journal
/// commits it (PushStore's `JournalBatch.append(_:)`).
public struct DeviceChanges: DeviceUpdateKeeping, Sendable {
  /// What the device did with each push, in order, with its payload as received when the
  /// notification keeps none.
  public var deliveries: [(record: DeliveryRecord, rawPayload: ArraySlice<UInt8>?)] = []
  /// Everything else it changed.
  public var updates = DeviceUpdates()

  public init() {}

  /// How many pushes and other events were applied.
  public var appliedCount: Int { deliveries.count + updates.events.count }

  /// Whether nothing changed.
  public var isEmpty: Bool { deliveries.isEmpty && updates.isEmpty }

  public mutating func delivered(_ record: DeliveryRecord, rawPayload: ArraySlice<UInt8>?) {
    deliveries.append((record, record.notification?.rawPayload.isEmpty == true ? rawPayload : nil))
  }
}

extension DeviceSimulator {
  /// **The one way in.** Every push — a scenario's timeline, a payload file, a capture line,
  /// `run --listen`, `serve`, `replay` — enters the device here, in this order:
  ///
  /// 1. the app's Notification Service Extension (`extensions`; nil when the push already
  ///    carries its result, as a timeline whose extensions ran ahead, side by side, does),
  /// 2. the delivery record (verdict, normalising, localising),
  /// 3. the delivery policy,
  /// 4. Notification Center's store (O(log n): binary searches in the stack and the stack
  ///    order; nothing is copied or re-sorted),
  /// 5. the journal: what the push changed (delivery, badge, Live Activities, channels, clock)
  ///    goes to `changes`, the device's own change set.
  ///
  /// The push arrives at `instant`, or at the device's clock when that is later (a capture's
  /// clock never runs the device backwards).
  @discardableResult
  public mutating func ingest<Sink: DeviceChangeSink>(
    _ record: PushRecord, sender: String? = nil, at instant: SimInstant,
    extensions: (any ServiceExtensionStep)? = nil, into changes: inout Sink
  ) -> DeliveryRecord {
    if let extensions, record.serviceExtension == nil {
      return ingestReady(extensions.prepare(record, profile: profile), sender: sender, at: instant, into: &changes)
    }
    return ingestReady(record, sender: sender, at: instant, into: &changes)
  }

  /// ``ingest(_:sender:at:extensions:into:)`` once the extension has run.
  private mutating func ingestReady<Sink: DeviceChangeSink>(
    _ record: PushRecord, sender: String?, at instant: SimInstant, into changes: inout Sink
  ) -> DeliveryRecord {
    var badgeChange: Int?
    guard Sink.keepsChanges else {
      advance(to: instant)
      return receive(record, sender: sender, badgeChange: &badgeChange)
    }
    let liveBefore = liveActivities
    let channelsBefore = channelsVersion
    advance(to: instant)
    let delivery = receive(record, sender: sender, badgeChange: &badgeChange)
    // Reported by the step that set it: looking the app's badge up before and after cost two
    // hashes of its bundle id on every push.
    if let badgeChange { changes.badgeChanged(delivery.bundleID, to: badgeChange) }
    if liveActivities != liveBefore { changes.liveActivitiesChanged(to: liveActivities) }
    if channelsVersion != channelsBefore { changes.channelsChanged(to: channels) }
    changes.delivered(delivery, rawPayload: record.rawBytes)
    changes.stateChanged(to: savedState)
    return delivery
  }

  /// Applies any device event, a push through ``ingest(_:sender:at:extensions:into:)``, and
  /// writes what it changed to `changes`.
  ///
  /// Costs O(1) beyond the event itself, except for clearing a stack or everything, which
  /// lists the notifications it removes.
  @discardableResult
  public mutating func apply<Sink: DeviceChangeSink>(
    _ event: DeviceEvent, at instant: SimInstant, into changes: inout Sink
  ) -> DeliveryRecord? {
    if case .push(let pushed, let sender) = event {
      return ingest(pushed, sender: sender, at: instant, into: &changes)
    }
    var candidates: [NotificationID] = []
    var bundles: Set<String> = []
    let reason: String
    switch event {
    case .push:
      return nil  // (taken above)
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
    applyOther(event, at: instant)
    for id in candidates where store[id] == nil { changes.removed(id, at: now, reason: reason) }
    for (bundleID, before) in engagementBefore where profile.engagement[bundleID] != before {
      changes.engagementChanged(bundleID, to: profile.engagement[bundleID] ?? Engagement())
    }
    for (bundleID, before) in badgesBefore where badges[bundleID] != before {
      changes.badgeChanged(bundleID, to: badges[bundleID] ?? 0)
    }
    if liveActivities != liveBefore { changes.liveActivitiesChanged(to: liveActivities) }
    if channelsVersion != channelsBefore { changes.channelsChanged(to: channels) }
    changes.happened(event, at: instant)
    changes.stateChanged(to: savedState)
    return nil
  }

  /// Creates a channel, like ``createChannel(id:bundleID:storagePolicy:)``, and writes the
  /// channels to `changes` when they changed.
  public mutating func createChannel<Sink: DeviceChangeSink>(
    id: String, bundleID: String, storagePolicy: BroadcastChannel.StoragePolicy, into changes: inout Sink
  ) -> BroadcastRefusal? {
    let before = channelsVersion
    let refusal = createChannel(id: id, bundleID: bundleID, storagePolicy: storagePolicy)
    if channelsVersion != before { changes.channelsChanged(to: channels) }
    return refusal
  }

  /// Deletes a channel, like ``deleteChannel(_:bundleID:)``, and writes the channels to
  /// `changes` when they changed.
  public mutating func deleteChannel<Sink: DeviceChangeSink>(
    _ id: String, bundleID: String, into changes: inout Sink
  ) -> Bool {
    let deleted = deleteChannel(id, bundleID: bundleID)
    if deleted { changes.channelsChanged(to: channels) }
    return deleted
  }
}

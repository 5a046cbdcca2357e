/// Which notification a user action in a timeline means.
public enum NotificationRef: Equatable, Sendable, CustomStringConvertible {
  /// The notification of the n-th push of the timeline (1-based), or what replaced it through
  /// its `apns-collapse-id`.
  case push(Int)
  /// The newest stored notification with this `apns-collapse-id`.
  case collapseID(String)

  public var description: String {
    switch self {
    case .push(let index): "push \(index)"
    case .collapseID(let id): "collapse id \"\(id)\""
    }
  }
}

/// One thing that happens in a scenario.
public enum TimelineEvent: Equatable, Sendable {
  /// Something the device simulator takes as it is: a push, Focus, lock, unlock, a setting
  /// change or clearing everything.
  case device(DeviceEvent)
  /// The user taps a notification (opens the app).
  case open(NotificationRef)
  /// The user clears a notification.
  case clear(NotificationRef)
  /// The user clears the stack a notification is in.
  case clearGroup(NotificationRef)
  /// The user picks an action button.
  case action(NotificationRef, actionID: String)
  /// The user replies through a text-input action; nil picks the category's first one.
  case reply(NotificationRef, actionID: String?, text: String)
  /// Time passes; nothing else happens (summaries are released, Live Activities expire).
  case advance
}

/// A timeline event with its simulated time and where it was written.
///
/// The event and where it was written are kept by reference, apart from the time: a timeline
/// entry repeated through a YAML alias (`- *e`, how a million events fit in a scenario file)
/// shares one copy of them, so each repetition costs its time and a pointer (issue 15 §5).
public struct TimedEvent: Equatable, Sendable {
  /// What several entries may share: the event, and the file and line it was written at.
  final class Shared: Sendable {
    let event: TimelineEvent
    let file: String
    let line: Int?

    init(event: TimelineEvent, file: String, line: Int?) {
      self.event = event
      self.file = file
      self.line = line
    }
  }

  /// When it happens.
  public var at: SimInstant
  private var shared: Shared

  /// What happens.
  public var event: TimelineEvent {
    get { shared.event }
    set { shared = Shared(event: newValue, file: shared.file, line: shared.line) }
  }

  /// `file:line` of the event (the file alone when no line is known).
  public var source: String {
    get { shared.file + (shared.line.map { ":\($0)" } ?? "") }
    set { shared = Shared(event: shared.event, file: newValue, line: nil) }
  }

  /// Creates a timed event.
  public init(at: SimInstant, event: TimelineEvent, source: String) {
    self.at = at
    shared = Shared(event: event, file: source, line: nil)
  }

  /// Creates a timed event written at `line` of `file` (`source` is `file:line`).
  public init(at: SimInstant, event: TimelineEvent, file: String, line: Int?) {
    self.at = at
    shared = Shared(event: event, file: file, line: line)
  }

  /// The same event, written at the same place, at another time: the two share one copy of
  /// the event (a timeline entry repeated through an alias).
  public init(at: SimInstant, sharing other: TimedEvent) {
    self.at = at
    shared = other.shared
  }

  /// Whether this entry and `other` hold one shared copy of their event (not merely equal ones).
  public func sharesEvent(with other: TimedEvent) -> Bool { shared === other.shared }

  /// Identifies the shared copy of the event: entries that share it have the same identifier
  /// (valid while one of them is alive).
  public var sharedEventID: ObjectIdentifier { ObjectIdentifier(shared) }

  public static func == (lhs: TimedEvent, rhs: TimedEvent) -> Bool {
    lhs.at == rhs.at && (lhs.shared === rhs.shared || (lhs.event == rhs.event && lhs.source == rhs.source))
  }
}

/// A device profile and a timeline to play on it, as loaded from YAML.
public struct Scenario: Equatable, Sendable {
  /// A short title, for listings.
  public var title: String?
  /// What the scenario shows, for people.
  public var summary: String?
  /// The device at the start.
  public var profile: DeviceProfile
  /// Whether the profile came from the scenario itself (inline or a `profile:` file).
  public var hasOwnProfile: Bool
  /// The events in time order.
  public var timeline: [TimedEvent]

  /// Creates a scenario.
  public init(
    title: String? = nil, summary: String? = nil, profile: DeviceProfile, hasOwnProfile: Bool = true,
    timeline: [TimedEvent]
  ) {
    self.title = title
    self.summary = summary
    self.profile = profile
    self.hasOwnProfile = hasOwnProfile
    self.timeline = timeline
  }

  /// How many pushes the timeline holds.
  public var pushCount: Int {
    timeline.count { if case .device(.push) = $0.event { true } else { false } }
  }

  /// Plays the timeline on a fresh device; pure and deterministic.
  public func run() -> ScenarioRun {
    run(on: profile)
  }

  /// Plays the timeline on a device started from another profile (for `--profile`).
  public func run(on profile: DeviceProfile) -> ScenarioRun {
    var device = DeviceSimulator(profile: profile)
    for timed in timeline {
      Self.apply(timed, to: &device)
    }
    return ScenarioRun(records: device.records, device: device)
  }

  /// Applies one timed event, resolving notification references against the device's state.
  public static func apply(_ timed: TimedEvent, to device: inout DeviceSimulator) {
    device.advance(to: timed.at)
    if let event = deviceEvent(for: timed.event, in: device) { device.apply(event, at: timed.at) }
  }

  /// The device event a timeline event means now: references are resolved against what the
  /// device holds; nil when there is nothing to do (time only, or the notification is gone).
  public static func deviceEvent(for event: TimelineEvent, in device: DeviceSimulator) -> DeviceEvent? {
    switch event {
    case .device(let event):
      return event
    case .advance:
      return nil
    case .open(let ref):
      return resolve(ref, in: device).map { .open($0) }
    case .clear(let ref):
      return resolve(ref, in: device).map { .clear($0) }
    case .clearGroup(let ref):
      return resolve(ref, in: device).flatMap { device.store[$0]?.group }.map { .clearGroup($0) }
    case .action(let ref, let actionID):
      return resolve(ref, in: device).map { .action($0, actionID: actionID) }
    case .reply(let ref, let actionID, let text):
      guard let id = resolve(ref, in: device), let stored = device.store[id] else { return nil }
      let category = device.app(stored.notification.bundleID)?.category(stored.notification.category)
      let chosen = NotificationCategory.replyAction(actionID, in: category)
      return .action(id, actionID: chosen, text: text)
    }
  }

  /// The stored notification a reference means now, if it is still there.
  public static func resolve(_ ref: NotificationRef, in device: DeviceSimulator) -> NotificationID? {
    switch ref {
    case .push(let index):
      let pushes = device.records
      guard index >= 1, index <= pushes.count, let notification = pushes[index - 1].notification else { return nil }
      if device.store[notification.id] != nil { return notification.id }
      return device.store.collapseTarget(bundleID: notification.bundleID, collapseID: notification.collapseID)
    case .collapseID(let collapseID):
      return device.store.all.last { $0.notification.collapseID == collapseID }?.id
    }
  }
}

/// The outcome of playing a scenario.
public struct ScenarioRun: Sendable {
  /// One record per push, in timeline order.
  public var records: [DeliveryRecord]
  /// The device after the last event.
  public var device: DeviceSimulator
}

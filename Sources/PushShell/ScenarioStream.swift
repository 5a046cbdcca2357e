import PushCore

/// Plays a scenario's timeline as `Scenario.run()` does, handing out each delivery record as
/// soon as the device decides it instead of keeping them all (issue 15 §5: a 1,000,000-event
/// timeline in bounded memory).
///
/// References to "the n-th push" need only the notification that push made, so per push it
/// keeps that id (a few bytes), not the record, and only up to the last push the timeline
/// refers to by number.
package enum ScenarioStream {
  /// Plays `scenario`'s timeline on a fresh device from `profile` (default: the scenario's)
  /// and calls `body` with each push's record and the device's profile at that moment.
  ///
  /// - Parameter keepsPayloadDetails: whether stored notifications keep their payload's text,
  ///   custom keys and reasons (``DeviceSimulator/keepsPayloadDetails``). `explain` prints none
  ///   of them, so it plays lean, as it plays captures: the records it is handed have no payload
  ///   text (`notification.rawPayload`, `rejectedText`), and decide the same.
  /// - Returns: the device after the last event.
  @discardableResult
  package static func play(
    _ scenario: Scenario, on profile: DeviceProfile? = nil, keepsPayloadDetails: Bool = true,
    _ body: (DeliveryRecord, DeviceProfile) -> Void
  ) -> DeviceSimulator {
    var device = DeviceSimulator(profile: profile ?? scenario.profile)
    device.keepsRecords = false
    device.keepsPayloadDetails = keepsPayloadDetails
    let referenced = lastReferencedPush(scenario.timeline)
    var pushes: [Made?] = []
    pushes.reserveCapacity(referenced)
    for timed in scenario.timeline {
      device.advance(to: timed.at)
      guard let event = deviceEvent(for: timed.event, in: device, pushes: pushes) else { continue }
      guard let record = device.apply(event, at: timed.at) else { continue }
      if pushes.count < referenced { pushes.append(Made(record.notification)) }
      body(record, device.profile)
    }
    return device
  }

  /// The actions and replies the timeline asks for that the notifications do not offer
  /// (``DeviceSimulator/refusedResponses``), by notification. Played ahead of ``play(_:on:keepsPayloadDetails:_:)``
  /// when the timeline has any (a lean pass that keeps no records), so that a push's
  /// explanation can say so although it is written before the response comes; none otherwise.
  package static func refusedResponses(_ scenario: Scenario, on profile: DeviceProfile? = nil) -> [NotificationID:
    [RefusedResponse]]
  {
    let asks = scenario.timeline.contains { timed in
      switch timed.event {
      case .action, .reply: true
      default: false
      }
    }
    guard asks else { return [:] }
    let device = play(scenario, on: profile, keepsPayloadDetails: false) { _, _ in }
    return ExplainPrinter.byNotification(device.refusedResponses)
  }

  /// The highest push number the timeline refers to (`open: 3`), 0 when none.
  static func lastReferencedPush(_ timeline: [TimedEvent]) -> Int {
    var last = 0
    for timed in timeline {
      switch timed.event {
      case .open(.push(let index)), .clear(.push(let index)), .clearGroup(.push(let index)),
        .action(.push(let index), _), .reply(.push(let index), _, _):
        last = max(last, index)
      default: continue
      }
    }
    return last
  }

  /// `Scenario.deviceEvent(for:in:)`, with "the n-th push" looked up in `pushes`.
  static func deviceEvent(for event: TimelineEvent, in device: DeviceSimulator, pushes: [Made?])
    -> DeviceEvent?
  {
    switch event {
    case .device(let event):
      return event
    case .advance:
      return nil
    case .open(let ref):
      return resolve(ref, in: device, pushes: pushes).map { .open($0) }
    case .clear(let ref):
      return resolve(ref, in: device, pushes: pushes).map { .clear($0) }
    case .clearGroup(let ref):
      return resolve(ref, in: device, pushes: pushes).flatMap { device.store[$0]?.group }.map { .clearGroup($0) }
    case .action(let ref, let actionID):
      return resolve(ref, in: device, pushes: pushes).map { .action($0, actionID: actionID) }
    case .reply(let ref, let actionID, let text):
      guard let id = resolve(ref, in: device, pushes: pushes), let stored = device.store[id] else { return nil }
      let category = device.app(stored.notification.bundleID)?.category(stored.notification.category)
      let chosen = NotificationCategory.replyAction(actionID, in: category)
      return .action(id, actionID: chosen, text: text)
    }
  }

  /// `Scenario.resolve(_:in:)` without the device's records.
  static func resolve(_ ref: NotificationRef, in device: DeviceSimulator, pushes: [Made?]) -> NotificationID? {
    switch ref {
    case .push(let index):
      guard index >= 1, index <= pushes.count, let made = pushes[index - 1] else { return nil }
      if device.store[made.id] != nil { return made.id }
      return device.store.collapseTarget(bundleID: made.bundleID, collapseID: made.collapseID)
    case .collapseID(let collapseID):
      return device.store.all.last { $0.notification.collapseID == collapseID }?.id
    }
  }

  /// What a push's notification needs for references to it: its id, app and collapse id.
  struct Made {
    var id: NotificationID
    var bundleID: String
    var collapseID: String?

    init?(_ notification: PushNotification?) {
      guard let notification else { return nil }
      (id, bundleID, collapseID) = (notification.id, notification.bundleID, notification.collapseID)
    }
  }
}

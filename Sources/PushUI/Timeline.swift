import PushCore

/// One event on the timeline the front end plays: something that happens to the device at a time.
public struct TimelineEntry: Equatable, Sendable {
  /// When it happens.
  public var at: SimInstant
  /// What happens: a device event, or a user action on a notification named by reference.
  public var event: TimelineEvent

  /// Creates an entry from a scenario's timeline event.
  public init(at: SimInstant, event: TimelineEvent) {
    self.at = at
    self.event = event
  }

  /// Creates an entry for a device event.
  public init(at: SimInstant, event: DeviceEvent) {
    self.init(at: at, event: .device(event))
  }

  /// Creates an entry from a scenario's timed event.
  public init(_ timed: TimedEvent) {
    self.init(at: timed.at, event: timed.event)
  }
}

/// Builds timelines from pushes read from files and captures.
public enum Timeline {
  /// How far apart pushes from payload files arrive.
  public static let fileSpacing = SimDuration.seconds(3)

  /// Places records on a timeline: a capture record arrives at its envelope's `at`, a payload
  /// file's a few seconds after the previous push.
  ///
  /// - Parameters:
  ///   - records: the pushes, in input order.
  ///   - start: when the device starts; the first file arrives ``fileSpacing`` later.
  ///   - startsAtCapture: whether the device starts just before the earliest capture time (the
  ///     inputs bring their own time) instead of at `start` (a scenario's timeline comes first).
  /// - Returns: the device's start (moved before the earliest capture time) and the entries.
  public static func entries(for records: [PushRecord], start: SimInstant, startsAtCapture: Bool = false) -> (
    start: SimInstant, entries: [TimelineEntry]
  ) {
    let earliestCapture = records.compactMap(\.at).min().map { SimInstant(epochSeconds: $0) }
    let origin =
      earliestCapture.map { startsAtCapture ? $0 - fileSpacing : min($0 - fileSpacing, start) } ?? start
    var cursor = origin
    var entries: [TimelineEntry] = []
    entries.reserveCapacity(records.count)
    for record in records {
      if let at = record.at {
        cursor = max(cursor, SimInstant(epochSeconds: at))
        entries.append(TimelineEntry(at: SimInstant(epochSeconds: at), event: .push(record)))
      } else {
        cursor = cursor + fileSpacing
        entries.append(TimelineEntry(at: cursor, event: .push(record)))
      }
    }
    return (origin, entries)
  }
}

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
  /// How far apart pushes from payload files arrive, in every command (`run`, `render`,
  /// `explain`, `replay`, storyboards): ``ArrivalClock`` is the one place that uses it.
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
      earliestCapture.map {
        startsAtCapture ? ArrivalClock.start(beforeCapture: $0) : min(ArrivalClock.start(beforeCapture: $0), start)
      } ?? start
    var clock = ArrivalClock(start: origin)
    var entries: [TimelineEntry] = []
    entries.reserveCapacity(records.count)
    for record in records {
      entries.append(TimelineEntry(at: clock.arrival(of: record), event: .push(record)))
    }
    return (origin, entries)
  }
}

/// When each push read from a file arrives on the device: the one rule every command places
/// pushes by (`run` and `render` through ``Timeline`` and ``StreamingTimeline``, `explain`,
/// `replay`), so the Nth payload file arrives at the same time in each of them.
///
/// A capture line arrives at its envelope's `at`; a payload file ``Timeline/fileSpacing`` after
/// the latest push placed so far (the device's start for the first); a capture line that has no
/// `at` (a rejected line) at the latest push's time. Inputs that bring their own time start the
/// device one spacing before the earliest capture line (``start(beforeCapture:)``).
public struct ArrivalClock: Sendable {
  /// The latest arrival placed so far (the start before any).
  public private(set) var latest: SimInstant

  /// Starts the clock at the device's start.
  public init(start: SimInstant) { latest = start }

  /// Where the device starts for inputs whose earliest capture line arrives at `first`: one
  /// spacing before it, as a payload file before it would.
  public static func start(beforeCapture first: SimInstant) -> SimInstant { first - Timeline.fileSpacing }

  /// When `record` arrives, moving the clock on: a capture line at its `at`, a payload file
  /// (a record with neither `at` nor a line) one spacing after the latest arrival, a capture line
  /// without `at` at the latest arrival.
  public mutating func arrival(of record: PushRecord) -> SimInstant {
    if let at = record.at {
      let instant = SimInstant(epochSeconds: at)
      latest = max(latest, instant)
      return instant
    }
    if record.line == nil { latest = latest + Timeline.fileSpacing }
    return latest
  }
}

extension AppState {
  /// Appends events read after the state was made (a capture streamed while a frame is being
  /// made), keeping the timeline in time order (stable): an event earlier than the last one
  /// still to come takes its place among them; one earlier than what has already arrived
  /// arrives next, at the current time, as a late push would.
  public mutating func appendTimeline(_ entries: some Sequence<TimelineEntry>) {
    appendTimeline(TimelineStore(entries))
  }

  /// Appends events read after the state was made, some of them capture lines kept as
  /// references, as ``appendTimeline(_:)-(Sequence<TimelineEntry>)`` does.
  public mutating func appendTimeline(_ entries: TimelineStore) {
    for index in entries.indices {
      let at = entries.instant(index)
      guard let last = timeline.indices.last, at < timeline.instant(last) else {
        timeline.insert(from: entries, index, at: timeline.count)
        continue
      }
      var lower = timelineCursor
      var upper = timeline.count
      while lower < upper {
        let middle = (lower + upper) / 2
        if timeline.instant(middle) <= at { lower = middle + 1 } else { upper = middle }
      }
      if lower == timelineCursor, lower > 0, at < timeline.instant(lower - 1) { lateArrivals += 1 }
      seekCheckpoints?.forget(playedFrom: lower)
      timeline.insert(from: entries, index, at: lower)
    }
  }

  /// Plays a batch of entries that have all arrived by `instant`, then moves the clock to
  /// `instant`: what ``appendTimeline(_:)-(Sequence<TimelineEntry>)``, ``Event/tick(_:)`` and
  /// ``forgetArrivedTimeline()`` do in turn, for a state that forgets its timeline as it plays
  /// (``consumesArrivedTimeline``, `render`) and has nothing left on it. The entries are played
  /// straight from the batch, in time order (stable, as the timeline would hold them), without
  /// being copied onto the timeline and taken off again; they are moved out of `entries`, which
  /// is left empty with its storage kept for the next batch. Any other state takes the long way.
  /// (``TimelineStore/placedCount`` counts what went on the timeline; none of these do.)
  public mutating func playArrived(_ entries: inout [TimelineEntry], through instant: SimInstant) {
    defer { entries.removeAll(keepingCapacity: true) }
    var inOrder = true
    var fits = true
    for index in entries.indices {
      let at = entries[index].at
      if at > instant { fits = false }
      if index > 0, at < entries[index - 1].at { inOrder = false }
    }
    guard consumesArrivedTimeline, timeline.isEmpty, timelineCursor == 0, journaledTimelineCount == 0,
      playAhead == nil, instant >= now, fits
    else {
      appendTimeline(entries)
      _ = reduce(into: &self, .tick(instant))
      forgetArrivedTimeline()
      return
    }
    // In time order as the timeline places them (an entry after every earlier one with the
    // same time): the positions are sorted, not the entries.
    let order = inOrder ? nil : entries.indices.sorted { (entries[$0].at, $0) < (entries[$1].at, $1) }
    for position in entries.indices {
      let index = order?[position] ?? position
      var entry = TimelineEntry(at: entries[index].at, event: .advance)
      swap(&entry, &entries[index])
      // Played at once and forgotten: like a timeline's entry played for the first time, it
      // is fresh for the journal (``journaledTimelineCount`` goes back to 0 when it forgets).
      play(entry, fresh: true)
    }
    settle(at: instant)
    // The view caches are not refreshed here: they check the store's revision when read, and
    // the next event's reduce refreshes them. Refreshing after every batch rebuilt the lock
    // screen's stacks (too much had changed to update them) for a frame that was never drawn.
  }

  /// Forgets the timeline entries that have arrived, so a long capture played forward is not
  /// kept whole. Only for a state that never seeks back (`render`): seeking back replays the
  /// timeline from its start.
  public mutating func forgetArrivedTimeline() {
    guard timelineCursor > 0 else { return }
    seekCheckpoints?.forget(playedFrom: 0)
    timeline.removeFirst(timelineCursor)
    journaledTimelineCount = max(0, journaledTimelineCount - timelineCursor)
    timelineCursor = 0
  }
}

/// Places records read one by one on a timeline, as ``Timeline/entries(for:start:startsAtCapture:)``
/// does for a whole list, for inputs streamed without a scenario: the device starts just before
/// the first capture line (payload files before it wait for it), capture lines arrive at their
/// `at`, payload files a few seconds after the previous push.
public struct StreamingTimeline: Sendable {
  /// The device's start, once known (the first capture line, or ``finish()``).
  public private(set) var start: SimInstant?
  private let defaultStart: SimInstant
  /// Placed from ``start`` once it is known (``begin(at:)``).
  private var clock: ArrivalClock
  private var waiting: [PushRecord] = []

  /// Creates a timeline whose device starts at `defaultStart` when no record has a time.
  public init(defaultStart: SimInstant) {
    self.defaultStart = defaultStart
    clock = ArrivalClock(start: defaultStart)
  }

  /// Places a record; returns the entries now placed (none while waiting for a start).
  public mutating func place(_ record: PushRecord) -> [TimelineEntry] {
    var placed: [TimelineEntry] = []
    place(record, into: &placed)
    return placed
  }

  /// Places a record, appending the entries now placed to `entries` (none while waiting for a
  /// start): ``place(_:)`` without an array for each record.
  public mutating func place(_ record: PushRecord, into entries: inout [TimelineEntry]) {
    if start == nil {
      guard let at = record.at else {
        waiting.append(record)
        return
      }
      begin(at: ArrivalClock.start(beforeCapture: SimInstant(epochSeconds: at)))
      entries += drainWaiting()
    }
    entries.append(entry(record))
  }

  /// Places what still waits: payload files with no capture, from the default start.
  public mutating func finish() -> [TimelineEntry] {
    if start == nil { begin(at: defaultStart) }
    return drainWaiting()
  }

  private mutating func begin(at origin: SimInstant) {
    start = origin
    clock = ArrivalClock(start: origin)
  }

  private mutating func drainWaiting() -> [TimelineEntry] {
    let records = waiting
    waiting = []
    return records.map { entry($0) }
  }

  private mutating func entry(_ record: PushRecord) -> TimelineEntry {
    TimelineEntry(at: clock.arrival(of: record), event: .push(record))
  }
}

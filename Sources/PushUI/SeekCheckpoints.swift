import PushCore

/// States the front end keeps of itself as it plays a long timeline, for seeks back and into
/// the middle when no device is played ahead (`run` on a large capture with a state database).
///
/// Without them a seek back rebuilds the device from its start and plays every entry up to the
/// target again: at a million lines a seek into the middle arrived after about 8 s. A kept state
/// is a copy that shares its storage with the state played on (only what is written next is
/// copied, as the checkpoints of a device played ahead are), without its timeline, its pending
/// change set or more than the latest delivery records. One is kept each time the front end has
/// played ``spacing`` entries past the last, while their estimated cost stays within ``budget``.
///
/// A kept state stands for the front end only when the user's own events (a lock, a clear, a
/// push to `run --listen`) are the same as the front end's at that point: a seek back that
/// drops later events, or a new event before a kept state's time, leaves that state unused
/// (docs/DECISIONS.md, "Run: seeks with a state database").
public struct SeekCheckpoints: Sendable {
  struct Kept: Sendable {
    var state: AppState
    /// The timeline entries it had played.
    var cursor: Int
  }

  /// The states kept, in the order played (their cursors increase).
  var kept: [Kept] = []
  /// What they are estimated to cost together.
  private(set) var cost = 0
  /// The fewest entries between two kept states; a sixteenth of the timeline when that is more.
  public let spacing: Int
  /// What they may cost together, estimated at ``bytesPerEntry`` for each entry played before
  /// each (what the state played on goes on to copy of what it shares with them).
  public let budget: Int
  public let bytesPerEntry: Int
  /// How many of the latest delivery records each keeps.
  public let records: Int

  public init(spacing: Int, budget: Int, bytesPerEntry: Int, records: Int) {
    self.spacing = spacing
    self.budget = budget
    self.bytesPerEntry = bytesPerEntry
    self.records = records
  }

  /// How many states are kept.
  public var count: Int { kept.count }

  /// The latest kept state, by its cursor, that stands for the front end on the way to
  /// `instant`: its clock not past it, its entries still the timeline's first, and the same
  /// user's events as `userEvents`.
  func latest(toward instant: SimInstant, timelineCount: Int, userEvents: [TimelineEntry]) -> Kept? {
    kept.last { $0.state.now <= instant && $0.cursor <= timelineCount && $0.state.userEvents == userEvents }
  }

  /// Forgets the states that played an entry at or after `position` (an entry arrived late,
  /// before what they played).
  mutating func forget(playedFrom position: Int) {
    while let last = kept.last, last.cursor > position {
      kept.removeLast()
      cost -= last.cursor * bytesPerEntry
    }
  }

  mutating func keep(_ state: AppState, cursor: Int) {
    kept.append(Kept(state: state, cursor: cursor))
    cost += cursor * bytesPerEntry
  }
}

extension AppState {
  /// After an entry played: keeps a checkpoint of this state when it is due (``seekCheckpoints``).
  /// Only a device that keeps a window of delivery records (a large input's lean device) keeps
  /// them: a checkpoint of one that keeps every record would have them all copied by the next
  /// push.
  mutating func keepSeekCheckpointIfDue() {
    // Read in place: this runs after every entry played.
    guard device.recordWindow != nil, let spacing = seekCheckpoints?.spacing,
      timelineCursor >= (seekCheckpoints?.kept.last?.cursor ?? 0) + max(spacing, timeline.count / 16),
      var checkpoints = seekCheckpoints,
      checkpoints.cost + timelineCursor * checkpoints.bytesPerEntry <= checkpoints.budget
    else { return }
    // Out of the state while it is copied, so the copy does not hold the others.
    seekCheckpoints = nil
    var copy = keptAsCheckpoint(records: checkpoints.records)
    copy.changes = DeviceChanges()
    checkpoints.keep(copy, cursor: timelineCursor)
    seekCheckpoints = checkpoints
  }

  /// Before a move of the clock to `instant`: takes the place of the latest checkpoint on the
  /// way there when it saves at least ``playAheadMinimum`` entries (a seek back has just
  /// rebuilt the device from its start, so any checkpoint before the target does).
  mutating func jumpToSeekCheckpoint(toward instant: SimInstant) {
    guard let checkpoints = seekCheckpoints,
      let checkpoint = checkpoints.latest(toward: instant, timelineCount: timeline.count, userEvents: userEvents),
      checkpoint.cursor - timelineCursor >= Self.playAheadMinimum
    else { return }
    adopt(checkpoint.state, played: checkpoint.cursor)
    seekCheckpointRestores += 1
  }
}

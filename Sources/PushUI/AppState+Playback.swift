import PushCore

/// How fast simulated time runs while the timeline plays.
public enum PlaybackSpeed: Equatable, Sendable {
  /// Simulated seconds per real second.
  case times(Double)
  /// Everything still on the timeline arrives at once.
  case instant

  /// The speeds `+` and `-` step through, slowest first.
  public static let all: [PlaybackSpeed] = [
    .times(0.5), .times(1), .times(2), .times(10), .times(100), .times(1000), .instant,
  ]

  /// As the status line and timeline pane show it: `0.5×`, `10×`, `instant`.
  public var label: String {
    switch self {
    case .instant: return "instant"
    case .times(let rate):
      return rate == rate.rounded() ? "\(Int(rate))×" : "\(rate)×"
    }
  }
}

/// Whether the clock plays and how fast; the runtime's clock follows it through
/// ``Effect/setClock(running:speed:)``.
public struct Playback: Equatable, Sendable {
  /// Whether simulated time moves on its own (a manual clock starts paused).
  public var isPlaying = true
  /// The index into ``PlaybackSpeed/all``.
  public var speedIndex = 1
  /// A speed given on the command line that is not one of ``PlaybackSpeed/all`` (`--speed 60`):
  /// shown and used as given until `+` or `-` moves to a listed one.
  public var customRate: Double?

  /// Creates a playing 1× playback.
  public init() {}

  /// The speed.
  public var speed: PlaybackSpeed { customRate.map(PlaybackSpeed.times) ?? PlaybackSpeed.all[speedIndex] }

  /// The rate the runtime's clock runs at (instant jumps instead, so its clock stops).
  public var clockRate: Double {
    if case .times(let rate) = speed { return rate }
    return 1
  }
}

extension AppState {
  /// Tells the state how the runtime's clock starts: playing (wall clock) or paused (manual),
  /// and at which speed (the nearest of ``PlaybackSpeed/all``).
  public mutating func configurePlayback(isPlaying: Bool, speed: Double) {
    playback.isPlaying = isPlaying
    playback.customRate = nil
    if let index = PlaybackSpeed.all.firstIndex(of: .times(speed)) {
      playback.speedIndex = index
      return
    }
    // Not a listed speed: kept as given (the clock runs at it), and `+` / `-` step from the
    // listed speeds on either side of it.
    guard speed.isFinite, speed > 0 else { return }
    playback.customRate = speed
    playback.speedIndex =
      PlaybackSpeed.all.lastIndex {
        if case .times(let rate) = $0 { return rate < speed }
        return false
      } ?? 0
  }

  /// The index of the first timeline entry not yet applied: entries before it have arrived.
  public var arrivedCount: Int { timelineCursor }

  /// Whether a timeline entry is a push.
  static func isPush(_ entry: TimelineEntry) -> Bool {
    if case .device(.push) = entry.event { return true }
    return false
  }

  /// The clock effect for the current playback.
  var clockEffect: Effect {
    .setClock(running: playback.isPlaying && playback.speed != .instant, speed: playback.clockRate)
  }

  /// Play or pause.
  mutating func togglePlay() -> [Effect] {
    playback.isPlaying.toggle()
    if playback.isPlaying, playback.speed == .instant { return jumpToEnd() }
    showToast(playback.isPlaying ? "Playing at \(playback.speed.label)" : "Paused")
    return [clockEffect]
  }

  /// One speed faster or slower.
  mutating func changeSpeed(by step: Int) -> [Effect] {
    // From a custom speed, `-` goes to the listed speed just below it (``speedIndex``) and
    // `+` to the one just above.
    let next: Int
    if playback.customRate != nil {
      next = step < 0 ? playback.speedIndex : playback.speedIndex + 1
    } else {
      next = playback.speedIndex + step
    }
    let index = min(max(next, 0), PlaybackSpeed.all.count - 1)
    playback.customRate = nil
    playback.speedIndex = index
    if playback.isPlaying, playback.speed == .instant { return jumpToEnd() }
    showToast("Speed \(playback.speed.label)")
    return [clockEffect]
  }

  /// Instant playback: everything on the timeline arrives now, then the clock pauses.
  private mutating func jumpToEnd() -> [Effect] {
    playback.isPlaying = false
    guard let last = timeline.last?.at, last > now else {
      showToast("Instant: nothing more on the timeline")
      return [clockEffect]
    }
    let count = pendingEventCount
    let effects: [Effect] = [clockEffect, .advanceClock(last - now)]
    showToast("Instant: \(count) event\(count == 1 ? "" : "s") applied")
    return effects
  }

  /// Seeks back to the push before the last one that arrived (or to the start).
  mutating func stepToPreviousPush() -> [Effect] {
    guard let last = timeline[..<timelineCursor].lastIndex(where: Self.isPush) else {
      guard now > initialDevice.now else {
        showToast("Already at the start of the timeline")
        return []
      }
      return seek(to: initialDevice.now)
    }
    let lastAt = timeline[last].at
    let previous = timeline[..<last].lastIndex { Self.isPush($0) && $0.at < lastAt }
    return seek(to: previous.map { timeline[$0].at } ?? initialDevice.now)
  }

  /// Moves the simulated clock to `target`: forward by playing the timeline up to it, backward
  /// by rebuilding the device from its start and replaying the timeline and the user's own
  /// events up to it (the simulator is deterministic, so this gives the state it had then).
  mutating func seek(to target: SimInstant) -> [Effect] {
    if target >= now {
      // While following an earlier move, the runtime's clock is already past `now`: it is set
      // to the target, not moved on from there.
      return followingTo == nil ? [.advanceClock(target - now)] : [.seekClock(to: target)]
    }
    let target = max(target, initialDevice.now)
    rebuild(upTo: target)
    showToast("Back to \(clockText(target))")
    return [.seekClock(to: target)]
  }

  /// Rebuilds the state from the initial device, replaying up to `target`.
  mutating func rebuild(upTo target: SimInstant) {
    let replayed = userEvents.filter { $0.at <= target }
    // What is replayed here is journalled already.
    let journals = journalsChanges
    journalsChanges = false
    defer { journalsChanges = journals }
    replaceDevice(with: initialDevice)
    invalidateViewCaches()
    now = initialDevice.now
    followingTo = nil
    timelineCursor = 0
    banners = []
    summary = []
    rejections = []
    rejectedCount = 0
    inspectedRejection = nil
    followedRemovals = device.store.removalCount
    followedReleases = device.store.releaseCount
    toast = nil
    waitingToast = nil
    userEvents = []
    recordIndex = [:]
    for record in device.records {
      if let id = record.notification?.id { recordIndex[id] = record.index }
    }
    for entry in replayed {
      advance(to: entry.at)
      if case .device(let event) = entry.event { apply(event, at: entry.at) }
    }
    // A slice a turn from here, like a move forward (the clock is set to the target).
    advance(to: target, slice: playSlice)
    // Banners from the replay would all queue at once: only the last one shows.
    if banners.count > 1 { banners.removeFirst(banners.count - 1) }
    leaveDetailIfGone()
  }

  /// `09:41:30` in the device's time zone.
  func clockText(_ instant: SimInstant) -> String {
    let time = CivilTime(instant, utcOffsetSeconds: device.profile.utcOffsetSeconds)
    func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    return "\(two(time.hour)):\(two(time.minute)):\(two(time.second))"
  }

  /// Reads a seek target with the one time grammar (``TimeGrammar``): `+5m`, `-30s`,
  /// `+1h30m` (relative to now), `09:45` / `08:00:30` (that time on the simulated day) or an
  /// ISO 8601 time; nil when it cannot be read or is outside ``EpochRange``.
  public func seekTarget(_ text: String) -> SimInstant? {
    if case .instant(let instant) = readSeekTarget(text) { return instant }
    return nil
  }

  /// What a typed seek target names.
  enum SeekReading: Equatable {
    case instant(SimInstant)
    /// Readable, but outside the simulated time (or too large to compute).
    case outOfRange
    case unreadable
  }

  func readSeekTarget(_ text: String) -> SeekReading {
    do {
      return .instant(try TimeGrammar.instant(text, now: now, utcOffsetSeconds: device.profile.utcOffsetSeconds))
    } catch .outOfRange {
      return .outOfRange
    } catch {
      return .unreadable
    }
  }
}

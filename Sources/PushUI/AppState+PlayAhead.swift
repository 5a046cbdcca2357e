import PushCore

/// A device played ahead of the front end, on another thread, over the same timeline: `run`
/// plays a capture as it reads it (``AppState/playAhead``), so a seek to the end takes that
/// device instead of playing a million entries on the front end's thread.
public protocol PlayAhead: AnyObject, Sendable {
  /// The state after every entry, once the inputs are read and played; nil while still
  /// playing, or when it cannot stand for the front end (an entry came too late to be played
  /// in time order).
  func finished() -> AppState?
  /// Whether it is still reading and playing.
  var isPlaying: Bool { get }
  /// While playing: the latest state it has handed over since the last call, if any, and a
  /// request for a newer one (the reader hands one over between chunks, a few times a second).
  /// A seek past what has been read lands there and follows (docs/DECISIONS.md, Run: seeks).
  func latest() -> AppState?
  /// Once finished: the latest of the states it kept along the way (checkpoints) whose clock is
  /// at or before `instant`, for a seek into the middle.
  func checkpoint(atOrBefore instant: SimInstant) -> AppState?
}

extension PlayAhead {
  /// None handed over.
  public func latest() -> AppState? { nil }
  /// None kept.
  public func checkpoint(atOrBefore instant: SimInstant) -> AppState? { nil }
}

extension AppState {
  /// Fewer entries than this between the cursor and a target are played here, at once.
  public static let playAheadMinimum = 4_096

  /// Before a move of the clock to `instant`: when a device played ahead (``playAhead``) stands
  /// for the front end at or before it and is far enough ahead, the front end takes its place
  /// and plays only what comes after it. While the inputs are still being read, a move past
  /// everything read so far waits for them (the loop asks again on every turn).
  ///
  /// - Returns: false to wait (the clock does not move yet), true to play on.
  mutating func fastForward(toward instant: SimInstant) -> Bool {
    if seekCheckpoints != nil { jumpToSeekCheckpoint(toward: instant) }
    guard let playAhead, userEvents.isEmpty, !journalsChanges, lateArrivals == 0, liveArrivals == 0 else {
      return playWhatIsRead(toward: instant)
    }
    // The first entry after the target.
    var lower = timelineCursor
    var upper = timeline.count
    while lower < upper {
      let middle = (lower + upper) / 2
      if timeline.instant(middle) <= instant { lower = middle + 1 } else { upper = middle }
    }
    // Past everything read so far, by more than the clock moves in a turn of playing: a seek.
    let pastEverything =
      lower == timeline.count
      && (timeline.isEmpty || instant - timeline.instant(timeline.count - 1) > Self.playAheadWaitMargin)
    let isLong = lower - timelineCursor >= Self.playAheadMinimum
    if let ahead = playAhead.finished() {
      let played = ahead.playedEntryCount
      // Read and played, but not all taken by the front end yet: the next turn brings the rest.
      if pastEverything, played > timeline.count { return waitForPlayAhead() }
      // A long move, or the end of one followed while reading: take it (playing the few
      // entries left here would make a second device of the same).
      guard isLong || followingTo != nil else { return true }
      if played > timelineCursor, played <= timeline.count, ahead.now <= instant {
        takePlace(of: ahead, played: played)
        return true
      }
      // Into the middle: the latest checkpoint before the target, when it saves enough entries;
      // the rest is played here (a slice a turn in `run`).
      if let checkpoint = playAhead.checkpoint(atOrBefore: instant), checkpoint.now <= instant,
        checkpoint.playedEntryCount - timelineCursor >= Self.playAheadMinimum,
        checkpoint.playedEntryCount <= timeline.count
      {
        takePlace(of: checkpoint, played: checkpoint.playedEntryCount)
      }
      return true
    }
    guard playAhead.isPlaying, pastEverything || isLong else { return true }
    // Still reading: land on the latest state played so far (when it is ahead of this one and
    // not past the target), then follow; a seek past everything read waits for the rest.
    if let latest = playAhead.latest(), latest.now <= instant, latest.playedEntryCount > timelineCursor,
      latest.playedEntryCount <= timeline.count
    {
      takePlace(of: latest, played: latest.playedEntryCount)
    }
    guard pastEverything else { return true }
    return followingTo == nil ? waitForPlayAhead() : false
  }

  /// How far past the last entry read a move must go to wait for the device played ahead.
  public static let playAheadWaitMargin = SimDuration.seconds(60)

  private mutating func waitForPlayAhead() -> Bool {
    showToast("Seeking: reading and playing the inputs…")
    return false
  }

  /// Puts `other` in the device's place (a seek back's start, a device played ahead, a
  /// checkpoint), keeping the Display As chosen in Settings: how the user looks at the phone,
  /// not something that happened on it.
  mutating func replaceDevice(with other: DeviceSimulator) {
    let chosen = device.chosenLockScreenDisplay
    device = other
    if let chosen { device.setLockScreenDisplay(chosen) }
  }

  /// This state as a device played ahead hands it over or keeps it as a checkpoint: without
  /// its timeline (the front end has its own), sharing the rest's storage with this one.
  public func handedOver() -> AppState {
    var copy = self
    copy.timeline = TimelineStore()
    copy.timelineCursor = 0
    return copy
  }

  /// The state to keep as a checkpoint: handed over, with only the latest delivery records of a
  /// device that keeps a window of them (the window's other records would be a copy: the device
  /// played ahead goes on writing its own).
  public func keptAsCheckpoint(records: Int) -> AppState {
    var copy = handedOver()
    if copy.device.recordWindow != nil { copy.device.dropRecords(keepingLatest: records) }
    return copy
  }

  /// Takes the device and what follows it from a state played ahead over the same timeline,
  /// keeping what the user sees (screen, panes, selection, playback).
  mutating func takePlace(of ahead: AppState, played: Int) {
    adopt(ahead, played: played)
    playAheadTakeovers += 1
  }

  /// Takes the device and what follows it from `ahead`, a state over the same timeline that had
  /// played its first `played` entries (a device played ahead, or a checkpoint of this one).
  mutating func adopt(_ ahead: AppState, played: Int) {
    replaceDevice(with: ahead.device)
    invalidateViewCaches()
    now = ahead.now
    timelineCursor = played
    journaledTimelineCount = max(journaledTimelineCount, played)
    banners = ahead.banners
    summary = ahead.summary
    rejections = ahead.rejections
    rejectedCount = ahead.rejectedCount
    inspectedRejection = nil
    followedRemovals = ahead.followedRemovals
    followedReleases = ahead.followedReleases
    recordIndex = ahead.recordIndex
    toast = ahead.toast
    leaveDetailIfGone()
  }
}

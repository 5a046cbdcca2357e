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
    guard let playAhead, userEvents.isEmpty, !journalsChanges, lateArrivals == 0 else {
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
    if let ahead = playAhead.finished() {
      let played = ahead.playedEntryCount
      // Read and played, but not all taken by the front end yet: the next turn brings the rest.
      if pastEverything, played > timeline.count { return waitForPlayAhead() }
      guard lower - timelineCursor >= Self.playAheadMinimum, played > timelineCursor, played <= timeline.count,
        ahead.now <= instant
      else { return true }
      takePlace(of: ahead, played: played)
      return true
    }
    // Still reading: a seek past everything read so far waits for the device played ahead.
    guard playAhead.isPlaying, pastEverything else { return true }
    return waitForPlayAhead()
  }

  /// How far past the last entry read a move must go to wait for the device played ahead.
  public static let playAheadWaitMargin = SimDuration.seconds(60)

  private mutating func waitForPlayAhead() -> Bool {
    showToast("Seeking: reading and playing the inputs…")
    return false
  }

  /// Takes the device and what follows it from a state played ahead over the same timeline,
  /// keeping what the user sees (screen, panes, selection, playback).
  mutating func takePlace(of ahead: AppState, played: Int) {
    device = ahead.device
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
    playAheadTakeovers += 1
    if case .detail(let id) = screen, device.store[id] == nil { screen = .center }
    if case .actionSheet(let sheet)? = overlay, device.store[sheet.notification] == nil { overlay = nil }
  }
}

import PushCore

extension AppState {
  /// A push that arrived from outside the timeline — the APNs endpoint of `run --listen` — is
  /// put on the timeline at the current simulated time, after everything that has arrived, and
  /// played there: policy, store, banner. On the timeline, a seek back and forward plays it
  /// again where it came, with the same notification id (as a user's event it was dropped by a
  /// seek back, and the pushes after it took its id, which the journal already held).
  ///
  /// With a state database, a push that arrives while the front end is back in time (after a
  /// seek back) first brings it back to where the journal is: the journal holds what came after
  /// this moment, and a push placed before it would take an id one of them has.
  public mutating func receive(_ record: PushRecord) {
    if journalsChanges, timelineCursor < journaledTimelineCount {
      advance(to: max(now, timeline.instant(journaledTimelineCount - 1)))
      showToast("A push arrived: back to \(clockText(now))")
    }
    let position = timelineCursor
    let entry = TimelineEntry(at: now, event: .device(.push(record)))
    timeline.insert(entry, at: position)
    liveArrivals += 1
    // The entries after it moved on by one: those journalled still are, and checkpoints that
    // played them did not play this one.
    if position < journaledTimelineCount { journaledTimelineCount += 1 }
    seekCheckpoints?.forget(playedFrom: position)
    timelineCursor += 1
    journaledTimelineCount = max(journaledTimelineCount, timelineCursor)
    followsLiveArrival = true
    play(entry, fresh: true)
    followsLiveArrival = false
    refreshViewCaches()
  }
}

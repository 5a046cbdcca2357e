import PushCore

/// Takes the front end's change set in slices while a long turn plays (``AppState/changeSlices``):
/// the shell's journal commits each one, in order, so a seek over a million pushes never holds
/// the change set of the whole seek at once.
public protocol ChangeSliceSink: AnyObject, Sendable {
  /// Takes what the device changed over the last ``AppState/changeSliceSize`` events (or
  /// fewer), in the order it was made; the next slice continues it.
  func commit(slice: DeviceChanges)
}

/// Reads back what a lean device (``DeviceSimulator/keepsPayloadDetails`` off) does not keep
/// in memory: the shell's state database holds every delivery whole.
public protocol DeliveryDetails: AnyObject, Sendable {
  /// The notification as it was delivered, with its payload text, custom keys and reasons; nil
  /// when it cannot be read.
  func delivered(_ id: NotificationID) -> StoredNotification?
}

extension AppState {
  /// A stored notification with its payload text, custom keys and reasons: as the store keeps
  /// it, or, on a device that keeps no payload details, with those read back from
  /// ``deliveryDetails`` (the store's rank and state stay), and whether it has them. Nil when
  /// it is not stored.
  public func detailed(_ id: NotificationID) -> (notification: StoredNotification, hasDetails: Bool)? {
    guard let stored = device.store[id] else { return nil }
    guard !device.keepsPayloadDetails else { return (stored, true) }
    guard let delivered = deliveryDetails?.delivered(id) else { return (stored, false) }
    // What a lean store left out (``NotificationStore/keepsPayloadDetails``), and nothing else.
    var detailed = stored
    detailed.notification.rawPayload = delivered.notification.rawPayload
    detailed.notification.customKeys = delivered.notification.customKeys
    detailed.decision.reasons = delivered.decision.reasons
    return (detailed, true)
  }

  /// A stored notification's payload as received, for the app's handler (read back from the
  /// state database on a device that keeps no payload text; empty when nothing keeps it).
  func payloadText(of id: NotificationID) -> String {
    detailed(id)?.notification.notification.rawPayload ?? ""
  }

  /// Hands what the device changed so far to ``changeSlices``, when the shell gave one.
  mutating func handOverChangeSlice() {
    guard journalsChanges, let changeSlices, !changes.isEmpty else { return }
    changeSlices.commit(slice: takeChanges())
  }

  /// A move of the clock while the inputs are still read, with no device played ahead to take
  /// (a state database journals what the front end plays): a move past everything read so
  /// far plays what has been read up to ``playAheadWaitMargin`` before its latest entry (a
  /// line read later may still go before those), then waits for more, so every push arrives
  /// at its own time instead of at the target, late; the loop asks again on every turn.
  ///
  /// - Returns: false to wait (the clock does not reach `instant` yet), true to play on.
  mutating func playWhatIsRead(toward instant: SimInstant) -> Bool {
    guard readingProgress != nil else { return true }
    let latest = timeline.isEmpty ? now : timeline.instant(timeline.count - 1)
    guard instant - latest > Self.playAheadWaitMargin else { return true }
    let reachable = latest - Self.playAheadWaitMargin
    // A slice a turn in `run` (``playSlice``), so the screen follows the way there.
    if reachable > now { advance(to: reachable, slice: playSlice) }
    showToast("Seeking: reading and playing the inputs…")
    return false
  }
}

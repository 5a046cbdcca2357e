import PushCore
import PushStore
import PushUI

/// Keeps the front end's device in a state database: restores it at start and journals every
/// device event as the session runs, so quitting (or being killed) and starting again shows the
/// same Notification Center.
///
/// The journal is fed the change set the front end's device produced as it applied each event
/// (``AppState/takeChanges()``, written by the ingest step); each turn's changes go into one
/// transaction. There is no second device: nothing is recomputed for the journal.
package final class StatePersistence {
  private let journal: DeviceJournal
  /// The Live Activities as last saved: time alone ends them, with no event to say so.
  private var savedLiveActivities: [LiveActivity]
  /// Where the state lives, for messages.
  package let path: String

  /// The saved clock of a continued device: timeline events at or before it were applied
  /// before it was saved (nil for a new state).
  package let resumedAt: SimInstant?
  /// How many of the session's timeline events were at or before ``resumedAt`` when it opened.
  package let skippedAtOpen: Int

  private init(
    journal: DeviceJournal, liveActivities: [LiveActivity], path: String, savedState: RestoredDevice.State?,
    resumedAt: SimInstant?, skippedAtOpen: Int
  ) {
    self.journal = journal
    savedLiveActivities = liveActivities
    self.path = path
    self.savedState = savedState
    self.resumedAt = resumedAt
    self.skippedAtOpen = skippedAtOpen
  }

  /// Opens the state for a session, restoring a saved device when there is one.
  ///
  /// - Parameters:
  ///   - location: the resolved `--state` / `--ephemeral` location.
  ///   - state: the session as loaded from its inputs.
  ///   - profile: the device profile a restored device starts from.
  ///   - keepsTimeline: whether the session's timeline still plays on a restored device (not for
  ///     the demo, whose timeline belongs to the demo's own device).
  ///   - preset: what a `--profile` preset (`locked`, `dnd`, …) asks of a continued state, which
  ///     wins over what it saved; nil when no preset was named.
  /// - Returns: the persistence (nil when ephemeral) and the state to run, restored if saved.
  package static func open(
    _ location: StateLocation, state: AppState, profile: DeviceProfile, keepsTimeline: Bool,
    preset: Session.PresetRequest? = nil, announcing inputs: String? = nil, moreToCome: Bool = false
  ) throws -> (StatePersistence?, AppState) {
    guard case .file(let path) = location else { return (nil, state) }
    do throws(StoreError) {
      let journal = try DeviceJournal.open(location)
      var state = state
      var savedState: RestoredDevice.State?
      var resumedAt: SimInstant?
      var skippedAtOpen = 0
      let continues = try journal.holdsDevice()
      if continues {
        // Streamed from the database into the store, never all in memory at once. The device
        // resumes at its saved clock (docs/DECISIONS.md, "Continuing a state"); a session that
        // brings its own timeline (a scenario starting later) moves it on to its start. What the
        // timeline held up to the saved clock was applied before it was saved (a replay of the
        // same capture included): only what comes after it still plays.
        var device = try journal.restoreDevice(profile: profile)
        let resumed = device.now
        resumedAt = resumed
        savedState = try journal.savedDeviceState()
        let timeline = keepsTimeline ? state.timeline.filter { $0.at > resumed } : []
        let skipped = keepsTimeline ? state.timeline.count - timeline.count : 0
        skippedAtOpen = skipped
        if keepsTimeline { device.advance(to: state.device.now) }
        state = AppState(device: device, timeline: timeline)
        var toast = inputs.map { "Continuing the device of \($0), saved at \(Self.dateText(resumed, device))" }
        // With more to read, the count is said once everything is read.
        if skipped > 0, !moreToCome {
          // Said, not dropped silently: they may be another capture's older pushes.
          toast =
            "Continuing the device at \(Self.dateText(resumed, device)); \(skipped) earlier event\(skipped == 1 ? "" : "s") not replayed"
        }
        if let toast { state.showToast(toast) }
      } else {
        // A new state starts with what the session already holds (the demo's notifications),
        // and its clock, lock and Focus.
        var batch = JournalBatch()
        batch.deliveries = state.device.records
        batch.state = Self.deviceState(state.device)
        try journal.commit(batch)
        savedState = batch.state
        if let inputs { state.showToast("New device for \(inputs), from \(dateText(state.device.now, state.device))") }
      }
      // The device as saved: what the session does from here on is journalled from the change
      // set its device produces.
      let liveActivities = state.device.liveActivities
      state.journalsChanges = true
      if let preset, continues {
        // Asked for by name, so it wins over what was saved; applied as the user's own events,
        // so the first save journals them.
        for event in preset.events(for: state.device) { state.applyNow(event) }
      }
      return (
        StatePersistence(
          journal: journal, liveActivities: liveActivities, path: path, savedState: savedState, resumedAt: resumedAt,
          skippedAtOpen: skippedAtOpen),
        state
      )
    } catch {
      throw UsageError(error.description)
    }
  }

  /// Journals what the front end's device changed since the last turn, with the clock.
  ///
  /// Time that passes without events is saved too, so the next start resumes where this one
  /// left off: at most every ``clockSaveInterval`` of wall time (a cheap one-row write), and
  /// always with ``finish(_:)``.
  /// - Returns: whether everything applied so far is saved (false when the journal failed).
  @discardableResult
  package func persist(_ state: inout AppState) -> Bool {
    let wallNow = ContinuousClock.now
    guard !state.changes.isEmpty || wallNow - lastClockSave >= Self.clockSaveInterval else { return true }
    var batch = JournalBatch()
    batch.append(state.takeChanges())
    noteClock(of: state.device, in: &batch)
    let saved = commit(batch, state: &state)
    lastClockSave = wallNow
    return saved
  }

  /// Saves what the last turn left: the clock as the session ends (after ``persist(_:)``).
  package func finish(_ state: AppState) {
    var state = state
    persist(&state)
    var batch = JournalBatch()
    noteClock(of: state.device, in: &batch)
    commit(batch, state: &state)
  }

  /// How often the clock is saved while time passes with nothing happening.
  package static let clockSaveInterval = Duration.seconds(5)
  private var lastClockSave = ContinuousClock.now
  private var savedState: RestoredDevice.State?

  /// Notes the device's clock, lock and Focus in `batch` when they changed since the last save
  /// (the clock never moves back: a seek back replays what the journal already holds), and its
  /// Live Activities when time ended some.
  private func noteClock(of device: DeviceSimulator, in batch: inout JournalBatch) {
    if device.liveActivities != savedLiveActivities { batch.liveActivities = device.liveActivities }
    var current = Self.deviceState(device)
    if let saved = savedState, saved.now > current.now { current.now = saved.now }
    batch.state = current == savedState ? nil : current
  }

  @discardableResult
  private func commit(_ batch: JournalBatch, state: inout AppState) -> Bool {
    guard !batch.isEmpty else { return true }
    do throws(StoreError) {
      try journal.commit(batch)
      if let saved = batch.state { savedState = saved }
      if let live = batch.liveActivities { savedLiveActivities = live }
      return true
    } catch {
      state.showToast("Could not save the device state: \(error.description)")
      return false
    }
  }

  /// `23 Nov 09:41` in the device's time zone, for the first screen's word on the device.
  package static func dateText(_ instant: SimInstant, _ device: DeviceSimulator) -> String {
    let time = CivilTime(instant, utcOffsetSeconds: device.profile.utcOffsetSeconds)
    let month = CivilTime.monthNames[time.month - 1].prefix(3)
    return "\(time.day) \(month) \(time.year) \(time.hour < 10 ? "0" : "")\(time.clock)"
  }

  /// A device's clock, lock and Focus, as the journal keeps them.
  package static func deviceState(_ device: DeviceSimulator) -> RestoredDevice.State {
    RestoredDevice.State(now: device.now, isLocked: device.isLocked, activeFocusID: device.activeFocusID)
  }

  /// Closes the database.
  package func close() {
    try? journal.close()
  }
}

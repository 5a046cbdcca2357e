import Dispatch
import PushCore
import PushStore
import PushUI
import Synchronization

/// Keeps the front end's device in a state database: restores it at start and journals every
/// device event as the session runs, so quitting (or being killed) and starting again shows the
/// same Notification Center.
///
/// The journal is fed the change set the front end's device produced as it applied each event
/// (``AppState/takeChanges()``, written by the ingest step); each turn's changes go into one
/// transaction, and a long turn (a seek over a million pushes) hands them over in slices of
/// ``AppState/changeSliceSize`` events as it plays (``JournalWriter``), committed in order on a
/// queue of their own while the device goes on. There is no second device: nothing is
/// recomputed for the journal.
package final class StatePersistence {
  private let journal: DeviceJournal
  /// Commits every batch, slices and turns alike, in order.
  private let writer: JournalWriter
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
    writer = JournalWriter(journal: journal, state: savedState, liveActivities: liveActivities)
    self.path = path
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
        // A lean session (a large capture) continues on a lean device: the journal keeps what
        // it leaves out.
        let lean = !state.device.keepsPayloadDetails
        var device = try journal.restoreDevice(profile: profile, keepsPayloadDetails: !lean)
        if lean {
          device.keepsPayloadDetails = false
          device.recordWindow = state.device.recordWindow
        }
        let resumed = device.now
        resumedAt = resumed
        savedState = try journal.savedDeviceState()
        let timeline = keepsTimeline ? state.timeline.filter { $0.at > resumed } : []
        let skipped = keepsTimeline ? state.timeline.count - timeline.count : 0
        skippedAtOpen = skipped
        if keepsTimeline { device.advance(to: state.device.now) }
        state = AppState(device: device, timeline: timeline)
        // Rejected pushes are never hidden: those of earlier sessions are counted on the status
        // line, and `r` says where they are (the restored device keeps no delivery records).
        state.savedRejectedCount = try journal.rejectedCount()
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
        batch.updates.state = Self.deviceState(state.device)
        try journal.commit(batch)
        savedState = batch.updates.state
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
      let persistence = StatePersistence(
        journal: journal, liveActivities: liveActivities, path: path, savedState: savedState, resumedAt: resumedAt,
        skippedAtOpen: skippedAtOpen)
      state.changeSlices = persistence.writer
      state.deliveryDetails = JournalDetails(journal: journal)
      return (persistence, state)
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
    // The slices this turn handed over first: saved means all of it is.
    writer.drain()
    if let failure = writer.takeFailure() {
      state.showToast("Could not save the device state: \(failure)")
      return false
    }
    let wallNow = ContinuousClock.now
    guard !state.changes.isEmpty || wallNow - lastClockSave >= Self.clockSaveInterval else { return true }
    var batch = JournalBatch()
    batch.append(state.takeChanges())
    noteClock(of: state.device, in: &batch)
    let saved = commit(batch, state: &state)
    lastClockSave = wallNow
    return saved
  }

  /// How many batches were committed, and the most deliveries one held (what the slice tests count).
  package var committedBatches: (count: Int, largestDeliveryCount: Int) { writer.committed }

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

  /// Notes the device's clock, lock and Focus in `batch` when they changed since the last save
  /// (the clock never moves back: a seek back replays what the journal already holds), and its
  /// Live Activities when time ended some.
  private func noteClock(of device: DeviceSimulator, in batch: inout JournalBatch) {
    let (savedState, savedLiveActivities) = writer.saved
    if device.liveActivities != savedLiveActivities { batch.updates.liveActivities = device.liveActivities }
    var current = Self.deviceState(device)
    if let saved = savedState, saved.now > current.now { current.now = saved.now }
    batch.updates.state = current == savedState ? nil : current
  }

  @discardableResult
  private func commit(_ batch: JournalBatch, state: inout AppState) -> Bool {
    guard !batch.isEmpty else { return true }
    if let failure = writer.commitNow(batch) {
      state.showToast("Could not save the device state: \(failure)")
      return false
    }
    return true
  }

  /// `23 Nov 09:41` in the device's time zone, for the first screen's word on the device.
  package static func dateText(_ instant: SimInstant, _ device: DeviceSimulator) -> String {
    let time = CivilTime(instant, utcOffsetSeconds: device.profile.utcOffsetSeconds)
    let month = CivilTime.monthNames[time.month - 1].prefix(3)
    return "\(time.day) \(month) \(time.year) \(time.hour < 10 ? "0" : "")\(time.clock)"
  }

  /// A device's clock, lock, Focus and lock-screen display, as the journal keeps them.
  package static func deviceState(_ device: DeviceSimulator) -> RestoredDevice.State {
    device.savedState
  }

  /// Closes the database.
  package func close() {
    writer.drain()
    try? journal.close()
  }
}

/// Commits the front end's journal batches in order on a queue of its own: the slices a long
/// turn hands over as it plays (``AppState/changeSlices``), at most two waiting so memory stays
/// bounded while the device goes on, and each turn's own batch (``commitNow(_:)``), after them.
///
/// It remembers what was last saved (the clock, lock and Focus, and the Live Activities) so a
/// turn saves them only when they changed, and keeps the clock from moving back.
final class JournalWriter: ChangeSliceSink {
  private struct Saved {
    var state: RestoredDevice.State?
    var liveActivities: [LiveActivity]
    /// The latest clock handed over (saved or waiting): a slice never saves an earlier one.
    var latestNow: SimInstant?
    var failure: String?
    var batches = 0
    var largestDeliveryCount = 0
  }

  private let journal: DeviceJournal
  private let jobs = OrderedWorkQueue(label: "pushdeck.run.journal")
  private let memory: Mutex<Saved>

  init(journal: DeviceJournal, state: RestoredDevice.State?, liveActivities: [LiveActivity]) {
    self.journal = journal
    memory = Mutex(Saved(state: state, liveActivities: liveActivities, latestNow: state?.now))
  }

  /// What was last saved: the clock, lock and Focus, and the Live Activities.
  var saved: (state: RestoredDevice.State?, liveActivities: [LiveActivity]) {
    memory.withLock { ($0.state, $0.liveActivities) }
  }

  /// How many batches were committed, and the most deliveries one held.
  var committed: (count: Int, largestDeliveryCount: Int) {
    memory.withLock { ($0.batches, $0.largestDeliveryCount) }
  }

  func commit(slice: DeviceChanges) {
    var batch = JournalBatch()
    batch.append(slice)
    if var state = batch.updates.state {
      memory.withLock { memory in
        if let latest = memory.latestNow, latest > state.now { state.now = latest }
        memory.latestNow = state.now
      }
      batch.updates.state = state
    }
    let slice = batch
    jobs.async { self.write(slice) }
  }

  /// Commits `batch` after every slice handed over before it; returns why it failed, if it did.
  func commitNow(_ batch: JournalBatch) -> String? {
    if let now = batch.updates.state?.now { memory.withLock { $0.latestNow = max($0.latestNow ?? now, now) } }
    jobs.sync { write(batch) }
    return takeFailure()
  }

  /// Waits until every slice handed over is committed (or failed).
  func drain() { jobs.drain() }

  /// The first commit that failed since the last call, if any.
  func takeFailure() -> String? {
    memory.withLock { memory in
      defer { memory.failure = nil }
      return memory.failure
    }
  }

  /// On the queue.
  private func write(_ batch: JournalBatch) {
    do throws(StoreError) {
      try journal.commit(batch)
      memory.withLock { memory in
        if let state = batch.updates.state { memory.state = state }
        if let live = batch.updates.liveActivities { memory.liveActivities = live }
        memory.batches += 1
        memory.largestDeliveryCount = max(memory.largestDeliveryCount, batch.deliveryCount)
      }
    } catch {
      memory.withLock { if $0.failure == nil { $0.failure = error.description } }
    }
  }
}

/// A lean device's payload text and reasons, read back from the journal's delivery rows for the
/// inspector and the app's handlers (``AppState/deliveryDetails``); the last one read is kept,
/// since the inspector asks for the selected notification on every frame.
final class JournalDetails: DeliveryDetails {
  private struct Cache {
    var reasonLists: [Int64: String]?
    var last: StoredNotification?
  }

  private let journal: DeviceJournal
  private let cache = Mutex(Cache())

  init(journal: DeviceJournal) { self.journal = journal }

  func delivered(_ id: NotificationID) -> StoredNotification? {
    if let last = cache.withLock({ $0.last }), last.id == id { return last }
    let lists = cache.withLock { $0.reasonLists } ?? ((try? journal.reasonLists()) ?? [:])
    // A row still in a slice being committed is not there yet: asked again on the next frame.
    let found = try? journal.deliveredNotification(id, reasonLists: lists)
    cache.withLock { cache in
      cache.reasonLists = lists
      if let found { cache.last = found }
    }
    return found
  }
}

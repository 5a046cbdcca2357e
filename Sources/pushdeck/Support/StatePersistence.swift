import ArgumentParser
import PushCore
import PushStore
import PushUI

/// Keeps the front end's device in a state database: restores it at start and journals every
/// device event as the session runs, so quitting (or being killed) and starting again shows the
/// same Notification Center.
///
/// The journal is written from a shadow copy of the device that replays the events the front
/// end applied (the simulation is deterministic, so the copy stays identical); each turn's events
/// go into one transaction.
final class StatePersistence {
  private let journal: DeviceJournal
  private var shadow: DeviceSimulator
  /// Where the state lives, for messages.
  let path: String

  private init(journal: DeviceJournal, shadow: DeviceSimulator, path: String) {
    self.journal = journal
    self.shadow = shadow
    self.path = path
  }

  /// Opens the state for a session, restoring a saved device when there is one.
  ///
  /// - Parameters:
  ///   - location: the resolved `--state` / `--ephemeral` location.
  ///   - state: the session as loaded from its inputs.
  ///   - profile: the device profile a restored device starts from.
  /// - Returns: the persistence (nil when ephemeral) and the state to run, restored if saved.
  ///   - keepsTimeline: whether the session's timeline still plays on a restored device (not for
  ///     the demo, whose timeline belongs to the demo's own device).
  static func open(
    _ location: StateLocation, state: AppState, profile: DeviceProfile, keepsTimeline: Bool
  ) throws -> (StatePersistence?, AppState) {
    guard case .file(let path) = location else { return (nil, state) }
    do throws(StoreError) {
      let journal = try DeviceJournal.open(location)
      var state = state
      if try journal.holdsDevice() {
        // Streamed from the database into the store, never all in memory at once.
        let device = try journal.restoreDevice(profile: profile)
        state = AppState(device: device, timeline: keepsTimeline ? state.timeline.filter { $0.at >= device.now } : [])
      } else {
        // A new state starts with what the session already holds (the demo's notifications).
        var batch = JournalBatch()
        batch.deliveries = state.device.records
        try journal.commit(batch)
      }
      state.logsAppliedEvents = true
      return (StatePersistence(journal: journal, shadow: state.device, path: path), state)
    } catch {
      throw ValidationError(error.description)
    }
  }

  /// Journals the device events the front end applied since the last turn.
  func persist(_ state: inout AppState) {
    let applied = state.takeAppliedEvents()
    guard !applied.isEmpty else { return }
    var batch = JournalBatch()
    for entry in applied {
      guard case .device(let event) = entry.event else { continue }
      shadow.apply(event, at: entry.at, journalingInto: &batch)
    }
    do throws(StoreError) {
      try journal.commit(batch)
    } catch {
      state.showToast("Could not save the device state: \(error.description)")
    }
  }

  /// Closes the database.
  func close() {
    try? journal.close()
  }
}

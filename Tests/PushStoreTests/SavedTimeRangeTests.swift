import PushCore
import Testing

@testable import PushStore

/// A state whose saved times are outside the simulated years (a damaged or hand-edited file)
/// is reported as damaged where the time is read, never restored into a clock that overflows.
struct SavedTimeRangeTests {
  @Test(arguments: [Int64.max - 1, Int64.max, Int64.min, -1, EpochRange.highestMilliseconds + 1])
  func aSavedClockOutsideTheRangeIsReportedAsDamaged(_ milliseconds: Int64) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.file("device.sqlite")
    do {
      let journal = try DeviceJournal.open(at: path)
      var batch = JournalBatch()
      batch.updates.state = RestoredDevice.State(
        now: SimInstant(milliseconds: milliseconds), isLocked: true, activeFocusID: nil)
      try journal.commit(batch)
      try journal.close()
    }
    let journal = try DeviceJournal.open(at: path)
    defer { try? journal.close() }
    do {
      let device = try journal.restoreDevice(profile: DeviceProfile(start: start))
      Issue.record("restored a clock at \(device.now.milliseconds) ms")
    } catch {
      guard case .corrupt(_, let detail) = error else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(detail.contains("now_ms") && detail.contains("\(milliseconds)"))
      #expect(error.description.contains("Pushdeck left it untouched"))
    }
  }

  @Test func theLastSimulatedInstantIsRestored() throws {
    let journal = try DeviceJournal.inMemory()
    var batch = JournalBatch()
    batch.updates.state = RestoredDevice.State(now: SimInstant.latest, isLocked: false, activeFocusID: nil)
    try journal.commit(batch)
    #expect(try journal.restoreDevice(profile: DeviceProfile(start: start)).now == SimInstant.latest)
  }
}

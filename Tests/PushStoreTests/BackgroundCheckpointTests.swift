import Foundation
import PushCore
import Testing

@testable import PushStore

/// A bulk writer's checkpoints run on their own connection: the WAL stays bounded, the pages
/// reach the database file while the writer goes on, and nothing committed is lost.
@Suite struct BackgroundCheckpointTests {
  static func fileSize(_ path: String) -> Int {
    (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
  }

  /// Commits `count` batches of 50 packed deliveries (about 160 KiB each) from a device that
  /// goes on from what the journal holds.
  static func replay(into journal: DeviceJournal, batches count: Int) throws -> DeviceSimulator {
    var device = DeviceSimulator(profile: DeviceProfile(start: start), restoring: try journal.restore())
    device.keepsRecords = false
    let lists = try ReasonLists(continuing: journal)
    let padding = String(repeating: "x", count: 3_000)
    let first = device.receivedCount + (try journal.restore().deliveryCount)
    for index in 0..<count {
      var batch = JournalBatch(packsDeliveries: true, reasonLists: lists)
      for offset in 0..<50 {
        let line = first + index * 50 + offset + 1
        let payload = #"{"aps": {"alert": "push \#(line)", "thread-id": "t\#(line % 7)"}, "pad": "\#(padding)"}"#
        device.apply(push: push(payload, line: line), at: at(Int64(line)), journalingInto: &batch)
      }
      try journal.commit(batch)
    }
    return device
  }

  @Test func theWALStaysBoundedAndEveryPushIsKept() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.file("state.sqlite")
    // A checkpoint every 64 KiB of WAL; 40 batches of about 160 KiB write about 6.5 MiB.
    let options = DeviceJournal.Options(checkpointBytes: 64 << 10, checkpointsInBackground: true)
    let journal = try DeviceJournal.open(.file(path), options: options)
    let device = try Self.replay(into: journal, batches: 40)
    let database = Self.fileSize(path)
    let wal = Self.fileSize(path + "-wal")
    // The WAL file is as large as the WAL ever grew: at most four thresholds (256 KiB) and the
    // batch that crossed them, although every batch asks for more than a threshold, so
    // checkpoints run back to back. The rest reached the database file before closing.
    #expect(wal < 1 << 20)
    #expect(database > 6 << 20)
    try journal.close()

    let reopened = try DeviceJournal.open(.file(path))
    defer { try? reopened.close() }
    let restored = try reopened.restore()
    #expect(restored.deliveryCount == 2_000)
    #expect(restored.notifications.count == device.store.count)
    #expect(Set(restored.notifications.map(\.id)) == Set(device.store.all.map(\.id)))
  }

  @Test func aStateContinuedAcrossClosesKeepsEveryPush() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.file("state.sqlite")
    let options = DeviceJournal.Options(checkpointBytes: 64 << 10, checkpointsInBackground: true)
    for round in 1...3 {
      // Closing waits for a checkpoint that may still be running, then unhooks it.
      let journal = try DeviceJournal.open(.file(path), options: options)
      _ = try Self.replay(into: journal, batches: 4)
      try journal.close()
      let reopened = try DeviceJournal.open(.file(path))
      #expect(try reopened.restore().deliveryCount == 200 * round)
      try reopened.close()
    }
  }
}

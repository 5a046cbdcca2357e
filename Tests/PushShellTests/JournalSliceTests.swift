import Foundation
import GRDB
import PushCore
import PushStore
import PushTestSupport
import PushUI
import Testing

@testable import PushShell

/// `run` with a state database (``StatePersistence``): a seek over many pushes is one turn of
/// the front end, and its change set goes to the journal in slices of
/// ``AppState/changeSliceSize`` events as it plays, never as one batch of the whole seek; the
/// journal it leaves is the same, row for row, as one batch would have left.
@Suite struct JournalSliceTests {
  static let pushes = 6_000

  /// Capture lines one every 3 seconds over three apps: a collapse id on every fifth (so
  /// notifications are replaced), a badge on each, a custom key, an invalid payload every 97th;
  /// and device events among them: lock and unlock every 1,000, one notification cleared, and
  /// Notification Center cleared once in the middle.
  static func timeline(from start: SimInstant) -> [TimelineEntry] {
    let apps = ["com.example.chat", "com.example.mail", "com.example.news"]
    var entries: [TimelineEntry] = []
    for index in 0..<pushes {
      let at = start + .seconds(Int64(index * 3))
      let collapse = index % 5 == 0 ? #","headers":{"apns-collapse-id":"c\#(index % 50)"}"# : ""
      let payload =
        index % 97 == 0
        ? #"{"aps":{"alert":"#
        : #"{"aps":{"alert":{"title":"T\#(index)","body":"B"},"thread-id":"t\#(index % 7)","badge":\#(index % 4)},"k":\#(index)}"#
      let line = #"{"at":\#(at.epochSeconds),"bundle":"\#(apps[index % 3])"\#(collapse),"payload":\#(payload)}"#
      let record = PushReader.readCaptureLine(Array(line.utf8), lineNumber: index + 1, source: "slices.jsonl")
      entries.append(TimelineEntry(at: at, event: .push(record)))
      let between = at + .seconds(1)
      if index % 1_000 == 500 { entries.append(TimelineEntry(at: between, event: DeviceEvent.lock)) }
      if index % 1_000 == 700 { entries.append(TimelineEntry(at: between, event: DeviceEvent.unlock)) }
      if index == 1_234 { entries.append(TimelineEntry(at: between, event: DeviceEvent.clear(NotificationID(1_200)))) }
      if index == pushes / 2 { entries.append(TimelineEntry(at: between, event: DeviceEvent.clearAll)) }
    }
    return entries
  }

  /// Plays the whole timeline in one turn (a seek to its end) into a new state database at
  /// `path`, saves as `run` does after the turn and at the end; returns what was committed.
  static func seek(
    into path: String, sliceSize: Int?, lean: Bool = false
  ) throws -> (count: Int, largestDeliveryCount: Int, received: Int) {
    let start = DemoScenario.start
    var profile = DeviceProfile(start: start, isLocked: false)
    profile.maxStoredNotifications = 1_000_000
    var device = DeviceSimulator(profile: profile)
    if lean {
      device.keepsPayloadDetails = false
      device.recordWindow = 256
    }
    let loaded = AppState(device: device, timeline: timeline(from: start))
    let (opened, restored) = try StatePersistence.open(
      .file(path), state: loaded, profile: profile, keepsTimeline: true)
    let persistence = try #require(opened)
    var state = restored
    if let sliceSize { state.changeSliceSize = sliceSize } else { state.changeSlices = nil }
    _ = reduce(into: &state, .tick(start + .seconds(Int64(pushes * 3))))
    #expect(persistence.persist(&state))
    persistence.finish(state)
    persistence.close()
    let committed = persistence.committedBatches
    return (committed.count, committed.largestDeliveryCount, state.device.receivedCount)
  }

  /// Every table's rows in primary-key order, as text.
  static func rows(of path: String) throws -> [String: [String]] {
    let queue = try DatabaseQueue(path: path)
    return try queue.read { db in
      var tables: [String: [String]] = [:]
      let names = try String.fetchAll(
        db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
      for name in names {
        tables[name] = try Row.fetchAll(db, sql: "SELECT * FROM \"\(name)\" ORDER BY 1").map(\.description)
      }
      return tables
    }
  }

  static func directory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("pushdeck-slices-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  @Test func aLongSeekCommitsInBoundedSlices() throws {
    let folder = try Self.directory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let sliced = try Self.seek(into: folder.appendingPathComponent("sliced.sqlite").path, sliceSize: 500)
    #expect(sliced.received == Self.pushes)
    #expect(sliced.largestDeliveryCount <= 500, "no batch over a slice: \(sliced)")
    #expect(sliced.count >= Self.pushes / 500, "the seek went in slices: \(sliced)")
    // Without slices the whole seek is one batch: what the bound above guards against.
    let whole = try Self.seek(into: folder.appendingPathComponent("whole.sqlite").path, sliceSize: nil)
    #expect(whole.largestDeliveryCount == Self.pushes)
  }

  @Test func aSlicedSeekSavesTheRowsOfOneBatch() throws {
    let folder = try Self.directory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let slicedPath = folder.appendingPathComponent("sliced.sqlite").path
    let wholePath = folder.appendingPathComponent("whole.sqlite").path
    _ = try Self.seek(into: slicedPath, sliceSize: 333)
    _ = try Self.seek(into: wholePath, sliceSize: nil)
    let sliced = try Self.rows(of: slicedPath)
    let whole = try Self.rows(of: wholePath)
    #expect(whole["delivery"]?.count == Self.pushes)
    #expect((whole["removal"]?.count ?? 0) > 100, "replaced and cleared notifications were journalled")
    #expect((whole["event"]?.count ?? 0) >= 12, "the lock, unlock and clear events were journalled")
    #expect(Set(sliced.keys) == Set(whole.keys))
    for (table, rows) in whole {
      #expect(sliced[table] == rows, "table \(table) differs")
    }
  }

  /// A large capture plays on a lean device (no payload text or reasons kept, a window of
  /// records): the journal still gets every delivery whole, as a full device's.
  @Test func aLeanDeviceJournalsWhatAFullOneDoes() throws {
    let folder = try Self.directory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let leanPath = folder.appendingPathComponent("lean.sqlite").path
    let fullPath = folder.appendingPathComponent("full.sqlite").path
    _ = try Self.seek(into: leanPath, sliceSize: 400, lean: true)
    _ = try Self.seek(into: fullPath, sliceSize: nil)
    let lean = try Self.rows(of: leanPath)
    let full = try Self.rows(of: fullPath)
    #expect(full["delivery"]?.count == Self.pushes)
    for (table, rows) in full {
      #expect(lean[table] == rows, "table \(table) differs")
    }
  }

  /// On a lean device the inspector and the app's handlers get a notification's payload text
  /// and reasons back from the state database (``AppState/detailed(_:)``), as a full device
  /// keeps them.
  @Test func aLeanDeviceReadsItsDetailsBackFromTheJournal() throws {
    let folder = try Self.directory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let start = DemoScenario.start
    var profile = DeviceProfile(start: start, isLocked: false)
    profile.maxStoredNotifications = 1_000_000
    var device = DeviceSimulator(profile: profile)
    let entries = Array(Self.timeline(from: start).prefix(600))
    let full = AppState(device: device, timeline: entries)
    device.keepsPayloadDetails = false
    device.recordWindow = 64
    let (opened, restored) = try StatePersistence.open(
      .file(folder.appendingPathComponent("lean.sqlite").path), state: AppState(device: device, timeline: entries),
      profile: profile, keepsTimeline: true)
    let persistence = try #require(opened)
    defer { persistence.close() }
    var lean = restored
    var whole = full
    let end = start + .hours(1)
    _ = reduce(into: &lean, .tick(end))
    _ = reduce(into: &whole, .tick(end))
    #expect(persistence.persist(&lean))
    let ids = whole.device.store.all.map(\.id)
    #expect(ids.count > 100)
    #expect(lean.device.store.all.map(\.id) == ids)
    for id in ids {
      let kept = try #require(whole.device.store[id])
      let read = try #require(lean.detailed(id))
      #expect(lean.device.store[id]?.notification.rawPayload == "", "the lean store keeps no payload text")
      #expect(read.hasDetails)
      #expect(read.notification.notification.rawPayload == kept.notification.rawPayload)
      #expect(read.notification.notification.customKeys == kept.notification.customKeys)
      #expect(read.notification.decision.reasons == kept.decision.reasons)
    }
    // Without a state database nothing keeps them: said, not made up.
    var ephemeral = AppState(device: device, timeline: entries)
    _ = reduce(into: &ephemeral, .tick(end))
    #expect(ephemeral.detailed(ids[0])?.hasDetails == false)
  }

  /// A capture opened through a symbolic link is as large as the file it names: a large one
  /// plays on a lean device, and the reading progress counts against its size.
  @Test func aSymlinkedInputCountsTheFileItNames() throws {
    let folder = try Self.directory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("capture.jsonl")
    try Data(repeating: 0x0A, count: 12_345).write(to: file)
    let link = folder.appendingPathComponent("link.jsonl")
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: file)
    let input = ResolvedInput(displayPath: link.path, path: link.path, format: .capture)
    #expect(TimelineFeed.totalBytes(of: [input]) == 12_345)
  }
}

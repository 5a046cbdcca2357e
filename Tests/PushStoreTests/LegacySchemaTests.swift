import Foundation
import GRDB
import PushCore
import Testing

@testable import PushStore

/// Files written by earlier schema versions open, migrate in place and keep every notification;
/// the packed `detail` column reads back what was packed.
@Suite struct LegacySchemaTests {
  /// The `delivery` columns versions 1 to 3 had besides those packed into `detail` by version 3.
  static let legacyColumns = [
    "seq", "at_ms", "bundle_id", "notification_id", "disposition", "is_stored", "removed_at_ms", "removal",
    "title", "body", "raw_payload",
  ]

  /// Replaces the current state file at `path` with one of schema `version`: migrated up to it,
  /// the other `tables` copied as they are, `delivery` filled by `copyDeliveries` (with the
  /// current file attached as `current`), and the version recorded.
  static func rewrite(
    _ path: String, asVersion version: Int, copying tables: [String], copyDeliveries: (Database) throws -> Void
  ) throws {
    let legacy = path + ".v\(version)"
    let old = try DatabaseQueue(path: legacy)
    try JournalSchema.migrator().migrate(old, upTo: "v\(version)")
    try old.write { db in
      try db.execute(sql: "ATTACH DATABASE ? AS current", arguments: [path])
      for table in tables {
        // Tables that later versions widened are copied column by column, as the old one has them.
        let columns = try Row.fetchAll(db, sql: "PRAGMA main.table_info(\(table))").map { row -> String in row["name"] }
        let list = columns.joined(separator: ", ")
        try db.execute(sql: "INSERT INTO main.\(table)(\(list)) SELECT \(list) FROM current.\(table)")
      }
      try copyDeliveries(db)
      try db.execute(sql: "UPDATE main.meta SET value = '\(version)' WHERE key = 'schema_version'")
    }
    try old.close()
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    try FileManager.default.moveItem(atPath: legacy, toPath: path)
  }

  /// Rewrites a current state file as schema version 2 wrote it (the 51-column `delivery` row),
  /// unpacking each row's `detail` into the columns of the same names.
  static func rewriteAsVersionTwo(_ path: String) throws {
    try rewrite(
      path, asVersion: 2, copying: ["meta", "event", "engagement", "badge", "live_activity", "device_state"]
    ) { db in
      let names = legacyColumns + DeliveryDetail.fields
      let insert = try db.makeStatement(
        sql: "INSERT INTO main.delivery(\(names.joined(separator: ", "))) VALUES ("
          + Array(repeating: "?", count: names.count).joined(separator: ", ") + ")")
      let rows = try Row.fetchAll(db, sql: "\(selectWithRemovals(legacyColumns, from: "current")) ORDER BY seq")
      for row in rows {
        let detail: Data = row["detail"]
        let unpacked = try detail.withUnsafeBytes { try DeliveryDetail.unpack($0) }
        try insert.execute(arguments: StatementArguments(legacyColumns.map { row[$0] as DatabaseValue } + unpacked))
      }
    }
  }

  /// Selects `columns` of a current `delivery` table with `detail`, and with `removed_at_ms` and
  /// `removal` read from the `removal` table as versions 1 to 3 kept them.
  static func selectWithRemovals(_ columns: [String], from schema: String) -> String {
    let named = columns.map { column in
      switch column {
      case "removed_at_ms": "r.at_ms AS removed_at_ms"
      case "removal": "r.reason AS removal"
      default: "d.\(column)"
      }
    }
    return "SELECT \(named.joined(separator: ", ")), d.detail FROM \(schema).delivery d "
      + "LEFT JOIN \(schema).removal r ON r.notification_id = d.notification_id"
  }

  /// Rewrites a current state file as schema version 3 wrote it: removals in `delivery`'s
  /// `removed_at_ms` and `removal` columns, no `removal` table.
  static func rewriteAsVersionThree(_ path: String) throws {
    try rewrite(
      path, asVersion: 3,
      copying: ["meta", "event", "engagement", "badge", "live_activity", "device_state", "reason_list"]
    ) { db in
      try db.execute(
        sql: "INSERT INTO main.delivery(\((legacyColumns + ["detail"]).joined(separator: ", "))) "
          + "\(selectWithRemovals(legacyColumns, from: "current")) ORDER BY d.seq")
    }
  }

  /// A state file journaled by ``DeviceJournalTests/journaledDevice(into:)`` and closed: its
  /// directory (for the caller to remove), its path, the device and what the file restores.
  static func journaledFile() throws -> (
    directory: TemporaryDirectory, path: String, original: DeviceSimulator, before: RestoredDevice
  ) {
    let directory = try TemporaryDirectory()
    let path = directory.file("device.sqlite")
    let journal = try DeviceJournal.open(at: path)
    let original = try DeviceJournalTests().journaledDevice(into: journal)
    let before = try journal.restore()
    try journal.close()
    return (directory, path, original, before)
  }

  /// Opens the (migrated) file at `path` and checks that it restores what `before` held and
  /// rebuilds `original`'s Notification Center; returns the open journal.
  static func expectItRestores(
    _ path: String, as before: RestoredDevice, original: DeviceSimulator,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> DeviceJournal {
    let reopened = try DeviceJournal.open(at: path)
    let after = try reopened.restore()
    #expect(after.notifications == before.notifications, sourceLocation: sourceLocation)
    #expect(after.deliveryCount == before.deliveryCount, sourceLocation: sourceLocation)
    #expect(after.nextNotificationID == before.nextNotificationID, sourceLocation: sourceLocation)
    let device = DeviceSimulator(profile: original.profile, restoring: after)
    #expect(device.store == original.store, sourceLocation: sourceLocation)
    return reopened
  }

  @Test func aVersionThreeStateIsMigratedAndKeepsEverything() throws {
    let (directory, path, original, before) = try Self.journaledFile()
    defer { directory.remove() }
    let current = try DatabaseQueue(path: path)
    let removals = try current.read { db in
      try Row.fetchAll(db, sql: "SELECT notification_id, at_ms, reason FROM removal ORDER BY notification_id")
    }
    try current.close()
    // The device removed some of its notifications (a collapse, a clear): the migration has
    // something to carry over.
    #expect(!removals.isEmpty)
    try Self.rewriteAsVersionThree(path)
    let legacy = try DatabaseQueue(path: path)
    #expect(
      try legacy.read { db in
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM delivery WHERE removed_at_ms IS NOT NULL")
      } == removals.count)
    try legacy.close()

    try Self.expectItRestores(path, as: before, original: original).close()
    let migratedFile = try DatabaseQueue(path: path)
    defer { try? migratedFile.close() }
    let migrated = try migratedFile.read { db in
      (
        columns: try db.columns(in: "delivery").map(\.name),
        removals: try Row.fetchAll(
          db, sql: "SELECT notification_id, at_ms, reason FROM removal ORDER BY notification_id"),
        inCenter: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM in_center")
      )
    }
    #expect(!migrated.columns.contains("removed_at_ms") && !migrated.columns.contains("removal"))
    #expect(migrated.removals == removals)
    #expect(migrated.inCenter == before.notifications.count)
  }

  /// Version 5 adds `source_progress` (how far `replay` saved each input): a version 4 file
  /// migrates with none, keeps everything, and then saves progress with a batch.
  @Test func aVersionFourStateIsMigratedAndSavesReplayProgress() throws {
    let (directory, path, original, before) = try Self.journaledFile()
    defer { directory.remove() }
    try Self.rewrite(
      path, asVersion: 4,
      copying: [
        "meta", "event", "engagement", "badge", "live_activity", "device_state", "reason_list", "removal", "delivery",
      ]
    ) { _ in }
    let legacy = try DatabaseQueue(path: path)
    #expect(try legacy.read { db in try db.tableExists("source_progress") } == false)
    try legacy.close()

    let reopened = try Self.expectItRestores(path, as: before, original: original)
    defer { try? reopened.close() }
    #expect(try reopened.sourceProgress().isEmpty)
    var batch = JournalBatch()
    batch.sources = [
      JournalBatch.SourceProgress(
        id: 1, path: "/captures/week.jsonl", headBytes: 65_536, headHash: "fnv1a64:0123456789abcdef", line: 65_000,
        offset: 21_474_836_480)
    ]
    try reopened.commit(batch)
    #expect(try reopened.sourceProgress() == batch.sources)
    // A later batch replaces the input's row.
    batch.sources[0].line = 65_500
    try reopened.commit(batch)
    #expect(try reopened.sourceProgress() == batch.sources)
  }

  @Test func aVersionTwoStateIsMigratedAndKeepsEverything() throws {
    let (directory, path, original, before) = try Self.journaledFile()
    defer { directory.remove() }
    try Self.rewriteAsVersionTwo(path)
    let legacy = try DatabaseQueue(path: path)
    #expect(try legacy.read { db in try db.columns(in: "delivery").count } == 51)
    try legacy.close()

    let reopened = try Self.expectItRestores(path, as: before, original: original)
    defer { try? reopened.close() }
    #expect(try reopened.deliveryCount() == (count: before.deliveryCount, isContiguous: true))
  }

  @Test func aVersionOneStateIsMigratedAndKeepsItsNotifications() throws {
    let (directory, path, original, _) = try Self.journaledFile()
    defer { directory.remove() }
    try Self.rewriteAsVersionTwo(path)
    // Make the file what version 1 wrote: no attachments column, no v2 migration, version 1.
    let queue = try DatabaseQueue(path: path)
    try queue.write { db in
      try db.execute(sql: "ALTER TABLE delivery DROP COLUMN attachments")
      try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'v2'")
      try db.execute(sql: "UPDATE meta SET value = '1' WHERE key = 'schema_version'")
    }
    try queue.close()

    let reopened = try DeviceJournal.open(at: path)
    defer { try? reopened.close() }
    let device = DeviceSimulator(profile: original.profile, restoring: try reopened.restore())
    #expect(device.store == original.store)
    // The migrated file takes new rows with attachments.
    var batch = JournalBatch()
    var profile = original.profile
    let chat = try #require(profile.apps.firstIndex { $0.bundleID == "com.example.chat" })
    profile.apps[chat].hasServiceExtension = true
    var next = DeviceSimulator(profile: profile, restoring: try reopened.restore())
    next.apply(.push(DeviceJournalTests().pushWithAttachments()), at: at(30), journalingInto: &batch)
    try reopened.commit(batch)
    #expect(try reopened.restore().notifications.contains { $0.notification.attachments.count == 2 })
  }

  @Test func packedBatchesWriteTheSameRowsAsRecordBatches() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    var rows: [[Row]] = []
    var removals: [[Row]] = []
    for packs in [false, true] {
      let path = directory.file(packs ? "packed.sqlite" : "records.sqlite")
      let journal = try DeviceJournal.open(at: path)
      var device = DeviceSimulator(profile: .standard(start: start))
      var batch = JournalBatch(packsDeliveries: packs)
      let payloads = [
        #"{"aps": {"alert": {"title": "Ann", "body": "Lunch? 🍜"}, "thread-id": "ann", "badge": 3}, "k": [1]}"#,
        #"{"aps": {"alert": "first"}}"#, #"{"aps": {"alert": "second"}}"#, #"{"aps": }"#,
        #"{"aps": {"content-available": 1}}"#,
      ]
      for (offset, payload) in payloads.enumerated() {
        let headers = offset >= 1 && offset <= 2 ? [("apns-collapse-id", "c")] : []
        device.apply(
          .push(push(payload, headers: headers, line: offset + 1)), at: at(Int64(offset)), journalingInto: &batch)
      }
      #expect(batch.deliveryCount == payloads.count)
      #expect(batch.deliveries.count == (packs ? 0 : payloads.count))
      try journal.commit(batch)
      try journal.close()
      let queue = try DatabaseQueue(path: path)
      rows.append(try queue.read { db in try Row.fetchAll(db, sql: "SELECT * FROM delivery ORDER BY seq") })
      removals.append(try queue.read { db in try Row.fetchAll(db, sql: "SELECT * FROM removal") })
      try queue.close()
    }
    #expect(rows[0].count == 5)
    #expect(rows[0] == rows[1])
    // The collapse replaced "first" with "second": both say so, naming the first one's id.
    #expect(removals[0] == removals[1])
    let replaced = try #require(removals[1].first)
    #expect(removals[1].count == 1 && (replaced["reason"] as String?) == "replaced")
    let first = try #require(rows[1].first { ($0["body"] as String?) == "first" })
    #expect((first["notification_id"] as Int64?) == (replaced["notification_id"] as Int64?))
  }

  @Test func repeatingReasonListsAreStoredOnceAndReadBack() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.file("device.sqlite")
    var device = DeviceSimulator(profile: .standard(start: start))
    var expected: [[Reason]] = []
    for session in 0..<2 {
      let journal = try DeviceJournal.open(at: path)
      let lists = ReasonLists(firstID: try journal.nextReasonListID())
      var batch = JournalBatch(packsDeliveries: true, reasonLists: lists)
      for n in 0..<4 {
        let line = session * 4 + n
        let payload =
          n == 3 ? #"{"aps": {"alert": "quiet", "sound": "ping.caf"}}"# : #"{"aps": {"alert": "n\#(line)"}}"#
        let record = device.apply(.push(push(payload, line: line + 1)), at: at(Int64(line)), journalingInto: &batch)
        expected.append(try #require(record).decision.reasons)
      }
      try journal.commit(batch)
      try journal.close()
    }
    let queue = try DatabaseQueue(path: path)
    // Two distinct lists in the first session; the second numbers its own after them.
    let stored = try queue.read { db in try Row.fetchAll(db, sql: "SELECT id, reasons FROM reason_list ORDER BY id") }
    try queue.close()
    #expect(stored.map { $0["id"] as Int64 } == [1, 2, 3, 4])
    #expect(Set(stored.map { $0["reasons"] as String }).count == 2)
    let reopened = try DeviceJournal.open(at: path)
    defer { try? reopened.close() }
    let restored = try reopened.restore()
    #expect(restored.notifications.map(\.decision.reasons) == expected)
    #expect(!expected[0].isEmpty)
    // A lean restore leaves reasons out, and needs no list.
    #expect(try reopened.restore(keepsPayloadDetails: false).notifications.allSatisfy(\.decision.reasons.isEmpty))
  }

  @Test func packedDetailsReadBackValueForValue() throws {
    let values: [DatabaseValue] = DeliveryDetail.fields.indices.map { index in
      switch index % 5 {
      case 0: .null
      case 1: Int64(index * 1_000_000_007 - 3).databaseValue
      case 2: (Double(index) / 7).databaseValue
      case 3: String(repeating: "é🍜\u{0}\"", count: index * 10).databaseValue
      default: "".databaseValue
      }
    }
    let packed = try DeliveryDetail.pack(values)
    #expect(try packed.withUnsafeBytes { try DeliveryDetail.unpack($0) } == values)
    // Every truncation is reported as damage, never a crash.
    for length in [0, 1, packed.count / 2, packed.count - 1] {
      #expect(throws: JournalCoding.Malformed.self) {
        try packed.prefix(length).withUnsafeBytes { try DeliveryDetail.unpack($0) }
      }
    }
    #expect(throws: JournalCoding.Malformed.self) { try DeliveryDetail.pack(Array(values.dropLast())) }
  }

  @Test func reasonsArePackedAsTheSameJSONTheJournalWrote() throws {
    let reasons = [
      Reason(.deliveredNormally, "Chat may alert: it shows as a banner."),
      Reason(.focusSilenced, "Quote \" and backslash \\ and tab\t and Ĉ and \u{202E}bidi"),
      Reason(.invalidPayload, ""),
    ]
    var writer = DeliveryDetail.Writer()
    writer.start()
    writer.reasons(reasons)
    writer.reasons([])
    let values = try writer.bytes.withUnsafeBytes { bytes in
      // Two text values after the format byte; unpack checks the count, so read them directly.
      try DeliveryDetail.unpackValues(bytes)
    }
    #expect(values == [JournalCoding.json(reasons).databaseValue, "[]".databaseValue])
    #expect(try JournalCoding.reasons(JournalCoding.json(reasons)) == reasons)
  }
}

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

  /// Packs values as a format 1 detail, as schema versions 3 to 7 wrote it: the format byte
  /// `1`, integers and doubles in 8 bytes, text as text.
  static func packFixedWidth(_ values: [DatabaseValue]) throws -> [UInt8] {
    var bytes: [UInt8] = [DeliveryDetail.fixedWidthFormat]
    for value in values {
      switch value.storage {
      case .null: bytes.append(0)
      case .int64(let number):
        bytes.append(1)
        withUnsafeBytes(of: number.littleEndian) { bytes.append(contentsOf: $0) }
      case .double(let number):
        bytes.append(2)
        withUnsafeBytes(of: number.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
      case .string(let text):
        bytes.append(3)
        var length = text.utf8.count
        while length >= 0x80 {
          bytes.append(UInt8(length & 0x7F) | 0x80)
          length >>= 7
        }
        bytes.append(UInt8(length))
        bytes.append(contentsOf: text.utf8)
      case .blob: throw JournalCoding.Malformed(detail: "a detail value is a blob")
      }
    }
    return bytes
  }

  /// Rewrites a current state file as schema version 7 wrote it: every `detail` in format 1
  /// (sources as `PATH:LINE` text), the partial index `delivery_in_center`, no `source_file`.
  static func rewriteAsVersionSeven(_ path: String) throws {
    try rewrite(
      path, asVersion: 7,
      copying: [
        "meta", "event", "engagement", "badge", "live_activity", "device_state", "reason_list", "removal",
        "source_progress", "channel",
      ]
    ) { db in
      let files = try Dictionary(
        uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT id, path FROM current.source_file").map { row in
          (row["id"] as Int64, row["path"] as String)
        })
      let columns = [
        "seq", "at_ms", "bundle_id", "notification_id", "disposition", "is_stored", "title", "body",
        "raw_payload",
      ]
      let insert = try db.makeStatement(
        sql: "INSERT INTO main.delivery(\((columns + ["detail"]).joined(separator: ", "))) VALUES ("
          + Array(repeating: "?", count: columns.count + 1).joined(separator: ", ") + ")")
      for row in try Row.fetchAll(db, sql: "SELECT * FROM current.delivery ORDER BY seq") {
        let detail: Data = row["detail"]
        let values = try detail.withUnsafeBytes { try DeliveryDetail.unpack($0, sourceFiles: files) }
        try insert.execute(
          arguments: StatementArguments(columns.map { row[$0] as DatabaseValue } + [Data(try packFixedWidth(values))]))
      }
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
      let lists = try ReasonLists(continuing: journal)
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

  /// Version 8 drops `delivery_in_center`, adds `source_file` and writes details in format 2:
  /// a version 7 file, its details in format 1, migrates without rewriting a row, restores the
  /// same device, and takes format 2 rows beside its old ones.
  @Test func aVersionSevenStateIsMigratedAndReadsBothDetailFormats() throws {
    let (directory, path, original, before) = try Self.journaledFile()
    defer { directory.remove() }
    try Self.rewriteAsVersionSeven(path)
    let legacy = try DatabaseQueue(path: path)
    let removalRows = "SELECT notification_id, at_ms, reason FROM removal ORDER BY notification_id"
    let old = try legacy.read { db in
      (
        index: try Bool.fetchOne(
          db, sql: "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE name = 'delivery_in_center')") ?? false,
        removals: try Row.fetchAll(db, sql: removalRows),
        files: try db.tableExists("source_file"),
        formats: try Set(Data.fetchAll(db, sql: "SELECT detail FROM delivery").map { $0.first }),
        rows: try Row.fetchAll(db, sql: "SELECT * FROM delivery ORDER BY seq")
      )
    }
    try legacy.close()
    #expect(old.index && !old.files)
    #expect(old.formats == [DeliveryDetail.fixedWidthFormat])

    let reopened = try Self.expectItRestores(path, as: before, original: original)
    let migratedFile = try DatabaseQueue(path: path)
    let migrated = try migratedFile.read { db in
      (
        index: try Bool.fetchOne(
          db, sql: "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE name = 'delivery_in_center')") ?? true,
        files: try db.tableExists("source_file"),
        rows: try Row.fetchAll(db, sql: "SELECT * FROM delivery ORDER BY seq"),
        inCenter: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM in_center"),
        removals: try Row.fetchAll(db, sql: removalRows),
        removalKey: try Row.fetchAll(db, sql: "PRAGMA table_info(removal)").contains { ($0["pk"] as Int) != 0 }
      )
    }
    try migratedFile.close()
    #expect(!migrated.index && migrated.files)
    // The removals are carried over as they were, into a table without a key.
    #expect(!old.removals.isEmpty && migrated.removals == old.removals && !migrated.removalKey)
    // No row was rewritten: the format 1 details are still there, byte for byte.
    #expect(migrated.rows == old.rows)
    #expect(migrated.inCenter == before.notifications.count)

    // New rows, packed as a replay packs them, go in beside the old ones in format 2.
    var device = DeviceSimulator(profile: original.profile, restoring: try reopened.restore())
    var batch = JournalBatch(packsDeliveries: true, reasonLists: try ReasonLists(continuing: reopened))
    device.apply(
      .push(push(#"{"aps": {"alert": {"title": "Cy", "body": "new"}, "thread-id": "cy"}}"#, line: 40)),
      at: at(60), journalingInto: &batch)
    try reopened.commit(batch)
    let after = try reopened.restore()
    #expect(after.notifications.count == before.notifications.count + 1)
    #expect(DeviceSimulator(profile: original.profile, restoring: after).store == device.store)
    try reopened.close()
    let check = try DatabaseQueue(path: path)
    defer { try? check.close() }
    let formats = try check.read { db in
      try Set(Data.fetchAll(db, sql: "SELECT detail FROM delivery").map { $0.first })
    }
    #expect(formats == [DeliveryDetail.fixedWidthFormat, DeliveryDetail.format])
  }

  /// A replay's rows name their input's path by id: stored once in `source_file`, read back as
  /// the `PATH:LINE` text a row of version 7 held, and known again by the next session.
  @Test func aReplaysSourcePathIsStoredOnceAndReadBack() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.file("device.sqlite")
    var device = DeviceSimulator(profile: .standard(start: start))
    for session in 0..<2 {
      let journal = try DeviceJournal.open(at: path)
      var batch = JournalBatch(packsDeliveries: true, reasonLists: try ReasonLists(continuing: journal))
      for n in 0..<3 {
        let line = session * 3 + n + 1
        device.apply(
          .push(push(#"{"aps": {"alert": "n\#(line)"}}"#, line: line)), at: at(Int64(line)), journalingInto: &batch)
      }
      try journal.commit(batch)
      try journal.close()
    }
    let queue = try DatabaseQueue(path: path)
    defer { try? queue.close() }
    let (files, details) = try queue.read { db in
      (
        try Row.fetchAll(db, sql: "SELECT id, path FROM source_file"),
        try Data.fetchAll(db, sql: "SELECT detail FROM delivery ORDER BY seq")
      )
    }
    #expect(files.count == 1 && (files[0]["path"] as String) == "t.jsonl")
    let table = [files[0]["id"] as Int64: files[0]["path"] as String]
    let sources = try details.map { detail in
      try detail.withUnsafeBytes { try DeliveryDetail.unpack($0, sourceFiles: table) }[0]
    }
    #expect(sources == (1...6).map { "t.jsonl:\($0)".databaseValue })
    // Without the table the id cannot be read: damage, not a guess.
    #expect(throws: JournalCoding.Malformed.self) {
      try details[0].withUnsafeBytes { try DeliveryDetail.unpack($0) }
    }
  }

  @Test func compactDetailsReadBackValueForValue() throws {
    let numbers: [Int64] = [0, 1, -1, 63, 64, -64, -65, 127, 128, 1_767_225_603_856, .max, .min]
    let doubles: [Double] = [
      0, -0.0, 2, -4, 0.075, 490_896.0010711111, 9_007_199_254_740_993, -0x1p63, .infinity,
      -.infinity, .greatestFiniteMagnitude, .leastNonzeroMagnitude,
    ]
    var writer = DeliveryDetail.Writer()
    writer.start()
    for number in numbers { writer.int(number) }
    for number in doubles { writer.double(number) }
    writer.bool(true)
    writer.bool(false)
    writer.bool(nil)
    writer.source(file: 3, line: 900_001)
    writer.source(file: 1 << 40, line: nil)
    writer.source(file: 2, line: 0)
    writer.text("café")
    writer.double(.nan)
    let bytes = writer.bytes
    let files: [Int64: String] = [3: "/work/capture.jsonl", 1 << 40: "demo.yaml", 2: "x:y"]
    let values = try bytes.withUnsafeBytes { try DeliveryDetail.unpackValues($0, sourceFiles: files) }
    var expected: [DatabaseValue] = numbers.map { $0.databaseValue }
    expected += doubles.map { $0.databaseValue }
    let flags: [DatabaseValue] = [Int64(1).databaseValue, Int64(0).databaseValue, .null]
    let texts: [String] = ["/work/capture.jsonl:900001", "demo.yaml", "x:y:0", "café"]
    expected += flags
    expected += texts.map { $0.databaseValue }
    #expect(Array(values.dropLast()) == expected)
    // -0 keeps its sign, NaN stays NaN.
    guard case .double(let negativeZero) = values[numbers.count + 1].storage,
      case .double(let nan) = values.last?.storage
    else {
      Issue.record("not doubles")
      return
    }
    #expect(negativeZero.sign == .minus && nan.isNaN)
    // Small numbers take two bytes: tag and value.
    var small = DeliveryDetail.Writer()
    small.start()
    small.int(5)
    small.bool(true)
    small.double(2)
    #expect(small.bytes == [DeliveryDetail.format, 5, 10, 5, 2, 6, 4])
    // Every truncation reads as fewer values or is damage, never a crash; one inside a value is
    // damage.
    for length in 1..<bytes.count {
      _ = try? Array(bytes.prefix(length)).withUnsafeBytes { try DeliveryDetail.unpackValues($0, sourceFiles: files) }
    }
    let cuts: [[UInt8]] = [[5], [5, 0x80], [6], [7], [7, 3], [7, 3, 0x80], [3, 4, 0x61], [8], [8, 255]]
    for cut in cuts {
      let bytes = [DeliveryDetail.format] + cut
      #expect(throws: JournalCoding.Malformed.self) {
        try bytes.withUnsafeBytes { try DeliveryDetail.unpackValues($0, sourceFiles: files) }
      }
    }
    // A number of more than 64 bits is damage.
    let overlong: [UInt8] = [DeliveryDetail.format, 5] + Array(repeating: 0xFF, count: 9) + [0x02]
    #expect(throws: JournalCoding.Malformed.self) {
      try overlong.withUnsafeBytes { try DeliveryDetail.unpackValues($0) }
    }
    // A format 1 detail holds none of the new tags: one there is damage.
    for tag: UInt8 in [5, 6, 7, 8] {
      let old: [UInt8] = [DeliveryDetail.fixedWidthFormat, tag, 2, 2]
      #expect(throws: JournalCoding.Malformed.self) { try old.withUnsafeBytes { try DeliveryDetail.unpackValues($0) } }
    }
  }

  /// Files hold the positions of ``DeliveryDetail/knownTexts``: the list only ever grows.
  @Test func knownTextsKeepTheirPositions() throws {
    let released = [
      "[]", "passive", "active", "time-sensitive", "critical", "alert", "background", "location", "voip",
      "complication", "fileprovider", "mdm", "liveactivity", "pushtotalk", "widgets", "controls", "default",
      #"["banner","notificationCenter"]"#, #"["notificationCenter"]"#,
      #"["banner","lockScreen","notificationCenter"]"#, #"["lockScreen","notificationCenter"]"#, #"["banner"]"#,
      #"["liveActivity"]"#, #"["willPresent"]"#, #"["didReceive"]"#, #"["backgroundFetch"]"#,
      #"["launchInBackground"]"#, #"["serviceExtension"]"#,
    ]
    #expect(Array(DeliveryDetail.knownTexts.prefix(released.count)) == released)
    #expect(DeliveryDetail.knownTexts.count <= 256)
    #expect(DeliveryDetail.knownTexts[DeliveryDetail.emptyList] == "[]")
    #expect(DeliveryDetail.knownTexts[DeliveryDetail.defaultSound] == "default")
    var writer = DeliveryDetail.Writer()
    writer.start()
    for index in DeliveryDetail.knownTexts.indices { writer.text("ignored", known: index) }
    writer.text("not known", known: nil)
    #expect(writer.bytes.count == 1 + 2 * DeliveryDetail.knownTexts.count + 2 + "not known".utf8.count)
    let values = try writer.bytes.withUnsafeBytes { try DeliveryDetail.unpackValues($0) }
    #expect(values == (DeliveryDetail.knownTexts + ["not known"]).map { $0.databaseValue })
  }

  /// A packed row names the common texts by position and reads back the text a format 1 row held.
  @Test func packedRowsNameCommonTextsAndReadThemBack() throws {
    var device = DeviceSimulator(profile: .standard(start: start))
    var batch = JournalBatch(packsDeliveries: true)
    let record = try #require(
      device.apply(
        .push(push(#"{"aps": {"alert": "hi", "sound": "default", "interruption-level": "time-sensitive"}}"#)),
        at: at(1), journalingInto: &batch))
    let journal = try DeviceJournal.inMemory()
    try journal.commit(batch)
    let restored = try journal.restore().notifications
    #expect(restored.count == 1)
    #expect(restored.first?.decision == record.decision)
    #expect(restored.first?.notification.level == record.notification?.level)
    #expect(restored.first?.notification.sound == record.notification?.sound)
    #expect(restored.first?.notification.pushType == record.notification?.pushType)
  }

  /// Since version 8 `removal` is kept in the order written, without a key: a notification
  /// removed twice still keeps its first removal, in one batch, in a later one, after the journal
  /// is opened again, and after a batch that failed (its removals rolled back are written again).
  @Test func aNotificationRemovedTwiceKeepsItsFirstRemoval() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.file("device.sqlite")
    func removal(_ id: Int, _ seconds: Int64, _ reason: String) -> JournalBatch.Removal {
      JournalBatch.Removal(id: NotificationID(id), at: at(seconds), reason: reason)
    }
    var journal = try DeviceJournal.open(at: path, options: .init(maximumPageCount: 64))
    var batch = JournalBatch()
    batch.updates.removals = [removal(3, 1, "replaced"), removal(3, 2, "cleared"), removal(5, 2, "evicted")]
    try journal.commit(batch)
    try journal.removeNotification(NotificationID(5), at: at(3), reason: "cleared")
    // A batch too large for the file fails as a whole: its removal of 8 is rolled back.
    var tooLarge = JournalBatch()
    tooLarge.updates.removals = [removal(8, 4, "cleared")]
    tooLarge.updates.events = (0..<5_000).map { _ in
      JournalBatch.Event(.setting(bundleID: String(repeating: "b", count: 500), .grouping(.byApp)), at: at(4))
    }
    #expect(throws: StoreError.self) { try journal.commit(tooLarge) }
    try journal.removeNotification(NotificationID(8), at: at(5), reason: "opened")
    try journal.close()
    journal = try DeviceJournal.open(at: path)
    try journal.removeNotification(NotificationID(3), at: at(6), reason: "cleared")
    try journal.removeNotification(NotificationID(9), at: at(6), reason: "cleared")
    try journal.close()
    let queue = try DatabaseQueue(path: path)
    defer { try? queue.close() }
    let rows = try queue.read { db in
      try Row.fetchAll(db, sql: "SELECT notification_id, at_ms, reason FROM removal ORDER BY rowid")
    }
    #expect(
      rows.map { [$0[0] as Int64, ($0[1] as Int64 - start.milliseconds) / 1000] } == [
        [3, 1], [5, 2], [8, 5], [9, 6],
      ])
    #expect(rows.map { $0[2] as String } == ["replaced", "evicted", "opened", "cleared"])
  }
}

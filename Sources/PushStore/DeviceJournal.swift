import GRDB
import PushCore
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The simulated device's durable memory: a write-behind journal in an embedded SQLite
/// database (WAL mode).
///
/// The pure ``DeviceSimulator`` holds the truth for the UI; the shell applies events to it and
/// commits what changed here in batches, each in one transaction.
/// ``restoreDevice(profile:keepsPayloadDetails:)`` reads it back so a new process can rebuild the
/// same Notification Center, streaming the notifications into the device's store;
/// ``restore(keepsPayloadDetails:)`` reads it into a plain ``RestoredDevice`` value.
///
/// Opening never overwrites: a damaged file, a newer schema, a foreign database, an unwritable
/// directory or a second Pushdeck on the same state each fail with a ``StoreError`` that says
/// what to do. See `docs/DECISIONS.md` for the schema and the durability choice.
public final class DeviceJournal: Sendable {
  /// How a journal is opened.
  public struct Options: Sendable {
    /// Who writes, recorded in the database (for example `Pushdeck 0.3.0`).
    public var writer: String
    /// SQLite's `synchronous` setting. `normal` (the default) survives a crash of the process
    /// with every committed batch; `full` also survives a power cut, at a cost per commit.
    public var synchronous: Synchronous
    /// A limit on the database's size in pages (``pageSize`` bytes each), or nil for none. Reaching it is
    /// reported as ``StoreError/full(path:)``, the same as a full disk; tests use it to simulate one.
    public var maximumPageCount: Int?
    /// How many bytes of WAL trigger a checkpoint, or nil for SQLite's default (1,000 pages). A
    /// bulk replay raises it: each checkpoint syncs the database file, and a million deliveries
    /// are most of a gigabyte of pages.
    public var checkpointBytes: Int?
    /// Whether checkpoints run on a connection and thread of their own (``BackgroundCheckpointer``)
    /// instead of on the writer after a commit: a bulk writer then never waits for the database
    /// file's sync. Needs ``checkpointBytes``; files only.
    public var checkpointsInBackground: Bool

    /// Creates options; the defaults suit the CLI.
    public init(
      writer: String = "Pushdeck", synchronous: Synchronous = .normal, maximumPageCount: Int? = nil,
      checkpointBytes: Int? = nil, checkpointsInBackground: Bool = false
    ) {
      self.writer = writer
      self.synchronous = synchronous
      self.maximumPageCount = maximumPageCount
      self.checkpointBytes = checkpointBytes
      self.checkpointsInBackground = checkpointsInBackground
    }
  }

  /// SQLite's `synchronous` levels that keep a WAL database consistent.
  public enum Synchronous: String, Sendable {
    /// Sync the WAL at checkpoints only: no committed batch is lost when the process dies.
    case normal = "NORMAL"
    /// Sync the WAL at every commit: no committed batch is lost even when the machine does.
    case full = "FULL"
  }

  /// The page size of a new state file: 16 KiB, which a replay writes with a quarter of the
  /// system calls 4 KiB pages take (docs/PERFORMANCE.md, Measurements behind the code).
  public static let pageSize = 16_384

  /// The database file, or nil for an in-memory journal.
  public let path: String?
  private let queue: DatabaseQueue
  private let lock: StateLock?
  /// The checkpointer of ``Options/checkpointsInBackground``, once the file is in WAL mode.
  private let checkpointer = Mutex<BackgroundCheckpointer?>(nil)
  /// The notification ids `removal` holds, read at the first removal a commit writes: since
  /// schema version 8 the table is kept in the order written, without a key, and a notification
  /// removed twice keeps its first removal because a second is not written. Nil again after a
  /// commit fails (its rows were rolled back), to be read again.
  private let removedIDs = Mutex<Set<Int64>?>(nil)

  private init(path: String?, queue: DatabaseQueue, lock: StateLock?) {
    self.path = path
    self.queue = queue
    self.lock = lock
  }

  deinit {
    try? stopCheckpointer()
    lock?.release()
  }

  /// Starts checkpointing in the background (the file must be in WAL mode).
  private func startCheckpointer(path: String, bytes: Int, synchronous: Synchronous) throws {
    let pageSize = try queue.read { db in try Int.fetchOne(db, sql: "PRAGMA page_size") } ?? Self.pageSize
    let started = try BackgroundCheckpointer(
      path: path, frames: max(bytes / pageSize, 1), synchronous: synchronous.rawValue)
    queue.writeWithoutTransaction { db in started.install(on: db) }
    checkpointer.withLock { $0 = started }
  }

  /// Unhooks and closes the background checkpointer, if any, waiting for a checkpoint running.
  private func stopCheckpointer() throws {
    guard
      let running = checkpointer.withLock({ current in
        defer { current = nil }; return current
      })
    else {
      return
    }
    queue.writeWithoutTransaction { db in running.uninstall(from: db) }
    try running.close()
  }

  private var label: String { path ?? ":memory:" }

  // MARK: Opening

  /// Opens the journal at a location: a file, or memory for `--ephemeral`.
  public static func open(_ location: StateLocation, options: Options = Options())
    throws(StoreError) -> DeviceJournal
  {
    switch location {
    case .file(let path): try open(at: path, options: options)
    case .ephemeral: try inMemory(options: options)
    }
  }

  /// Opens (or creates) the journal at `path`, creating its directory, and takes the state's
  /// exclusive lock (a `flock` on the database file, and `REALPATH.lock` naming the holder; see
  /// ``StateLock``) until ``close()``.
  ///
  /// - Throws: ``StoreError`` for an unwritable directory, a second Pushdeck on the same state,
  ///   a damaged file, a newer schema or a foreign database. The file is never modified then.
  public static func open(at path: String, options: Options = Options()) throws(StoreError)
    -> DeviceJournal
  {
    guard !path.isEmpty else { throw .unwritable(path: path, detail: "the path is empty") }
    try makeDirectories(directory(of: path))
    let lock = try StateLock(databasePath: path, holder: options.writer)
    try checkHeader(path)
    var configuration = Configuration()
    // WAL is switched on by prepareSchema, after the compatibility checks: GRDB's own WAL set-up
    // writes a dummy transaction, which would touch a file we are about to refuse.
    configuration.label = "PushStore"
    let synchronous = options.synchronous.rawValue
    let maximumPageCount = options.maximumPageCount
    let checkpointBytes = options.checkpointBytes
    configuration.prepareDatabase { db in
      // Only a new file takes it; an existing one keeps the page size it was created with.
      try db.execute(sql: "PRAGMA page_size = \(Self.pageSize)")
      try db.execute(sql: "PRAGMA synchronous = \(synchronous)")
      if let maximumPageCount { try db.execute(sql: "PRAGMA max_page_count = \(maximumPageCount)") }
      if let checkpointBytes {
        let pageSize = try Int.fetchOne(db, sql: "PRAGMA page_size") ?? Self.pageSize
        try db.execute(sql: "PRAGMA wal_autocheckpoint = \(max(checkpointBytes / pageSize, 1))")
      }
    }
    let queue: DatabaseQueue
    do {
      queue = try DatabaseQueue(path: path, configuration: configuration)
    } catch {
      lock.release()
      throw storeError(error, path: path)
    }
    let journal = DeviceJournal(path: path, queue: queue, lock: lock)
    do {
      try journal.prepareSchema(writer: options.writer)
    } catch {
      try? queue.close()
      lock.release()
      throw error
    }
    if options.checkpointsInBackground, let bytes = options.checkpointBytes {
      do {
        try journal.startCheckpointer(path: path, bytes: bytes, synchronous: options.synchronous)
      } catch {
        // The writer's own auto-checkpoint (set in prepareDatabase) goes on working.
      }
    }
    return journal
  }

  /// Creates a journal that lives in memory only (`--ephemeral`, and tests).
  public static func inMemory(options: Options = Options()) throws(StoreError) -> DeviceJournal {
    let journal: DeviceJournal
    do {
      journal = DeviceJournal(path: nil, queue: try DatabaseQueue(), lock: nil)
    } catch {
      throw storeError(error, path: ":memory:")
    }
    try journal.prepareSchema(writer: options.writer)
    return journal
  }

  /// Closes the database (checkpointing the WAL) and releases the lock.
  public func close() throws(StoreError) {
    defer { lock?.release() }
    do {
      // The writer is closed before the lock is released even when the checkpointer's own
      // connection fails to close.
      let stopped = Result { try stopCheckpointer() }
      try queue.close()
      try stopped.get()
    } catch {
      throw Self.storeError(error, path: label)
    }
  }

  private static func makeDirectories(_ directory: String) throws(StoreError) {
    var prefix = directory.hasPrefix("/") ? "" : "."
    for component in directory.split(separator: "/") {
      prefix += "/" + component
      var info = stat()
      if stat(prefix, &info) == 0 {
        guard info.st_mode & S_IFMT == S_IFDIR else {
          throw .unwritable(path: directory, detail: "\(prefix) is not a directory")
        }
        continue
      }
      if mkdir(prefix, 0o755) != 0 && errno != EEXIST {
        throw .unwritable(path: directory, detail: errorText(errno))
      }
    }
  }

  /// Refuses a non-empty file that does not start with SQLite's header, before SQLite sees it.
  private static func checkHeader(_ path: String) throws(StoreError) {
    let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return }  // absent: SQLite creates it
    defer { Glibc.close(fd) }
    var header = [UInt8](repeating: 0, count: 16)
    let count = header.withUnsafeMutableBytes { read(fd, $0.baseAddress, 16) }
    guard count != 0 else { return }  // empty: a fresh database
    let expected = Array("SQLite format 3\u{0}".utf8)
    guard count == 16, header == expected else {
      throw .corrupt(path: path, detail: "the file is not a SQLite database")
    }
  }

  private func prepareSchema(writer: String) throws(StoreError) {
    let migrator = JournalSchema.migrator()
    try guarded { () throws in
      try queue.read { db in
        let tables = try String.fetchSet(
          db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
        if tables.isEmpty { return }
        // GRDB makes its own table before the first migration's transaction: a process stopped
        // between the two (a SIGTERM as `serve` first created its state) left only that table,
        // empty, and the file was then refused as "not created by Pushdeck" for good.
        if tables == ["grdb_migrations"], try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM grdb_migrations") == 0 {
          return
        }
        guard tables.contains("meta"), tables.contains("grdb_migrations") else {
          throw StoreError.foreignDatabase(path: label)
        }
        let meta = try Self.meta(db)
        let found = meta["schema_version"].flatMap { Int($0) } ?? 0
        let superseded = try migrator.hasBeenSuperseded(db)
        if found > JournalSchema.currentVersion || superseded {
          throw StoreError.newerSchema(
            path: label, found: max(found, JournalSchema.currentVersion + 1),
            supported: JournalSchema.currentVersion,
            writtenBy: meta["last_writer"])
        }
      }
      if path != nil {
        try queue.writeWithoutTransaction { db in
          let mode = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
          guard mode == "wal" else {
            throw StoreError.database(
              path: label, detail: "SQLite could not switch to WAL mode (\(mode ?? "?"))")
          }
        }
      }
      try migrator.migrate(queue)
      try queue.write { db in
        try db.execute(
          sql: "INSERT OR IGNORE INTO meta(key, value) VALUES ('created_by', ?)",
          arguments: [writer])
        try db.execute(
          sql:
            "INSERT OR REPLACE INTO meta(key, value) VALUES ('schema_version', ?), ('last_writer', ?)",
          arguments: [String(JournalSchema.currentVersion), writer])
      }
    }
  }

  private static func meta(_ db: Database) throws -> [String: String] {
    var result: [String: String] = [:]
    for row in try Row.fetchAll(db, sql: "SELECT key, value FROM meta") {
      let key: DatabaseValue = row[0]
      let value: DatabaseValue = row[1]
      if case .string(let k) = key.storage, case .string(let v) = value.storage { result[k] = v }
    }
    return result
  }

  // MARK: Writing

  /// Writes a batch in one transaction: all of it is durable when this returns, or none of it.
  ///
  /// - Throws: ``StoreError/full(path:)`` when the disk is full (the batch is rolled back, and
  ///   everything committed before stays), or another ``StoreError``.
  public func commit(_ batch: JournalBatch) throws(StoreError) {
    guard !batch.isEmpty else { return }
    // Taken for the transaction and put back once it is committed.
    var removed = removedIDs.withLock { ids in
      defer { ids = nil }
      return ids
    }
    try guarded { () throws in
      try queue.write { db in try Self.write(batch, into: db, removed: &removed) }
    }
    removedIDs.withLock { $0 = removed }
  }

  /// Appends delivery records (one transaction), storing what joined Notification Center and
  /// removing what a collapse id replaced.
  public func append(_ records: [DeliveryRecord]) throws(StoreError) {
    var batch = JournalBatch()
    batch.deliveries = records
    try commit(batch)
  }

  /// Logs device events other than pushes (one transaction); setting changes are replayed by
  /// ``restore()``.
  public func record(_ events: [JournalBatch.Event]) throws(StoreError) {
    var batch = JournalBatch()
    batch.updates.events = events
    try commit(batch)
  }

  /// Marks a notification as gone from Notification Center: a `removal` row says when and why;
  /// its delivery row is kept as it was.
  public func removeNotification(_ id: NotificationID, at instant: SimInstant, reason: String)
    throws(StoreError)
  {
    var batch = JournalBatch()
    batch.updates.removals = [JournalBatch.Removal(id: id, at: instant, reason: reason)]
    try commit(batch)
  }

  /// Saves an app's engagement.
  public func saveEngagement(_ engagement: Engagement, for bundleID: String) throws(StoreError) {
    var batch = JournalBatch()
    batch.updates.engagement = [bundleID: engagement]
    try commit(batch)
  }

  private static let deliveryColumns = [
    "seq", "at_ms", "bundle_id", "notification_id", "disposition", "is_stored", "title", "body",
    "raw_payload", "detail",
  ]

  private static let insertDelivery =
    "INSERT INTO delivery(\(deliveryColumns.joined(separator: ", "))) VALUES ("
    + Array(repeating: "?", count: deliveryColumns.count).joined(separator: ", ") + ")"

  private static func write(_ batch: JournalBatch, into db: Database, removed: inout Set<Int64>?) throws {
    if batch.deliveryCount > 0 {
      var packed = batch.packed
      for record in batch.deliveries { packed.append(record) }
      // Bound straight to SQLite from the packed bytes, without boxing each value through
      // StatementArguments (docs/PERFORMANCE.md, Measurements behind the code).
      if !packed.newReasonLists.isEmpty {
        let list = try db.cachedStatement(sql: "INSERT INTO reason_list(id, reasons) VALUES (?, ?)")
        for (id, json) in packed.newReasonLists { try list.execute(arguments: [id, json]) }
      }
      if !packed.newSourceFiles.isEmpty {
        let file = try db.cachedStatement(sql: "INSERT INTO source_file(id, path) VALUES (?, ?)")
        for (id, path) in packed.newSourceFiles { try file.execute(arguments: [id, path]) }
      }
      let insert = try db.cachedStatement(sql: insertDelivery)
      try DeliveryRow.insert(packed, statement: insert.sqliteStatement, db: db)
      try appendRemovals(packed.removals, into: db, removed: &removed)
    }
    try appendRemovals(batch.updates.removals, into: db, removed: &removed)
    if !batch.updates.events.isEmpty {
      let insert = try db.cachedStatement(
        sql:
          "INSERT INTO event(at_ms, kind, bundle_id, notification_id, name, value) VALUES (?, ?, ?, ?, ?, ?)"
      )
      for logged in batch.updates.events {
        let fields = eventFields(logged.event)
        try insert.execute(
          arguments: [
            logged.at.milliseconds, fields.kind, fields.bundleID, fields.id?.rawValue, fields.name,
            fields.value,
          ])
      }
    }
    for (bundleID, engagement) in batch.updates.engagement.sorted(by: { $0.key < $1.key }) {
      try db.execute(
        sql: "INSERT OR REPLACE INTO engagement(bundle_id, taps, dismissals) VALUES (?, ?, ?)",
        arguments: [bundleID, engagement.taps, engagement.dismissals])
    }
    for (bundleID, count) in batch.updates.badges.sorted(by: { $0.key < $1.key }) {
      if count == 0 {
        try db.execute(sql: "DELETE FROM badge WHERE bundle_id = ?", arguments: [bundleID])
      } else {
        try db.execute(
          sql: "INSERT OR REPLACE INTO badge(bundle_id, count) VALUES (?, ?)",
          arguments: [bundleID, count])
      }
    }
    if let activities = batch.updates.liveActivities {
      try db.execute(sql: "DELETE FROM live_activity")
      for (position, activity) in activities.enumerated() {
        let values: [(any DatabaseValueConvertible)?] = [
          position, activity.bundleID, activity.attributesType, activity.attributes?.compactText,
          activity.contentState?.compactText, activity.title, activity.body,
          activity.startedAt.milliseconds,
          activity.lastTimestamp, activity.staleDate?.milliseconds, activity.endedAt?.milliseconds,
          activity.dismissalDate?.milliseconds, activity.relevanceScore, activity.channelID, activity.pushToken,
        ]
        try db.execute(
          sql: """
            INSERT INTO live_activity(position, bundle_id, attributes_type, attributes, content_state, title, body,
              started_at_ms, last_timestamp, stale_date_ms, ended_at_ms, dismissal_date_ms, relevance_score,
              channel_id, push_token)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: StatementArguments(values))
      }
    }
    if let channels = batch.updates.channels {
      try db.execute(sql: "DELETE FROM channel")
      let insert = try db.cachedStatement(
        sql: """
          INSERT INTO channel(position, id, bundle_id, storage_policy, created_at_ms, message_at_ms, message_event,
            message_timestamp, message_content_state, message_stale_date, message_dismissal_date, message_title,
            message_body)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
          """)
      for (position, channel) in channels.enumerated() {
        let message = channel.lastMessage
        let values: [(any DatabaseValueConvertible)?] = [
          position, channel.id, channel.bundleID, channel.storagePolicy.rawValue, channel.createdAt.milliseconds,
          message?.at.milliseconds, message?.event.rawValue, message?.timestamp, message?.contentState?.compactText,
          message?.staleDate, message?.dismissalDate, message?.title, message?.body,
        ]
        try insert.execute(arguments: StatementArguments(values))
      }
    }
    for source in batch.sources {
      try db.execute(
        sql: """
          INSERT OR REPLACE INTO source_progress(id, path, head_bytes, head_hash, line, byte_offset)
          VALUES (?, ?, ?, ?, ?, ?)
          """,
        arguments: [source.id, source.path, source.headBytes, source.headHash, source.line, source.offset])
    }
    if let state = batch.updates.state {
      try db.execute(
        sql:
          """
          INSERT OR REPLACE INTO device_state(id, now_ms, is_locked, active_focus_id, lock_screen_display)
          VALUES (1, ?, ?, ?, ?)
          """,
        arguments: [state.now.milliseconds, state.isLocked, state.activeFocusID, state.lockScreenDisplay?.rawValue])
    }
  }

  /// Appends removals to `removal` (schema version 4): one small row each, where an UPDATE of
  /// the old `delivery` row rewrote a random page of the table and of its indexes. A notification
  /// removed twice keeps its first removal. Since version 8 the rows go at the end of the table
  /// (its key was the notification id, and the ids a collapse replaces are anywhere: each batch
  /// rewrote a score of its pages); `removed` holds the ids already there, read once.
  private static func appendRemovals(
    _ removals: [JournalBatch.Removal], into db: Database, removed: inout Set<Int64>?
  ) throws {
    guard !removals.isEmpty else { return }
    if removed == nil { removed = Set(try Int64.fetchAll(db, sql: "SELECT notification_id FROM removal")) }
    let remove = try db.cachedStatement(
      sql: "INSERT INTO removal(notification_id, at_ms, reason) VALUES (?, ?, ?)")
    for removal in removals where removed!.insert(Int64(removal.id.rawValue)).inserted {
      try remove.execute(arguments: [removal.id.rawValue, removal.at.milliseconds, removal.reason])
    }
  }

  private static func eventFields(
    _ event: DeviceEvent
  ) -> (kind: String, bundleID: String?, id: NotificationID?, name: String?, value: String?) {
    switch event {
    case .push(let record, let sender): ("push", record.bundleID, nil, record.source, sender)
    case .focus(let id): ("focus", nil, nil, nil, id)
    case .lock: ("lock", nil, nil, nil, nil)
    case .unlock: ("unlock", nil, nil, nil, nil)
    case .setting(let bundleID, let change):
      ("setting", bundleID, nil, JournalCoding.fields(change).0, JournalCoding.fields(change).1)
    case .open(let id): ("open", nil, id, nil, nil)
    case .clear(let id): ("clear", nil, id, nil, nil)
    case .clearGroup(let key): ("clearGroup", key.bundleID, key.single, key.thread, nil)
    case .clearAll: ("clearAll", nil, nil, nil, nil)
    case .action(let id, let actionID, let text): ("action", nil, id, actionID, text)
    }
  }

  // MARK: Reading

  /// Reads back everything needed to rebuild the device: the notifications still in
  /// Notification Center (in delivery order), engagement, badges, Live Activities, setting
  /// changes, the clock, and the counters.
  ///
  /// Every notification is in the array it returns: for a large state, rebuild the device with
  /// ``restoreDevice(profile:keepsPayloadDetails:)``, which never holds them all.
  ///
  /// - Throws: ``StoreError/corrupt(path:detail:)`` when a row cannot be read back.
  ///
  /// - Parameter keepsPayloadDetails: whether each notification's raw payload, custom keys and
  ///   reasons are read too. A replay, whose device keeps them in the database only, leaves them
  ///   out (see ``DeviceSimulator/keepsPayloadDetails``): restoring a million then takes a
  ///   fraction of the time and memory.
  public func restore(keepsPayloadDetails: Bool = true) throws(StoreError) -> RestoredDevice {
    try guarded { () throws in
      try queue.read { db in
        var restored = try Self.restoreParts(from: db)
        try Self.forEachNotification(in: db, keepsPayloadDetails: keepsPayloadDetails) {
          restored.notifications.append($0)
        }
        return restored
      }
    }
  }

  /// Rebuilds the device the journal holds, as
  /// `DeviceSimulator(profile: profile, restoring: try restore(keepsPayloadDetails:))` would,
  /// streaming: each notification goes from its row into the device's store as it is read (with
  /// ``DeviceSimulator/init(profile:restoring:notifications:)``), so restoring a state of a
  /// million takes the memory of the store, not that plus an array of every notification.
  ///
  /// Everything is read in one read transaction.
  ///
  /// - Parameters:
  ///   - profile: the profile the device started from.
  ///   - keepsPayloadDetails: whether raw payloads, custom keys and reasons are read too (see
  ///     ``restore(keepsPayloadDetails:)``).
  /// - Throws: ``StoreError/corrupt(path:detail:)`` when a row cannot be read back.
  public func restoreDevice(profile: DeviceProfile, keepsPayloadDetails: Bool = true) throws(StoreError)
    -> DeviceSimulator
  {
    try guarded { () throws in
      try queue.read { db in
        let parts = try Self.restoreParts(from: db)
        return try DeviceSimulator(profile: profile, restoring: parts) { add throws in
          try Self.forEachNotification(in: db, keepsPayloadDetails: keepsPayloadDetails, add)
        }
      }
    }
  }

  /// The clock, lock and Focus as last saved (the `device_state` row), if any.
  public func savedDeviceState() throws(StoreError) -> RestoredDevice.State? {
    try guarded { () throws in try queue.read { db in try Self.deviceState(in: db) } }
  }

  private static func deviceState(in db: Database) throws -> RestoredDevice.State? {
    guard
      let row = try Row.fetchOne(
        db, sql: "SELECT now_ms, is_locked, active_focus_id, lock_screen_display FROM device_state WHERE id = 1")
    else { return nil }
    var reader = ColumnReader(row: row)
    return RestoredDevice.State(
      now: try reader.requiredInstant("now_ms"), isLocked: try reader.bool("is_locked"),
      activeFocusID: try reader.optionalString(),
      // A value this build does not know (a later Pushdeck's) leaves the profile's: a display
      // preference is no reason to refuse the state.
      lockScreenDisplay: try reader.optionalString().flatMap(LockScreenDisplay.init(rawValue:)))
  }

  /// How many pushes the journal holds as rejected.
  public func rejectedCount() throws(StoreError) -> Int {
    try guarded { () throws in
      try queue.read { db in
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM delivery WHERE disposition = 'rejected'") ?? 0
      }
    }
  }

  /// Whether the journal holds a device to restore: any push, event or saved clock.
  public func holdsDevice() throws(StoreError) -> Bool {
    try guarded { () throws in
      // A push, an event or a saved clock (a device that only had time pass) is a device.
      try queue.read { db in
        try Bool.fetchOne(
          db,
          sql: "SELECT EXISTS (SELECT 1 FROM delivery) OR EXISTS (SELECT 1 FROM device_state) "
            + "OR EXISTS (SELECT 1 FROM event)") ?? false
      }
    }
  }

  /// How far each input replayed into the journal has been saved (see
  /// ``JournalBatch/SourceProgress``), in id order.
  public func sourceProgress() throws(StoreError) -> [JournalBatch.SourceProgress] {
    try guarded { () throws in
      try queue.read { db in
        try Row.fetchAll(
          db, sql: "SELECT id, path, head_bytes, head_hash, line, byte_offset FROM source_progress ORDER BY id"
        ).map { row throws in
          var reader = ColumnReader(row: row)
          return JournalBatch.SourceProgress(
            id: try reader.number("id"), path: try reader.string("path"),
            headBytes: Int(try reader.number("head_bytes")), headHash: try reader.string("head_hash"),
            line: Int(try reader.number("line")), offset: try reader.number("byte_offset"))
        }
      }
    }
  }

  /// The id the next stored reason list takes (see ``ReasonLists``).
  public func nextReasonListID() throws(StoreError) -> Int64 {
    try guarded { () throws in
      try queue.read { db in
        // The largest id is read as it is (MAX(id) + 1 would turn into a REAL past Int64.max).
        let last = try Int64.fetchOne(db, sql: "SELECT COALESCE(MAX(id), 0) FROM reason_list") ?? 0
        return try JournalCoding.checkedNumber(last, "reason_list.id") + 1
      }
    }
  }

  /// The source paths delivery rows name by id (the `source_file` table, schema version 8).
  public func sourceFiles() throws(StoreError) -> [Int64: String] {
    try texts(byID: "path", in: "source_file")
  }

  /// A table's texts by their rows' `id` (`source_file`'s paths, `reason_list`'s lists).
  private func texts(byID column: String, in table: String) throws(StoreError) -> [Int64: String] {
    try guarded { () throws in
      try queue.read { db in
        var texts: [Int64: String] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT id, \(column) FROM \(table)") {
          var reader = ColumnReader(row: row)
          texts[try reader.number("\(table).id")] = try reader.string(column)
        }
        return texts
      }
    }
  }

  /// How many pushes the journal holds, and whether their sequence numbers are contiguous from 0.
  public func deliveryCount() throws(StoreError) -> (count: Int, isContiguous: Bool) {
    try guarded { () throws in
      try queue.read { db in
        let row = try Row.fetchOne(
          db, sql: "SELECT COUNT(*), COALESCE(MAX(seq) + 1, 0), COALESCE(MIN(seq), 0) FROM delivery"
        )
        let count: Int = row?[0] ?? 0
        let end: Int = row?[1] ?? 0
        let first: Int = row?[2] ?? 0
        return (count, count == end && first == 0)
      }
    }
  }

  /// A notification as its delivery row keeps it, with its raw payload, custom keys and
  /// reasons: what a device that keeps no payload details (``DeviceSimulator/keepsPayloadDetails``
  /// off) holds in the database only. Nil when no stored notification has that id.
  ///
  /// - Parameter reasonLists: the journal's reason lists (``reasonLists()``), when the row names one.
  public func deliveredNotification(_ id: NotificationID, reasonLists: [Int64: String]) throws(StoreError)
    -> StoredNotification?
  {
    try guarded { () throws in
      try queue.read { db in
        guard
          let row = try Row.fetchOne(
            db,
            sql: "SELECT \(Self.restoreColumns.joined(separator: ", ")) FROM delivery "
              + "WHERE notification_id = ? AND is_stored = 1",
            arguments: [id.rawValue])
        else { return nil }
        var lists = ListCache()
        var reader = try ColumnReader(deliveryRow: row, keepsPayloadDetails: true, reasonLists: reasonLists)
        return try reader.storedNotification(lists: &lists)
      }
    }
  }

  /// The reason lists delivery rows name by id (see ``ReasonLists``).
  public func reasonLists() throws(StoreError) -> [Int64: String] {
    try texts(byID: "reasons", in: "reason_list")
  }

  /// Runs SQLite's full `integrity_check`; returns the problems found (empty when intact).
  public func integrityProblems() throws(StoreError) -> [String] {
    try guarded { () throws in
      try queue.read { db in
        try String.fetchAll(db, sql: "PRAGMA integrity_check").filter { $0 != "ok" }
      }
    }
  }

  /// The columns restore reads, in order (the rest are in `detail`).
  private static let restoreColumns = [
    "notification_id", "bundle_id", "title", "body", "raw_payload", "disposition", "detail",
  ]

  /// ``restoreColumns`` without the raw payload (a constant in its place).
  private static let leanRestoreColumns = restoreColumns.map { $0 == "raw_payload" ? "'' AS raw_payload" : $0 }

  /// Calls `body` with each notification in Notification Center (held ones included), in
  /// delivery order, as its row is read.
  private static func forEachNotification(
    in db: Database, keepsPayloadDetails: Bool, _ body: (StoredNotification) throws -> Void
  ) throws {
    let rows = try Row.fetchCursor(
      db,
      sql:
        "SELECT \((keepsPayloadDetails ? restoreColumns : leanRestoreColumns).joined(separator: ", ")) FROM delivery "
        + "WHERE is_stored = 1 AND notification_id NOT IN (SELECT notification_id FROM removal) ORDER BY seq")
    var lists = ListCache()
    var reasonLists: [Int64: String] = [:]
    if keepsPayloadDetails {
      for row in try Row.fetchAll(db, sql: "SELECT id, reasons FROM reason_list") {
        var reader = ColumnReader(row: row)
        reasonLists[try reader.number("reason_list.id")] = try reader.string("reasons")
      }
    }
    while let row = try rows.next() {
      var reader = try ColumnReader(
        deliveryRow: row, keepsPayloadDetails: keepsPayloadDetails, reasonLists: reasonLists)
      try body(try reader.storedNotification(lists: &lists))
    }
  }

  /// Everything ``restore(keepsPayloadDetails:)`` reads but the notifications.
  private static func restoreParts(from db: Database) throws -> RestoredDevice {
    var restored = RestoredDevice()
    for row in try Row.fetchAll(db, sql: "SELECT bundle_id, taps, dismissals FROM engagement") {
      var reader = ColumnReader(row: row)
      let bundleID = try reader.string("bundle_id")
      restored.engagement[bundleID] = Engagement(
        taps: Int(try reader.number("taps")), dismissals: Int(try reader.number("dismissals")))
    }
    for row in try Row.fetchAll(db, sql: "SELECT bundle_id, count FROM badge") {
      var reader = ColumnReader(row: row)
      let bundleID = try reader.string("bundle_id")
      restored.badges[bundleID] = Int(try reader.number("badge count"))
    }
    for row in try Row.fetchAll(
      db,
      sql: """
        SELECT bundle_id, attributes_type, attributes, content_state, title, body, started_at_ms, last_timestamp,
          stale_date_ms, ended_at_ms, dismissal_date_ms, relevance_score, channel_id, push_token
        FROM live_activity ORDER BY position
        """)
    {
      var reader = ColumnReader(row: row)
      restored.liveActivities.append(try reader.liveActivity())
    }
    for row in try Row.fetchAll(
      db,
      sql: """
        SELECT id, bundle_id, storage_policy, created_at_ms, message_at_ms, message_event, message_timestamp,
          message_content_state, message_stale_date, message_dismissal_date, message_title, message_body
        FROM channel ORDER BY position
        """)
    {
      var reader = ColumnReader(row: row)
      restored.channels.append(try reader.channel())
    }
    for row in try Row.fetchAll(
      db, sql: "SELECT bundle_id, name, value FROM event WHERE kind = 'setting' ORDER BY seq")
    {
      var reader = ColumnReader(row: row)
      let bundleID = try reader.string("bundle_id")
      let change = try JournalCoding.change(
        name: try reader.string("name"), value: try reader.string("value"))
      restored.settingChanges.append(
        RestoredDevice.SettingChange(bundleID: bundleID, change: change))
    }
    restored.state = try Self.deviceState(in: db)
    // The last delivery and event: pushes and events are journaled in time order, so the last
    // rows by sequence number are the latest (a primary-key lookup each, not a scan).
    let latest = [
      try Int64.fetchOne(db, sql: "SELECT at_ms FROM delivery ORDER BY seq DESC LIMIT 1"),
      try Int64.fetchOne(db, sql: "SELECT at_ms FROM event ORDER BY seq DESC LIMIT 1"),
    ].compactMap { $0 }.max()
    restored.latestActivity = try latest.map { milliseconds throws in try ColumnReader.instant(milliseconds, "at_ms") }
    // The silent-push budget: the last hour's silent deliveries, read newest first from the end
    // of the log (deliveries are in time order) until one is older.
    if let now = restored.clock {
      let hourAgo = (now - .hours(1)).milliseconds
      let recent = try Row.fetchCursor(db, sql: "SELECT at_ms, bundle_id, disposition FROM delivery ORDER BY seq DESC")
      while let row = try recent.next() {
        var reader = ColumnReader(row: row)
        let atMilliseconds = try reader.int64("at_ms")
        if atMilliseconds <= hourAgo { break }
        let bundleID = try reader.string("bundle_id")
        if try reader.string("disposition") == Disposition.silent.rawValue {
          restored.silentPushes[bundleID, default: []].insert(SimInstant(milliseconds: atMilliseconds), at: 0)
        }
      }
    }
    if let row = try Row.fetchOne(
      db,
      // A removal is never of an id the device has not given out, even one whose delivery row
      // was lost with a failed batch: new ids start after both, so none is born removed.
      sql: """
        SELECT MAX(COALESCE((SELECT MAX(notification_id) FROM delivery), 0),
                   COALESCE((SELECT MAX(notification_id) FROM removal), 0)),
               (SELECT MAX(seq) FROM delivery)
        """)
    {
      var reader = ColumnReader(row: row)
      restored.nextNotificationID = Int(try reader.number("notification_id")) + 1
      if let last = try reader.optionalInt64() {
        restored.deliveryCount = Int(try JournalCoding.checkedNumber(last, "seq")) + 1
      }
    }
    return restored
  }

  // MARK: Errors

  private func guarded<T>(_ body: () throws -> T) throws(StoreError) -> T {
    do {
      return try body()
    } catch {
      throw Self.storeError(error, path: label)
    }
  }

  /// Maps any failure to a ``StoreError`` that says what to do.
  static func storeError(_ error: any Error, path: String) -> StoreError {
    if let error = error as? StoreError { return error }
    if let error = error as? JournalCoding.Malformed {
      return .corrupt(path: path, detail: error.detail)
    }
    guard let error = error as? DatabaseError else {
      return .database(path: path, detail: "\(error)")
    }
    let detail = error.message ?? "\(error.resultCode)"
    switch error.resultCode.primaryResultCode {
    case .SQLITE_CORRUPT, .SQLITE_NOTADB: return .corrupt(path: path, detail: detail)
    case .SQLITE_FULL: return .full(path: path)
    case .SQLITE_READONLY, .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_AUTH:
      return .unwritable(path: path, detail: detail)
    case .SQLITE_BUSY, .SQLITE_LOCKED: return .locked(path: path, holderPID: nil, holder: nil)
    case .SQLITE_MISUSE: return .closed
    default: return .database(path: path, detail: detail)
    }
  }
}

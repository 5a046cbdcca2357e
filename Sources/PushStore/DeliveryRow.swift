import GRDB
import GRDBSQLite
import PushCore
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Delivery rows packed as bytes, ready for the journal to insert: the values of
/// `DeviceJournal.deliveryColumns` for each row, in ``DeliveryDetail``'s tagged format, and the
/// notifications each delivery removed (replaced or evicted), in order.
///
/// A replay packs each delivery as it happens (``JournalBatch/packsDeliveries``), so the record
/// itself is freed at once on the thread that made it; handing a thousand records to the
/// journal's thread, which freed them there, cost more than writing them.
public struct PackedDeliveries: Sendable {
  /// The rows' values, ten a row.
  private(set) var rows = DeliveryDetail.Writer()
  /// How many rows are packed.
  public private(set) var count = 0
  /// Notifications the packed deliveries removed from Notification Center, in order.
  private(set) var removals: [JournalBatch.Removal] = []
  /// Reason lists met for the first time, to store before the rows: (id, JSON).
  private(set) var newReasonLists: [(id: Int64, json: String)] = []
  /// Source files met for the first time, to store in `source_file` before the rows.
  private(set) var newSourceFiles: [(id: Int64, path: String)] = []
  private var packer = DeliveryPacker()
  /// The shared reason lists, when the rows name them by id.
  private let reasonLists: ReasonLists?

  /// Creates an empty set of rows; with `reasonLists`, reasons that repeat are stored once.
  public init(reasonLists: ReasonLists? = nil, reservingBytes: Int = 0) {
    self.reasonLists = reasonLists
    if reservingBytes > 0 { rows.reserve(reservingBytes) }
  }

  /// How many bytes the packed rows take.
  var byteCount: Int { rows.count }

  /// Packs a delivery; `rawPayload`, when given, is journaled as the notification's payload text.
  mutating func append(_ record: DeliveryRecord, rawPayload: ArraySlice<UInt8>? = nil) {
    // As the device removes it: when the new one is stored, or replaces it without being kept
    // (`DeviceSimulator`); a decision that names a target it leaves in place removes nothing.
    if let replaced = record.decision.replaces, record.decision.isStored || record.decision.disposition == .replaced {
      removals.append(JournalBatch.Removal(id: replaced, at: record.at, reason: "replaced"))
    }
    for evicted in record.evicted {
      removals.append(JournalBatch.Removal(id: evicted, at: record.at, reason: "evicted"))
    }
    var reasonListID: Int64?
    var sourceFileID: Int64?
    if let reasonLists {
      let ids = reasonLists.ids(for: record.decision.reasons, sourceFile: record.sourceFile)
      if let id = ids.list, ids.isNewList { newReasonLists.append((id, JournalCoding.json(record.decision.reasons))) }
      if let file = ids.file, ids.isNewFile { newSourceFiles.append((file, record.sourceFile)) }
      reasonListID = ids.list
      sourceFileID = ids.file
    }
    packer.pack(
      record, reasonListID: reasonListID, sourceFileID: sourceFileID, rawPayload: rawPayload, into: &rows)
    count += 1
  }
}

/// Packs a delivery record into a row: its columns, and the fields without a column of their own
/// in `detail` (``DeliveryDetail``). The lists that repeat from row to row (surfaces, callbacks)
/// are encoded once.
struct DeliveryPacker: Sendable {
  private var surfacesText = ListTexts<Surface>()
  private var callbacksText = ListTexts<AppCallback>()
  private let levels = KnownCases<InterruptionLevel>()
  private let pushTypes = KnownCases<PushType>()
  /// The `detail` being packed, its buffer reused from row to row.
  private var detail = DeliveryDetail.Writer()

  /// Appends the row's values, in the order of `DeviceJournal.deliveryColumns`.
  ///
  /// Every field is read through `record` in place (`record.notification?.title`): binding the
  /// notification or the decision to a constant copied it, every string and array it holds,
  /// and destroyed the copy again, on every push (docs/PERFORMANCE.md, "Issue 15, 26 Nov (fifth
  /// session)").
  mutating func pack(
    _ record: borrowing DeliveryRecord, reasonListID: Int64? = nil, sourceFileID: Int64? = nil,
    rawPayload: ArraySlice<UInt8>? = nil, into row: inout DeliveryDetail.Writer
  ) {
    let hasNote = record.notification != nil
    row.int(record.index)
    row.int(record.at.milliseconds)
    row.text(record.bundleID)
    row.int(record.notification?.id.rawValue)
    row.text(record.decision.disposition.rawValue)
    row.bool(record.decision.isStored && record.group != nil && hasNote)
    row.text(record.notification?.title)
    row.text(record.notification?.body)
    if hasNote, let rawPayload { row.text(rawPayload) } else { row.text(record.notification?.rawPayload) }
    packDetail(record, reasonListID: reasonListID, sourceFileID: sourceFileID, hasRawPayload: rawPayload != nil)
    row.blob(detail)
  }

  /// Packs a sound as `JournalCoding.text(_:)` writes it, the system sound as a known text.
  private mutating func sound(_ sound: SoundRequest?) {
    if case .systemDefault = sound {
      detail.known(DeliveryDetail.defaultSound)
    } else {
      detail.text(JournalCoding.text(sound))
    }
  }

  /// Packs the fields without a column of their own, in the order of ``DeliveryDetail/fields``.
  private mutating func packDetail(
    _ record: borrowing DeliveryRecord, reasonListID: Int64?, sourceFileID: Int64?, hasRawPayload: Bool
  ) {
    detail.start()
    // The path once in `source_file` and the line here, when the rows share a table of paths;
    // else the text `PATH:LINE`.
    if let sourceFileID {
      detail.source(file: sourceFileID, line: record.sourceLine)
    } else {
      detail.text(record.source)
    }
    if record.diagnostics.isEmpty {
      detail.known(DeliveryDetail.emptyList)
    } else {
      detail.text(JournalCoding.json(record.diagnostics))
    }
    let surfaces = surfacesText.json(record.decision.surfaces)
    detail.text(surfaces.text, known: surfaces.known)
    detail.bool(record.decision.playsSound)
    sound(record.decision.sound)
    detail.int(record.decision.badge)
    detail.text(record.decision.effectiveLevel.rawValue, known: levels.known(record.decision.effectiveLevel))
    detail.int(record.decision.heldUntil?.milliseconds)
    detail.int(record.decision.replaces?.rawValue)
    detail.bool(record.decision.previewsHidden)
    let callbacks = callbacksText.json(record.decision.callbacks)
    detail.text(callbacks.text, known: callbacks.known)
    if let reasonListID { detail.int(reasonListID) } else { detail.reasons(record.decision.reasons) }
    detail.text(record.group?.bundleID)
    detail.text(record.group?.thread)
    detail.int(record.group?.single?.rawValue)
    detail.int(record.groupRank)
    detail.double(record.rank?.level)
    detail.double(record.rank?.relevance)
    detail.double(record.rank?.engagement)
    detail.double(record.rank?.communication)
    detail.double(record.rank?.recency)
    detail.text(record.notification?.threadID)
    detail.text(record.notification?.subtitle)
    detail.text(record.notification?.category)
    if let level = record.notification?.level {
      detail.text(level.rawValue, known: levels.known(level))
    } else {
      detail.text(nil)
    }
    detail.double(record.notification?.relevanceScore)
    sound(record.notification?.sound)
    detail.int(record.notification?.badge)
    detail.bool(record.notification?.isContentAvailable)
    detail.bool(record.notification?.isMutableContent)
    detail.text(record.notification?.targetContentID)
    detail.text(record.notification?.filterCriteria)
    detail.text(record.notification?.collapseID)
    detail.int(record.notification?.receivedAt.milliseconds)
    if let pushType = record.notification?.pushType {
      detail.text(pushType.rawValue, known: pushTypes.known(pushType))
    } else {
      detail.text(nil)
    }
    detail.int(record.notification?.priority?.rawValue)
    detail.int(record.notification?.expiration?.milliseconds)
    detail.text(record.notification?.sender)
    // Custom keys are read back from the raw payload; the field only holds them for a
    // notification without one.
    if let keys = record.notification?.customKeys, !keys.isEmpty, !hasRawPayload,
      record.notification?.rawPayload.isEmpty == true
    {
      detail.text(JSONValue.object(keys).compactText)
    } else {
      detail.text(nil)
    }
    if let attachments = record.notification?.attachments {
      detail.text(JournalCoding.json(attachments))
    } else {
      detail.text(nil)
    }
  }
}

/// The position in ``DeliveryDetail/knownTexts`` of each case's raw value, found once, so a row
/// names a level or push type without hashing its text.
struct KnownCases<Element: RawRepresentable & CaseIterable & Equatable & Sendable>: Sendable
where Element.RawValue == String {
  private let cases = Array(Element.allCases)
  private let positions = Element.allCases.map { DeliveryDetail.knownTexts.firstIndex(of: $0.rawValue) }

  /// The case's raw value's position in ``DeliveryDetail/knownTexts``, if it is there.
  func known(_ element: Element) -> Int? {
    for index in cases.indices where cases[index] == element { return positions[index] }
    return nil
  }
}

/// Inserts packed rows by binding their values straight to the prepared `INSERT` (the column
/// order of `DeviceJournal.deliveryColumns`), without boxing them into GRDB's arguments or
/// copying them: the bytes outlive each step.
enum DeliveryRow {
  /// Inserts every row; throws the database's error.
  static func insert(_ rows: PackedDeliveries, statement: SQLiteStatement, db: Database) throws {
    let columns = Int32(sqlite3_bind_parameter_count(statement))
    try rows.rows.withUnsafeBytes { bytes in
      var values = DeliveryDetail.Values(bytes)
      for _ in 0..<rows.count {
        for column in 1...columns {
          switch try values.next() {
          case .null: sqlite3_bind_null(statement, column)
          case .int(let value): sqlite3_bind_int64(statement, column, value)
          case .double(let value): sqlite3_bind_double(statement, column, value)
          case .text(let text):
            // A non-nil pointer even for "", so SQLite stores an empty TEXT rather than NULL.
            let base = text.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!
            sqlite3_bind_text(statement, column, base.assumingMemoryBound(to: CChar.self), Int32(text.count), nil)
          case .blob(let blob):
            let base = blob.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!
            sqlite3_bind_blob(statement, column, base, Int32(blob.count), nil)
          case .source, .known:
            throw JournalCoding.Malformed(detail: "a packed delivery row holds a detail's value as a column")
          case nil: throw JournalCoding.Malformed(detail: "a packed delivery row ends early")
          }
        }
        let code = sqlite3_step(statement)
        guard code == SQLITE_DONE else {
          let message = String(cString: sqlite3_errmsg(db.sqliteConnection))
          sqlite3_reset(statement)
          throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message)
        }
        sqlite3_reset(statement)
      }
    }
    sqlite3_clear_bindings(statement)
  }
}

/// The JSON text of short lists of a few enum cases, and its position in
/// ``DeliveryDetail/knownTexts`` if it is one, remembered by a number made of the cases'
/// positions, so a row looks its lists up without hashing them.
struct ListTexts<Element: RawRepresentable & CaseIterable & Equatable & Sendable>: Sendable
where Element.RawValue == String {
  private var known: [(key: UInt64, text: String, known: Int?)] = []

  /// The list as a JSON array of its raw values, and that text's position in
  /// ``DeliveryDetail/knownTexts``.
  mutating func json(_ list: [Element]) -> (text: String, known: Int?) {
    let cases = Element.allCases
    var key: UInt64 = 1
    if list.count <= 12 && cases.count < 31 {
      for element in list {
        key = key << 5 | UInt64(cases.distance(from: cases.startIndex, to: cases.firstIndex(of: element)!) + 1)
      }
      for entry in known where entry.key == key { return (entry.text, entry.known) }
    } else {
      key = 0
    }
    let text = JournalCoding.json(list.map(\.rawValue))
    let position = DeliveryDetail.knownTexts.firstIndex(of: text)
    if key != 0 && known.count < 64 { known.append((key, text, position)) }
    return (text, position)
  }
}

/// The reason lists a replay has stored in `reason_list`, by content, so a list that repeats (a
/// million pushes give a few tens of thousands of distinct lists) is written once and each row
/// names it by id; and, the same way, the paths of the inputs its rows came from, stored once in
/// `source_file` (schema version 8) so a row's `source` is a path id and a line.
///
/// Used by one thread, the one that packs deliveries, so its lock is never contended (one
/// uncontended lock a push); it is there so the sharing with the commit queue is checked.
/// At most ``limit`` lists are remembered; rows with others carry their reasons inline. At most
/// ``sourceFileLimit`` paths are; rows from others carry their source as text.
public final class ReasonLists: Sendable {
  /// How many distinct lists are remembered.
  public static let limit = 65_536
  /// How many distinct source paths are remembered.
  public static let sourceFileLimit = 4_096

  /// The lists met so far, found by their fingerprint in an open-addressing table of slots
  /// (a `Dictionary` hashed each 64-bit fingerprint again with SipHash, and copied out the
  /// array of lists stored under it, on every push).
  ///
  /// Each list is kept as bytes (``encode(_:into:)``) in one arena, and its slot holds its
  /// fingerprint, id and place there: a look-up reads one slot and the list's few adjacent
  /// bytes. Kept as `[Reason]` behind an index, a look-up read the slot, the index's entry, the
  /// array and each of its texts, each a cache miss with a million notifications stored
  /// (docs/PERFORMANCE.md, "Issue 15, 26 Nov (sixth session)").
  private struct Table {
    /// A remembered list, or an empty slot (`stored` 0).
    struct Slot {
      var fingerprint: UInt64 = 0
      var id: Int64 = 0
      /// Where the list's bytes start in ``arena``.
      var start: UInt32 = 0
      /// Their count plus one; 0 for an empty slot.
      var stored: UInt32 = 0
    }

    /// A power of two in size, at most half full. Lists whose fingerprints meet (never seen in
    /// practice) take the next free slots; each is compared byte for byte.
    var slots = [Slot](repeating: Slot(), count: 1 << 10)
    /// How many lists are remembered.
    var count = 0
    /// Every remembered list's bytes, one after another.
    var arena: [UInt8] = []
    /// The list being looked up, encoded (its buffer reused from push to push).
    var scratch: [UInt8] = []
    var nextID: Int64
    /// The source paths met so far, and the next one's id.
    var files: [String: Int64] = [:]
    var nextFileID: Int64
    /// The last path asked for and its id: a replay's rows name one input at a time, so most
    /// pushes compare their path with it (the same string: a pointer comparison) and hash nothing.
    var lastFile: (path: String, id: Int64)?

    mutating func fileID(for path: String) -> (id: Int64?, isNew: Bool) {
      if let lastFile, lastFile.path == path { return (lastFile.id, false) }
      if let id = files[path] {
        lastFile = (path, id)
        return (id, false)
      }
      guard files.count < ReasonLists.sourceFileLimit else { return (nil, false) }
      let id = nextFileID
      nextFileID += 1
      files[path] = id
      lastFile = (path, id)
      return (id, true)
    }

    /// The slot where `fingerprint`'s probe starts.
    func start(_ fingerprint: UInt64) -> Int {
      Int(truncatingIfNeeded: fingerprint ^ fingerprint >> 32) & (slots.count - 1)
    }

    mutating func id(for reasons: [Reason]) -> (id: Int64?, isNew: Bool) {
      scratch.removeAll(keepingCapacity: true)
      ReasonLists.encode(reasons, into: &scratch)
      let fingerprint = ReasonLists.fingerprint(scratch)
      let mask = slots.count - 1
      var slot = start(fingerprint)
      while slots[slot].stored != 0 {
        let found = slots[slot]
        if found.fingerprint == fingerprint && Int(found.stored) - 1 == scratch.count
          && arenaHolds(scratch, at: Int(found.start))
        {
          return (found.id, false)
        }
        slot = (slot + 1) & mask
      }
      guard count < ReasonLists.limit, arena.count + scratch.count < Int(UInt32.max) else { return (nil, false) }
      let id = nextID
      nextID += 1
      slots[slot] = Slot(
        fingerprint: fingerprint, id: id, start: UInt32(arena.count), stored: UInt32(scratch.count + 1))
      arena.append(contentsOf: scratch)
      count += 1
      if count * 2 > slots.count { grow() }
      return (id, true)
    }

    /// Whether the arena holds `bytes` at `start`.
    private func arenaHolds(_ bytes: [UInt8], at start: Int) -> Bool {
      arena.withUnsafeBytes { arena in
        bytes.withUnsafeBytes { bytes in
          bytes.isEmpty || memcmp(arena.baseAddress! + start, bytes.baseAddress!, bytes.count) == 0
        }
      }
    }

    /// Doubles the slots and places every list again.
    private mutating func grow() {
      let old = slots
      slots = [Slot](repeating: Slot(), count: old.count * 2)
      let mask = slots.count - 1
      for entry in old where entry.stored != 0 {
        var slot = start(entry.fingerprint)
        while slots[slot].stored != 0 { slot = (slot + 1) & mask }
        slots[slot] = entry
      }
    }
  }

  private let table: Mutex<Table>

  /// Starts numbering new lists at `firstID` (``DeviceJournal/nextReasonListID()``); knows the
  /// source paths already stored (``DeviceJournal/sourceFiles()``) and numbers new ones after them.
  public init(firstID: Int64, sourceFiles: [Int64: String]) {
    var table = Table(nextID: firstID, nextFileID: (sourceFiles.keys.max() ?? 0) + 1)
    for (id, path) in sourceFiles { table.files[path] = min(id, table.files[path] ?? id) }
    self.table = Mutex(table)
  }

  /// Numbers new lists and paths after those `journal` holds.
  public convenience init(continuing journal: DeviceJournal) throws(StoreError) {
    self.init(firstID: try journal.nextReasonListID(), sourceFiles: try journal.sourceFiles())
  }

  /// The list's id, and whether it is new (to be stored); nil when it is new and the table is full.
  func id(for reasons: [Reason]) -> (id: Int64?, isNew: Bool) {
    table.withLock { $0.id(for: reasons) }
  }

  /// The list's id and the source path's, each with whether it is new (to be stored), under one
  /// lock; nil when it is new and its table is full.
  ///
  /// A list that names a notification (``isOneOff(_:)``) never repeats: it gets no id and is
  /// stored in its row, and the table is not searched for it.
  func ids(for reasons: [Reason], sourceFile: String) -> (list: Int64?, isNewList: Bool, file: Int64?, isNewFile: Bool)
  {
    if Self.isOneOff(reasons) {
      return table.withLock { table in
        let file = table.fileID(for: sourceFile)
        return (nil, false, file.id, file.isNew)
      }
    }
    return table.withLock { table in
      let list = table.id(for: reasons)
      let file = table.fileID(for: sourceFile)
      return (list.id, list.isNew, file.id, file.isNew)
    }
  }

  /// Whether a list names a notification by its id (the one an `apns-collapse-id` replaces, the
  /// ones removed to make room), so that no other push has the same list.
  ///
  /// At a million pushes such lists were 54,000 of the table's 65,536: they filled it (rows met
  /// after that stored every new list in full), and searching a table that size took three
  /// cache misses a push, 7 % of the device thread (docs/PERFORMANCE.md, "Issue 15, 26 Nov
  /// (sixth session)").
  static func isOneOff(_ reasons: [Reason]) -> Bool {
    reasons.contains { $0.code == .collapsedReplacement || $0.code == .notificationCenterFull }
  }

  /// The source path's id, and whether it is new (to be stored); nil when it is new and the
  /// table is full.
  func sourceFileID(for path: String) -> (id: Int64?, isNew: Bool) {
    table.withLock { $0.fileID(for: path) }
  }

  /// A list as the table keeps it: each reason's code (its ordinal, one byte), its text's length
  /// (four bytes) and its text.
  static func encode(_ reasons: [Reason], into bytes: inout [UInt8]) {
    for reason in reasons {
      bytes.append(UInt8(truncatingIfNeeded: reason.code.ordinal))
      var text = reason.text
      text.withUTF8 { utf8 in
        withUnsafeBytes(of: UInt32(truncatingIfNeeded: utf8.count).littleEndian) { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: utf8)
      }
    }
  }

  /// A 64-bit fingerprint of an encoded list, eight bytes at a step: the lists are looked up
  /// once per push, and `Hasher` (SipHash) over their few hundred bytes is slower
  /// (docs/PERFORMANCE.md, Measurements behind the code).
  static func fingerprint(_ bytes: [UInt8]) -> UInt64 {
    var state = mix(0x9E37_79B9_7F4A_7C15, UInt64(bytes.count))
    bytes.withUnsafeBytes { raw in
      var offset = 0
      while offset + 8 <= raw.count {
        state = mix(state, raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        offset += 8
      }
      var tail: UInt64 = 0
      for index in offset..<raw.count { tail = tail << 8 | UInt64(raw[index]) }
      state = mix(state, tail)
    }
    return state
  }

  /// The fingerprint of a list (``encode(_:into:)``, then ``fingerprint(_:)-([UInt8])``).
  static func fingerprint(_ reasons: [Reason]) -> UInt64 {
    var bytes: [UInt8] = []
    encode(reasons, into: &bytes)
    return fingerprint(bytes)
  }

  private static func mix(_ state: UInt64, _ word: UInt64) -> UInt64 {
    let mixed = (state ^ word) &* 0xFF51_AFD7_ED55_8CCD
    return mixed ^ (mixed >> 29)
  }
}

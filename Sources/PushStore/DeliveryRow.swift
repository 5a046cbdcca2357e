import GRDB
import GRDBSQLite
import PushCore

/// Writes one delivery row by binding its values straight to the prepared `INSERT` (the column
/// order of `DeviceJournal.deliveryColumns`), without boxing them into GRDB's arguments; the
/// fields without a column of their own are packed into `detail` (``DeliveryDetail``).
///
/// The lists that repeat from row to row (surfaces, callbacks, empty diagnostics) are encoded
/// once and reused.
struct DeliveryRow {
  private let statement: SQLiteStatement
  private var column: Int32 = 0
  private var surfacesText: [[Surface]: String] = [:]
  private var callbacksText: [[AppCallback]: String] = [:]
  /// The packed `detail` column, its buffer reused from row to row.
  private var detail = DeliveryDetail.Writer()

  init(statement: SQLiteStatement) {
    self.statement = statement
  }

  /// SQLite copies the bytes before `bind` returns (the values outlive no call).
  private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

  private mutating func next() -> Int32 {
    column += 1
    return column
  }

  private mutating func bind(_ value: Int64?) {
    let index = next()
    if let value { sqlite3_bind_int64(statement, index, value) } else { sqlite3_bind_null(statement, index) }
  }

  private mutating func bind(_ value: Int?) { bind(value.map(Int64.init)) }

  private mutating func bind(_ value: Bool?) { bind(value.map { Int64($0 ? 1 : 0) }) }

  private mutating func bind(_ value: Double?) {
    let index = next()
    if let value { sqlite3_bind_double(statement, index, value) } else { sqlite3_bind_null(statement, index) }
  }

  private mutating func bind(_ value: String?) {
    let index = next()
    guard var value else {
      sqlite3_bind_null(statement, index)
      return
    }
    value.withUTF8 { bytes in
      // A non-nil pointer even for "", so SQLite stores an empty TEXT rather than NULL.
      let base = bytes.baseAddress.map { UnsafeRawPointer($0) } ?? UnsafeRawPointer(bitPattern: 1)!
      sqlite3_bind_text(statement, index, base.assumingMemoryBound(to: CChar.self), Int32(bytes.count), Self.transient)
    }
  }

  private mutating func surfaces(_ list: [Surface]) -> String {
    if let text = surfacesText[list] { return text }
    let text = JournalCoding.json(list.map(\.rawValue))
    surfacesText[list] = text
    return text
  }

  private mutating func callbacks(_ list: [AppCallback]) -> String {
    if let text = callbacksText[list] { return text }
    let text = JournalCoding.json(list.map(\.rawValue))
    callbacksText[list] = text
    return text
  }

  private mutating func bind(bytes: [UInt8]) {
    let index = next()
    bytes.withUnsafeBytes { buffer in
      _ = sqlite3_bind_blob(statement, index, buffer.baseAddress, Int32(buffer.count), Self.transient)
    }
  }

  /// Inserts the delivery; throws the database's error.
  mutating func insert(_ record: DeliveryRecord, db: Database) throws {
    column = 0
    let decision = record.decision
    let note = record.notification
    let group = record.group
    bind(record.index)
    bind(record.at.milliseconds)
    bind(record.bundleID)
    bind(note?.id.rawValue)
    bind(decision.disposition.rawValue)
    bind(decision.isStored && group != nil && note != nil)
    bind(note?.title)
    bind(note?.body)
    bind(note?.rawPayload)
    packDetail(record)
    bind(bytes: detail.bytes)
    let code = sqlite3_step(statement)
    guard code == SQLITE_DONE else {
      let message = String(cString: sqlite3_errmsg(db.sqliteConnection))
      sqlite3_reset(statement)
      throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message)
    }
    sqlite3_reset(statement)
  }

  /// Packs the fields without a column of their own, in the order of ``DeliveryDetail/fields``.
  private mutating func packDetail(_ record: DeliveryRecord) {
    let decision = record.decision
    let rank = record.rank
    let note = record.notification
    let group = record.group
    detail.start()
    detail.text(record.source)
    detail.text(record.diagnostics.isEmpty ? "[]" : JournalCoding.json(record.diagnostics))
    detail.text(surfaces(decision.surfaces))
    detail.bool(decision.playsSound)
    detail.text(JournalCoding.text(decision.sound))
    detail.int(decision.badge)
    detail.text(decision.effectiveLevel.rawValue)
    detail.int(decision.heldUntil?.milliseconds)
    detail.int(decision.replaces?.rawValue)
    detail.bool(decision.previewsHidden)
    detail.text(callbacks(decision.callbacks))
    detail.reasons(decision.reasons)
    detail.text(group?.bundleID)
    detail.text(group?.thread)
    detail.int(group?.single?.rawValue)
    detail.int(record.groupRank)
    detail.double(rank?.level)
    detail.double(rank?.relevance)
    detail.double(rank?.engagement)
    detail.double(rank?.communication)
    detail.double(rank?.recency)
    detail.text(note?.threadID)
    detail.text(note?.subtitle)
    detail.text(note?.category)
    detail.text(note?.level.rawValue)
    detail.double(note?.relevanceScore)
    detail.text(JournalCoding.text(note?.sound))
    detail.int(note?.badge)
    detail.bool(note?.isContentAvailable)
    detail.bool(note?.isMutableContent)
    detail.text(note?.targetContentID)
    detail.text(note?.filterCriteria)
    detail.text(note?.collapseID)
    detail.int(note?.receivedAt.milliseconds)
    detail.text(note?.pushType.rawValue)
    detail.int(note?.priority?.rawValue)
    detail.int(note?.expiration?.milliseconds)
    detail.text(note?.sender)
    // Custom keys are read back from the raw payload; the field only holds them for a
    // notification without one.
    detail.text(
      note.flatMap {
        $0.customKeys.isEmpty || !$0.rawPayload.isEmpty ? nil : JSONValue.object($0.customKeys).compactText
      })
    detail.text(note.flatMap { JournalCoding.json($0.attachments) })
  }
}

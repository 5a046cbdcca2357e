import GRDB
import GRDBSQLite
import PushCore

/// Writes one delivery row by binding its values straight to the prepared `INSERT` (the column
/// order of `DeviceJournal.deliveryColumns`), without boxing them into GRDB's arguments.
///
/// The lists that repeat from row to row (surfaces, callbacks, empty diagnostics) are encoded
/// once and reused.
struct DeliveryRow {
  private let statement: SQLiteStatement
  private var column: Int32 = 0
  private var surfacesText: [[Surface]: String] = [:]
  private var callbacksText: [[AppCallback]: String] = [:]

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

  /// Inserts the delivery; throws the database's error.
  mutating func insert(_ record: DeliveryRecord, db: Database) throws {
    column = 0
    let decision = record.decision
    let rank = record.rank
    let note = record.notification
    let group = record.group
    bind(record.index)
    bind(record.at.milliseconds)
    bind(record.bundleID)
    bind(record.source)
    bind(record.diagnostics.isEmpty ? "[]" : JournalCoding.json(record.diagnostics))
    bind(note?.id.rawValue)
    bind(decision.disposition.rawValue)
    bind(surfaces(decision.surfaces))
    bind(decision.playsSound)
    bind(JournalCoding.text(decision.sound))
    bind(decision.badge)
    bind(decision.effectiveLevel.rawValue)
    bind(decision.heldUntil?.milliseconds)
    bind(decision.replaces?.rawValue)
    bind(decision.previewsHidden)
    bind(callbacks(decision.callbacks))
    bind(JournalCoding.json(decision.reasons))
    bind(group?.bundleID)
    bind(group?.thread)
    bind(group?.single?.rawValue)
    bind(record.groupRank)
    bind(rank?.level)
    bind(rank?.relevance)
    bind(rank?.engagement)
    bind(rank?.communication)
    bind(rank?.recency)
    bind(decision.isStored && group != nil && note != nil)
    bind(note?.threadID)
    bind(note?.title)
    bind(note?.subtitle)
    bind(note?.body)
    bind(note?.category)
    bind(note?.level.rawValue)
    bind(note?.relevanceScore)
    bind(JournalCoding.text(note?.sound))
    bind(note?.badge)
    bind(note?.isContentAvailable)
    bind(note?.isMutableContent)
    bind(note?.targetContentID)
    bind(note?.filterCriteria)
    bind(note?.collapseID)
    bind(note?.receivedAt.milliseconds)
    bind(note?.rawPayload)
    bind(note?.pushType.rawValue)
    bind(note?.priority?.rawValue)
    bind(note?.expiration?.milliseconds)
    bind(note?.sender)
    // Custom keys are read back from the raw payload; the column only holds them for a
    // notification without one.
    bind(
      note.flatMap {
        $0.customKeys.isEmpty || !$0.rawPayload.isEmpty ? nil : JSONValue.object($0.customKeys).compactText
      })
    bind(note.flatMap { JournalCoding.json($0.attachments) })
    let code = sqlite3_step(statement)
    guard code == SQLITE_DONE else {
      let message = String(cString: sqlite3_errmsg(db.sqliteConnection))
      sqlite3_reset(statement)
      throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message)
    }
    sqlite3_reset(statement)
  }
}

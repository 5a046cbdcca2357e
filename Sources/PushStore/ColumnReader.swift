import GRDB
import PushCore

/// Reads a row's columns in order, checking each type, so a damaged or hand-edited row is
/// reported as damage instead of crashing.
struct ColumnReader {
  private let values: [DatabaseValue]
  private var index = 0

  init(row: Row) { values = (0..<row.count).map { row[$0] } }

  /// Reads a delivery row selected with `DeviceJournal.restoreColumns`: its columns and the
  /// values packed in its `detail`, in the order ``storedNotification()`` reads them.
  ///
  /// - Parameters:
  ///   - keepsPayloadDetails: whether custom keys and reasons are read; when not, they read as
  ///     none.
  ///   - reasonLists: the `reason_list` table, for reasons a row names by id.
  init(deliveryRow row: Row, keepsPayloadDetails: Bool, reasonLists: [Int64: String] = [:])
    throws(JournalCoding.Malformed)
  {
    guard case .blob(let data) = (row[6] as DatabaseValue).storage else {
      throw JournalCoding.Malformed(detail: "column detail holds a value of the wrong type")
    }
    var result: [DatabaseValue]?
    var failure: JournalCoding.Malformed?
    data.withUnsafeBytes { bytes in
      do throws(JournalCoding.Malformed) {
        // The packed values stay views into the bytes; only those read become values.
        let detail = try DeliveryDetail.views(bytes)
        var values: [DatabaseValue] = []
        values.reserveCapacity(Self.deliveryPlan.count)
        for source in Self.deliveryPlan {
          switch source {
          case .column(let index): values.append(row[index])
          case .detail(let index): values.append(try detail[index].databaseValue())
          case .constant(let constant, let index):
            guard keepsPayloadDetails else {
              values.append(constant)
              continue
            }
            if index == Self.reasonsField, case .int(let id) = detail[index] {
              // Reasons stored once in reason_list, named by id.
              guard let json = reasonLists[id] else {
                throw JournalCoding.Malformed(detail: "delivery.detail names reason list \(id), which is missing")
              }
              values.append(json.databaseValue)
            } else {
              values.append(try detail[index].databaseValue())
            }
          }
        }
        result = values
      } catch {
        failure = error
      }
    }
    if let failure { throw failure }
    values = result ?? []
  }

  /// The position of `reasons` in a detail.
  private static let reasonsField = DeliveryDetail.position["reasons"]!

  /// Where each value ``storedNotification()`` reads comes from.
  private enum Source {
    case column(Int)
    case detail(Int)
    /// A payload detail a lean restore leaves out: the constant then, else the detail field.
    case constant(DatabaseValue, Int)
  }

  /// The columns ``storedNotification()`` reads, in order, and where each comes from.
  private static let deliveryPlan: [Source] = [
    "notification_id", "bundle_id", "thread_id", "title", "subtitle", "body", "category", "level",
    "relevance_score", "sound", "badge", "content_available", "mutable_content", "target_content_id",
    "filter_criteria", "collapse_id", "received_at_ms", "raw_payload", "push_type", "priority", "expiration_ms",
    "sender", "custom_keys", "disposition", "surfaces", "plays_sound", "decision_sound", "decision_badge",
    "effective_level", "held_until_ms", "replaces_id", "previews_hidden", "callbacks", "reasons",
    "group_bundle_id", "group_thread", "group_single", "rank_level", "rank_relevance", "rank_engagement",
    "rank_communication", "rank_recency", "attachments",
  ].map { name in
    let columns = ["notification_id", "bundle_id", "title", "body", "raw_payload", "disposition"]
    if let index = columns.firstIndex(of: name) { return .column(index) }
    let field = DeliveryDetail.position[name]!
    switch name {
    case "custom_keys": return .constant(.null, field)
    case "reasons": return .constant("[]".databaseValue, field)
    default: return .detail(field)
    }
  }

  private mutating func next() -> DatabaseValue {
    defer { index += 1 }
    return values[index]
  }

  private func wrong(_ name: String) -> JournalCoding.Malformed {
    JournalCoding.Malformed(detail: "column \(name) holds a value of the wrong type")
  }

  mutating func optionalInt64() throws(JournalCoding.Malformed) -> Int64? {
    let value = next()
    switch value.storage {
    case .null: return nil
    case .int64(let number): return number
    default: throw wrong("#\(index - 1)")
    }
  }

  mutating func int64(_ name: String) throws(JournalCoding.Malformed) -> Int64 {
    guard let value = try optionalInt64() else { throw wrong(name) }
    return value
  }

  mutating func int(_ name: String) throws(JournalCoding.Malformed) -> Int { Int(try int64(name)) }

  /// An id, sequence number, line, offset or count: a whole number from 0 to
  /// ``JournalCoding/numberLimit``. A file edited by hand may hold anything; one past the limit
  /// is damage, said as such, not a trap when the device counts on from it.
  mutating func number(_ name: String) throws(JournalCoding.Malformed) -> Int64 {
    try JournalCoding.checkedNumber(try int64(name), name)
  }

  mutating func optionalInt() throws(JournalCoding.Malformed) -> Int? {
    try optionalInt64().map { Int($0) }
  }

  mutating func bool(_ name: String) throws(JournalCoding.Malformed) -> Bool {
    try int64(name) != 0
  }

  mutating func optionalDouble() throws(JournalCoding.Malformed) -> Double? {
    let value = next()
    switch value.storage {
    case .null: return nil
    case .double(let number): return number
    case .int64(let number): return Double(number)
    default: throw wrong("#\(index - 1)")
    }
  }

  mutating func double(_ name: String) throws(JournalCoding.Malformed) -> Double {
    guard let value = try optionalDouble() else { throw wrong(name) }
    return value
  }

  mutating func optionalString() throws(JournalCoding.Malformed) -> String? {
    let value = next()
    switch value.storage {
    case .null: return nil
    case .string(let text): return text
    default: throw wrong("#\(index - 1)")
    }
  }

  mutating func string(_ name: String) throws(JournalCoding.Malformed) -> String {
    guard let value = try optionalString() else { throw wrong(name) }
    return value
  }

  /// An optional time in milliseconds; one outside ``EpochRange`` is malformed (a damaged or
  /// hand-edited state), never clamped.
  mutating func instant(_ name: String = "time") throws(JournalCoding.Malformed) -> SimInstant? {
    guard let milliseconds = try optionalInt64() else { return nil }
    return try Self.instant(milliseconds, name)
  }

  /// A time in milliseconds that must be there and in ``EpochRange``.
  mutating func requiredInstant(_ name: String) throws(JournalCoding.Malformed) -> SimInstant {
    try Self.instant(try int64(name), name)
  }

  static func instant(_ milliseconds: Int64, _ name: String) throws(JournalCoding.Malformed) -> SimInstant {
    guard let instant = SimInstant(exactlyMilliseconds: milliseconds) else {
      throw JournalCoding.Malformed(
        detail: "column \(name) holds the time \(milliseconds) ms, outside \(EpochRange.text)")
    }
    return instant
  }

  mutating func raw<T: RawRepresentable>(_ type: T.Type, _ name: String) throws(JournalCoding
    .Malformed) -> T
  where T.RawValue == String {
    let text = try string(name)
    guard let value = T(rawValue: text) else {
      throw JournalCoding.Malformed(detail: "unknown \(name) \(text)")
    }
    return value
  }

  /// Reads a delivery (see ``init(deliveryRow:keepsPayloadDetails:)``).
  mutating func storedNotification(lists: inout ListCache) throws(JournalCoding.Malformed) -> StoredNotification {
    let id = NotificationID(try int("notification_id"))
    let bundleID = try string("bundle_id")
    var note = PushNotification(
      id: id, bundleID: bundleID, threadID: try optionalString(), title: try optionalString(),
      subtitle: try optionalString(), body: try optionalString(), category: try optionalString(),
      level: try raw(InterruptionLevel.self, "level"), relevanceScore: try optionalDouble(),
      sound: try JournalCoding.sound(try optionalString()), badge: try optionalInt(),
      isContentAvailable: try bool("content_available"),
      isMutableContent: try bool("mutable_content"),
      targetContentID: try optionalString(), filterCriteria: try optionalString(),
      collapseID: try optionalString(),
      receivedAt: try requiredInstant("received_at_ms"),
      rawPayload: try string("raw_payload"))
    note.pushType = try raw(PushType.self, "push_type")
    if let priority = try optionalInt() {
      guard let value = PushPriority(rawValue: priority) else {
        throw JournalCoding.Malformed(detail: "unknown priority \(priority)")
      }
      note.priority = value
    }
    note.expiration = try instant()
    note.sender = try optionalString()
    if let custom = try optionalString() {
      guard case .object(let members) = try JournalCoding.value(custom, column: "custom_keys")
      else {
        throw JournalCoding.Malformed(detail: "custom_keys is not an object")
      }
      note.customKeys = members
    } else if !note.rawPayload.isEmpty,
      case .object(let members) = try JournalCoding.value(note.rawPayload, column: "raw_payload")
    {
      // Journals write custom keys once, in the raw payload (re-encoding them for a column of
      // their own cost a replay more than SQLite did); they are everything but `aps`.
      note.customKeys = members.filter { $0.key != "aps" && $0.key != "Simulator Target Bundle" }
    }
    var decision = DeliveryDecision(disposition: try raw(Disposition.self, "disposition"))
    decision.surfaces = try lists.surfaces(try string("surfaces"))
    decision.playsSound = try bool("plays_sound")
    decision.sound = try JournalCoding.sound(try optionalString())
    decision.badge = try optionalInt()
    decision.effectiveLevel = try raw(InterruptionLevel.self, "effective_level")
    decision.heldUntil = try instant()
    decision.replaces = try optionalInt().map { NotificationID($0) }
    decision.previewsHidden = try bool("previews_hidden")
    decision.callbacks = try lists.callbacks(try string("callbacks"))
    decision.reasons = try JournalCoding.reasons(try string("reasons"))
    let group = GroupKey(
      bundleID: try string("group_bundle_id"), thread: try optionalString(),
      single: try optionalInt().map { NotificationID($0) })
    let rank = RankTerms(
      level: try double("rank_level"), relevance: try double("rank_relevance"),
      engagement: try double("rank_engagement"), communication: try double("rank_communication"),
      recency: try double("rank_recency"))
    note.attachments = try JournalCoding.attachments(try optionalString())
    return StoredNotification(
      notification: note, decision: decision, group: group, rank: rank,
      heldUntil: decision.heldUntil)
  }

  /// Reads the live_activity columns restore selects, in order.
  mutating func liveActivity() throws(JournalCoding.Malformed) -> LiveActivity {
    let bundleID = try string("bundle_id")
    let attributesType = try string("attributes_type")
    let attributes = try optionalString().map { text throws(JournalCoding.Malformed) in
      try JournalCoding.value(text, column: "attributes")
    }
    let contentState = try optionalString().map { text throws(JournalCoding.Malformed) in
      try JournalCoding.value(text, column: "content_state")
    }
    return LiveActivity(
      bundleID: bundleID, attributesType: attributesType, attributes: attributes,
      contentState: contentState,
      title: try optionalString(), body: try optionalString(),
      startedAt: try requiredInstant("started_at_ms"),
      lastTimestamp: try double("last_timestamp"),
      staleDate: try instant(), endedAt: try instant(), dismissalDate: try instant(),
      relevanceScore: try optionalDouble(), channelID: try optionalString(), pushToken: try optionalString())
  }

  /// Reads a `channel` row (schema version 6).
  mutating func channel() throws(JournalCoding.Malformed) -> BroadcastChannel {
    let id = try string("id")
    let bundleID = try string("bundle_id")
    let policy = try int64("storage_policy")
    guard let storagePolicy = BroadcastChannel.StoragePolicy(rawValue: Int(clamping: policy)) else {
      throw JournalCoding.Malformed(detail: "column storage_policy holds \(policy); expected 0 or 1")
    }
    let createdAt = try requiredInstant("created_at_ms")
    let messageAt = try instant("message_at_ms")
    let event = try optionalString()
    let timestamp = try optionalDouble()
    let contentState = try optionalString().map { text throws(JournalCoding.Malformed) in
      try JournalCoding.value(text, column: "message_content_state")
    }
    let staleDate = try optionalDouble()
    let dismissalDate = try optionalDouble()
    let title = try optionalString()
    let body = try optionalString()
    var message: BroadcastChannel.StoredMessage?
    if let messageAt {
      guard let event, let kind = LiveActivityEvent(rawValue: event), let timestamp else {
        throw JournalCoding.Malformed(detail: "channel \(id) has a stored message without its event or timestamp")
      }
      message = BroadcastChannel.StoredMessage(
        at: messageAt, event: kind, timestamp: timestamp, contentState: contentState, staleDate: staleDate,
        dismissalDate: dismissalDate, title: title, body: body)
    }
    return BroadcastChannel(
      id: id, bundleID: bundleID, storagePolicy: storagePolicy, createdAt: createdAt, lastMessage: message)
  }
}

/// The surfaces and callbacks lists a restore has read, by their JSON text: a million rows hold a
/// handful of distinct lists, each parsed once, not once per row (docs/PERFORMANCE.md, Measurements behind the code).
struct ListCache {
  private var surfaceLists: [String: [Surface]] = [:]
  private var callbackLists: [String: [AppCallback]] = [:]

  mutating func surfaces(_ text: String) throws(JournalCoding.Malformed) -> [Surface] {
    try Self.list(text, column: "surfaces", in: &surfaceLists)
  }

  mutating func callbacks(_ text: String) throws(JournalCoding.Malformed) -> [AppCallback] {
    try Self.list(text, column: "callbacks", in: &callbackLists)
  }

  /// A JSON list of raw values, from `cache` or parsed (and remembered, up to 256 lists).
  private static func list<Element: RawRepresentable>(
    _ text: String, column: String, in cache: inout [String: [Element]]
  ) throws(JournalCoding.Malformed) -> [Element] where Element.RawValue == String {
    if let list = cache[text] { return list }
    let list = try JournalCoding.strings(text, column: column).map { name throws(JournalCoding.Malformed) in
      guard let element = Element(rawValue: name) else {
        throw JournalCoding.Malformed(detail: "unknown value \(name) in \(column)")
      }
      return element
    }
    if cache.count < 256 { cache[text] = list }
    return list
  }
}

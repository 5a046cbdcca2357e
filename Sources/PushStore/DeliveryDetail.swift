import GRDB
import PushCore

/// The `delivery.detail` column (schema version 3): every field of a delivery that has no
/// column of its own, packed into one BLOB.
///
/// A delivery row of version 2 had 51 columns; SQLite's cost is per bound column, and a replay
/// spent about 8 µs of CPU per row on it. Version 3 keeps as columns what people query (when,
/// which app, the disposition, whether it is in Notification Center, title, body, the raw
/// payload) and packs the rest here, in the order of ``fields``, each value as
///
/// - `0` — NULL;
/// - `1` and 8 bytes — a 64-bit integer, little-endian;
/// - `2` and 8 bytes — a double (IEEE 754 bits, little-endian);
/// - `3`, a LEB128 length and that many bytes — UTF-8 text;
/// - `4`, a LEB128 length and that many bytes — a blob (only in ``PackedDeliveries``' rows, where
///   it holds a row's `detail`).
///
/// after a leading format byte (`1`). The values are those the version 2 columns of the same names
/// held (lists and objects as the same compact JSON), so migrating a version 2 row copies its
/// values without interpreting them (``pack(_:)``).
enum DeliveryDetail {
  /// The format byte that starts every detail.
  static let format: UInt8 = 1

  /// The fields, in their packed order: the version 2 `delivery` columns of these names.
  static let fields = [
    "source", "diagnostics", "surfaces", "plays_sound", "decision_sound", "decision_badge",
    "effective_level", "held_until_ms", "replaces_id", "previews_hidden", "callbacks", "reasons",
    "group_bundle_id", "group_thread", "group_single", "group_rank", "rank_level", "rank_relevance",
    "rank_engagement", "rank_communication", "rank_recency", "thread_id", "subtitle", "category",
    "level", "relevance_score", "sound", "badge", "content_available", "mutable_content",
    "target_content_id", "filter_criteria", "collapse_id", "received_at_ms", "push_type", "priority",
    "expiration_ms", "sender", "custom_keys", "attachments",
  ]

  /// The position of each field in ``fields``.
  static let position: [String: Int] = Dictionary(uniqueKeysWithValues: fields.enumerated().map { ($1, $0) })

  /// Packs values given in the order of ``fields`` (the migration from version 2 calls it
  /// through an SQL function).
  static func pack(_ values: [DatabaseValue]) throws(JournalCoding.Malformed) -> [UInt8] {
    guard values.count == fields.count else {
      throw JournalCoding.Malformed(detail: "a delivery detail needs \(fields.count) values, not \(values.count)")
    }
    var writer = Writer()
    writer.start()
    for value in values {
      switch value.storage {
      case .null: writer.null()
      case .int64(let number): writer.int(number)
      case .double(let number): writer.double(number)
      case .string(let text): writer.text(text)
      case .blob: throw JournalCoding.Malformed(detail: "a delivery column of version 2 holds a blob")
      }
    }
    return writer.bytes
  }

  /// Unpacks a detail into its values, in the order of ``fields``.
  static func unpack(_ bytes: UnsafeRawBufferPointer) throws(JournalCoding.Malformed) -> [DatabaseValue] {
    try views(bytes).map { value throws(JournalCoding.Malformed) in try value.databaseValue() }
  }

  /// Unpacks however many values the bytes hold.
  static func unpackValues(_ bytes: UnsafeRawBufferPointer) throws(JournalCoding.Malformed) -> [DatabaseValue] {
    try views(bytes, count: nil).map { value throws(JournalCoding.Malformed) in try value.databaseValue() }
  }

  /// A detail's values as views into its bytes, after checking its format byte and that it holds
  /// `count` values (nil: any number).
  static func views(_ bytes: UnsafeRawBufferPointer, count: Int? = fields.count) throws(JournalCoding.Malformed)
    -> [Value]
  {
    guard bytes.count > 0, bytes[0] == format else {
      throw JournalCoding.Malformed(detail: "delivery.detail has an unknown format")
    }
    var values: [Value] = []
    values.reserveCapacity(fields.count)
    var cursor = Values(UnsafeRawBufferPointer(rebasing: bytes[1...]))
    while let value = try cursor.next() { values.append(value) }
    if let count, values.count != count {
      throw JournalCoding.Malformed(detail: "delivery.detail holds \(values.count) values, not \(count)")
    }
    return values
  }

  /// One packed value; text and blobs point into the packed bytes.
  enum Value {
    case null
    case int(Int64)
    case double(Double)
    case text(UnsafeRawBufferPointer)
    case blob(UnsafeRawBufferPointer)

    /// The value a detail field holds (a detail holds no blobs).
    func databaseValue() throws(JournalCoding.Malformed) -> DatabaseValue {
      switch self {
      case .null: .null
      case .int(let number): number.databaseValue
      case .double(let number): number.databaseValue
      case .text(let text): String(decoding: text, as: UTF8.self).databaseValue
      case .blob: throw JournalCoding.Malformed(detail: "delivery.detail holds a blob")
      }
    }
  }

  /// Reads packed values one after another, checking every tag and length.
  struct Values {
    private let bytes: UnsafeRawBufferPointer
    private var offset = 0

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    private func damaged(_ what: String) -> JournalCoding.Malformed {
      JournalCoding.Malformed(detail: "packed delivery values \(what) at byte \(offset)")
    }

    private mutating func word() throws(JournalCoding.Malformed) -> UInt64 {
      guard offset + 8 <= bytes.count else { throw damaged("end inside a number") }
      let value = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
      offset += 8
      return UInt64(littleEndian: value)
    }

    private mutating func span() throws(JournalCoding.Malformed) -> UnsafeRawBufferPointer {
      var length = 0
      var shift = 0
      while true {
        guard offset < bytes.count, shift < 63 else { throw damaged("end inside a length") }
        let byte = bytes[offset]
        offset += 1
        length |= Int(byte & 0x7F) << shift
        shift += 7
        if byte & 0x80 == 0 { break }
      }
      guard length <= bytes.count - offset else { throw damaged("end inside a text") }
      defer { offset += length }
      return UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + length])
    }

    /// The next value, or nil at the end.
    mutating func next() throws(JournalCoding.Malformed) -> Value? {
      guard offset < bytes.count else { return nil }
      let tag = bytes[offset]
      offset += 1
      switch tag {
      case 0: return .null
      case 1: return .int(Int64(bitPattern: try word()))
      case 2: return .double(Double(bitPattern: try word()))
      case 3: return .text(try span())
      case 4: return .blob(try span())
      default:
        offset -= 1
        throw damaged("have an unknown tag \(tag)")
      }
    }
  }

  /// Appends packed values to a byte buffer that is reused from row to row.
  ///
  /// The buffer is its own, not an `[UInt8]`: `Array.append(contentsOf:)` costs some seventy
  /// instructions a call before it copies a byte, and a replay appends about sixty values a push
  /// (docs/PERFORMANCE.md, "Issue 15, 26 Nov (fifth session)"). A copy of a writer shares the
  /// buffer until either writes, as an array would: a write to a shared buffer copies it first.
  struct Writer: Sendable {
    /// The bytes, owned by one or more writers; never written while shared.
    private final class Buffer: @unchecked Sendable {
      let base: UnsafeMutablePointer<UInt8>
      let capacity: Int

      init(capacity: Int) {
        self.capacity = capacity
        base = .allocate(capacity: capacity)
      }

      deinit { base.deallocate() }
    }

    private var buffer = Buffer(capacity: 64)
    /// How many bytes are written.
    private(set) var count = 0

    /// The bytes written, as an array (for tests and the migration; the journal reads them in
    /// place through ``withUnsafeBytes(_:)``).
    var bytes: [UInt8] { withUnsafeBytes { Array($0) } }

    /// Calls `body` with the bytes written.
    func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
      try withExtendedLifetime(buffer) { try body(UnsafeRawBufferPointer(start: buffer.base, count: count)) }
    }

    /// Where the next `extra` bytes go: room made (and the buffer made this writer's own) first.
    /// The caller advances ``count`` by what it wrote.
    @inline(__always)
    private mutating func end(reserving extra: Int) -> UnsafeMutablePointer<UInt8> {
      if count + extra > buffer.capacity || !isKnownUniquelyReferenced(&buffer) {
        regrow(toHold: count + extra)
      }
      return buffer.base + count
    }

    /// Moves the bytes to a buffer of its own that holds `needed` bytes, doubling as it grows.
    private mutating func regrow(toHold needed: Int) {
      let capacity = needed > buffer.capacity ? max(needed, buffer.capacity * 2) : buffer.capacity
      let grown = Buffer(capacity: capacity)
      grown.base.update(from: buffer.base, count: count)
      buffer = grown
    }

    /// Empties the buffer (keeping its capacity) and writes the format byte.
    mutating func start() {
      count = 0
      end(reserving: 1).pointee = DeliveryDetail.format
      count = 1
    }

    mutating func null() {
      end(reserving: 1).pointee = 0
      count += 1
    }

    /// Makes room for `total` bytes in all.
    mutating func reserve(_ total: Int) {
      if total > buffer.capacity { regrow(toHold: total) }
    }

    /// A tag and a little-endian word.
    private mutating func word(_ tag: UInt8, _ value: UInt64) {
      let at = end(reserving: 9)
      at.pointee = tag
      UnsafeMutableRawPointer(at + 1).storeBytes(of: value.littleEndian, as: UInt64.self)
      count += 9
    }

    mutating func int(_ value: Int64?) {
      guard let value else { return null() }
      word(1, UInt64(bitPattern: value))
    }

    mutating func int(_ value: Int?) { int(value.map(Int64.init)) }

    mutating func bool(_ value: Bool?) { int(value.map { Int64($0 ? 1 : 0) }) }

    mutating func double(_ value: Double?) {
      guard let value else { return null() }
      word(2, value.bitPattern)
    }

    mutating func text(_ value: String?) {
      guard var value else { return null() }
      value.withUTF8 { utf8 in text(utf8) }
    }

    /// Appends UTF-8 text given as bytes.
    mutating func text(_ utf8: ArraySlice<UInt8>) {
      utf8.withUnsafeBufferPointer { text($0) }
    }

    /// Appends another writer's bytes as a blob (tag `4`; row buffers only, a `detail` holds none).
    mutating func blob(_ value: Writer) {
      value.withUnsafeBytes {
        span(4, UnsafeBufferPointer(start: $0.baseAddress?.assumingMemoryBound(to: UInt8.self), count: $0.count))
      }
    }

    private mutating func text(_ utf8: UnsafeBufferPointer<UInt8>) { span(3, utf8) }

    /// A tag, the length as a varint, and the bytes.
    private mutating func span(_ tag: UInt8, _ utf8: UnsafeBufferPointer<UInt8>) {
      // A tag and at most ten bytes of length.
      let at = end(reserving: 11 + utf8.count)
      at.pointee = tag
      var length = utf8.count
      var written = 1
      while length >= 0x80 {
        at[written] = UInt8(length & 0x7F) | 0x80
        length >>= 7
        written += 1
      }
      at[written] = UInt8(length)
      written += 1
      if let source = utf8.baseAddress { (at + written).update(from: source, count: utf8.count) }
      count += written + utf8.count
    }

    /// Reasons as the JSON text `[{"code":…,"text":…},…]` (what ``JournalCoding/json(_:)-([Reason])``
    /// writes), written by the same writer into a buffer reused from row to row.
    mutating func reasons(_ reasons: [Reason]) {
      scratch.removeAll()
      JournalCoding.write(reasons, to: &scratch)
      scratch.bytes.withUnsafeBufferPointer { text($0) }
    }

    /// The JSON text of the last ``reasons(_:)``'s list, reused from row to row.
    private var scratch = JSONWriter()
  }
}

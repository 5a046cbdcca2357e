import GRDB
import PushCore

/// The `delivery.detail` column (schema version 3): every field of a delivery that has no
/// column of its own, packed into one BLOB.
///
/// A delivery row of version 2 had 51 columns; SQLite's cost is per bound column, and a replay
/// spent about 8 µs of CPU per row on it. Version 3 keeps as columns what people query (when,
/// which app, the disposition, whether it is in Notification Center, title, body, the raw
/// payload) and packs the rest here, in the order of ``fields``, after a leading format byte,
/// each value as
///
/// - `0` — NULL;
/// - `1` and 8 bytes — a 64-bit integer, little-endian;
/// - `2` and 8 bytes — a double (IEEE 754 bits, little-endian);
/// - `3`, a LEB128 length and that many bytes — UTF-8 text;
/// - `4`, a LEB128 length and that many bytes — a blob (only in ``PackedDeliveries``' rows, where
///   it holds a row's `detail`);
///
/// and, in format `2` (schema version 8), also
///
/// - `5` and a zigzag LEB128 number — a 64-bit integer (1 to 10 bytes: a flag takes one, a time
///   in milliseconds six);
/// - `6` and a zigzag LEB128 number — a double whose value is that integer exactly (the rank
///   terms are mostly 0, 2 or 4);
/// - `7`, a LEB128 id and a LEB128 line plus one (0: none) — the text `PATH:LINE` (or `PATH`),
///   the path being row `id` of the `source_file` table: a capture's path is stored once, not
///   in every row;
/// - `8` and one byte — the text at that position in ``knownTexts`` (the interruption levels,
///   push types, `default` and the common surfaces and callbacks lists, which most rows repeat).
///
/// A format `1` detail (schema versions 3 to 7) holds tags `0` to `3` only; a format `2` one may
/// hold any but `4`. Both are read. The values are those the version 2 columns of the same names held
/// (lists and objects as the same compact JSON), so migrating a version 2 row copies its values
/// without interpreting them (``pack(_:)``).
enum DeliveryDetail {
  /// The format byte that starts every detail written now: `2`, compact numbers and source
  /// references allowed.
  static let format: UInt8 = 2
  /// The format byte of a detail written by schema versions 3 to 7: tags `0` to `3` only.
  static let fixedWidthFormat: UInt8 = 1

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

  /// The texts a format 2 detail names by position (tag `8`). Files hold these positions: an
  /// entry is never removed or moved, only appended (at most 256).
  static let knownTexts = [
    "[]", "passive", "active", "time-sensitive", "critical", "alert", "background", "location", "voip",
    "complication", "fileprovider", "mdm", "liveactivity", "pushtotalk", "widgets", "controls", "default",
    #"["banner","notificationCenter"]"#, #"["notificationCenter"]"#, #"["banner","lockScreen","notificationCenter"]"#,
    #"["lockScreen","notificationCenter"]"#, #"["banner"]"#, #"["liveActivity"]"#, #"["willPresent"]"#,
    #"["didReceive"]"#, #"["backgroundFetch"]"#, #"["launchInBackground"]"#, #"["serviceExtension"]"#,
  ]

  /// The position of the empty list `[]` in ``knownTexts``.
  static let emptyList = 0
  /// The position of `default` (the system sound) in ``knownTexts``.
  static let defaultSound = 16

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

  /// Unpacks a detail into its values, in the order of ``fields``; `sourceFiles` is the
  /// `source_file` table, for a source a format 2 detail names by id.
  static func unpack(_ bytes: UnsafeRawBufferPointer, sourceFiles: [Int64: String] = [:])
    throws(JournalCoding.Malformed) -> [DatabaseValue]
  {
    try views(bytes).map { value throws(JournalCoding.Malformed) in try value.databaseValue(sourceFiles: sourceFiles) }
  }

  /// Unpacks however many values the bytes hold.
  static func unpackValues(_ bytes: UnsafeRawBufferPointer, sourceFiles: [Int64: String] = [:])
    throws(JournalCoding.Malformed) -> [DatabaseValue]
  {
    try views(bytes, count: nil).map { value throws(JournalCoding.Malformed) in
      try value.databaseValue(sourceFiles: sourceFiles)
    }
  }

  /// A detail's values as views into its bytes, after checking its format byte and that it holds
  /// `count` values (nil: any number).
  static func views(_ bytes: UnsafeRawBufferPointer, count: Int? = fields.count) throws(JournalCoding.Malformed)
    -> [Value]
  {
    guard bytes.count > 0, bytes[0] == format || bytes[0] == fixedWidthFormat else {
      throw JournalCoding.Malformed(detail: "delivery.detail has an unknown format")
    }
    var values: [Value] = []
    values.reserveCapacity(fields.count)
    var cursor = Values(UnsafeRawBufferPointer(rebasing: bytes[1...]), compact: bytes[0] == format)
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
    /// `PATH:LINE` (`PATH` without a line), the path being row `file` of `source_file`.
    case source(file: Int64, line: Int64?)
    /// The text at this position in ``knownTexts``.
    case known(Int)

    /// The value a detail field holds (a detail holds no blobs); `sourceFiles` is the
    /// `source_file` table, for a ``source(file:line:)``.
    func databaseValue(sourceFiles: [Int64: String] = [:]) throws(JournalCoding.Malformed) -> DatabaseValue {
      switch self {
      case .null: return .null
      case .int(let number): return number.databaseValue
      case .double(let number): return number.databaseValue
      case .text(let text): return String(decoding: text, as: UTF8.self).databaseValue
      case .blob: throw JournalCoding.Malformed(detail: "delivery.detail holds a blob")
      case .source(let file, let line):
        guard let path = sourceFiles[file] else {
          throw JournalCoding.Malformed(detail: "delivery.detail names source file \(file), which is missing")
        }
        return (line.map { "\(path):\($0)" } ?? path).databaseValue
      case .known(let index): return DeliveryDetail.knownTexts[index].databaseValue
      }
    }
  }

  /// Reads packed values one after another, checking every tag and length.
  struct Values {
    private let bytes: UnsafeRawBufferPointer
    /// Whether tags `5` to `7` (format 2, and row buffers) may occur.
    private let compact: Bool
    private var offset = 0

    init(_ bytes: UnsafeRawBufferPointer, compact: Bool = true) {
      self.bytes = bytes
      self.compact = compact
    }

    private func damaged(_ what: String) -> JournalCoding.Malformed {
      JournalCoding.Malformed(detail: "packed delivery values \(what) at byte \(offset)")
    }

    private mutating func word() throws(JournalCoding.Malformed) -> UInt64 {
      guard offset + 8 <= bytes.count else { throw damaged("end inside a number") }
      let value = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
      offset += 8
      return UInt64(littleEndian: value)
    }

    /// A LEB128 number of at most 64 bits.
    private mutating func leb128() throws(JournalCoding.Malformed) -> UInt64 {
      var value: UInt64 = 0
      var shift: UInt64 = 0
      while true {
        guard offset < bytes.count else { throw damaged("end inside a number") }
        let byte = bytes[offset]
        offset += 1
        guard shift < 63 || (shift == 63 && byte <= 1) else { throw damaged("have a number over 64 bits") }
        value |= UInt64(byte & 0x7F) << shift
        if byte & 0x80 == 0 { return value }
        shift += 7
      }
    }

    /// A zigzag LEB128 number: 0, -1, 1, -2… as 0, 1, 2, 3…
    private mutating func zigzag() throws(JournalCoding.Malformed) -> Int64 {
      let value = try leb128()
      return Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1)
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
      guard length >= 0, length <= bytes.count - offset else { throw damaged("end inside a text") }
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
      case 5 where compact: return .int(try zigzag())
      case 6 where compact: return .double(Double(try zigzag()))
      case 7 where compact:
        let file = try leb128()
        let line = try leb128()
        guard file <= UInt64(Int64.max) else { throw damaged("name a source file past Int64") }
        return .source(file: Int64(file), line: line == 0 ? nil : Int64(bitPattern: line &- 1))
      case 8 where compact:
        guard offset < bytes.count else { throw damaged("end inside a known text") }
        let index = Int(bytes[offset])
        guard index < DeliveryDetail.knownTexts.count else { throw damaged("name unknown text \(index)") }
        offset += 1
        return .known(index)
      default:
        offset -= 1
        throw damaged("have an unknown tag \(tag)")
      }
    }
  }

  /// Appends packed values to a byte buffer that is reused from row to row, in format 2.
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

    /// Appends one byte.
    private mutating func byte(_ value: UInt8) {
      end(reserving: 1).pointee = value
      count += 1
    }

    /// Empties the buffer (keeping its capacity) and writes the format byte.
    mutating func start() {
      count = 0
      byte(DeliveryDetail.format)
    }

    mutating func null() { byte(0) }

    /// Makes room for `total` bytes in all.
    mutating func reserve(_ total: Int) {
      if total > buffer.capacity { regrow(toHold: total) }
    }

    /// Writes `value` as LEB128 at `at` (room for ten bytes); returns how many bytes it took.
    @inline(__always)
    private static func put(_ value: UInt64, at: UnsafeMutablePointer<UInt8>) -> Int {
      var rest = value
      var written = 0
      while rest >= 0x80 {
        at[written] = UInt8(truncatingIfNeeded: rest) | 0x80
        rest >>= 7
        written += 1
      }
      at[written] = UInt8(rest)
      return written + 1
    }

    /// A tag and a LEB128 number.
    private mutating func leb128(_ tag: UInt8, _ value: UInt64) {
      let at = end(reserving: 11)
      at.pointee = tag
      count += 1 + Self.put(value, at: at + 1)
    }

    private mutating func leb128(_ value: UInt64) {
      let at = end(reserving: 10)
      count += Self.put(value, at: at)
    }

    private static func zigzag(_ value: Int64) -> UInt64 { UInt64(bitPattern: value << 1 ^ value >> 63) }

    mutating func int(_ value: Int64?) {
      guard let value else { return null() }
      leb128(5, Self.zigzag(value))
    }

    mutating func int(_ value: Int?) { int(value.map(Int64.init)) }

    mutating func bool(_ value: Bool?) {
      guard let value else { return null() }
      let at = end(reserving: 2)
      at[0] = 5
      at[1] = value ? 2 : 0
      count += 2
    }

    /// A double: as its integer when it is one exactly (not -0), else its 8 bytes.
    mutating func double(_ value: Double?) {
      guard let value else { return null() }
      if let whole = Int64(exactly: value), whole != 0 || value.sign == .plus {
        leb128(6, Self.zigzag(whole))
      } else {
        let at = end(reserving: 9)
        at.pointee = 2
        UnsafeMutableRawPointer(at + 1).storeBytes(of: value.bitPattern.littleEndian, as: UInt64.self)
        count += 9
      }
    }

    mutating func text(_ value: String?) {
      guard var value else { return null() }
      value.withUTF8 { utf8 in text(utf8) }
    }

    /// Appends the text at `index` in ``DeliveryDetail/knownTexts``.
    mutating func known(_ index: Int) {
      let at = end(reserving: 2)
      at[0] = 8
      at[1] = UInt8(index)
      count += 2
    }

    /// Appends a text: by its position in ``DeliveryDetail/knownTexts`` when `known` gives one.
    mutating func text(_ value: String?, known: Int?) {
      if let known { self.known(known) } else { text(value) }
    }

    /// Appends UTF-8 text given as bytes.
    mutating func text(_ utf8: ArraySlice<UInt8>) {
      utf8.withUnsafeBufferPointer { text($0) }
    }

    /// Appends a source, `PATH:LINE`, as the id of its path in `source_file` and the line.
    mutating func source(file: Int64, line: Int?) {
      leb128(7, UInt64(bitPattern: file))
      leb128(line.map { UInt64(bitPattern: Int64($0)) &+ 1 } ?? 0)
    }

    /// Appends another writer's bytes as a blob (tag `4`; row buffers only, a `detail` holds none).
    mutating func blob(_ value: Writer) {
      value.withUnsafeBytes {
        span(4, UnsafeBufferPointer(start: $0.baseAddress?.assumingMemoryBound(to: UInt8.self), count: $0.count))
      }
    }

    private mutating func text(_ utf8: UnsafeBufferPointer<UInt8>) { span(3, utf8) }

    /// A tag, the length as LEB128, and the bytes.
    private mutating func span(_ tag: UInt8, _ utf8: UnsafeBufferPointer<UInt8>) {
      // A tag and at most ten bytes of length.
      let at = end(reserving: 11 + utf8.count)
      at.pointee = tag
      let written = 1 + Self.put(UInt64(utf8.count), at: at + 1)
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

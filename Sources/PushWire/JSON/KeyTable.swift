/// Every key name Pushdeck interprets, across payloads, envelopes and headers.
///
/// Keys on the hot path are matched against this set by their bytes (see ``KeyTable``), so
/// decoding a payload creates no `String` for a key it knows.
public enum KnownKey: String, CaseIterable, Sendable {
  // Top level of a payload.
  case aps
  case simulatorTargetBundle = "Simulator Target Bundle"
  // aps
  case alert, badge, sound, category, timestamp, event, attributes
  case threadID = "thread-id"
  case contentAvailable = "content-available"
  case mutableContent = "mutable-content"
  case targetContentID = "target-content-id"
  case interruptionLevel = "interruption-level"
  case relevanceScore = "relevance-score"
  case filterCriteria = "filter-criteria"
  case contentState = "content-state"
  case staleDate = "stale-date"
  case dismissalDate = "dismissal-date"
  case attributesType = "attributes-type"
  case inputPushToken = "input-push-token"
  case inputPushChannel = "input-push-channel"
  // alert
  case title, subtitle, body
  case launchImage = "launch-image"
  case titleLocKey = "title-loc-key"
  case titleLocArgs = "title-loc-args"
  case subtitleLocKey = "subtitle-loc-key"
  case subtitleLocArgs = "subtitle-loc-args"
  case locKey = "loc-key"
  case locArgs = "loc-args"
  case actionLocKey = "action-loc-key"
  case summaryArg = "summary-arg"
  case summaryArgCount = "summary-arg-count"
  // sound dictionary
  case critical, name, volume
  // capture envelope
  case at, bundle, token, headers, payload
  // request headers
  case apnsPushType = "apns-push-type"
  case apnsPriority = "apns-priority"
  case apnsExpiration = "apns-expiration"
  case apnsTopic = "apns-topic"
  case apnsCollapseID = "apns-collapse-id"
  case apnsID = "apns-id"

  /// The keys that belong directly in `aps`.
  public static let apsKeys: [KnownKey] = [
    .alert, .badge, .sound, .threadID, .category, .contentAvailable, .mutableContent, .targetContentID,
    .interruptionLevel, .relevanceScore, .filterCriteria, .timestamp, .event, .contentState, .staleDate,
    .dismissalDate, .attributesType, .attributes, .inputPushToken, .inputPushChannel,
  ]

  /// Whether this is an APNs request header name.
  public var isHeader: Bool {
    switch self {
    case .apnsPushType, .apnsPriority, .apnsExpiration, .apnsTopic, .apnsCollapseID, .apnsID: true
    default: false
    }
  }

  /// Whether this `aps` key changes what the user sees or what the app gets.
  public var isVisibleApsKey: Bool {
    switch self {
    case .alert, .badge, .sound, .contentAvailable, .mutableContent, .threadID, .category: true
    default: false
    }
  }

  /// The shared lookup table.
  public static let table = KeyTable(KnownKey.allCases.map { ($0.rawValue, $0) })
}

/// An open-addressing table from key bytes to a value, looked up without allocating.
///
/// `@unchecked Sendable` because its storage is unsafe buffer pointers, which are not Sendable:
/// they are written only in `init` and never after, so sharing the table is safe. The checked
/// form, arrays, retains and releases its storage on every lookup on the decoder's hottest path
/// (see the comment on the stored properties).
public struct KeyTable<Value: Sendable>: @unchecked Sendable {
  /// A slot holds only trivial values, so a lookup never retains or releases anything.
  private struct Slot {
    // 32 bytes, so a slot never straddles a cache line; no stored hash, as the two words and
    // the length compare just as fast and are exact.
    /// The key's first and last eight bytes as ``words(_:)`` reads them: for keys of up to 16
    /// bytes they, with the length, are the whole key, so a hit is confirmed without a loop.
    var first: UInt64
    var last: UInt64
    var offset: Int32
    var length: Int32
    var valueIndex: Int32
  }

  // The tables live in memory allocated once and never freed: key tables are built once per
  // process (as statics) and read on the hottest path, where array accesses would retain and
  // release their storage on every lookup. Immutable after init, so sharing is safe.
  private let slots: UnsafeMutableBufferPointer<Slot>
  private let keyBytes: UnsafeMutableBufferPointer<UInt8>
  private let values: UnsafeMutableBufferPointer<Value>
  private let mask: Int

  /// Builds a table; the entries' keys must be distinct.
  public init(_ entries: [(String, Value)]) {
    var capacity = 16
    while capacity < entries.count * 4 { capacity <<= 1 }
    mask = capacity - 1
    precondition(MemoryLayout<Slot>.stride == 32)
    slots = .allocate(capacity: capacity)
    slots.initialize(repeating: Slot(first: 0, last: 0, offset: 0, length: -1, valueIndex: 0))
    let totalBytes = entries.reduce(0) { $0 + $1.0.utf8.count }
    keyBytes = .allocate(capacity: max(totalBytes, 1))
    values = .allocate(capacity: max(entries.count, 1))
    var byteOffset = 0
    for (entryIndex, (key, value)) in entries.enumerated() {
      let bytes = Array(key.utf8)
      let (first, last) = bytes.withUnsafeBufferPointer { KeyTable.words($0) }
      let hash = KeyTable.hash(first: first, last: last, count: bytes.count)
      var index = Int(truncatingIfNeeded: hash) & mask
      while slots[index].length >= 0 { index = (index + 1) & mask }
      slots[index] = Slot(
        first: first, last: last, offset: Int32(byteOffset), length: Int32(bytes.count),
        valueIndex: Int32(entryIndex))
      for (offset, byte) in bytes.enumerated() { keyBytes[byteOffset + offset] = byte }
      byteOffset += bytes.count
      (values.baseAddress! + entryIndex).initialize(to: value)
    }
  }

  /// The first and last eight bytes of a key (for keys under eight bytes, all of it in `first`,
  /// zero-padded, and `last` zero). Together with the length they identify any key of up to
  /// 16 bytes exactly.
  @inline(__always)
  static func words(_ bytes: UnsafeBufferPointer<UInt8>) -> (first: UInt64, last: UInt64) {
    let count = bytes.count
    guard let base = bytes.baseAddress, count > 0 else { return (0, 0) }
    if count >= 8 {
      return (
        UnsafeRawPointer(base).loadUnaligned(as: UInt64.self),
        UnsafeRawPointer(base + count - 8).loadUnaligned(as: UInt64.self)
      )
    }
    // Short keys (most of them: aps, alert, body, sound…) in two overlapping loads instead
    // of a loop; the overlap's bytes are the same in both halves, so OR-ing them is exact.
    let raw = UnsafeRawPointer(base)
    if count >= 4 {
      let low = UInt64(raw.loadUnaligned(as: UInt32.self))
      let high = UInt64(raw.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self))
      return (low | high << (8 * UInt64(count - 4)), 0)
    }
    if count >= 2 {
      let low = UInt64(raw.loadUnaligned(as: UInt16.self))
      let high = UInt64(raw.loadUnaligned(fromByteOffset: count - 2, as: UInt16.self))
      return (low | high << (8 * UInt64(count - 2)), 0)
    }
    return (UInt64(base[0]), 0)
  }

  /// A fast hash of short keys: the length and the first and last eight bytes, mixed with one
  /// multiplication. Keys are compared exactly on a hit, so collisions cost only time.
  @inline(__always)
  static func hash(first: UInt64, last: UInt64, count: Int) -> UInt64 {
    var hash = (first ^ ((last << 29) | (last >> 35)) ^ UInt64(count)) &* 0x9E37_79B9_7F4A_7C15
    hash ^= hash >> 32
    return hash
  }

  /// The hash of a key's bytes (see ``hash(first:last:count:)``).
  @inline(__always)
  static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
    let (first, last) = words(bytes)
    return hash(first: first, last: last, count: bytes.count)
  }

  /// The value for a key given as bytes, if the table has it.
  public func lookup(_ bytes: UnsafeBufferPointer<UInt8>) -> Value? {
    let (first, last) = KeyTable.words(bytes)
    let hash = KeyTable.hash(first: first, last: last, count: bytes.count)
    var index = Int(truncatingIfNeeded: hash) & mask
    while slots[index].length >= 0 {
      let slot = slots[index]
      if slot.first == first && Int(slot.length) == bytes.count && slot.last == last {
        // Up to 16 bytes the words are the whole key; longer keys are also compared in full.
        if bytes.count <= 16 || memoryEquals(keyBytes.baseAddress! + Int(slot.offset), bytes.baseAddress!, bytes.count)
        {
          return values[Int(slot.valueIndex)]
        }
      }
      index = (index + 1) & mask
    }
    return nil
  }

  /// The value for a key given as a string.
  public func lookup(_ key: String) -> Value? {
    var key = key
    return key.withUTF8 { lookup($0) }
  }
}

extension JSONView {
  /// The known key a string token spells, without decoding it (escaped keys are decoded).
  public func knownKey(_ index: Int) -> KnownKey? { knownKey(index, in: KnownKey.table) }

  /// The known key a string token spells, looked up in a table the caller already holds.
  ///
  /// Every read of the lazily initialised `KnownKey.table` goes through `swift_once`; hot
  /// loops fetch the table once and pass it here.
  @inline(__always)
  func knownKey(_ index: Int, in table: KeyTable<KnownKey>) -> KnownKey? {
    let token = tokens[index]
    guard token.kind == .string else { return nil }
    if token.stringHasEscapes { return table.lookup(string(index)) }
    return table.lookup(UnsafeBufferPointer(rebasing: bytes[Int(token.start) + 1..<Int(token.end) - 1]))
  }

  /// A 64-bit hash of a string token's raw bytes, for cheap duplicate detection.
  func keyHash(_ index: Int) -> UInt64 {
    let token = tokens[index]
    return KeyTable<Int>.hash(UnsafeBufferPointer(rebasing: bytes[Int(token.start)..<Int(token.end)]))
  }

  /// The first byte of a string token's content, if it is not empty.
  func firstContentByte(_ index: Int) -> UInt8? {
    let token = tokens[index]
    guard token.kind == .string, token.end - token.start > 2 else { return nil }
    return bytes[Int(token.start) + 1]
  }

  /// The last byte of a string token's content, if it is not empty.
  func lastContentByte(_ index: Int) -> UInt8? {
    let token = tokens[index]
    guard token.kind == .string, token.end - token.start > 2 else { return nil }
    return bytes[Int(token.end) - 2]
  }

  /// Whether a string token's content starts with an ASCII prefix, ignoring ASCII case.
  func contentHasASCIIPrefix(_ index: Int, _ prefix: StaticString) -> Bool {
    let token = tokens[index]
    let length = prefix.utf8CodeUnitCount
    guard token.kind == .string, Int(token.end - token.start) - 2 >= length else { return false }
    let start = Int(token.start) + 1
    for offset in 0..<length {
      let byte = bytes[start + offset]
      let expected = prefix.utf8Start[offset]
      if byte != expected && byte | 0x20 != expected | 0x20 { return false }
    }
    return true
  }
}

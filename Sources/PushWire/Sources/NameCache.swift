/// Names a reader made into strings (a capture's bundle ids), so that a name that repeats from
/// line to line is one shared string instead of one allocation per line.
///
/// A capture of a million lines names a few dozen apps: each line's bundle id used to be a
/// string of its own, allocated by a decoding thread, retained by the device thread in the
/// delivery record, the stack's key and the store's, and freed by a third thread. The cache is
/// direct-mapped: a name's slot comes from a hash of its bytes, and a name that meets another in
/// its slot takes it.
public struct NameCache: Sendable {
  /// Empty until the first name is kept (a cache made for one line never allocates them).
  private var slots: [String?] = []
  private static let slotCount = 128

  public init() {}

  /// The string of these UTF-8 bytes: the cached one, or a new one (then cached).
  public mutating func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
    // FNV-1a over the bytes: a bundle id is a few dozen of them.
    var hash: UInt32 = 2_166_136_261
    for byte in bytes { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
    let slot = Int(hash ^ hash >> 16) & (Self.slotCount - 1)
    if !slots.isEmpty, let cached = slots[slot], cached.utf8.count == bytes.count,
      cached.utf8.withContiguousStorageIfAvailable({ Self.equal($0, bytes) }) == true
    {
      return cached
    }
    let made = String(decoding: bytes, as: UTF8.self)
    if slots.isEmpty { slots = [String?](repeating: nil, count: Self.slotCount) }
    slots[slot] = made
    return made
  }

  /// Whether two buffers of the same length hold the same bytes, eight at a step (the generic
  /// `elementsEqual` went byte by byte through an iterator: 950 instructions a line).
  static func equal(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>) -> Bool {
    let a = UnsafeRawBufferPointer(left)
    let b = UnsafeRawBufferPointer(right)
    var offset = 0
    while offset + 8 <= a.count {
      if a.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        != b.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
      {
        return false
      }
      offset += 8
    }
    while offset < a.count {
      if a[offset] != b[offset] { return false }
      offset += 1
    }
    return true
  }
}

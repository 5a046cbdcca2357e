import PushCore

/// Where a capture line is in its file, for an entry decoded again when it is played or shown.
public struct CaptureLineRef: Equatable, Sendable {
  /// Which input (an index the ``CaptureLineSource`` knows).
  public var input: Int
  /// The line's first byte in the file.
  public var offset: Int
  /// Its length in bytes, without the newline.
  public var length: Int
  /// Its 1-based line number.
  public var line: Int

  /// Creates a reference.
  public init(input: Int, offset: Int, length: Int, line: Int) {
    self.input = input
    self.offset = offset
    self.length = length
    self.line = line
  }
}

/// Reads capture lines again: the push of a line the timeline keeps only as a reference.
public protocol CaptureLineSource: AnyObject, Sendable {
  /// The event of a capture line (as the reader first decoded it).
  func event(of line: CaptureLineRef) -> TimelineEvent
}

/// The timeline the front end plays, in time order: for each entry only its time and either
/// the event itself (scenarios, payload files, standard input) or where its capture line is
/// (``CaptureLineRef``), decoded again from the file when the entry is played or shown. A
/// million-line capture costs 24 bytes an entry here, not its decoded push
/// (docs/DECISIONS.md, Run: a lean timeline).
public struct TimelineStore: RandomAccessCollection, Sendable {
  /// An entry: its time, and where its event is. `length` is ``inlineMark`` for an event kept
  /// in ``inline`` (`location` is its index there), ``sharedMark`` for one several entries share
  /// in ``shared`` (a scenario's entry repeated through a YAML alias); otherwise `location` holds
  /// the input in its top 16 bits and the line's offset below, and `line` the line number.
  struct Slot: Sendable {
    var at: SimInstant
    var location: UInt64
    var line: UInt32
    var length: UInt32
  }

  static let inlineMark = UInt32.max
  static let sharedMark = UInt32.max - 1
  static let offsetBits: UInt64 = 48

  private(set) var slots: [Slot] = []
  /// Entries placed on this timeline, ever (appended or inserted): what the tests of `render`'s
  /// bulk path (``AppState/playArrived(_:through:)``) count.
  public private(set) var placedCount = 0
  private var inline: [TimelineEntry] = []
  /// Events several entries share, each kept once (``append(sharing:)``).
  private var shared: [TimelineEvent] = []
  /// Reads the capture lines of entries kept as references.
  public private(set) var lineSource: (any CaptureLineSource)?

  /// An empty timeline whose capture lines, if any, are read from `lineSource`.
  public init(lineSource: (any CaptureLineSource)? = nil) { self.lineSource = lineSource }

  /// A timeline of events kept whole, in the order given.
  public init(_ entries: some Sequence<TimelineEntry>) {
    for entry in entries { append(entry) }
  }

  public var startIndex: Int { 0 }
  public var endIndex: Int { slots.count }

  /// The entry (a capture line is decoded again).
  public subscript(position: Int) -> TimelineEntry {
    let slot = slots[position]
    if slot.length == Self.inlineMark { return inline[Int(slot.location)] }
    if slot.length == Self.sharedMark { return TimelineEntry(at: slot.at, event: shared[Int(slot.location)]) }
    guard let lineSource, let ref = Self.ref(slot) else { return TimelineEntry(at: slot.at, event: .advance) }
    return TimelineEntry(at: slot.at, event: lineSource.event(of: ref))
  }

  /// An entry's time, without decoding it.
  public func instant(_ position: Int) -> SimInstant { slots[position].at }

  /// Whether the entry is a capture line kept as a reference.
  public func isReference(_ position: Int) -> Bool { slots[position].length < Self.sharedMark }

  /// How many entries are capture lines kept as references.
  public var referenceCount: Int { slots.count { $0.length < Self.sharedMark } }

  /// How many distinct events the entries kept whole hold (an event several entries share
  /// counts once): what a scenario repeated through aliases costs beyond its slots.
  public var storedEventCount: Int { inline.count + shared.count }

  private static func ref(_ slot: Slot) -> CaptureLineRef? {
    CaptureLineRef(
      input: Int(slot.location >> offsetBits), offset: Int(slot.location & ((1 << offsetBits) - 1)),
      length: Int(slot.length), line: Int(slot.line))
  }

  private static func slot(at: SimInstant, _ ref: CaptureLineRef) -> Slot? {
    guard (0..<(1 << 16)).contains(ref.input), ref.offset >= 0, UInt64(ref.offset) < (1 << offsetBits),
      ref.length >= 0, ref.length < Int(sharedMark), ref.line >= 0, ref.line <= Int(UInt32.max)
    else { return nil }
    return Slot(
      at: at, location: UInt64(ref.input) << offsetBits | UInt64(ref.offset), line: UInt32(ref.line),
      length: UInt32(ref.length))
  }

  /// Appends an event kept whole.
  public mutating func append(_ entry: TimelineEntry) {
    placedCount += 1
    slots.append(Slot(at: entry.at, location: UInt64(inline.count), line: 0, length: Self.inlineMark))
    inline.append(entry)
  }

  /// Appends a scenario's timeline, in its order: entries that share their event (repeated
  /// through a YAML alias, ``TimedEvent/sharesEvent(with:)``) keep one copy of it here too, so a
  /// million `- *e` cost a slot each.
  public mutating func append(sharing timeline: [TimedEvent]) {
    slots.reserveCapacity(slots.count + timeline.count)
    // The timeline holds every shared copy while this runs, so their identifiers stay theirs.
    var seen: [ObjectIdentifier: UInt64] = [:]
    for timed in timeline {
      let id = timed.sharedEventID
      let location: UInt64
      if let known = seen[id] {
        location = known
      } else {
        location = UInt64(shared.count)
        shared.append(timed.event)
        seen[id] = location
      }
      slots.append(Slot(at: timed.at, location: location, line: 0, length: Self.sharedMark))
    }
  }

  /// Appends a capture line kept as a reference; false when it cannot be (an offset or line
  /// number out of range, or no ``lineSource``): the caller keeps the event whole instead.
  @discardableResult
  public mutating func append(at: SimInstant, line ref: CaptureLineRef) -> Bool {
    guard lineSource != nil, let slot = Self.slot(at: at, ref) else { return false }
    placedCount += 1
    slots.append(slot)
    return true
  }

  /// Appends another timeline's entries (same ``lineSource``), in its order.
  public mutating func append(contentsOf other: TimelineStore) {
    if lineSource == nil { lineSource = other.lineSource }
    slots.reserveCapacity(slots.count + other.slots.count)
    for index in other.slots.indices { insert(from: other, index, at: slots.count) }
  }

  /// Inserts `other`'s entry `index` at `position`.
  mutating func insert(from other: TimelineStore, _ index: Int, at position: Int) {
    if lineSource == nil { lineSource = other.lineSource }
    placedCount += 1
    var slot = other.slots[index]
    if slot.length == Self.inlineMark {
      slot.location = UInt64(inline.count)
      inline.append(other.inline[Int(other.slots[index].location)])
    } else if slot.length == Self.sharedMark {
      // Kept whole here (a store appended from another is not a repeated scenario).
      slot = Slot(at: slot.at, location: UInt64(inline.count), line: 0, length: Self.inlineMark)
      inline.append(TimelineEntry(at: slot.at, event: other.shared[Int(other.slots[index].location)]))
    }
    if position == slots.count { slots.append(slot) } else { slots.insert(slot, at: position) }
  }

  /// Inserts an event kept whole at `position`.
  public mutating func insert(_ entry: TimelineEntry, at position: Int) {
    placedCount += 1
    slots.insert(Slot(at: entry.at, location: UInt64(inline.count), line: 0, length: Self.inlineMark), at: position)
    inline.append(entry)
  }

  /// Takes an entry out (it is not needed again), leaving time passing in its place.
  public mutating func take(_ position: Int) -> TimelineEntry {
    let slot = slots[position]
    // A shared event stays for the other entries that share it.
    guard slot.length == Self.inlineMark else { return self[position] }
    var entry = TimelineEntry(at: slot.at, event: .advance)
    swap(&entry, &inline[Int(slot.location)])
    return entry
  }

  /// Removes the first `count` entries.
  public mutating func removeFirst(_ count: Int) {
    slots.removeFirst(count)
    compactInline()
  }

  /// Removes the entries at or before `instant`; returns how many.
  @discardableResult
  public mutating func removeEntries(atOrBefore instant: SimInstant) -> Int {
    let before = slots.count
    slots.removeAll { $0.at <= instant }
    compactInline()
    return before - slots.count
  }

  /// Drops the inline events no slot points at any more.
  private mutating func compactInline() {
    guard !inline.isEmpty else { return }
    var kept: [TimelineEntry] = []
    for index in slots.indices where slots[index].length == Self.inlineMark {
      kept.append(inline[Int(slots[index].location)])
      slots[index].location = UInt64(kept.count - 1)
    }
    inline = kept
  }
}

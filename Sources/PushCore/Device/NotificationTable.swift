/// The store's notifications, packed for a store of a million.
///
/// A ``StoredNotification`` is about 620 bytes inline, and a dictionary of them keeps up to
/// twice as many slots as entries. Here each notification is a ``Packed`` value of about 130
/// bytes, in pages of 256 consecutive ids (ids come from a counter, so pages fill densely); its
/// eleven optional strings live in its page's one text buffer, and its surfaces and callbacks
/// are a few bits. Values that are rare or large (raw payload, custom keys, reasons, Live
/// Activity content, filter criteria, an unusual group) go into one boxed ``Extras`` only when
/// present, so most notifications cost no allocation of their own. Packing is lossless:
/// `self[id]` gives back exactly the ``StoredNotification`` that was stored.
///
/// A removal does not write the page: it sets the slot's bit in ``vacancies`` and the page is
/// cleared once 64 of its slots are vacant (or dropped once all are). A copy of the table kept
/// by a checkpoint or handed to the front end therefore shares every page that only lost
/// notifications since — an `apns-collapse-id` replacement anywhere in a long capture used to
/// copy its whole page (docs/PERFORMANCE.md).
struct NotificationTable: Sendable {
  private static let pageBits = 8
  private static let pageSize = 1 << pageBits
  private static let pageMask = pageSize - 1
  /// How many vacant slots a page collects before they are cleared from it.
  private static let clearingThreshold = 64

  private var pages: [Int: Page] = [:]
  /// Each page's removed notifications that are still in its slots.
  private var vacancies: [Int: Vacancies] = [:]
  /// How many notifications are stored.
  private(set) var count = 0
  /// How many times a page was written (a notification put in, cleared, released or re-ranked):
  /// a work count for the tests, which hold removals to writing no page.
  private(set) var pageWrites = 0
  /// No page below this one holds a notification (a cursor for ``oldestID()``), and the highest
  /// page ever used.
  private var oldestPage = 0
  private var highestPage = -1

  /// The slots for 256 consecutive ids, and the text of the notifications put in them.
  private struct Page: Sendable {
    var slots = [Packed?](repeating: nil, count: NotificationTable.pageSize)
    /// The notifications' strings, appended as they are put in (see ``Packed/textStart``).
    var text: [UInt8] = []
    /// How many slots hold a notification (vacant ones not yet cleared included).
    var filled = 0
    /// Bytes of ``text`` that no slot uses any more.
    var garbage = 0

    /// Puts a notification in a slot, appending its text.
    mutating func put(_ stored: StoredNotification, at slot: Int, keepingPayloadDetails: Bool, keepingTexts: Bool) {
      if let old = slots[slot] { garbage += Int(old.textCount) } else { filled += 1 }
      slots[slot] = NotificationTable.pack(
        stored, keepingPayloadDetails: keepingPayloadDetails, keepingTexts: keepingTexts, text: &text)
      if garbage > 4_096 && garbage > text.count / 2 { compactText() }
    }

    /// Empties the slots a vacancy set names.
    mutating func clear(_ vacant: Vacancies) {
      for slot in 0..<NotificationTable.pageSize where vacant.contains(slot) {
        if let old = slots[slot] {
          garbage += Int(old.textCount)
          filled -= 1
        }
        slots[slot] = nil
      }
      if garbage > text.count / 2 { compactText() }
    }

    /// Copies the text still in use into a buffer of its own size.
    mutating func compactText() {
      var compact: [UInt8] = []
      compact.reserveCapacity(text.count - garbage)
      for slot in 0..<NotificationTable.pageSize {
        guard var packed = slots[slot], packed.textCount > 0 else { continue }
        let start = Int(packed.textStart)
        packed.textStart = UInt32(compact.count)
        compact.append(contentsOf: text[start..<start + Int(packed.textCount)])
        slots[slot] = packed
      }
      text = compact
      garbage = 0
    }

    /// A slot's packed text.
    func text(of packed: Packed) -> ArraySlice<UInt8> {
      if let own = packed.extras?.text { return own[...] }
      let start = Int(packed.textStart)
      return text[start..<start + Int(packed.textCount)]
    }
  }

  /// A page's vacant slots: a bit each.
  private struct Vacancies: Sendable {
    private var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    private(set) var count = 0

    func contains(_ slot: Int) -> Bool { word(slot >> 6) & (1 << UInt64(slot & 63)) != 0 }

    mutating func insert(_ slot: Int) {
      guard !contains(slot) else { return }
      setWord(slot >> 6, word(slot >> 6) | (1 << UInt64(slot & 63)))
      count += 1
    }

    mutating func remove(_ slot: Int) {
      guard contains(slot) else { return }
      setWord(slot >> 6, word(slot >> 6) & ~(1 << UInt64(slot & 63)))
      count -= 1
    }

    private func word(_ index: Int) -> UInt64 {
      switch index {
      case 0: words.0
      case 1: words.1
      case 2: words.2
      default: words.3
      }
    }

    private mutating func setWord(_ index: Int, _ value: UInt64) {
      switch index {
      case 0: words.0 = value
      case 1: words.1 = value
      case 2: words.2 = value
      default: words.3 = value
      }
    }
  }

  /// The packed form of one notification: 96 bytes. The five optional numbers keep their
  /// payloads in plain fields and their presence in one byte (as Swift optionals, each took 16
  /// bytes and the struct 136).
  struct Packed: Equatable, Sendable {
    var id: NotificationID
    var receivedAt: SimInstant
    /// The rank's engagement term; the other terms follow from the notification (see
    /// ``RankTerms/init(notification:level:engagement:)``), else the rank is in ``extras``.
    var engagementTerm: Double
    var extras: Extras?
    /// The optional numbers' payloads, 0 when absent (see ``present``).
    private var relevanceValue: Double
    private var badgeValue: Int
    private var decisionBadgeValue: Int
    private var heldUntilValue: Int64
    private var expirationValue: Int64
    /// Where its text is in the page's buffer: bundle id, thread, title, subtitle, body,
    /// category, target content id, collapse id, sender, sound and the decision's sound, each
    /// the LEB128 of its UTF-8 length plus one (0 for nil), then its bytes.
    var textStart: UInt32
    var textCount: UInt32
    var level: InterruptionLevel
    var pushType: PushType
    var priority: PushPriority?
    var isContentAvailable: Bool
    var isMutableContent: Bool
    var groupForm: UInt8
    var disposition: Disposition
    var effectiveLevel: InterruptionLevel
    var playsSound: Bool
    var previewsHidden: Bool
    /// Which optional numbers are present: a bit each, in the order of their payloads above.
    private var present: UInt8
    /// The decision's surfaces and callbacks as 4-bit codes (``ShortList``); in ``extras``
    /// when there are more than four.
    var surfaces: ShortList
    var callbacks: ShortList

    init(
      id: NotificationID, receivedAt: SimInstant, engagementTerm: Double, textStart: UInt32, textCount: UInt32,
      level: InterruptionLevel, pushType: PushType, priority: PushPriority?, isContentAvailable: Bool,
      isMutableContent: Bool, groupForm: UInt8, relevanceScore: Double?, badge: Int?, disposition: Disposition,
      effectiveLevel: InterruptionLevel, playsSound: Bool, previewsHidden: Bool, surfaces: ShortList,
      callbacks: ShortList, decisionBadge: Int?, heldUntil: SimInstant?, expiration: SimInstant?, extras: Extras?
    ) {
      self.id = id
      self.receivedAt = receivedAt
      self.engagementTerm = engagementTerm
      self.extras = extras
      relevanceValue = 0
      badgeValue = 0
      decisionBadgeValue = 0
      heldUntilValue = 0
      expirationValue = 0
      present = 0
      self.textStart = textStart
      self.textCount = textCount
      self.level = level
      self.pushType = pushType
      self.priority = priority
      self.isContentAvailable = isContentAvailable
      self.isMutableContent = isMutableContent
      self.groupForm = groupForm
      self.disposition = disposition
      self.effectiveLevel = effectiveLevel
      self.playsSound = playsSound
      self.previewsHidden = previewsHidden
      self.surfaces = surfaces
      self.callbacks = callbacks
      self.relevanceScore = relevanceScore
      self.badge = badge
      self.decisionBadge = decisionBadge
      self.heldUntil = heldUntil
      self.expiration = expiration
    }

    /// Whether the optional number with this bit is present.
    private func has(_ bit: UInt8) -> Bool { present & bit != 0 }

    /// Notes whether the optional number with this bit is present.
    private mutating func mark(_ bit: UInt8, _ isPresent: Bool) {
      present = isPresent ? present | bit : present & ~bit
    }

    var relevanceScore: Double? {
      get { has(1) ? relevanceValue : nil }
      set {
        relevanceValue = newValue ?? 0
        mark(1, newValue != nil)
      }
    }

    var badge: Int? {
      get { has(2) ? badgeValue : nil }
      set {
        badgeValue = newValue ?? 0
        mark(2, newValue != nil)
      }
    }

    var decisionBadge: Int? {
      get { has(4) ? decisionBadgeValue : nil }
      set {
        decisionBadgeValue = newValue ?? 0
        mark(4, newValue != nil)
      }
    }

    var heldUntil: SimInstant? {
      get { has(8) ? SimInstant(milliseconds: heldUntilValue) : nil }
      set {
        heldUntilValue = newValue?.milliseconds ?? 0
        mark(8, newValue != nil)
      }
    }

    var expiration: SimInstant? {
      get { has(16) ? SimInstant(milliseconds: expirationValue) : nil }
      set {
        expirationValue = newValue?.milliseconds ?? 0
        mark(16, newValue != nil)
      }
    }
  }

  /// Up to four small enum cases, each a 4-bit code (its index + 1), the first in the lowest
  /// bits; 0 ends the list.
  struct ShortList: Equatable, Sendable {
    var bits: UInt16

    init?<Case>(_ list: [Case], code: (Case) -> UInt16) {
      guard list.count <= 4 else { return nil }
      var bits: UInt16 = 0
      for (index, element) in list.enumerated() { bits |= code(element) << UInt16(4 * index) }
      self.bits = bits
    }

    func contains(code: UInt16) -> Bool {
      var rest = bits
      while rest != 0 {
        if rest & 0xF == code { return true }
        rest >>= 4
      }
      return false
    }

    func decoded<Case>(_ make: (UInt16) -> Case?) -> [Case] {
      var list: [Case] = []
      var rest = bits
      while rest != 0 {
        if let element = make(rest & 0xF) { list.append(element) }
        rest >>= 4
      }
      return list
    }
  }

  /// What most notifications do not have.
  final class Extras: Equatable, Sendable {
    let rawPayload: String
    let customKeys: [JSONMember]
    let liveActivity: LiveActivityContent?
    let reasons: [Reason]
    let filterCriteria: String?
    /// The group, when it is not one of the three forms `GroupKey.make` gives.
    let group: GroupKey?
    /// The rank, when its terms do not follow from the notification.
    let rank: RankTerms?
    /// The decision's Scheduled Summary time and the notification it replaced.
    let decisionHeldUntil: SimInstant?
    let replaces: NotificationID?
    /// Files a service extension attached.
    let attachments: [NotificationAttachment]
    /// Surfaces and callbacks, when there are more than a ``ShortList`` holds.
    let surfaces: [Surface]?
    let callbacks: [AppCallback]?
    /// The packed text, when the page's buffer could not address it.
    let text: [UInt8]?

    init(
      rawPayload: String, customKeys: [JSONMember], liveActivity: LiveActivityContent?, reasons: [Reason],
      filterCriteria: String?, group: GroupKey?, rank: RankTerms?, decisionHeldUntil: SimInstant?,
      replaces: NotificationID?, attachments: [NotificationAttachment] = [], surfaces: [Surface]? = nil,
      callbacks: [AppCallback]? = nil, text: [UInt8]? = nil
    ) {
      self.rawPayload = rawPayload
      self.customKeys = customKeys
      self.liveActivity = liveActivity
      self.reasons = reasons
      self.filterCriteria = filterCriteria
      self.group = group
      self.rank = rank
      self.decisionHeldUntil = decisionHeldUntil
      self.replaces = replaces
      self.attachments = attachments
      self.surfaces = surfaces
      self.callbacks = callbacks
      self.text = text
    }

    static func == (lhs: Extras, rhs: Extras) -> Bool {
      lhs.rawPayload == rhs.rawPayload && lhs.customKeys == rhs.customKeys && lhs.liveActivity == rhs.liveActivity
        && lhs.reasons == rhs.reasons && lhs.filterCriteria == rhs.filterCriteria
        && lhs.group == rhs.group && lhs.rank == rhs.rank
        && lhs.decisionHeldUntil == rhs.decisionHeldUntil && lhs.replaces == rhs.replaces
        && lhs.attachments == rhs.attachments && lhs.surfaces == rhs.surfaces && lhs.callbacks == rhs.callbacks
        && lhs.text == rhs.text
    }
  }

  /// The page and slot of an id.
  @inline(__always)
  private static func place(_ id: NotificationID) -> (page: Int, slot: Int) {
    (id.rawValue >> pageBits, id.rawValue & pageMask)
  }

  /// Whether a slot holds a notification that was not removed, asking the page for its
  /// presence only (comparing the Optional with nil copied the entry out).
  private func contains(_ page: Int, _ slot: Int) -> Bool {
    guard let stored = pages[page], case .some = stored.slots[slot] else { return false }
    return vacancies[page]?.contains(slot) != true
  }

  /// The stored (not vacant) notification with this id, packed, and its page. Not for holding
  /// across a write to the page: the page would be copied.
  private func lookUp(_ id: NotificationID) -> (page: Page, packed: Packed)? {
    let (pageIndex, slot) = Self.place(id)
    guard let page = pages[pageIndex], let packed = page.slots[slot], vacancies[pageIndex]?.contains(slot) != true
    else { return nil }
    return (page, packed)
  }

  /// The packed notification with this id.
  func packed(_ id: NotificationID) -> Packed? { lookUp(id)?.packed }

  /// Whether a notification is held for the summary, whether it shows on the lock screen and
  /// whether Notification Center lists it, read without unpacking it.
  func visibility(_ id: NotificationID) -> StackVisibility? {
    packed(id).map(Self.visibility)
  }

  /// ``StoredNotification/visibility``, read from a packed notification's surface bits.
  private static func visibility(_ packed: Packed) -> StackVisibility {
    StackVisibility(
      held: packed.heldUntil != nil, onLockScreen: showsOnLockScreen(packed), inCenter: isInCenter(packed))
  }

  /// Whether Notification Center lists a packed notification (``StoredNotification/isInCenter``).
  private static func isInCenter(_ packed: Packed) -> Bool {
    packed.extras?.surfaces.map { $0.contains(.notificationCenter) }
      ?? packed.surfaces.contains(code: Surface.notificationCenter.code)
  }

  /// Whether a packed notification shows on the lock screen once not held
  /// (``StoredNotification/showsOnLockScreen``), read from its surface bits.
  private static func showsOnLockScreen(_ packed: Packed) -> Bool {
    packed.extras?.surfaces.map(StoredNotification.showsOnLockScreen)
      ?? (packed.surfaces.contains(code: Surface.lockScreen.code)
        || packed.surfaces.contains(code: Surface.banner.code))
  }

  /// A packed notification's stack: made from its texts by its ``Packed/groupForm``, or kept.
  private static func group(of packed: Packed, bundleID: String, thread: String?) -> GroupKey {
    switch packed.groupForm {
    case 0: GroupKey(bundleID: bundleID, thread: thread)
    case 1: GroupKey(bundleID: bundleID)
    case 2: GroupKey(bundleID: bundleID, single: packed.id)
    default: packed.extras?.group ?? GroupKey(bundleID: bundleID)
    }
  }

  /// Sets a notification's engagement term in place and returns its rank score then, as
  /// `RankTerms(notification:level:engagement:)` computes it; nil when it is not stored or its
  /// rank does not follow from it (kept in ``Extras``), for the caller to rebuild.
  mutating func setEngagementTerm(_ id: NotificationID, _ term: Double) -> Double? {
    // The score first: the page looked up for it is let go before the write (held, the write
    // would copy the page).
    guard let score = derivedScore(id, engagement: term) else { return nil }
    let (pageIndex, slot) = Self.place(id)
    modifyPage(pageIndex) { $0.slots[slot]?.engagementTerm = term }
    pageWrites += 1
    return score
  }

  /// A stored notification's rank score with this engagement term, when its rank follows from it.
  private func derivedScore(_ id: NotificationID, engagement term: Double) -> Double? {
    guard let (page, packed) = lookUp(id), packed.extras?.rank == nil else { return nil }
    let terms = RankTerms(
      level: 2 * Double(packed.effectiveLevel.rank), relevance: packed.relevanceScore ?? 0, engagement: term,
      communication: Self.hasText(field: 8, in: page.text(of: packed)) ? 3 : 0,
      recency: Double(packed.receivedAt.milliseconds) / 3_600_000)
    return terms.score
  }

  /// Reads a field's length prefix (LEB128: its byte count + 1, 0 for nil) at `index`, moving
  /// `index` past it.
  @inline(__always)
  private static func readLength(_ bytes: UnsafeBufferPointer<UInt8>, at index: inout Int) -> Int {
    var length = 0
    var shift = 0
    while index < bytes.count {
      let byte = bytes[index]
      index += 1
      length |= Int(byte & 0x7F) << shift
      shift += 7
      if byte & 0x80 == 0 { break }
    }
    return length
  }

  /// Whether the packed text's field (0 bundle id … 8 sender) is present, reading only lengths.
  private static func hasText(field: Int, in text: ArraySlice<UInt8>) -> Bool {
    text.withUnsafeBufferPointer { bytes in
      var index = 0
      var current = 0
      while index < bytes.count {
        let length = readLength(bytes, at: &index)
        if current == field { return length > 0 }
        index += max(0, length - 1)
        current += 1
      }
      return false
    }
  }

  /// Stores a notification under its id (replacing any with that id), like setting
  /// ``subscript(_:)``, but reading `stored` in place: the setter's value was a copy of it.
  /// Without `keepingPayloadDetails`, its raw payload, custom keys and reasons are left out
  /// (``NotificationStore/keepsPayloadDetails``).
  mutating func insert(_ stored: StoredNotification, keepingPayloadDetails: Bool = true, keepingTexts: Bool = true) {
    let (pageIndex, slot) = Self.place(stored.id)
    let filled = pages[pageIndex].map { page in if case .some = page.slots[slot] { true } else { false } }
    // A vacant slot (its notification removed, not yet cleared) is taken again.
    let vacant = filled == true && vacancies[pageIndex]?.contains(slot) == true
    if filled != true || vacant { count += 1 }
    if vacant {
      vacancies[pageIndex]?.remove(slot)
      if vacancies[pageIndex]?.count == 0 { vacancies.removeValue(forKey: pageIndex) }
    }
    if filled == nil {
      // A page no longer written to gives back the room its text buffer grew into.
      if pageIndex > highestPage, let last = pages[highestPage], last.text.capacity > last.text.count + 1_024 {
        pages[highestPage]?.text = [UInt8](unsafeUninitializedCapacity: last.text.count) { buffer, initialized in
          initialized = last.text.withUnsafeBufferPointer { buffer.initialize(fromContentsOf: $0) }
        }
      }
      pages[pageIndex] = Page()
    }
    modifyPage(pageIndex) {
      $0.put(stored, at: slot, keepingPayloadDetails: keepingPayloadDetails, keepingTexts: keepingTexts)
    }
    pageWrites += 1
    oldestPage = min(oldestPage, pageIndex)
    highestPage = max(highestPage, pageIndex)
  }

  /// The notification with this id, unpacked; setting nil removes it.
  subscript(id: NotificationID) -> StoredNotification? {
    get { lookUp(id).map { page, packed in Self.unpack(packed, text: page.text(of: packed)) } }
    set {
      if let newValue { return insert(newValue) }
      let (pageIndex, slot) = Self.place(id)
      guard contains(pageIndex, slot), let filled = pages[pageIndex]?.filled else { return }
      count -= 1
      var vacant = vacancies[pageIndex] ?? Vacancies()
      vacant.insert(slot)
      if vacant.count == filled {
        pages.removeValue(forKey: pageIndex)
        vacancies.removeValue(forKey: pageIndex)
      } else if vacant.count >= Self.clearingThreshold {
        modifyPage(pageIndex) { $0.clear(vacant) }
        pageWrites += 1
        vacancies.removeValue(forKey: pageIndex)
      } else {
        vacancies[pageIndex] = vacant
      }
    }
  }

  /// The oldest stored notification (the smallest id: ids come from a counter), found from a
  /// cursor that only moves forward, so finding it again and again as the oldest leave costs
  /// O(1) amortized.
  mutating func oldestID() -> NotificationID? {
    guard count > 0 else { return nil }
    while oldestPage <= highestPage {
      if let page = pages[oldestPage] {
        let vacant = vacancies[oldestPage]
        for slot in 0..<Self.pageSize {
          if case .some = page.slots[slot], vacant?.contains(slot) != true {
            return NotificationID(oldestPage << Self.pageBits | slot)
          }
        }
      }
      oldestPage += 1
    }
    return nil
  }

  /// Changes page `pageIndex` in place, if there is one. Through the dictionary's values by
  /// index, not `pages[pageIndex]?.…`: that optional subscript's `_modify` coroutines allocated
  /// three frames on the heap for every call, three allocations for every push stored (heaptrack,
  /// `render` of 100,000 lines: 86,270 × 3).
  private mutating func modifyPage(_ pageIndex: Int, _ body: (inout Page) -> Void) {
    guard let index = pages.index(forKey: pageIndex) else { return }
    body(&pages.values[index])
  }

  /// Clears the held-for-summary time of a notification.
  mutating func release(_ id: NotificationID) {
    let (pageIndex, slot) = Self.place(id)
    guard contains(pageIndex, slot) else { return }
    modifyPage(pageIndex) { $0.slots[slot]?.heldUntil = nil }
    pageWrites += 1
  }

  /// Every stored notification's id and packed form, with its text, in id order.
  private func forEachStored(_ body: (Packed, ArraySlice<UInt8>) -> Void) {
    for pageIndex in pages.keys.sorted() {
      guard let page = pages[pageIndex] else { continue }
      let vacant = vacancies[pageIndex]
      for slot in 0..<Self.pageSize {
        if let packed = page.slots[slot], vacant?.contains(slot) != true { body(packed, page.text(of: packed)) }
      }
    }
  }

  /// Every notification, unpacked, in id order.
  var values: [StoredNotification] {
    var values: [StoredNotification] = []
    values.reserveCapacity(count)
    forEachStored { packed, text in values.append(Self.unpack(packed, text: text)) }
    return values
  }

  /// Every notification as its packed form (its place in the text buffer aside) and its text,
  /// for comparing two tables.
  private var contents: [(packed: Packed, text: ArraySlice<UInt8>)] {
    var contents: [(packed: Packed, text: ArraySlice<UInt8>)] = []
    contents.reserveCapacity(count)
    forEachStored { packed, text in
      var placed = packed
      placed.textStart = 0
      contents.append((placed, text))
    }
    return contents
  }

  static func == (lhs: NotificationTable, rhs: NotificationTable) -> Bool {
    guard lhs.count == rhs.count else { return false }
    let left = lhs.contents
    let right = rhs.contents
    return left.count == right.count
      && zip(left, right).allSatisfy { $0.packed == $1.packed && $0.text.elementsEqual($1.text) }
  }

  // MARK: Packing

  private static func append(_ text: String?, to bytes: inout [UInt8]) {
    var length = text.map { $0.utf8.count + 1 } ?? 0
    repeat {
      let low = UInt8(length & 0x7F)
      length >>= 7
      bytes.append(length == 0 ? low : low | 0x80)
    } while length > 0
    // Through `withUTF8`, which hands over even a small string's bytes as one buffer (appending
    // `text.utf8` went byte by byte for those).
    if var text { text.withUTF8 { bytes.append(contentsOf: $0) } }
  }

  /// A sound as text: `d` (default), `n` and a name, `c`, the volume's bits, `:` and a name.
  private static func soundText(_ sound: SoundRequest?) -> String? {
    switch sound {
    case nil: nil
    case .systemDefault: "d"
    case .named(let name): "n" + name
    case .critical(let name, let volume): "c" + String(volume.bitPattern) + ":" + name
    }
  }

  private static func sound(_ text: String?) -> SoundRequest? {
    guard let text, let kind = text.first else { return nil }
    let rest = text.dropFirst()
    switch kind {
    case "d": return .systemDefault
    case "n": return .named(String(rest))
    default:
      guard let colon = rest.firstIndex(of: ":"), let bits = UInt64(rest[..<colon]) else { return .systemDefault }
      return .critical(name: String(rest[rest.index(after: colon)...]), volume: Double(bitPattern: bits))
    }
  }

  /// The rank terms that follow from a notification and its engagement term.
  private static func rank(
    receivedAt: SimInstant, relevanceScore: Double?, sender: String?, level: InterruptionLevel, engagement: Double
  ) -> RankTerms {
    RankTerms(
      level: 2 * Double(level.rank), relevance: relevanceScore ?? 0, engagement: engagement,
      communication: sender == nil ? 0 : 3, recency: Double(receivedAt.milliseconds) / 3_600_000)
  }

  /// Packs a notification, appending its text to `text` (its page's buffer); without
  /// `keepingPayloadDetails`, leaving out its raw payload, custom keys and reasons; without
  /// `keepingTexts`, leaving out every text but those the store's keys and ranks are made of
  /// (bundle id, thread, collapse id, sender).
  static func pack(
    _ stored: StoredNotification, keepingPayloadDetails: Bool = true, keepingTexts: Bool = true, text: inout [UInt8]
  ) -> Packed {
    let note = stored.notification
    let decision = stored.decision
    // Field by field, without an array of the eleven strings (allocated and released per push).
    let sound = keepingTexts ? soundText(note.sound) : nil
    let decisionSound = keepingTexts ? soundText(decision.sound) : nil
    func size(_ field: String?) -> Int { 2 + (field?.utf8.count ?? 0) }
    let textStart = text.count
    var needed = textStart + size(note.bundleID) + size(note.threadID) + size(note.collapseID) + size(note.sender)
    if !keepingTexts {
      needed += 7  // the absent fields' one byte each
    } else {
      needed +=
        size(note.title) + size(note.subtitle) + size(note.body) + size(note.category) + size(note.targetContentID)
        + size(sound) + size(decisionSound)
    }
    // Doubled, not reserved to the byte: `reserveCapacity` gives exactly what it is asked for, so
    // asking for a little more on every push copied the page's whole buffer on every push.
    if text.capacity < needed { text.reserveCapacity(max(needed, 2 * text.capacity)) }
    append(note.bundleID, to: &text)
    append(note.threadID, to: &text)
    if keepingTexts {
      append(note.title, to: &text)
      append(note.subtitle, to: &text)
      append(note.body, to: &text)
      append(note.category, to: &text)
      append(note.targetContentID, to: &text)
    } else {
      for _ in 0..<5 { text.append(0) }  // five absent fields
    }
    append(note.collapseID, to: &text)
    append(note.sender, to: &text)
    if keepingTexts {
      append(sound, to: &text)
      append(decisionSound, to: &text)
    } else {
      text.append(0)
      text.append(0)
    }
    var textCount = text.count - textStart
    // A page's text is addressed with 32 bits; past them (never at input sizes Pushdeck reads)
    // the notification keeps its text to itself.
    var ownText: [UInt8]?
    if text.count > Int(UInt32.max) {
      ownText = Array(text[textStart...])
      text.removeSubrange(textStart...)
      textCount = 0
    }
    let groupForm: UInt8
    switch stored.group {
    case GroupKey(bundleID: note.bundleID, thread: note.threadID): groupForm = 0
    case GroupKey(bundleID: note.bundleID): groupForm = 1
    case GroupKey(bundleID: note.bundleID, single: note.id): groupForm = 2
    default: groupForm = 3
    }
    let derivedRank = rank(
      receivedAt: note.receivedAt, relevanceScore: note.relevanceScore, sender: note.sender,
      level: decision.effectiveLevel, engagement: stored.rank.engagement)
    let rankIsDerived = derivedRank == stored.rank
    let surfaces = ShortList(decision.surfaces, code: \.code)
    let callbacks = ShortList(decision.callbacks, code: \.code)
    var extras: Extras?
    let keepsDetails = keepingPayloadDetails
    if !rankIsDerived || decision.heldUntil != nil || decision.replaces != nil
      || (keepsDetails && (!note.rawPayload.isEmpty || !note.customKeys.isEmpty || !decision.reasons.isEmpty))
      || note.liveActivity != nil
      || note.filterCriteria != nil || groupForm == 3 || !note.attachments.isEmpty || surfaces == nil
      || callbacks == nil || ownText != nil
    {
      extras = Extras(
        rawPayload: keepsDetails ? note.rawPayload : "", customKeys: keepsDetails ? note.customKeys : [],
        liveActivity: note.liveActivity,
        reasons: keepsDetails ? decision.reasons : [], filterCriteria: note.filterCriteria,
        group: groupForm == 3 ? stored.group : nil, rank: rankIsDerived ? nil : stored.rank,
        decisionHeldUntil: decision.heldUntil, replaces: decision.replaces, attachments: note.attachments,
        surfaces: surfaces == nil ? decision.surfaces : nil, callbacks: callbacks == nil ? decision.callbacks : nil,
        text: ownText)
    }
    return Packed(
      id: note.id, receivedAt: note.receivedAt, engagementTerm: stored.rank.engagement,
      textStart: UInt32(truncatingIfNeeded: textStart), textCount: UInt32(truncatingIfNeeded: textCount),
      level: note.level,
      pushType: note.pushType, priority: note.priority, isContentAvailable: note.isContentAvailable,
      isMutableContent: note.isMutableContent, groupForm: groupForm, relevanceScore: note.relevanceScore,
      badge: note.badge, disposition: decision.disposition, effectiveLevel: decision.effectiveLevel,
      playsSound: decision.playsSound, previewsHidden: decision.previewsHidden,
      surfaces: surfaces ?? ShortList(bits: 0), callbacks: callbacks ?? ShortList(bits: 0),
      decisionBadge: decision.badge,
      heldUntil: stored.heldUntil,
      expiration: note.expiration, extras: extras)
  }

  /// What removing a notification needs to know of it, read from its packed form without
  /// unpacking it: its app and `apns-collapse-id` (the collapse index), its stack, its rank
  /// score, and which lists it is in (the stack's counts). Unpacking
  /// made its eleven strings and its decision's lists, for a removal that reads five values.
  struct RemovalFacts {
    var bundleID: String
    var collapseID: String?
    var group: GroupKey
    var score: Double
    var visibility: StackVisibility
  }

  /// The ``RemovalFacts`` of a stored (not vacant) notification.
  func removalFacts(_ id: NotificationID) -> RemovalFacts? {
    guard let (page, packed) = lookUp(id) else { return nil }
    // Fields 0 (bundle id), 1 (thread), 7 (collapse id) and 8 (sender, for the rank); the
    // others are skipped by their lengths.
    var bundleID = ""
    var thread: String?
    var collapseID: String?
    var hasSender = false
    page.text(of: packed).withUnsafeBufferPointer { bytes in
      var index = 0
      var field = 0
      while index < bytes.count && field <= 8 {
        let length = Self.readLength(bytes, at: &index)
        let end = min(index + max(length - 1, 0), bytes.count)
        if length > 0 {
          let text = { String(decoding: UnsafeBufferPointer(rebasing: bytes[index..<end]), as: UTF8.self) }
          switch field {
          case 0: bundleID = text()
          case 1: thread = text()
          case 7: collapseID = text()
          case 8: hasSender = true
          default: break
          }
        }
        index = end
        field += 1
      }
    }
    let group = Self.group(of: packed, bundleID: bundleID, thread: thread)
    let score =
      packed.extras?.rank?.score
      ?? RankTerms(
        level: 2 * Double(packed.effectiveLevel.rank), relevance: packed.relevanceScore ?? 0,
        engagement: packed.engagementTerm, communication: hasSender ? 3 : 0,
        recency: Double(packed.receivedAt.milliseconds) / 3_600_000
      ).score
    return RemovalFacts(
      bundleID: bundleID, collapseID: collapseID, group: group, score: score, visibility: Self.visibility(packed))
  }

  /// Unpacks a notification whose text is `text`.
  static func unpack(_ packed: Packed, text: ArraySlice<UInt8>) -> StoredNotification {
    var strings: [String?] = []
    strings.reserveCapacity(11)
    text.withUnsafeBufferPointer { bytes in
      var index = 0
      while index < bytes.count && strings.count < 11 {
        let length = readLength(bytes, at: &index)
        guard length > 0 else {
          strings.append(nil)
          continue
        }
        let end = min(index + length - 1, bytes.count)
        strings.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[index..<end]), as: UTF8.self))
        index = end
      }
    }
    while strings.count < 11 { strings.append(nil) }
    var note = PushNotification(
      id: packed.id, bundleID: strings[0] ?? "", threadID: strings[1], title: strings[2], subtitle: strings[3],
      body: strings[4], category: strings[5], level: packed.level, relevanceScore: packed.relevanceScore,
      sound: sound(strings[9]), badge: packed.badge, isContentAvailable: packed.isContentAvailable,
      isMutableContent: packed.isMutableContent, targetContentID: strings[6],
      filterCriteria: packed.extras?.filterCriteria, collapseID: strings[7], receivedAt: packed.receivedAt,
      rawPayload: packed.extras?.rawPayload ?? "")
    note.pushType = packed.pushType
    note.priority = packed.priority
    note.expiration = packed.expiration
    note.sender = strings[8]
    note.liveActivity = packed.extras?.liveActivity
    note.customKeys = packed.extras?.customKeys ?? []
    note.attachments = packed.extras?.attachments ?? []
    let decision = DeliveryDecision(
      disposition: packed.disposition,
      surfaces: packed.extras?.surfaces ?? packed.surfaces.decoded(Surface.init(code:)), playsSound: packed.playsSound,
      sound: sound(strings[10]), badge: packed.decisionBadge, effectiveLevel: packed.effectiveLevel,
      heldUntil: packed.extras?.decisionHeldUntil, replaces: packed.extras?.replaces,
      previewsHidden: packed.previewsHidden,
      callbacks: packed.extras?.callbacks ?? packed.callbacks.decoded(AppCallback.init(code:)),
      reasons: packed.extras?.reasons ?? [])
    let group = Self.group(of: packed, bundleID: note.bundleID, thread: note.threadID)
    return StoredNotification(
      notification: note, decision: decision, group: group,
      rank: packed.extras?.rank
        ?? rank(
          receivedAt: note.receivedAt, relevanceScore: note.relevanceScore, sender: note.sender,
          level: packed.effectiveLevel, engagement: packed.engagementTerm),
      heldUntil: packed.heldUntil)
  }
}

extension NotificationTable.ShortList {
  init(bits: UInt16) { self.bits = bits }
}

extension Surface {
  /// The surface's 4-bit code in a packed notification.
  fileprivate var code: UInt16 {
    switch self {
    case .banner: 1
    case .lockScreen: 2
    case .notificationCenter: 3
    case .liveActivity: 4
    }
  }

  fileprivate init?(code: UInt16) {
    switch code {
    case 1: self = .banner
    case 2: self = .lockScreen
    case 3: self = .notificationCenter
    case 4: self = .liveActivity
    default: return nil
    }
  }
}

extension AppCallback {
  /// The callback's 4-bit code in a packed notification.
  fileprivate var code: UInt16 {
    switch self {
    case .willPresent: 1
    case .didReceive: 2
    case .backgroundFetch: 3
    case .launchInBackground: 4
    case .serviceExtension: 5
    }
  }

  fileprivate init?(code: UInt16) {
    switch code {
    case 1: self = .willPresent
    case 2: self = .didReceive
    case 3: self = .backgroundFetch
    case 4: self = .launchInBackground
    case 5: self = .serviceExtension
    default: return nil
    }
  }
}

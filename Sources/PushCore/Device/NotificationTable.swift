/// The store's notifications, packed for a store of a million.
///
/// A ``StoredNotification`` is about 620 bytes inline, and a dictionary of them keeps up to
/// twice as many slots as entries. Here each notification is a ``Packed`` value of about 200
/// bytes whose nine optional strings live in one byte buffer, in pages of consecutive ids (ids
/// come from a counter, so pages fill densely). Values that are rare or large (raw payload,
/// custom keys, reasons, Live Activity content, filter criteria, an unusual group)
/// go into one boxed ``Extras`` only when present. Packing is lossless: `self[id]` gives back
/// exactly the ``StoredNotification`` that was stored.
struct NotificationTable: Sendable {
  private static let pageBits = 8
  private static let pageMask = (1 << pageBits) - 1

  private var pages: [Int: [Packed?]] = [:]
  /// How many notifications are stored.
  private(set) var count = 0
  /// No page below this one holds a notification (a cursor for ``oldestID()``), and the highest
  /// page ever used.
  private var oldestPage = 0
  private var highestPage = -1

  /// The packed form of one notification.
  struct Packed: Equatable, Sendable {
    var id: NotificationID
    var receivedAt: SimInstant
    /// The rank's engagement term; the other terms follow from the notification (see
    /// ``RankTerms/init(notification:level:engagement:)``), else the rank is in ``extras``.
    var engagementTerm: Double
    /// bundle id, thread, title, subtitle, body, category, target content id, collapse id,
    /// sender, sound and the decision's sound: each the LEB128 of its UTF-8 length plus one (0 for nil), then its bytes.
    var text: [UInt8]
    var level: InterruptionLevel
    var pushType: PushType
    var priority: PushPriority?
    var isContentAvailable: Bool
    var isMutableContent: Bool
    var groupForm: UInt8
    var relevanceScore: Double?
    var badge: Int?
    var disposition: Disposition
    var effectiveLevel: InterruptionLevel
    var playsSound: Bool
    var previewsHidden: Bool
    var surfaces: [Surface]
    var callbacks: [AppCallback]
    var decisionBadge: Int?
    var heldUntil: SimInstant?
    var expiration: SimInstant?
    var extras: Extras?
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

    init(
      rawPayload: String, customKeys: [JSONMember], liveActivity: LiveActivityContent?, reasons: [Reason],
      filterCriteria: String?, group: GroupKey?, rank: RankTerms?, decisionHeldUntil: SimInstant?,
      replaces: NotificationID?, attachments: [NotificationAttachment] = []
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
    }

    static func == (lhs: Extras, rhs: Extras) -> Bool {
      lhs.rawPayload == rhs.rawPayload && lhs.customKeys == rhs.customKeys && lhs.liveActivity == rhs.liveActivity
        && lhs.reasons == rhs.reasons && lhs.filterCriteria == rhs.filterCriteria
        && lhs.group == rhs.group && lhs.rank == rhs.rank
        && lhs.decisionHeldUntil == rhs.decisionHeldUntil && lhs.replaces == rhs.replaces
        && lhs.attachments == rhs.attachments
    }
  }

  /// The packed notification with this id.
  func packed(_ id: NotificationID) -> Packed? {
    guard let page = pages[id.rawValue >> Self.pageBits] else { return nil }
    return page[id.rawValue & Self.pageMask]
  }

  /// Whether a notification is held for the summary and whether it shows on the lock screen,
  /// read without unpacking it.
  func visibility(_ id: NotificationID) -> (held: Bool, onLockScreen: Bool)? {
    guard let page = pages[id.rawValue >> Self.pageBits], let packed = page[id.rawValue & Self.pageMask] else {
      return nil
    }
    return (packed.heldUntil != nil, StoredNotification.showsOnLockScreen(packed.surfaces))
  }

  /// Sets a notification's engagement term in place and returns its rank score then, as
  /// `RankTerms(notification:level:engagement:)` computes it; nil when it is not stored or its
  /// rank does not follow from it (kept in ``Extras``), for the caller to rebuild.
  mutating func setEngagementTerm(_ id: NotificationID, _ term: Double) -> Double? {
    let pageIndex = id.rawValue >> Self.pageBits
    let slot = id.rawValue & Self.pageMask
    guard let packed = pages[pageIndex]?[slot], packed.extras?.rank == nil else { return nil }
    pages[pageIndex]?[slot]?.engagementTerm = term
    let terms = RankTerms(
      level: 2 * Double(packed.effectiveLevel.rank), relevance: packed.relevanceScore ?? 0, engagement: term,
      communication: Self.hasText(field: 8, in: packed.text) ? 3 : 0,
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
  private static func hasText(field: Int, in text: [UInt8]) -> Bool {
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
  mutating func insert(_ stored: StoredNotification) {
    let id = stored.id
    let pageIndex = id.rawValue >> Self.pageBits
    let slot = id.rawValue & Self.pageMask
    let existed = contains(pageIndex, slot)
    pages[pageIndex, default: [Packed?](repeating: nil, count: 1 << Self.pageBits)][slot] = Self.pack(stored)
    if !existed { count += 1 }
    oldestPage = min(oldestPage, pageIndex)
    highestPage = max(highestPage, pageIndex)
  }

  /// Whether a slot holds a notification, asking the page for its presence only (comparing
  /// the Optional with nil copied the entry out).
  private func contains(_ pageIndex: Int, _ slot: Int) -> Bool {
    pages[pageIndex].map { page in if case .some = page[slot] { true } else { false } } ?? false
  }

  /// The notification with this id, unpacked; setting nil removes it.
  subscript(id: NotificationID) -> StoredNotification? {
    get { packed(id).map(Self.unpack) }
    set {
      let pageIndex = id.rawValue >> Self.pageBits
      let slot = id.rawValue & Self.pageMask
      let existed = contains(pageIndex, slot)
      if let newValue {
        pages[pageIndex, default: [Packed?](repeating: nil, count: 1 << Self.pageBits)][slot] = Self.pack(newValue)
        if !existed { count += 1 }
        oldestPage = min(oldestPage, pageIndex)
        highestPage = max(highestPage, pageIndex)
      } else if existed {
        pages[pageIndex]?[slot] = nil
        count -= 1
        if pages[pageIndex]?.allSatisfy({ $0 == nil }) == true { pages.removeValue(forKey: pageIndex) }
      }
    }
  }

  /// The oldest stored notification (the smallest id: ids come from a counter), found from a
  /// cursor that only moves forward, so finding it again and again as the oldest leave costs
  /// O(1) amortized.
  mutating func oldestID() -> NotificationID? {
    guard count > 0 else { return nil }
    while oldestPage <= highestPage {
      if let page = pages[oldestPage], let slot = page.firstIndex(where: { $0 != nil }) {
        return NotificationID(oldestPage << Self.pageBits | slot)
      }
      oldestPage += 1
    }
    return nil
  }

  /// Clears the held-for-summary time of a notification.
  mutating func release(_ id: NotificationID) {
    pages[id.rawValue >> Self.pageBits]?[id.rawValue & Self.pageMask]?.heldUntil = nil
  }

  /// Every notification, unpacked, in no particular order.
  var values: [StoredNotification] {
    pages.values.flatMap { page in page.compactMap { $0.map(Self.unpack) } }
  }

  /// Every packed notification by id, for comparing two tables.
  private var sortedPacked: [Packed] {
    pages.keys.sorted().flatMap { pages[$0]?.compactMap { $0 } ?? [] }
  }

  static func == (lhs: NotificationTable, rhs: NotificationTable) -> Bool {
    lhs.count == rhs.count && lhs.sortedPacked == rhs.sortedPacked
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

  static func pack(_ stored: StoredNotification) -> Packed {
    let note = stored.notification
    let decision = stored.decision
    // Field by field, without an array of the eleven strings (allocated and released per push).
    let sound = soundText(note.sound)
    let decisionSound = soundText(decision.sound)
    func size(_ field: String?) -> Int { 2 + (field?.utf8.count ?? 0) }
    var text: [UInt8] = []
    text.reserveCapacity(
      size(note.bundleID) + size(note.threadID) + size(note.title) + size(note.subtitle) + size(note.body)
        + size(note.category) + size(note.targetContentID) + size(note.collapseID) + size(note.sender)
        + size(sound) + size(decisionSound))
    append(note.bundleID, to: &text)
    append(note.threadID, to: &text)
    append(note.title, to: &text)
    append(note.subtitle, to: &text)
    append(note.body, to: &text)
    append(note.category, to: &text)
    append(note.targetContentID, to: &text)
    append(note.collapseID, to: &text)
    append(note.sender, to: &text)
    append(sound, to: &text)
    append(decisionSound, to: &text)
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
    var extras: Extras?
    if !rankIsDerived || decision.heldUntil != nil || decision.replaces != nil || !note.rawPayload.isEmpty
      || !note.customKeys.isEmpty || note.liveActivity != nil || !decision.reasons.isEmpty
      || note.filterCriteria != nil || groupForm == 3 || !note.attachments.isEmpty
    {
      extras = Extras(
        rawPayload: note.rawPayload, customKeys: note.customKeys, liveActivity: note.liveActivity,
        reasons: decision.reasons, filterCriteria: note.filterCriteria,
        group: groupForm == 3 ? stored.group : nil, rank: rankIsDerived ? nil : stored.rank,
        decisionHeldUntil: decision.heldUntil, replaces: decision.replaces, attachments: note.attachments)
    }
    return Packed(
      id: note.id, receivedAt: note.receivedAt, engagementTerm: stored.rank.engagement, text: text, level: note.level,
      pushType: note.pushType, priority: note.priority, isContentAvailable: note.isContentAvailable,
      isMutableContent: note.isMutableContent, groupForm: groupForm, relevanceScore: note.relevanceScore,
      badge: note.badge, disposition: decision.disposition, effectiveLevel: decision.effectiveLevel,
      playsSound: decision.playsSound, previewsHidden: decision.previewsHidden, surfaces: decision.surfaces,
      callbacks: decision.callbacks, decisionBadge: decision.badge,
      heldUntil: stored.heldUntil,
      expiration: note.expiration, extras: extras)
  }

  static func unpack(_ packed: Packed) -> StoredNotification {
    var strings: [String?] = []
    strings.reserveCapacity(11)
    packed.text.withUnsafeBufferPointer { bytes in
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
      disposition: packed.disposition, surfaces: packed.surfaces, playsSound: packed.playsSound,
      sound: sound(strings[10]), badge: packed.decisionBadge, effectiveLevel: packed.effectiveLevel,
      heldUntil: packed.extras?.decisionHeldUntil, replaces: packed.extras?.replaces,
      previewsHidden: packed.previewsHidden,
      callbacks: packed.callbacks, reasons: packed.extras?.reasons ?? [])
    let group: GroupKey
    switch packed.groupForm {
    case 0: group = GroupKey(bundleID: note.bundleID, thread: note.threadID)
    case 1: group = GroupKey(bundleID: note.bundleID)
    case 2: group = GroupKey(bundleID: note.bundleID, single: note.id)
    default: group = packed.extras?.group ?? GroupKey(bundleID: note.bundleID)
    }
    return StoredNotification(
      notification: note, decision: decision, group: group,
      rank: packed.extras?.rank
        ?? rank(
          receivedAt: note.receivedAt, relevanceScore: note.relevanceScore, sender: note.sender,
          level: packed.effectiveLevel, engagement: packed.engagementTerm),
      heldUntil: packed.heldUntil)
  }
}

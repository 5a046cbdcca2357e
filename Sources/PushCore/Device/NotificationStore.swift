/// Which stack a notification belongs to.
public struct GroupKey: Hashable, Sendable, Comparable, CustomStringConvertible {
  /// The app.
  public var bundleID: String
  /// The thread: `thread-id` under automatic grouping, nil for the app's default stack.
  public var thread: String?
  /// Set when grouping is off: every notification is its own group.
  public var single: NotificationID?

  public init(bundleID: String, thread: String? = nil, single: NotificationID? = nil) {
    self.bundleID = bundleID
    self.thread = thread
    self.single = single
  }

  /// The key for a notification under an app's grouping setting.
  public static func make(for notification: PushNotification, grouping: GroupingSetting) -> GroupKey {
    switch grouping {
    case .automatic:
      GroupKey(bundleID: notification.bundleID, thread: notification.threadID.flatMap { $0.isEmpty ? nil : $0 })
    case .byApp: GroupKey(bundleID: notification.bundleID)
    case .off: GroupKey(bundleID: notification.bundleID, single: notification.id)
    }
  }

  public static func < (lhs: GroupKey, rhs: GroupKey) -> Bool {
    (lhs.bundleID, lhs.thread ?? "", lhs.single?.rawValue ?? -1) < (
      rhs.bundleID, rhs.thread ?? "", rhs.single?.rawValue ?? -1
    )
  }

  public var description: String {
    bundleID + (thread.map { "#" + $0 } ?? "") + (single.map { "/" + $0.description } ?? "")
  }
}

/// The terms of a notification's rank in Notification Center, each visible in the inspector.
///
/// The score is their sum. Recency is the arrival time in hours, so comparing two scores never
/// depends on the current time and the order never needs re-sorting as time passes: a level
/// step is worth two hours of recency, `relevance-score` up to one hour, the app's engagement
/// ±1 hour, and a communication notification three hours (see `docs/DECISIONS.md`).
public struct RankTerms: Equatable, Sendable, Codable {
  public var level: Double
  public var relevance: Double
  public var engagement: Double
  public var communication: Double
  public var recency: Double

  /// Creates rank terms from their values (a journal restores them this way).
  public init(level: Double, relevance: Double, engagement: Double, communication: Double, recency: Double) {
    self.level = level
    self.relevance = relevance
    self.engagement = engagement
    self.communication = communication
    self.recency = recency
  }

  /// Computes the terms for a notification at an effective level with its app's engagement.
  public init(notification: borrowing PushNotification, level: InterruptionLevel, engagement: Engagement) {
    self.level = 2 * Double(level.rank)
    relevance = notification.relevanceScore ?? 0
    self.engagement = 2 * engagement.score
    communication = notification.sender == nil ? 0 : 3
    recency = Double(notification.receivedAt.milliseconds) / 3_600_000
  }

  /// The rank score: the higher, the nearer the top.
  public var score: Double { level + relevance + engagement + communication + recency }
}

/// A delivered (or held) notification with its decision and rank.
public struct StoredNotification: Equatable, Sendable, Identifiable {
  public var notification: PushNotification
  public var decision: DeliveryDecision
  public var group: GroupKey
  public var rank: RankTerms
  /// Set while the notification waits for the Scheduled Summary.
  public var heldUntil: SimInstant?

  /// Creates a stored notification.
  public init(
    notification: PushNotification, decision: DeliveryDecision, group: GroupKey, rank: RankTerms,
    heldUntil: SimInstant? = nil
  ) {
    self.notification = notification
    self.decision = decision
    self.group = group
    self.rank = rank
    self.heldUntil = heldUntil
  }

  public var id: NotificationID { notification.id }

  /// When the user sees it: at arrival, or, when it waited for a Scheduled Summary, at the
  /// summary's delivery (so a summary delivered a minute ago reads "now", not the arrival).
  public var deliveredAt: SimInstant {
    guard let held = decision.heldUntil, held > notification.receivedAt else { return notification.receivedAt }
    return held
  }

  /// Whether it shows on the lock screen once not held: it lit the lock screen, or it
  /// bannered while unlocked (it stays on the lock screen's list afterwards, as on iOS).
  public var showsOnLockScreen: Bool { Self.showsOnLockScreen(decision.surfaces) }

  static func showsOnLockScreen(_ surfaces: [Surface]) -> Bool {
    surfaces.contains(.lockScreen) || surfaces.contains(.banner)
  }

  /// Whether it joins Notification Center's list (once not held). One whose app has Notification
  /// Center off is kept only for the lock screen it lit, and is not listed there.
  public var isInCenter: Bool { decision.surfaces.contains(.notificationCenter) }

  /// Which of the screens' lists it is in.
  var visibility: StackVisibility {
    StackVisibility(held: heldUntil != nil, onLockScreen: showsOnLockScreen, inCenter: isInCenter)
  }
}

/// Which lists a stored notification is in: none while held for the Scheduled Summary; then the
/// lock screen's if it lit it or bannered, and Notification Center's unless its app has that off.
struct StackVisibility {
  var held: Bool
  var onLockScreen: Bool
  var inCenter: Bool

  /// Whether the list `filter` names shows it.
  func shows(in filter: StackFilter) -> Bool {
    !held && (filter == .notificationCenter ? inCenter : onLockScreen)
  }

  /// Kept for the lock screen only: not held, and not in Notification Center.
  var isOutsideCenter: Bool { !held && !inCenter }
}

/// A stack of notifications, newest first, as the screens show it.
public struct NotificationGroup: Equatable, Sendable {
  public var key: GroupKey
  /// Newest first.
  public var notifications: [StoredNotification]
  /// The group's rank score (its best member's).
  public var score: Double
  /// How many notifications the group holds; ``notifications`` may hold only the newest few
  /// when it was built with a member limit.
  public var count: Int

  /// Creates a group; `count` defaults to the notifications given.
  public init(key: GroupKey, notifications: [StoredNotification], score: Double, count: Int? = nil) {
    self.key = key
    self.notifications = notifications
    self.score = score
    self.count = count ?? notifications.count
  }
}

/// The device's notifications: grouped into stacks, stacks ordered by rank.
///
/// Inserting keeps every order up to date incrementally: a binary search finds the place in
/// the stack (by arrival) and in the stack order (by score), and only the entries that rank
/// above the new one move — none for a notification that arrives last and ranks first, the
/// usual case. Nothing is ever re-sorted as a whole.
public struct NotificationStore: Equatable, Sendable {
  /// A group member as the orders need it, so that searching a stack never looks up (and
  /// copies) the stored notifications themselves.
  private struct Member: Sendable {
    var arrival: SimInstant
    var id: NotificationID
    var score: Double
  }

  /// A stack: its members in arrival order (oldest first), its score (its best member's) and
  /// how many of its members each screen shows, so a screen never counts them one by one.
  ///
  /// A notification that leaves the store stays in ``members`` (stale: the table no longer has
  /// it, and every walk of the members skips it) until the stale outnumber the live; then the
  /// list is rebuilt. So a removal writes no member chunk, and a copy of the store (a checkpoint,
  /// a state handed over) keeps sharing them: `apns-collapse-id` replacements land all over a
  /// long capture's stacks. Members are chunked for the same reason: an append copies one chunk.
  private struct Group: Sendable {
    var members = ChunkedList<Member>()
    /// Members whose notification has left the store.
    var stale = 0
    /// Members whose notification is stored.
    var live: Int { members.count - stale }
    var score = -Double.infinity
    /// Members waiting for the Scheduled Summary.
    var held = 0
    /// Members not held that show on the lock screen.
    var onLockScreen = 0
    /// Members not held that Notification Center does not list (their app has it off).
    var outsideCenter = 0

    /// Counts a member into (`sign` 1) or out of (-1) the lists it is in.
    mutating func count(_ visibility: StackVisibility, _ sign: Int) {
      if visibility.held {
        held += sign
        return
      }
      if visibility.onLockScreen { onLockScreen += sign }
      if !visibility.inCenter { outsideCenter += sign }
    }
  }

  /// The notifications, packed (see ``NotificationTable``).
  private var entries = NotificationTable()
  /// Each group's members and score. Always changed in place (never copied out and written
  /// back, which would copy the member list on every push).
  private var groups: [GroupKey: Group] = [:]
  /// Groups by ascending score; the last is the top of Notification Center.
  private var order: [(score: Double, key: GroupKey)] = []
  /// An app and one of its `apns-collapse-id`s.
  private struct CollapseKey: Hashable, Sendable {
    var bundleID: String
    var collapseID: String
  }

  /// Whether the store keeps its notifications' raw payloads, custom keys and reasons. A lean
  /// device (``DeviceSimulator/keepsPayloadDetails`` off) leaves them to its journal: the store
  /// leaves them out as it packs each notification, which stays as it is (the delivery record
  /// holds the same one). Not part of `==`, which compares what is stored.
  public var keepsPayloadDetails = true
  /// Whether the store keeps its notifications' titles, subtitles, bodies, categories, target
  /// content ids and sounds. A device nobody looks at (``DeviceSimulator/keepsNotificationTexts``
  /// off: `replay`, whose journal keeps every text) keeps only the texts its stacks, collapse
  /// index and ranks are made of. Not part of `==`.
  public var keepsTexts = true
  /// The highest id ever inserted: an insertion below it may meet its own stale member.
  private var highestID: NotificationID?
  /// Delivered notifications by app and `apns-collapse-id` (a pair, not a concatenated string,
  /// which allocated on every push that asked).
  private var collapse: [CollapseKey: NotificationID] = [:]
  /// Notifications waiting for a Scheduled Summary, so releasing them never scans the store.
  private var held: Set<NotificationID> = []
  /// How many stored notifications wait for a Scheduled Summary: stored, not yet in
  /// Notification Center.
  public var heldCount: Int { held.count }
  /// How many stored notifications are in Notification Center now: those not held for a
  /// Scheduled Summary. The one count every "in Notification Center" caption says.
  public var centerCount: Int { count - held.count - outsideCenter }
  /// How many stored notifications are not held and not in Notification Center: kept only for
  /// the lock screen they lit, their app having Notification Center off.
  public private(set) var outsideCenter = 0
  /// The stacks changed by the latest revisions (the revision that changed each), so a view
  /// can update what it shows instead of rebuilding it; bounded, see ``changedGroups(since:)``.
  private var changeLog: [(revision: Int, key: GroupKey)] = []
  /// Changes up to this revision have left the log.
  private var changeLogFloor = 0
  /// The ids of the latest removals, in order: removal number `removalLogFloor + 1` first.
  private var removalLog: [NotificationID] = []
  /// Removals up to this number have left the log.
  private var removalLogFloor = 0
  /// The earliest time a held notification is due (a lower bound: a removed one may have set
  /// it), so advancing the clock does not look at every held notification.
  private var nextRelease: SimInstant?

  /// How many notifications have left the store (cleared, opened, replaced, evicted), ever.
  public private(set) var removalCount = 0
  /// How many Scheduled Summary deliveries released notifications, ever.
  public private(set) var releaseCount = 0
  /// The notifications the latest Scheduled Summary delivery released, in id order.
  public private(set) var lastRelease: [NotificationID] = []

  /// A token only this store value holds while it is not shared: a write that finds it shared
  /// copies the store's storage (copy-on-write), which ``copiesMade`` counts.
  private final class Owner: Sendable {}
  private var owner = Owner()
  /// How many writes found the store shared with a copy of it, each copying its storage (the
  /// ingest step never does: a device copied and kept across a push does). A work count for
  /// the scale tests, not a speed.
  public private(set) var copiesMade = 0
  /// How many elements inserts and removals moved inside the stacks and the stack order, or
  /// looked at to recompute a stack's score: the store's work per push, for the scale tests.
  public private(set) var movedElements = 0

  /// Notes a write: counts a copy when the storage is shared.
  private mutating func noteWrite() {
    if !isKnownUniquelyReferenced(&owner) {
      owner = Owner()
      copiesMade += 1
    }
  }

  public init() {}

  public static func == (lhs: NotificationStore, rhs: NotificationStore) -> Bool {
    lhs.entries == rhs.entries && lhs.order.map(\.key) == rhs.order.map(\.key)
  }

  /// How many notifications are stored, held ones included.
  public var count: Int { entries.count }

  /// The oldest notification stored (held ones included): the first to go when Notification
  /// Center is full. O(1) amortized.
  public mutating func oldestID() -> NotificationID? { entries.oldestID() }
  /// Bumped by every change to what is stored or how it ranks, so views can cache.
  public private(set) var revision = 0

  /// How many stacks there are, held notifications' included.
  public var groupCount: Int { groups.count }

  /// The stored notification with this id.
  public subscript(id: NotificationID) -> StoredNotification? { entries[id] }

  /// Whether a notification with this id is stored (without unpacking it).
  public func contains(_ id: NotificationID) -> Bool { entries.packed(id) != nil }

  /// Whether a stored notification waits for the Scheduled Summary (nil when it is not stored),
  /// without unpacking it.
  public func isHeld(_ id: NotificationID) -> Bool? { entries.visibility(id)?.held }

  /// The delivered notification an `apns-collapse-id` refers to.
  public func collapseTarget(bundleID: String, collapseID: String?) -> NotificationID? {
    guard let collapseID else { return nil }
    return collapse[CollapseKey(bundleID: bundleID, collapseID: collapseID)]
  }

  /// Adds a notification, replacing the one it collapses onto.
  ///
  /// O(log n) searches plus the move of the members that arrived after it in its stack (none
  /// for the newest, the usual case) and of the stacks that rank above it. Returns its stack's
  /// score after it joined (for ``groupRank(of:score:)``).
  @discardableResult
  public mutating func insert(_ stored: StoredNotification) -> Double {
    noteWrite()
    revision &+= 1
    if let replaced = stored.decision.replaces { discard(replaced) }
    entries.insert(stored, keepingPayloadDetails: keepsPayloadDetails, keepingTexts: keepsTexts)
    if let until = stored.heldUntil {
      held.insert(stored.id)
      nextRelease = min(nextRelease ?? until, until)
    }
    if let collapseID = stored.notification.collapseID {
      collapse[CollapseKey(bundleID: stored.notification.bundleID, collapseID: collapseID)] = stored.id
    }
    let member = Member(arrival: stored.notification.receivedAt, id: stored.id, score: stored.rank.score)
    if let highestID, stored.id <= highestID, groups[stored.group]?.stale ?? 0 > 0 {
      // Not a fresh id (a restore, a test): the stack may still list it as stale.
      let table = entries
      Self.dropStale(from: &groups[stored.group, default: Group()], moves: &movedElements) {
        $0 != stored.id && table.packed($0) != nil
      }
    }
    highestID = max(highestID ?? stored.id, stored.id)
    let visibility = stored.visibility
    if visibility.isOutsideCenter { outsideCenter += 1 }
    let (previousScore, score) = Self.add(
      member, visibility, to: &groups[stored.group, default: Group()], moves: &movedElements)
    logChange(stored.group)
    if previousScore != score {
      if previousScore > -.infinity {
        reorder(stored.group, from: previousScore, to: score)
      } else {
        insertIntoOrder(stored.group, score: score)
      }
    }
    return score
  }

  /// Adds a member by arrival; returns the group's score before and after.
  private static func add(
    _ member: Member, _ visibility: StackVisibility, to group: inout Group, moves: inout Int
  ) -> (Double, Double) {
    let previous = group.score
    group.count(visibility, 1)
    var low = group.members.count
    // Most arrivals are the newest: check the end before searching.
    if let last = group.members.last, last.arrival > member.arrival {
      low = firstIndex(after: member.arrival, in: group.members)
    }
    moves += group.members.count - low
    group.members.insert(member, at: low)
    group.score = max(group.score, member.score)
    return (previous, group.score)
  }

  /// The index of the first member that arrived after `arrival` (binary search).
  private static func firstIndex(after arrival: SimInstant, in members: ChunkedList<Member>) -> Int {
    var lower = 0
    var upper = members.count
    while lower < upper {
      let middle = (lower + upper) / 2
      if members[middle].arrival <= arrival { lower = middle + 1 } else { upper = middle }
    }
    return lower
  }

  /// Marks a member stale; returns the group's score before and after (-infinity when emptied).
  ///
  /// Writes no member: the score is recomputed over the stack's live members only when the
  /// member removed was its best, and the list is rebuilt once the stale outnumber the live.
  private static func take(
    score removedScore: Double, _ visibility: StackVisibility, from group: inout Group, moves: inout Int,
    isLive: (NotificationID) -> Bool
  ) -> (Double, Double) {
    let previous = group.score
    group.stale += 1
    group.count(visibility, -1)
    if group.live <= 0 {
      group.score = -.infinity
      return (previous, group.score)
    }
    if group.stale > group.live && group.stale >= 32 { dropStale(from: &group, moves: &moves, isLive: isLive) }
    if removedScore >= group.score {
      moves += group.members.count
      var best = -Double.infinity
      group.members.forEachElement { member in if isLive(member.id) { best = max(best, member.score) } }
      group.score = best
    }
    return (previous, group.score)
  }

  /// Rebuilds a stack's member list without its stale members.
  private static func dropStale(from group: inout Group, moves: inout Int, isLive: (NotificationID) -> Bool) {
    var kept = ChunkedList<Member>()
    group.members.forEachElement { member in if isLive(member.id) { kept.append(member) } }
    moves += group.members.count
    group.members = kept
    group.stale = 0
  }

  private func position(of score: Double) -> Int {
    var lower = 0
    var upper = order.count
    while lower < upper {
      let middle = (lower + upper) / 2
      if order[middle].score <= score { lower = middle + 1 } else { upper = middle }
    }
    return lower
  }

  private mutating func insertIntoOrder(_ key: GroupKey, score: Double) {
    let at = position(of: score)
    movedElements += order.count - at
    order.insert((score, key), at: at)
  }

  /// Moves a stack whose score changed to its new place in ``order``, as removing it and
  /// inserting it again would, shifting only the stacks between its two places, once. Removing
  /// from the array and inserting moved the elements after each place one at a time: 5,900
  /// instructions a push whose stack moved (docs/PERFORMANCE.md, "Issue 15, 26 Nov (sixth
  /// session)").
  private mutating func reorder(_ key: GroupKey, from oldScore: Double, to newScore: Double) {
    guard let old = orderIndex(of: key, score: oldScore) else {
      insertIntoOrder(key, score: newScore)
      return
    }
    // Its place among the others: after every one that scores no more than it.
    var target = position(of: newScore)
    if oldScore <= newScore { target -= 1 }
    movedElements += abs(target - old) + 1
    order.withUnsafeMutableBufferPointer { buffer in
      let base = buffer.baseAddress!
      let moving = (base + old).move()
      if target > old {
        (base + old).moveInitialize(from: base + old + 1, count: target - old)
      } else if target < old {
        (base + target + 1).moveInitialize(from: base + target, count: old - target)
      }
      (base + target).initialize(to: (newScore, moving.key))
    }
  }

  /// Where a stack with this score is in ``order`` (the last of those that score the same,
  /// searched from the end of their run), or nil.
  private mutating func orderIndex(of key: GroupKey, score: Double) -> Int? {
    var index = position(of: score) - 1
    while index >= 0 && order[index].score == score {
      if order[index].key == key { return index }
      index -= 1
    }
    movedElements += order.count
    return order.firstIndex { $0.key == key }
  }

  private mutating func removeFromOrder(_ key: GroupKey, score: Double) {
    guard let index = orderIndex(of: key, score: score) else { return }
    movedElements += order.count - index
    order.remove(at: index)
  }

  /// Removes one notification (cleared, opened, or replaced) and returns it.
  @discardableResult
  public mutating func remove(_ id: NotificationID) -> StoredNotification? {
    guard let stored = entries[id] else {
      noteWrite()
      revision &+= 1
      return nil
    }
    discard(id)
    return stored
  }

  /// Removes one notification without reading it back (a replaced or evicted one): what the
  /// removal needs is read from its packed form (``NotificationTable/removalFacts(_:)``).
  /// Returns whether it was stored.
  @discardableResult
  public mutating func discard(_ id: NotificationID) -> Bool {
    noteWrite()
    revision &+= 1
    guard let facts = entries.removalFacts(id) else { return false }
    entries[id] = nil
    logRemoval(id)
    if !held.isEmpty { held.remove(id) }
    if facts.visibility.isOutsideCenter { outsideCenter -= 1 }
    if let collapseID = facts.collapseID {
      let key = CollapseKey(bundleID: facts.bundleID, collapseID: collapseID)
      if collapse[key] == id { collapse.removeValue(forKey: key) }
    }
    guard groups[facts.group] != nil else { return true }
    logChange(facts.group)
    let table = entries
    let (previousScore, score) = Self.take(
      score: facts.score, facts.visibility, from: &groups[facts.group, default: Group()], moves: &movedElements
    ) { table.packed($0) != nil }
    if score == -.infinity {
      removeFromOrder(facts.group, score: previousScore)
      groups.removeValue(forKey: facts.group)
    } else if score != previousScore {
      reorder(facts.group, from: previousScore, to: score)
    }
    return true
  }

  /// Removes a whole group.
  public mutating func clear(group key: GroupKey) {
    revision &+= 1
    guard let members = groups[key]?.members else { return }
    members.forEachElement { member in remove(member.id) }
  }

  /// Removes everything.
  public mutating func clearAll() {
    let next = revision &+ 1
    let removals = removalCount + count
    let releases = (releaseCount, lastRelease)
    let work = (copiesMade, movedElements)
    let keeps = (keepsPayloadDetails, keepsTexts)
    self = NotificationStore()
    (copiesMade, movedElements) = work
    (keepsPayloadDetails, keepsTexts) = keeps
    revision = next
    changeLogFloor = next
    // Too many at once for the log: a follower of removals looks at everything it holds.
    removalCount = removals
    removalLogFloor = removals
    (releaseCount, lastRelease) = releases
  }

  /// Releases notifications held for a Scheduled Summary due at or before `now`.
  /// - Returns: the ids released.
  public mutating func releaseSummary(at now: SimInstant) -> [NotificationID] {
    guard !held.isEmpty, let next = nextRelease, next <= now else { return [] }
    let due = held.filter { (entries.packed($0)?.heldUntil ?? .init(milliseconds: .max)) <= now }.sorted()
    if !due.isEmpty {
      revision &+= 1
      releaseCount += 1
      lastRelease = due
    }
    for id in due {
      if let stored = entries[id], groups[stored.group] != nil {
        var visibility = stored.visibility
        groups[stored.group]?.count(visibility, -1)
        visibility.held = false
        groups[stored.group]?.count(visibility, 1)
        if visibility.isOutsideCenter { outsideCenter += 1 }
        logChange(stored.group)
      }
      entries.release(id)
      held.remove(id)
    }
    var earliest: SimInstant?
    for id in held { if let until = entries.packed(id)?.heldUntil { earliest = min(earliest ?? until, until) } }
    nextRelease = earliest
    return due
  }

  /// Re-ranks an app's notifications after its engagement changed.
  public mutating func rerank(bundleID: String, engagement: Engagement) {
    revision &+= 1
    // Through the app's groups, not a scan of every notification; each member's score is
    // recomputed in place from its packed entry (no unpacking, nothing moves inside a stack:
    // the engagement term is the same for the whole app, so arrival order is kept), then the
    // stack takes its new place in the order. O(the app's notifications), where removing and
    // re-inserting each of them cost a rebuild of every one.
    let term = 2 * engagement.score
    for key in groups.keys.filter({ $0.bundleID == bundleID }).sorted() {
      guard var group = groups.removeValue(forKey: key) else { continue }
      let previous = group.score
      var best = -Double.infinity
      for index in group.members.indices {
        let id = group.members[index].id
        if let score = entries.setEngagementTerm(id, term) {
          group.members[index].score = score
        } else if var stored = entries[id] {
          // A rank that does not follow from the notification: rebuilt as re-ranking does.
          stored.rank = RankTerms(
            notification: stored.notification, level: stored.decision.effectiveLevel, engagement: engagement)
          entries[id] = stored
          group.members[index].score = stored.rank.score
        } else {
          continue  // stale
        }
        best = max(best, group.members[index].score)
      }
      group.score = best
      groups[key] = group
      logChange(key)
      if previous > -.infinity { removeFromOrder(key, score: previous) }
      if best > -.infinity { insertIntoOrder(key, score: best) }
    }
  }

  /// The groups from the top of Notification Center down, each newest first.
  ///
  /// - Parameters:
  ///   - limit: how many groups at most (screens need only what fits).
  ///   - includeHeld: whether notifications waiting for the summary are included.
  ///   - where: an extra filter on notifications (for example, what the lock screen shows).
  ///   - memberLimit: how many of each group's newest notifications to copy (the count is
  ///     still of all of them); groups in `fullGroups` are copied whole.
  public func rankedGroups(
    limit: Int = .max, memberLimit: Int = .max, fullGroups: Set<GroupKey> = [], includeHeld: Bool = false,
    where include: (StoredNotification) -> Bool = { _ in true }
  ) -> [NotificationGroup] {
    byRank(limit: limit) { key, group in
      let copies = fullGroups.contains(key) ? Int.max : memberLimit
      var members: [StoredNotification] = []
      var count = 0
      for member in group.members.reversed() {
        guard let stored = entries[member.id], includeHeld || stored.heldUntil == nil, include(stored) else { continue }
        count += 1
        if members.count < copies { members.append(stored) }
      }
      return count == 0 ? nil : NotificationGroup(key: key, notifications: members, score: group.score, count: count)
    }
  }

  /// Walks the stacks from the top of Notification Center down, collecting what `make` gives
  /// for each (nil skips a stack) until there are `limit`.
  private func byRank<Item>(limit: Int, _ make: (GroupKey, Group) -> Item?) -> [Item] {
    var result: [Item] = []
    var index = order.count - 1
    while index >= 0 && result.count < limit {
      let key = order[index].key
      index -= 1
      if let group = groups[key], let item = make(key, group) { result.append(item) }
    }
    return result
  }

  /// The top `limit` stacks with their sizes (held notifications included), without listing
  /// their members: O(limit).
  public func topGroups(limit: Int) -> [(key: GroupKey, count: Int, score: Double)] {
    byRank(limit: limit) { key, group in (key, group.live, group.score) }
  }

  // MARK: Stacks as the screens show them

  /// Records that a stack changed in the current revision. The log keeps at least the last
  /// 128 changes; dropping the older half is amortised O(1) and allocates nothing.
  private mutating func logChange(_ key: GroupKey) {
    if changeLog.count >= 256 {
      changeLogFloor = changeLog[127].revision
      changeLog.removeFirst(128)
    }
    changeLog.append((revision, key))
  }

  /// Records a removal. The log keeps at least the last 128; dropping the older half is
  /// amortised O(1).
  private mutating func logRemoval(_ id: NotificationID) {
    if removalLog.count >= 256 {
      removalLogFloor += 128
      removalLog.removeFirst(128)
    }
    removalLog.append(id)
    removalCount += 1
  }

  /// The notifications removed since the store's ``removalCount`` was `count`, oldest first,
  /// or nil when the log no longer reaches back that far (look at everything instead).
  public func removed(since count: Int) -> ArraySlice<NotificationID>? {
    guard count >= removalLogFloor, count <= removalCount else { return nil }
    return removalLog[(count - removalLogFloor)...]
  }

  /// The stacks changed since `revision` (each once, in no particular order), or nil when the
  /// log no longer reaches back that far and a view must rebuild.
  public func changedGroups(since revision: Int) -> [GroupKey]? {
    guard revision >= changeLogFloor, revision <= self.revision else { return nil }
    var keys: [GroupKey] = []
    var index = changeLog.count - 1
    while index >= 0 && changeLog[index].revision > revision {
      let key = changeLog[index].key
      if !keys.contains(key) { keys.append(key) }
      index -= 1
    }
    return keys
  }

  /// How many notifications a stack shows under a filter, not counting excluded ones.
  private func visibleCount(_ key: GroupKey, _ group: Group, _ filter: StackFilter, _ exclusion: StackExclusion) -> Int
  {
    let shown =
      switch filter {
      case .notificationCenter: group.live - group.held - group.outsideCenter
      case .lockScreen: group.onLockScreen
      }
    return exclusion.counts.isEmpty ? shown : shown - (exclusion.counts[key] ?? 0)
  }

  /// A stack as a screen shows it: its `memberLimit` newest notifications that pass the filter,
  /// and how many pass. Costs the copies made plus the members skipped on the way (held or
  /// excluded ones newer than the last copied), never a count of the stack.
  private func stack(
    _ key: GroupKey, _ group: Group, filter: StackFilter, memberLimit: Int, exclusion: StackExclusion
  ) -> NotificationGroup? {
    let count = visibleCount(key, group, filter, exclusion)
    guard count > 0 else { return nil }
    let copies = min(count, memberLimit)
    var members: [StoredNotification] = []
    members.reserveCapacity(min(copies, 16))
    var index = group.members.count - 1
    while index >= 0 && members.count < copies {
      let id = group.members[index].id
      index -= 1
      guard entries.visibility(id)?.shows(in: filter) == true, exclusion.ids.isEmpty || !exclusion.ids.contains(id),
        let stored = entries[id]
      else { continue }
      members.append(stored)
    }
    return NotificationGroup(key: key, notifications: members, score: group.score, count: count)
  }

  /// Every notification of a stack, held ones included, newest first: O(stack), not a walk of
  /// the store (clearing a stack with a million stored).
  public func notifications(in key: GroupKey) -> [StoredNotification] {
    groups[key]?.members.reversed().compactMap { entries[$0.id] } ?? []
  }

  /// One stack as a screen shows it, or nil when nothing in it passes the filter.
  public func stack(
    _ key: GroupKey, filter: StackFilter, memberLimit: Int = .max, excluding exclusion: StackExclusion = .none
  ) -> NotificationGroup? {
    guard let group = groups[key] else { return nil }
    return stack(key, group, filter: filter, memberLimit: memberLimit, exclusion: exclusion)
  }

  /// The stacks a screen shows, from the top of Notification Center down, each newest first.
  ///
  /// Like ``rankedGroups(limit:memberLimit:fullGroups:includeHeld:where:)`` with the filter as
  /// its predicate, but from the counts each stack keeps: O(stacks + copies), whatever the
  /// number of notifications stored.
  ///
  /// - Parameters:
  ///   - memberLimit: how many of each stack's newest notifications to copy (the count is still
  ///     of all that pass); stacks in `fullGroups` are copied whole.
  ///   - exclusion: notifications left out (the lock screen's Scheduled Summary card).
  public func stacks(
    filter: StackFilter, limit: Int = .max, memberLimit: Int = .max, fullGroups: Set<GroupKey> = [],
    excluding exclusion: StackExclusion = .none
  ) -> [NotificationGroup] {
    byRank(limit: limit) { key, group in
      let copies = !fullGroups.isEmpty && fullGroups.contains(key) ? Int.max : memberLimit
      return stack(key, group, filter: filter, memberLimit: copies, exclusion: exclusion)
    }
  }

  /// Brings a list built by ``stacks(filter:limit:memberLimit:fullGroups:excluding:)`` up to
  /// date after the stacks in `changed` changed (see ``changedGroups(since:)``), with the same
  /// arguments: the changed stacks are rebuilt and put in their rank's place; the others keep
  /// their places (a stack's place among unchanged stacks never moves).
  ///
  /// O(changed × (stacks compared + log stacks)), with copies made for changed stacks only.
  public func update(
    _ stacks: inout [NotificationGroup], changed: [GroupKey], filter: StackFilter, memberLimit: Int = .max,
    fullGroups: Set<GroupKey> = [], excluding exclusion: StackExclusion = .none
  ) {
    guard !changed.isEmpty else { return }
    if changed.count <= 8 {
      stacks.removeAll { stack in changed.contains(stack.key) }
    } else {
      let set = Set(changed)
      stacks.removeAll { set.contains($0.key) }
    }
    for key in changed {
      guard let group = groups[key], let rank = groupRank(of: key) else { continue }
      let copies = !fullGroups.isEmpty && fullGroups.contains(key) ? Int.max : memberLimit
      guard let stack = stack(key, group, filter: filter, memberLimit: copies, exclusion: exclusion) else { continue }
      // Stacks are in rank order: binary search for the first that ranks below.
      var lower = 0
      var upper = stacks.count
      while lower < upper {
        let middle = (lower + upper) / 2
        if (groupRank(of: stacks[middle].key) ?? .max) < rank { lower = middle + 1 } else { upper = middle }
      }
      stacks.insert(stack, at: lower)
    }
  }

  /// The stacks that notifications are excluded from, counted under a filter, so that stacks
  /// with excluded members are counted without scanning them.
  public func exclusion(of ids: some Sequence<NotificationID>, filter: StackFilter) -> StackExclusion {
    var exclusion = StackExclusion()
    for id in ids {
      guard let stored = entries[id], stored.visibility.shows(in: filter), !exclusion.ids.contains(id)
      else { continue }
      exclusion.ids.insert(id)
      exclusion.counts[stored.group, default: 0] += 1
    }
    return exclusion
  }

  /// Every stored notification, oldest first.
  public var all: [StoredNotification] {
    entries.values.sorted { ($0.notification.receivedAt, $0.id) < ($1.notification.receivedAt, $1.id) }
  }

  /// The 1-based rank of a notification's group from the top, if stored.
  public func groupRank(of id: NotificationID) -> Int? {
    guard let key = entries[id]?.group else { return nil }
    return groupRank(of: key)
  }

  /// The 1-based rank of a group from the top, if it exists.
  public func groupRank(of key: GroupKey) -> Int? {
    guard let score = groups[key]?.score else { return nil }
    return groupRank(of: key, score: score)
  }

  /// ``groupRank(of:)`` for a group whose current score is known (``insert(_:)`` returns it), so
  /// the group is not looked up again.
  public func groupRank(of key: GroupKey, score: Double) -> Int? {
    // Binary search to the group's score, then walk the (few) ties.
    var index = position(of: score) - 1
    while index >= 0 && order[index].score == score {
      if order[index].key == key { return order.count - index }
      index -= 1
    }
    return nil
  }
}

/// Which notifications a screen shows of a stack.
public enum StackFilter: Sendable, Equatable {
  /// Notification Center: all but those held for the Scheduled Summary.
  case notificationCenter
  /// The lock screen: those not held that lit the lock screen or bannered
  /// (``StoredNotification/showsOnLockScreen``).
  case lockScreen
}

/// Notifications a screen leaves out of its stacks, and how many each stack loses (built by
/// ``NotificationStore/exclusion(of:filter:)`` for one filter).
public struct StackExclusion: Sendable, Equatable {
  /// The notifications left out.
  public internal(set) var ids: Set<NotificationID> = []
  /// How many of them each stack counts.
  var counts: [GroupKey: Int] = [:]

  /// Nothing left out.
  public static let none = StackExclusion()
}

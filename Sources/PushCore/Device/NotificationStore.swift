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
    case .automatic: GroupKey(bundleID: notification.bundleID, thread: notification.threadID.flatMap { $0.isEmpty ? nil : $0 })
    case .byApp: GroupKey(bundleID: notification.bundleID)
    case .off: GroupKey(bundleID: notification.bundleID, single: notification.id)
    }
  }

  public static func < (lhs: GroupKey, rhs: GroupKey) -> Bool {
    (lhs.bundleID, lhs.thread ?? "", lhs.single?.rawValue ?? -1) < (rhs.bundleID, rhs.thread ?? "", rhs.single?.rawValue ?? -1)
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
  public init(notification: PushNotification, level: InterruptionLevel, engagement: Engagement) {
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
  private var entries: [NotificationID: StoredNotification] = [:]
  /// Each group's members in arrival order (oldest first) and its score.
  private var groups: [GroupKey: (members: [NotificationID], score: Double)] = [:]
  /// Groups by ascending score; the last is the top of Notification Center.
  private var order: [(score: Double, key: GroupKey)] = []
  /// Delivered notifications by app and `apns-collapse-id`.
  private var collapse: [String: NotificationID] = [:]
  /// Notifications waiting for a Scheduled Summary, so releasing them never scans the store.
  private var held: Set<NotificationID> = []

  public init() {}

  public static func == (lhs: NotificationStore, rhs: NotificationStore) -> Bool {
    lhs.entries == rhs.entries && lhs.order.map(\.key) == rhs.order.map(\.key)
  }

  /// How many notifications are stored, held ones included.
  public var count: Int { entries.count }
  /// Bumped by every change to what is stored or how it ranks, so views can cache.
  public private(set) var revision = 0

  /// The stored notification with this id.
  public subscript(id: NotificationID) -> StoredNotification? { entries[id] }

  /// The delivered notification an `apns-collapse-id` refers to.
  public func collapseTarget(bundleID: String, collapseID: String?) -> NotificationID? {
    guard let collapseID else { return nil }
    return collapse[bundleID + "\u{0}" + collapseID]
  }

  /// Adds a notification, replacing the one it collapses onto.
  public mutating func insert(_ stored: StoredNotification) {
    revision &+= 1
    if let replaced = stored.decision.replaces { remove(replaced) }
    entries[stored.id] = stored
    if stored.heldUntil != nil { held.insert(stored.id) }
    if let collapseID = stored.notification.collapseID {
      collapse[stored.notification.bundleID + "\u{0}" + collapseID] = stored.id
    }
    var group = groups[stored.group] ?? (members: [], score: -.infinity)
    let previousScore = group.score
    insertByArrival(stored, into: &group.members)
    group.score = max(group.score, stored.rank.score)
    groups[stored.group] = group
    if previousScore != group.score {
      if previousScore > -.infinity { removeFromOrder(stored.group, score: previousScore) }
      insertIntoOrder(stored.group, score: group.score)
    }
  }

  private func insertByArrival(_ stored: StoredNotification, into members: inout [NotificationID]) {
    let arrival = stored.notification.receivedAt
    var low = members.count
    // Most arrivals are the newest: check the end before searching.
    if let last = members.last, let lastEntry = entries[last], lastEntry.notification.receivedAt > arrival {
      var lower = 0
      var upper = members.count
      while lower < upper {
        let middle = (lower + upper) / 2
        let entry = entries[members[middle]]
        if let entry, entry.notification.receivedAt <= arrival { lower = middle + 1 } else { upper = middle }
      }
      low = lower
    }
    members.insert(stored.id, at: low)
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
    order.insert((score, key), at: position(of: score))
  }

  private mutating func removeFromOrder(_ key: GroupKey, score: Double) {
    var index = position(of: score) - 1
    while index >= 0 && order[index].score == score {
      if order[index].key == key {
        order.remove(at: index)
        return
      }
      index -= 1
    }
    order.removeAll { $0.key == key }
  }

  /// Removes one notification (cleared, opened, or replaced).
  @discardableResult
  public mutating func remove(_ id: NotificationID) -> StoredNotification? {
    revision &+= 1
    guard let stored = entries.removeValue(forKey: id) else { return nil }
    held.remove(id)
    if let collapseID = stored.notification.collapseID,
      collapse[stored.notification.bundleID + "\u{0}" + collapseID] == id
    {
      collapse.removeValue(forKey: stored.notification.bundleID + "\u{0}" + collapseID)
    }
    guard var group = groups[stored.group] else { return stored }
    group.members.removeAll { $0 == id }
    removeFromOrder(stored.group, score: group.score)
    if group.members.isEmpty {
      groups.removeValue(forKey: stored.group)
    } else {
      group.score = group.members.compactMap { entries[$0]?.rank.score }.max() ?? -.infinity
      groups[stored.group] = group
      insertIntoOrder(stored.group, score: group.score)
    }
    return stored
  }

  /// Removes a whole group.
  public mutating func clear(group key: GroupKey) {
    revision &+= 1
    for id in groups[key]?.members ?? [] { remove(id) }
  }

  /// Removes everything.
  public mutating func clearAll() {
    let next = revision &+ 1
    self = NotificationStore()
    revision = next
  }

  /// Releases notifications held for a Scheduled Summary due at or before `now`.
  /// - Returns: the ids released.
  public mutating func releaseSummary(at now: SimInstant) -> [NotificationID] {
    guard !held.isEmpty else { return [] }
    let due = held.filter { (entries[$0]?.heldUntil ?? .init(milliseconds: .max)) <= now }.sorted()
    if !due.isEmpty { revision &+= 1 }
    for id in due {
      entries[id]?.heldUntil = nil
      held.remove(id)
    }
    return due
  }

  /// Re-ranks an app's notifications after its engagement changed.
  public mutating func rerank(bundleID: String, engagement: Engagement) {
    revision &+= 1
    // Through the app's groups, not a scan of every notification.
    let ids = groups.filter { $0.key.bundleID == bundleID }.flatMap(\.value.members).sorted()
    let restored = ids.compactMap { remove($0) }
    for var stored in restored {
      stored.rank = RankTerms(notification: stored.notification, level: stored.decision.effectiveLevel, engagement: engagement)
      insert(stored)
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
    var result: [NotificationGroup] = []
    var index = order.count - 1
    while index >= 0 && result.count < limit {
      let key = order[index].key
      index -= 1
      guard let group = groups[key] else { continue }
      let copies = fullGroups.contains(key) ? Int.max : memberLimit
      var members: [StoredNotification] = []
      var count = 0
      for id in group.members.reversed() {
        guard let stored = entries[id], includeHeld || stored.heldUntil == nil, include(stored) else { continue }
        count += 1
        if members.count < copies { members.append(stored) }
      }
      if count == 0 { continue }
      result.append(NotificationGroup(key: key, notifications: members, score: group.score, count: count))
    }
    return result
  }

  /// Every stored notification, oldest first.
  public var all: [StoredNotification] {
    entries.values.sorted { ($0.notification.receivedAt, $0.id) < ($1.notification.receivedAt, $1.id) }
  }

  /// The 1-based rank of a notification's group from the top, if stored.
  public func groupRank(of id: NotificationID) -> Int? {
    guard let key = entries[id]?.group, let score = groups[key]?.score else { return nil }
    // Binary search to the group's score, then walk the (few) ties.
    var index = position(of: score) - 1
    while index >= 0 && order[index].score == score {
      if order[index].key == key { return order.count - index }
      index -= 1
    }
    return nil
  }
}

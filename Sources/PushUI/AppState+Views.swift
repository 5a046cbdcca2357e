import PushCore

/// One row of Notification Center, as the selection moves over them.
public enum CenterRow: Equatable, Sendable {
  /// A collapsed stack: its newest notification in front, the rest counted.
  case stack(NotificationGroup)
  /// The header of an expanded stack ("Show less").
  case header(NotificationGroup)
  /// One notification of an expanded stack.
  case item(GroupKey, StoredNotification)

  /// The group the row belongs to.
  public var groupKey: GroupKey {
    switch self {
    case .stack(let group), .header(let group): group.key
    case .item(let key, _): key
    }
  }

  /// The notification the row stands for: the stack's front, or the item.
  public var notificationID: NotificationID? {
    switch self {
    case .stack(let group), .header(let group): group.notifications.first?.id
    case .item(_, let stored): stored.id
    }
  }
}

extension AppState {
  /// Whether a stored notification shows on the lock screen: it lit the lock screen, or it
  /// bannered while unlocked (it stays on the lock screen's list afterwards, as on iOS).
  public static func showsOnLockScreen(_ stored: StoredNotification) -> Bool {
    stored.showsOnLockScreen
  }

  /// The stacks the lock screen shows, in rank order, newest first in each; notifications of
  /// the Scheduled Summary card are left out (the card stands for them).
  public func lockScreenGroups(limit: Int = .max) -> [NotificationGroup] {
    device.store.stacks(filter: .lockScreen, limit: limit, excluding: summaryExclusion())
  }

  /// The lock screen's stacks as the screen draws them: each with its newest notification only
  /// (``NotificationGroup/count`` counts them all), cached between frames while nothing changes.
  public func lockScreenStacks() -> [NotificationGroup] {
    if let cache = lockGroupsCache, cache.revision == device.store.revision, cache.summary == summary {
      return cache.groups
    }
    return device.store.stacks(filter: .lockScreen, memberLimit: 1, excluding: summaryExclusion())
  }

  private func summaryExclusion() -> StackExclusion {
    if let cache = lockGroupsCache, cache.summary == summary { return cache.exclusion }
    return summary.isEmpty ? .none : device.store.exclusion(of: summary, filter: .lockScreen)
  }

  /// The notifications of the Scheduled Summary card that are still stored, newest first.
  public func summaryNotifications() -> [StoredNotification] {
    summary.compactMap { device.store[$0] }.sorted { $0.notification.receivedAt > $1.notification.receivedAt }
  }

  /// Notification Center's rows: groups in rank order, expanded ones one row per notification.
  public func centerRows() -> [CenterRow] {
    if let cache = centerRowsCache, cache.revision == device.store.revision, cache.expanded == expanded {
      return cache.rows
    }
    return Self.rows(
      of: device.store.stacks(filter: .notificationCenter, memberLimit: 1, fullGroups: expanded), expanded)
  }

  /// Brings the lock screen's stacks and (when it shows) Notification Center's rows up to date
  /// with the store: from the stacks that changed since they were built, so a frame in which
  /// a push arrives costs the same with a million notifications stored as with ten; rebuilt
  /// (from each stack's counts, O(stacks)) when the summary, the expansions or the device changed.
  mutating func refreshViewCaches() {
    let store = device.store
    let revision = store.revision
    if var cache = lockGroupsCache, cache.summary == summary {
      if cache.revision != revision {
        lockGroupsCache = nil  // so the cached list is updated in place, not copied
        if let changed = store.changedGroups(since: cache.revision) {
          store.update(&cache.groups, changed: changed, filter: .lockScreen, memberLimit: 1, excluding: cache.exclusion)
        } else {
          cache.groups = store.stacks(filter: .lockScreen, memberLimit: 1, excluding: cache.exclusion)
        }
        cache.revision = revision
        lockGroupsCache = cache
      }
    } else {
      let exclusion = summary.isEmpty ? StackExclusion.none : store.exclusion(of: summary, filter: .lockScreen)
      lockGroupsCache = nil
      lockGroupsCache = (
        revision, summary, exclusion, store.stacks(filter: .lockScreen, memberLimit: 1, excluding: exclusion)
      )
    }
    if screen == .lock {
      centerRowsCache = nil
    } else if var cache = centerRowsCache, cache.expanded == expanded {
      guard cache.revision != revision else { return }
      centerRowsCache = nil
      if let changed = store.changedGroups(since: cache.revision) {
        store.update(
          &cache.groups, changed: changed, filter: .notificationCenter, memberLimit: 1, fullGroups: expanded)
      } else {
        cache.groups = store.stacks(filter: .notificationCenter, memberLimit: 1, fullGroups: expanded)
      }
      cache.revision = revision
      cache.rows = Self.rows(of: cache.groups, expanded)
      centerRowsCache = cache
    } else {
      centerRowsCache = nil
      let groups = store.stacks(filter: .notificationCenter, memberLimit: 1, fullGroups: expanded)
      centerRowsCache = (revision, expanded, groups, Self.rows(of: groups, expanded))
    }
  }

  /// Forgets the cached stacks and rows (the device was replaced).
  mutating func invalidateViewCaches() {
    lockGroupsCache = nil
    centerRowsCache = nil
  }

  /// Notification Center's rows for its stacks: collapsed stacks need only their front
  /// notification; expanded ones (copied whole) get a header and a row per notification.
  private static func rows(of groups: [NotificationGroup], _ expanded: Set<GroupKey>) -> [CenterRow] {
    var rows: [CenterRow] = []
    rows.reserveCapacity(groups.count)
    for group in groups {
      if !expanded.isEmpty && expanded.contains(group.key) && group.count > 1 {
        rows.append(.header(group))
        for stored in group.notifications { rows.append(.item(group.key, stored)) }
      } else {
        rows.append(.stack(group))
      }
    }
    return rows
  }

  /// The selected notification on the current screen, if any.
  public var selectedNotification: NotificationID? {
    switch screen {
    case .lock:
      let groups = lockScreenStacks()
      guard !groups.isEmpty else { return nil }
      return groups[min(max(lockSelection, 0), groups.count - 1)].notifications.first?.id
    case .center:
      let rows = centerRows()
      guard !rows.isEmpty else { return nil }
      return rows[min(max(centerSelection, 0), rows.count - 1)].notificationID
    case .detail(let id):
      return id
    }
  }

  /// A notification as a surface may show it: with previews hidden, the title, subtitle and
  /// body give way to the category's placeholder (or "Notification"), unless the category
  /// keeps the title or subtitle.
  ///
  /// - Parameters:
  ///   - stored: the notification.
  ///   - threadCount: how many notifications its stack holds, for `%u` in the placeholder; by
  ///     default, what its stack holds in Notification Center (as the stack's card says).
  public func displayed(_ stored: StoredNotification, threadCount: Int? = nil) -> PushNotification {
    var notification = stored.notification
    // Cards are labelled by the level the device delivered at (a critical alert without the
    // entitlement shows as an ordinary one).
    notification.level = stored.decision.effectiveLevel
    guard previewsHidden(stored) else { return notification }
    let threadCount =
      threadCount ?? device.store.stack(stored.group, filter: .notificationCenter, memberLimit: 0)?.count ?? 1
    let category = category(of: notification)
    let options = category?.options ?? []
    if !options.contains(.hiddenPreviewsShowTitle) { notification.title = nil }
    if !options.contains(.hiddenPreviewsShowSubtitle) { notification.subtitle = nil }
    let placeholder = category?.hiddenPreviewsBodyPlaceholder ?? "Notification"
    notification.body = placeholder.format(threadCount)
    return notification
  }
}

extension AppState {
  /// Whether a notification's content is hidden now: Show Previews is read live, so unlocking
  /// the phone reveals "When Unlocked" notifications at once; unknown apps keep the decision's.
  public func previewsHidden(_ stored: StoredNotification) -> Bool {
    guard let app = device.app(stored.notification.bundleID) else { return stored.decision.previewsHidden }
    switch app.settings.showPreviews {
    case .always: return false
    case .never: return true
    case .whenUnlocked: return device.isLocked
    }
  }
}

extension AppState {
  /// The line under a stack's front card: the category's `summaryFormat` with the count of
  /// the notifications behind it ("2 more messages"), or "2 more notifications"; nil for none.
  public func stackSummary(front: StoredNotification, hiddenCount: Int) -> String? {
    guard hiddenCount > 0 else { return nil }
    if let format = category(of: front.notification)?.summaryFormat { return format.format(hiddenCount) }
    return PluralFormat.counted(hiddenCount, "more notification")
  }

  /// The title of an expanded stack: the app's name, and for a thread the title its newest
  /// notification shows (a conversation's name), never the raw `thread-id`.
  public func stackTitle(_ group: NotificationGroup) -> String {
    let app = appInfo(group.key.bundleID)
    guard group.key.thread != nil, let front = group.notifications.first,
      let title = displayed(front, threadCount: group.count).title, !title.isEmpty, title != app.displayName
    else { return app.displayName }
    return "\(app.displayName) · \(title)"
  }

  /// A communication notification's sender as initials for the avatar ("Ana Sousa" → "AS",
  /// "Kenji (courier)" → "K"); nil when there is no sender or previews are hidden.
  public func senderInitials(_ stored: StoredNotification) -> String? {
    guard let sender = stored.notification.sender, !previewsHidden(stored) else { return nil }
    return Self.initials(of: sender)
  }

  /// Up to two initials: the first letters of the first and last words that start with a letter.
  public static func initials(of name: String) -> String? {
    let words = name.split(whereSeparator: { $0.isWhitespace }).filter { $0.first?.isLetter ?? false }
    guard let first = words.first?.first else { return nil }
    var text = String(first).uppercased()
    if words.count > 1, let last = words.last?.first { text += String(last).uppercased() }
    return text
  }
}

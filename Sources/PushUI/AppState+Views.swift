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
    stored.decision.surfaces.contains(.lockScreen) || stored.decision.surfaces.contains(.banner)
  }

  /// The stacks the lock screen shows, in rank order, newest first in each; notifications of
  /// the Scheduled Summary card are left out (the card stands for them).
  public func lockScreenGroups(limit: Int = .max) -> [NotificationGroup] {
    computeLockScreenGroups(limit: limit)
  }

  /// The lock screen's stacks as the screen draws them: each with its newest notification only
  /// (``NotificationGroup/count`` counts them all), cached between frames while nothing changes.
  public func lockScreenStacks() -> [NotificationGroup] {
    if let cache = lockGroupsCache, cache.revision == device.store.revision, cache.summary == summary {
      return cache.groups
    }
    return computeLockScreenGroups(memberLimit: 1)
  }

  private func computeLockScreenGroups(limit: Int = .max, memberLimit: Int = .max) -> [NotificationGroup] {
    let inSummary = Set(summary)
    return device.store.rankedGroups(limit: limit, memberLimit: memberLimit) { stored in
      Self.showsOnLockScreen(stored) && !inSummary.contains(stored.id)
    }
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
    return computeCenterRows()
  }

  /// Recomputes the lock screen's stacks and (when it shows) Notification Center's rows if the
  /// store changed since they were cached, so a frame with nothing new does not scan the store.
  mutating func refreshViewCaches() {
    let revision = device.store.revision
    if lockGroupsCache?.revision != revision || lockGroupsCache?.summary != summary {
      lockGroupsCache = nil
      lockGroupsCache = (revision, summary, computeLockScreenGroups(memberLimit: 1))
    }
    if screen == .lock {
      centerRowsCache = nil
    } else if centerRowsCache?.revision != revision || centerRowsCache?.expanded != expanded {
      centerRowsCache = nil
      centerRowsCache = (revision, expanded, computeCenterRows())
    }
  }

  /// Forgets the cached stacks and rows (the device was replaced).
  mutating func invalidateViewCaches() {
    lockGroupsCache = nil
    centerRowsCache = nil
  }

  private func computeCenterRows() -> [CenterRow] {
    var rows: [CenterRow] = []
    // Collapsed stacks need only their front notification; expanded ones are copied whole.
    for group in device.store.rankedGroups(memberLimit: 1, fullGroups: expanded) {
      if expanded.contains(group.key) && group.count > 1 {
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
  ///   - threadCount: how many notifications its stack holds, for `%u` in the placeholder.
  public func displayed(_ stored: StoredNotification, threadCount: Int = 1) -> PushNotification {
    var notification = stored.notification
    guard previewsHidden(stored) else { return notification }
    let category = category(of: notification)
    let options = category?.options ?? []
    if !options.contains(.hiddenPreviewsShowTitle) { notification.title = nil }
    if !options.contains(.hiddenPreviewsShowSubtitle) { notification.subtitle = nil }
    let placeholder = category?.hiddenPreviewsBodyPlaceholder ?? "Notification"
    notification.body = placeholder.replacingPercentU(with: threadCount)
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

extension String {
  /// Replaces `%u` (and `%d`) with a number, as the summary and placeholder formats use it.
  func replacingPercentU(with number: Int) -> String {
    var result = ""
    var iterator = makeIterator()
    while let character = iterator.next() {
      guard character == "%" else {
        result.append(character)
        continue
      }
      switch iterator.next() {
      case "u"?, "d"?: result += String(number)
      case "%"?: result.append("%")
      case let other?: result.append("%"); result.append(other)
      case nil: result.append("%")
      }
    }
    return result
  }
}

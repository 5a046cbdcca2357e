/// Notifications from one app and thread shown together, newest in front.
public struct NotificationStack: Equatable, Sendable, Identifiable {
  /// Identifies a stack: the app's bundle id and the thread, if any.
  public struct ID: Hashable, Sendable {
    /// The app's bundle identifier.
    public var bundleID: String
    /// `aps.thread-id`; `nil` for the app's unthreaded notifications.
    public var threadID: String?
  }

  /// Which app and thread the stack holds.
  public var id: ID
  /// The notifications, newest first; never empty.
  public var notifications: [PushNotification]

  /// The front (newest) notification.
  public var front: PushNotification? { notifications.first }

  /// The notifications hidden behind the front card.
  public var hiddenCount: Int { max(0, notifications.count - 1) }

  /// When the newest notification arrived.
  public var latest: SimInstant { notifications.first?.receivedAt ?? SimInstant(milliseconds: 0) }
}

/// Groups delivered notifications into stacks, as iOS does on the lock screen.
public enum Grouping {
  /// Returns stacks by app, then thread, ordered newest stack first.
  ///
  /// Within a stack notifications are newest first; equal times are ordered by id, so the
  /// result is deterministic.
  public static func stacks(of notifications: [PushNotification]) -> [NotificationStack] {
    var order: [NotificationStack.ID] = []
    var members: [NotificationStack.ID: [PushNotification]] = [:]
    for notification in notifications {
      let id = NotificationStack.ID(
        bundleID: notification.bundleID, threadID: notification.threadID)
      if members[id] == nil { order.append(id) }
      members[id, default: []].append(notification)
    }
    func isNewer(_ lhs: PushNotification, _ rhs: PushNotification) -> Bool {
      lhs.receivedAt != rhs.receivedAt ? lhs.receivedAt > rhs.receivedAt : lhs.id > rhs.id
    }
    let stacks = order.map { id in
      NotificationStack(id: id, notifications: (members[id] ?? []).sorted(by: isNewer))
    }
    return stacks.sorted { lhs, rhs in
      guard let left = lhs.front, let right = rhs.front else { return false }
      return isNewer(left, right)
    }
  }
}

/// The built-in demo that `swift run pushdeck` opens: a morning on a locked iPhone.
///
/// Times are relative to the demo's start, Monday 23 November 2026, 9:41 in UTC.
public enum DemoScenario {
  /// The simulated start: 2026-11-23T09:41:00Z.
  public static let start = SimInstant(milliseconds: 1_795_426_860_000)

  /// The apps installed on the demo phone.
  public static let apps: [AppInfo] = [
    AppInfo(bundleID: "com.example.messages", displayName: "Messages", iconGlyph: "💬"),
    AppInfo(bundleID: "com.example.fooddash", displayName: "FoodDash", iconGlyph: "🍜"),
    AppInfo(bundleID: "com.example.news", displayName: "Daily News", iconGlyph: "📰"),
    AppInfo(bundleID: "com.example.bank", displayName: "Bank", iconGlyph: "🏦"),
    AppInfo(bundleID: "com.example.calendar", displayName: "Calendar", iconGlyph: "📅"),
  ]

  /// The notifications already delivered when the demo opens, oldest first.
  public static func notifications() -> [PushNotification] {
    func at(_ minutesAgo: Int64) -> SimInstant { start - .minutes(minutesAgo) }
    return [
      PushNotification(
        id: NotificationID(1), bundleID: "com.example.news", title: "Morning briefing",
        body: "Markets open higher; storm warning for the coast tonight.", level: .passive,
        receivedAt: at(95)),
      PushNotification(
        id: NotificationID(2), bundleID: "com.example.calendar", title: "Design review",
        subtitle: "10:00 · Room 4", body: "Starts in 30 minutes", level: .timeSensitive,
        receivedAt: at(31)),
      PushNotification(
        id: NotificationID(3), bundleID: "com.example.messages", threadID: "chat-ana",
        title: "Ana", body: "Are we still on for lunch? 🍣", category: "MESSAGE",
        sound: .systemDefault, badge: 1, receivedAt: at(12)),
      PushNotification(
        id: NotificationID(4), bundleID: "com.example.bank", title: "Card payment",
        body: "€12.40 at Café Lumière — tap to review", level: .timeSensitive,
        sound: .systemDefault, receivedAt: at(7)),
      PushNotification(
        id: NotificationID(5), bundleID: "com.example.messages", threadID: "chat-ana",
        title: "Ana", body: "I booked a table at 12:30 👩‍💻✨", category: "MESSAGE",
        sound: .systemDefault, badge: 2, receivedAt: at(3)),
      PushNotification(
        id: NotificationID(6), bundleID: "com.example.fooddash", title: "Order picked up",
        subtitle: "Ramen Ichiban · 拉麺", body: "Kenji is on the way. Arriving in 12 min.",
        sound: .named("bell.caf"), receivedAt: at(1)),
    ]
  }

  /// The demo device as the lock screen first shows it.
  public static func snapshot() -> DeviceSnapshot {
    DeviceSnapshot(
      now: start, utcOffsetSeconds: 0, isLocked: true, activeFocus: nil,
      apps: Dictionary(uniqueKeysWithValues: apps.map { ($0.bundleID, $0) }),
      notifications: notifications())
  }
}

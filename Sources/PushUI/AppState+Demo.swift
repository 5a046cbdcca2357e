import PushCore

extension AppState {
  /// The built-in demo on the simulated device: `DemoScenario`'s notifications arrive at their
  /// times (the ones before the start are already delivered when the demo opens), a few more
  /// follow, and the apps have categories with actions to try.
  ///
  /// - Parameter upcoming: whether the pushes after the start are on the timeline.
  public static func demo(upcoming: Bool = true) -> AppState {
    let past = DemoScenario.notifications()
    let earliest = past.map(\.receivedAt).min() ?? DemoScenario.start
    var profile = DeviceProfile(start: earliest - .seconds(1), isLocked: true, apps: demoApps())
    profile.timeZoneName = "UTC"
    var device = DeviceSimulator(profile: profile)
    for notification in past.sorted(by: { $0.receivedAt < $1.receivedAt }) {
      device.apply(demoPush(notification), at: notification.receivedAt)
    }
    device.advance(to: DemoScenario.start)
    var timeline: [TimelineEntry] = []
    if upcoming {
      let start = DemoScenario.start
      let soon: [PushNotification] = [
        PushNotification(
          id: NotificationID(0), bundleID: "com.example.messages", threadID: "chat-ana", title: "Ana",
          body: "Great, see you there! 🍣", category: "MESSAGE", sound: .systemDefault,
          receivedAt: start + .seconds(20)),
        PushNotification(
          id: NotificationID(0), bundleID: "com.example.bank", title: "Unusual sign-in",
          body: "A new device signed in to your account. Was it you?", category: "SECURITY",
          level: .timeSensitive, sound: .systemDefault, receivedAt: start + .seconds(50)),
        PushNotification(
          id: NotificationID(0), bundleID: "com.example.fooddash", title: "Arriving now",
          subtitle: "Ramen Ichiban · 拉麺", body: "Kenji is outside.", receivedAt: start + .seconds(90)),
      ]
      timeline = soon.map { TimelineEntry(at: $0.receivedAt, event: demoPush($0)) }
    }
    return AppState(device: device, timeline: timeline)
  }

  /// The demo's apps with the categories their notifications use.
  static func demoApps() -> [AppProfile] {
    DemoScenario.apps.map { info in
      var app = AppProfile(info: info)
      // The demo shows content on the locked phone, except Messages (its placeholder shows).
      app.settings.showPreviews = info.bundleID == "com.example.messages" ? .whenUnlocked : .always
      switch info.bundleID {
      case "com.example.messages":
        app.categories = [
          NotificationCategory(
            identifier: "MESSAGE",
            actions: [
              NotificationAction(
                identifier: "REPLY", title: "Reply", textInputButtonTitle: "Send",
                textInputPlaceholder: "Message"),
              NotificationAction(identifier: "MARK_READ", title: "Mark as Read"),
              NotificationAction(identifier: "MUTE", title: "Mute Conversation", options: [.destructive]),
            ],
            options: [.customDismissAction], hiddenPreviewsBodyPlaceholder: "%u new messages")
        ]
      case "com.example.bank":
        app.categories = [
          NotificationCategory(
            identifier: "SECURITY",
            actions: [
              NotificationAction(identifier: "CONFIRM", title: "Yes, it was me", options: [.authenticationRequired]),
              NotificationAction(
                identifier: "LOCK_ACCOUNT", title: "Lock my account", options: [.authenticationRequired, .destructive]),
            ])
        ]
      case "com.example.news":
        app.authorization = .provisional
      default:
        break
      }
      return app
    }
  }

  /// A device push for a demo notification: its payload written out and read back like a file.
  static func demoPush(_ notification: PushNotification) -> DeviceEvent {
    var alert: [JSONMember] = []
    if let title = notification.title { alert.append(JSONMember(key: "title", value: .string(title))) }
    if let subtitle = notification.subtitle { alert.append(JSONMember(key: "subtitle", value: .string(subtitle))) }
    if let body = notification.body { alert.append(JSONMember(key: "body", value: .string(body))) }
    var aps: [JSONMember] = [JSONMember(key: "alert", value: .object(alert))]
    if let thread = notification.threadID { aps.append(JSONMember(key: "thread-id", value: .string(thread))) }
    if let category = notification.category { aps.append(JSONMember(key: "category", value: .string(category))) }
    if notification.level != .active {
      aps.append(JSONMember(key: "interruption-level", value: .string(notification.level.rawValue)))
    }
    switch notification.sound {
    case .systemDefault?: aps.append(JSONMember(key: "sound", value: .string("default")))
    case .named(let name)?: aps.append(JSONMember(key: "sound", value: .string(name)))
    case .critical?, nil: break
    }
    if let badge = notification.badge { aps.append(JSONMember(key: "badge", value: .number(JSONNumber(badge)))) }
    let payload = JSONValue.object([JSONMember(key: "aps", value: .object(aps))]).compactText
    let record = PushReader.readPayloadFile(
      Array(payload.utf8), source: "demo", format: .payload, bundleID: notification.bundleID)
    // Messages are communication notifications from the person named in the title.
    let sender = notification.category == "MESSAGE" ? notification.title : nil
    return .push(record, sender: sender)
  }
}

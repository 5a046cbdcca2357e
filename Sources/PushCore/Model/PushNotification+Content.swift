import PushWire

extension PushNotification {
  /// The content a service extension receives (`request.content`): the resolved text, badge,
  /// sound, identifiers and the payload as `userInfo`.
  public var content: NotificationContent {
    let soundName: String? =
      switch sound {
      case nil: nil
      case .systemDefault?: "default"
      case .named(let name)?: name
      case .critical(let name, _)?: name
      }
    let userInfo: JSONValue
    if let document = try? JSONDocument(text: rawPayload), document.kind(document.root) == .object {
      userInfo = document.value(document.root)
    } else {
      userInfo = .object(customKeys)
    }
    return NotificationContent(
      title: title, subtitle: subtitle, body: body, badge: badge, sound: soundName, threadIdentifier: threadID,
      categoryIdentifier: category, interruptionLevel: level, relevanceScore: relevanceScore,
      targetContentIdentifier: targetContentID, userInfo: userInfo, attachments: attachments)
  }

  /// This notification showing `content` instead, as the device shows what a service extension
  /// handed back. The request's identity (id, app, collapse id, arrival) never changes.
  public func applying(_ content: NotificationContent) -> PushNotification {
    var note = self
    note.title = content.title
    note.subtitle = content.subtitle
    note.body = content.body
    note.badge = content.badge
    note.sound = content.sound.map { name in
      switch (name, sound) {
      case ("default", _): .systemDefault
      case (_, .critical(_, let volume)?): .critical(name: name, volume: volume)
      default: .named(name)
      }
    }
    note.threadID = content.threadIdentifier
    note.category = content.categoryIdentifier
    note.level = content.interruptionLevel ?? .active
    note.relevanceScore = content.relevanceScore
    note.targetContentID = content.targetContentIdentifier
    if case .object(let members) = content.userInfo {
      note.customKeys = members.filter { $0.key != "aps" }
    }
    note.attachments = content.attachments
    return note
  }
}

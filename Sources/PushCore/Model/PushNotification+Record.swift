extension PushNotification {
  /// Normalises a valid push record into the notification the device holds: literal or
  /// localised text resolved with the app's strings, levels and flags typed, headers applied.
  ///
  /// - Parameters:
  ///   - record: a record whose payload decoded (`record.payload != nil`).
  ///   - id: the device-local id.
  ///   - receivedAt: when the device receives it.
  ///   - app: the app's profile, for localisations; nil when unknown.
  ///   - sender: a communication notification's sender, when the scenario gives one.
  ///   - keepsRawPayload: whether ``rawPayload`` holds the payload's text; a replay that keeps no
  ///     payload details leaves it empty and journals ``PushRecord/rawBytes`` instead.
  public init?(
    record: borrowing PushRecord, id: NotificationID, receivedAt: SimInstant, app: AppProfile?, sender: String? = nil,
    keepsRawPayload: Bool = true
  ) {
    // `borrowing`: an initializer otherwise takes its arguments owned, and the caller copied the
    // whole record (a score of references) for each push.
    guard let payload = record.payload else { return nil }
    let aps = payload.aps
    // Only a localised alert needs the app's strings; most pushes are literal.
    func resolve(_ key: String, _ arguments: [String]?) -> String {
      Localization.resolve(key: key, arguments: arguments ?? [], table: app?.localizations ?? [:])
    }
    var title: String?
    var subtitle: String?
    var body: String?
    switch aps.alert {
    case .text(let text):
      body = text
    case .dictionary(let alert):
      title = alert.titleLocKey.map { resolve($0, alert.titleLocArgs) } ?? alert.title
      subtitle = alert.subtitleLocKey.map { resolve($0, alert.subtitleLocArgs) } ?? alert.subtitle
      body = alert.locKey.map { resolve($0, alert.locArgs) } ?? alert.body
    case nil:
      break
    }
    let sound: SoundRequest? = aps.sound.map { sound in
      switch sound {
      case .named(let name): name == "default" ? .systemDefault : .named(name)
      case .critical(let critical):
        critical.isCritical
          ? .critical(name: critical.name ?? "default", volume: min(max(critical.volume ?? 1, 0), 1))
          : (critical.name.map { $0 == "default" ? .systemDefault : .named($0) } ?? .systemDefault)
      }
    }
    var level = aps.interruptionLevel ?? .active
    if case .critical(let critical)? = aps.sound, critical.isCritical, aps.interruptionLevel == nil {
      level = .critical
    }
    // Each field is set here, not through the memberwise initialiser: delegating built the
    // notification in a temporary and copied it into `self`.
    self.id = id
    bundleID = record.bundleID ?? ""
    threadID = aps.threadID
    self.title = title
    self.subtitle = subtitle
    self.body = body
    category = aps.category
    self.level = level
    relevanceScore = aps.relevanceScore.map { min(max($0, 0), 1) }
    self.sound = sound
    badge = aps.badge
    isContentAvailable = aps.contentAvailable
    isMutableContent = aps.mutableContent
    targetContentID = aps.targetContentID
    filterCriteria = aps.filterCriteria
    collapseID = record.headers.collapseID
    self.receivedAt = receivedAt
    rawPayload = keepsRawPayload ? record.rawPayload : ""
    pushType = record.headers.pushType ?? PushType(rawValue: record.pushType) ?? .alert
    priority = record.headers.priority
    // The header parser keeps only expirations in EpochRange; one set otherwise is ignored.
    if let expiration = record.headers.expiration, expiration > 0 {
      self.expiration = SimInstant(exactlyEpochSeconds: Double(expiration))
    }
    self.sender = sender
    liveActivity = aps.liveActivity
    customKeys = payload.customKeys
  }
}

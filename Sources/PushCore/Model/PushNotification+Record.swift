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
    // Each field is read through the record's payload in place: binding the payload (or its
    // `aps`) to a constant copied every one of its references for each push.
    guard record.hasPayload else { return nil }
    // Only a localised alert needs the app's strings; most pushes are literal.
    func resolve(_ key: String, _ arguments: [String]?) -> String {
      Localization.resolve(key: key, arguments: arguments ?? [], table: app?.localizations ?? [:])
    }
    var title: String?
    var subtitle: String?
    var body: String?
    if record.payload!.aps.alert?.isLocalized == true, case .dictionary(let alert) = record.payload!.aps.alert {
      title = alert.titleLocKey.map { resolve($0, alert.titleLocArgs) } ?? alert.title
      subtitle = alert.subtitleLocKey.map { resolve($0, alert.subtitleLocArgs) } ?? alert.subtitle
      body = alert.locKey.map { resolve($0, alert.locArgs) } ?? alert.body
    } else {
      // Field by field in place: binding the alert dictionary copied its fourteen fields.
      title = record.payload!.aps.alert?.title
      subtitle = record.payload!.aps.alert?.subtitle
      body = record.payload!.aps.alert?.body
    }
    let sound: SoundRequest? = record.payload!.aps.sound.map { sound in
      switch sound {
      case .named(let name): name == "default" ? .systemDefault : .named(name)
      case .critical(let critical):
        critical.isCritical
          ? .critical(name: critical.name ?? "default", volume: min(max(critical.volume ?? 1, 0), 1))
          : (critical.name.map { $0 == "default" ? .systemDefault : .named($0) } ?? .systemDefault)
      }
    }
    let requestedLevel = record.payload!.aps.interruptionLevel
    var level = requestedLevel ?? .active
    // `sound` is `.critical` exactly when the payload's sound is critical (`critical: 1`).
    if case .critical? = sound, requestedLevel == nil {
      level = .critical
    }
    // The fields are gathered first and boxed once (``PushNotification/Fields``).
    var fields = Fields(
      id: id, bundleID: record.bundleID ?? "", threadID: record.payload!.aps.threadID, title: title,
      subtitle: subtitle, body: body, category: record.payload!.aps.category, level: level,
      relevanceScore: record.payload!.aps.relevanceScore.map { min(max($0, 0), 1) }, sound: sound,
      badge: record.payload!.aps.badge, isContentAvailable: record.payload!.aps.contentAvailable,
      isMutableContent: record.payload!.aps.mutableContent, targetContentID: record.payload!.aps.targetContentID,
      filterCriteria: record.payload!.aps.filterCriteria, collapseID: record.headers.collapseID,
      receivedAt: receivedAt, rawPayload: keepsRawPayload ? record.rawPayload : "")
    // Not `?? PushType(rawValue: record.pushType)`: the autoclosure copied the record.
    if let type = record.headers.pushType {
      fields.pushType = type
    } else {
      fields.pushType = PushType(rawValue: record.pushType) ?? .alert
    }
    fields.priority = record.headers.priority
    // The header parser keeps only expirations in EpochRange; one set otherwise is ignored.
    if let expiration = record.headers.expiration, expiration > 0 {
      fields.expiration = SimInstant(exactlyEpochSeconds: Double(expiration))
    }
    fields.sender = sender
    fields.liveActivity = record.payload!.aps.liveActivity
    fields.customKeys = record.payload!.customKeys
    self.init(fields: fields)
  }
}

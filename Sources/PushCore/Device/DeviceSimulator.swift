/// A change to one of an app's settings, as a timeline or the settings pane makes it.
public enum AppSettingChange: Equatable, Sendable {
  case authorization(AuthorizationStatus)
  case state(AppRunState)
  case lockScreen(Bool), notificationCenter(Bool), banners(Bool), sounds(Bool), badges(Bool)
  case bannerStyle(BannerStyle), showPreviews(PreviewSetting), grouping(GroupingSetting)
  case timeSensitive(Bool), criticalAlerts(Bool), directMessages(Bool), delivery(DeliverySetting)
}

/// Something that happens to the simulated device.
public enum DeviceEvent: Equatable, Sendable {
  /// A push arrives; `sender` marks a communication notification.
  indirect case push(PushRecord, sender: String? = nil)
  /// A Focus turns on (by id), or off (nil).
  case focus(String?)
  case lock
  case unlock
  case setting(bundleID: String, AppSettingChange)
  /// The user taps a notification (the default action).
  case open(NotificationID)
  /// The user clears a notification, a stack, or everything.
  case clear(NotificationID)
  case clearGroup(GroupKey)
  case clearAll
  /// The user picks an action, with typed text for a text-input action.
  case action(NotificationID, actionID: String, text: String? = nil)

  public static func == (lhs: DeviceEvent, rhs: DeviceEvent) -> Bool {
    switch (lhs, rhs) {
    case (.push(let a, let s), .push(let b, let t)): a.source == b.source && a.rawPayload == b.rawPayload && s == t
    case (.focus(let a), .focus(let b)): a == b
    case (.lock, .lock), (.unlock, .unlock), (.clearAll, .clearAll): true
    case (.setting(let a, let c), .setting(let b, let d)): a == b && c == d
    case (.open(let a), .open(let b)), (.clear(let a), .clear(let b)): a == b
    case (.clearGroup(let a), .clearGroup(let b)): a == b
    case (.action(let a, let x, let t), .action(let b, let y, let u)): a == b && x == y && t == u
    default: false
    }
  }
}

/// What the device did with one push: the record `explain` prints and the inspector shows.
public struct DeliveryRecord: Equatable, Sendable {
  /// 0-based position among the pushes of the timeline.
  public var index: Int
  public var at: SimInstant
  public var bundleID: String
  /// The notification, when the push was valid.
  public var notification: PushNotification?
  public var decision: DeliveryDecision
  /// The stack it joined, for stored notifications.
  public var group: GroupKey?
  /// Its stack's place in Notification Center right after it arrived (1 = top).
  public var groupRank: Int?
  public var rank: RankTerms?
  /// Where the push came from (`file:line`), built when read: each push made the text before
  /// (an allocation a push on every path, `render` and `run` included, which never show it).
  public var source: String { sourceLine.map { "\(sourceFile):\($0)" } ?? sourceFile }
  /// The file (or the source as prepared) and the line, if any, that ``source`` names.
  public var sourceFile: String
  public var sourceLine: Int?
  /// The payload's diagnostics.
  public var diagnostics: [Diagnostic]
  /// The oldest notifications removed to make room: Notification Center was full
  /// (``DeviceProfile/maxStoredNotifications``).
  public var evicted: [NotificationID] = []
  /// A rejected push's text as received (at most ``rejectedTextLimit`` bytes, cut at a
  /// character), for the inspector; nil for accepted pushes and when payload details are off.
  public var rejectedText: String? = nil

  /// The most of a rejected push's text a record keeps.
  public static let rejectedTextLimit = 4096
  /// The broadcast channel it came through (`apns-channel-id`), for a broadcast.
  public var channelID: String?
}

/// A Live Activity on the lock screen.
public struct LiveActivity: Equatable, Sendable {
  public var bundleID: String
  public var attributesType: String
  public var attributes: JSONValue?
  public var contentState: JSONValue?
  public var title: String?
  public var body: String?
  public var startedAt: SimInstant
  public var lastTimestamp: Double
  public var staleDate: SimInstant?
  public var endedAt: SimInstant?
  public var dismissalDate: SimInstant?
  public var relevanceScore: Double?
  /// The broadcast channel it subscribed to (`input-push-channel`), if any.
  public var channelID: String?
  /// Its own push token (`input-push-token: 1`), lowercase hex: updates sent to
  /// `/3/device/<token>` reach this activity.
  public var pushToken: String?

  /// Creates a Live Activity (the simulator starts them from pushes; a journal restores them).
  public init(
    bundleID: String, attributesType: String, attributes: JSONValue? = nil, contentState: JSONValue? = nil,
    title: String? = nil, body: String? = nil, startedAt: SimInstant, lastTimestamp: Double,
    staleDate: SimInstant? = nil, endedAt: SimInstant? = nil, dismissalDate: SimInstant? = nil,
    relevanceScore: Double? = nil, channelID: String? = nil, pushToken: String? = nil
  ) {
    self.channelID = channelID
    self.pushToken = pushToken
    self.bundleID = bundleID
    self.attributesType = attributesType
    self.attributes = attributes
    self.contentState = contentState
    self.title = title
    self.body = body
    self.startedAt = startedAt
    self.lastTimestamp = lastTimestamp
    self.staleDate = staleDate
    self.endedAt = endedAt
    self.dismissalDate = dismissalDate
    self.relevanceScore = relevanceScore
  }

  /// Whether it is past its stale date.
  public func isStale(at now: SimInstant) -> Bool { staleDate.map { now >= $0 } ?? false }
}

/// The simulated iPhone: applies events in time order, asks the delivery policy about each
/// push, and keeps Notification Center, badges, Live Activities and engagement up to date.
///
/// Pure: time arrives with each event and ids come from a counter, so the same timeline always
/// gives the same result.
public struct DeviceSimulator: Sendable {
  public private(set) var profile: DeviceProfile
  public private(set) var now: SimInstant
  public private(set) var isLocked: Bool
  public private(set) var activeFocusID: String?
  /// Display As as chosen in Settings (``setLockScreenDisplay(_:)``); nil while the profile's
  /// stands.
  public private(set) var chosenLockScreenDisplay: LockScreenDisplay?
  public private(set) var store = NotificationStore()
  public private(set) var badges: [String: Int] = [:]
  public internal(set) var liveActivities: [LiveActivity] = []
  /// The broadcast channels of every app, oldest first (``BroadcastChannel``).
  public internal(set) var channels: [BroadcastChannel] = [] {
    didSet { channelsVersion &+= 1 }
  }
  /// Changes each time ``channels`` does: a journal saves the channels when it moved.
  public private(set) var channelsVersion = 0
  public private(set) var records: [DeliveryRecord] = []
  /// Whether every delivery record is kept in ``records``. A long replay that journals and
  /// streams its records turns this off so memory does not grow with the capture.
  public var keepsRecords = true
  /// Keeps only about the latest this many delivery records (between this and twice this),
  /// when set: enough for the banners and the last pushes' decisions, not one per push.
  public var recordWindow: Int?
  /// Delivery records dropped from the front of ``records`` by ``recordWindow``.
  private var droppedRecords = 0
  /// The ``DeliveryRecord/index`` of `records[0]`: records of a restored device's earlier pushes
  /// and those a window dropped are not in ``records``.
  public var firstRecordIndex: Int { earlierDeliveries + droppedRecords }
  /// Whether stored notifications keep their raw payload, custom keys and reasons in memory.
  /// A replay that journals every delivery turns this off: those details live in the state
  /// database only (the delivery records it returns still carry them, except the payload's text:
  /// the journal takes that from the push record's bytes), and the lists that
  /// repeat from push to push (surfaces, callbacks) are shared, so a store of a million
  /// notifications fits in a few hundred MiB.
  public var keepsPayloadDetails = true {
    didSet { store.keepsPayloadDetails = keepsPayloadDetails }
  }
  /// Whether the store keeps the texts nothing but a screen reads (title, subtitle, body,
  /// category, target content id, sounds; ``NotificationStore/keepsTexts``). Off only for a
  /// device that is never shown: `replay`'s and `serve`'s (both through `Replay`; their journal,
  /// when they have one, keeps the texts) and `explain`'s (which prints each push from its
  /// delivery record). Its decisions are the same: the policy reads the pushed notification,
  /// and the store's keys and ranks keep theirs.
  public var keepsNotificationTexts = true {
    didSet { store.keepsTexts = keepsNotificationTexts }
  }
  /// Shared copies of repeating values, used when ``keepsPayloadDetails`` is off.
  private var interned = InternTable()
  /// The profiles of apps the device installs on first sight, made once per bundle, not once
  /// per push (docs/PERFORMANCE.md, Measurements behind the code).
  private var inferredApps: [String: AppProfile] = [:]
  /// How many pushes this simulator has received (kept or not).
  public private(set) var receivedCount = 0
  /// Callbacks fired by user responses (tap, action), in order: (notification, callback, action).
  public private(set) var responses: [(id: NotificationID, callback: AppCallback, actionID: String, text: String?)] = []
  /// Actions and replies asked for that the notification does not offer (no category, an
  /// unregistered one, no such action, no text input for a reply), in order: the device did
  /// nothing for them, and they are not among ``responses``.
  public private(set) var refusedResponses: [RefusedResponse] = []
  private var nextID = 1
  /// Pushes delivered before this simulator was restored from a journal; record indexes go on from here.
  private var earlierDeliveries = 0
  private var silentHistory: [String: [SimInstant]] = [:]

  /// Starts the device from a profile.
  public init(profile: DeviceProfile) {
    self.profile = profile
    now = profile.start
    isLocked = profile.isLocked
    activeFocusID = profile.activeFocusID
    installProfileChannels()
  }

  /// Adds the channels the profile's apps declare that the device does not hold yet.
  private mutating func installProfileChannels() {
    for app in profile.apps {
      for declared in app.channels where channel(declared.id, bundleID: app.bundleID) == nil {
        var channel = declared
        channel.bundleID = app.bundleID
        channel.createdAt = now
        channels.append(channel)
      }
    }
  }

  /// Rebuilds a device from what a journal remembered of it.
  ///
  /// The profile's engagement is replaced by the remembered one and the setting changes are
  /// applied in order. Each notification is ranked again with its app's engagement (the
  /// simulator keeps every app's notifications ranked with its current engagement, so this gives
  /// the ranks they had), inserted in delivery order, and the Scheduled Summaries due by the
  /// restored time are released. New ids and record indexes continue after the remembered ones.
  ///
  /// The clock resumes at ``RestoredDevice/clock`` (the saved time, never before the last thing
  /// journaled), whatever the profile's start; lock and Focus come from the saved state. Only a
  /// journal that remembers no time at all starts at the profile's start.
  ///
  /// - Parameters:
  ///   - profile: the profile the device started from (the scenario's, or the default one).
  ///   - restored: the remembered state.
  public init(profile: DeviceProfile, restoring restored: RestoredDevice) {
    var parts = restored
    parts.notifications = []
    self.init(profile: profile, restoring: parts) { add in
      for stored in restored.notifications { add(stored) }
    }
  }

  /// Rebuilds a device from what a journal remembered of it, as
  /// ``init(profile:restoring:)`` does, taking the notifications one at a time from a producer
  /// instead of from an array: each goes into the store as it comes, so a million of them are
  /// never all unpacked in memory at once.
  ///
  /// `produce` is called with a function that adds one notification; it gives them in delivery
  /// order (ascending ids, as a journal keeps them). When they are not in that order, the device
  /// drops what it built, calls `produce` a second time and sorts what it gives, as the array
  /// form always did: a producer must give the same notifications each time it is called.
  ///
  /// - Parameters:
  ///   - profile: the profile the device started from (the scenario's, or the default one).
  ///   - restored: the remembered state but its notifications: `restored.notifications` is not read.
  ///   - produce: gives the notifications, by calling the function it is passed once for each.
  /// - Throws: what `produce` throws.
  public init<Failure: Error>(
    profile: DeviceProfile, restoring restored: RestoredDevice,
    notifications produce: (_ add: (StoredNotification) -> Void) throws(Failure) -> Void
  ) throws(Failure) {
    var profile = profile
    for (bundleID, engagement) in restored.engagement { profile.engagement[bundleID] = engagement }
    self.init(profile: profile)
    for change in restored.settingChanges {
      updateApp(change.bundleID) { $0.apply(change.change) }
    }
    // The device resumes where it was left: its saved clock, not the profile's start (a preset's
    // start is just today's demo morning). A caller whose session brings a later timeline moves
    // it on with advance(to:).
    if let clock = restored.clock { now = clock }
    if let state = restored.state {
      isLocked = state.isLocked
      activeFocusID = state.activeFocusID
      if let display = state.lockScreenDisplay { setLockScreenDisplay(display) }
    }
    let engagement = self.profile.engagement
    func ranked(_ stored: StoredNotification) -> StoredNotification {
      var stored = stored
      stored.rank = RankTerms(
        notification: stored.notification, level: stored.decision.effectiveLevel,
        engagement: engagement[stored.notification.bundleID] ?? Engagement())
      return stored
    }
    var store = NotificationStore()
    var highest: NotificationID?
    var inOrder = true
    try produce { stored in
      guard inOrder else { return }
      if let highest, stored.id <= highest {
        inOrder = false
        return
      }
      highest = stored.id
      store.insert(ranked(stored))
    }
    if !inOrder {
      // Never from a journal, which keeps them in order: gather them all and sort, as the
      // array form did.
      store = NotificationStore()
      var all: [StoredNotification] = []
      try produce { all.append($0) }
      all.sort { $0.id < $1.id }
      highest = all.last?.id
      for stored in all { store.insert(ranked(stored)) }
    }
    _ = store.releaseSummary(at: now)
    self.store = store
    badges = restored.badges
    liveActivities = restored.liveActivities
    if !restored.channels.isEmpty {
      channels = restored.channels
      installProfileChannels()
    }
    nextID = max(restored.nextNotificationID, (highest?.rawValue ?? 0) + 1, 1)
    earlierDeliveries = restored.deliveryCount
    let hourAgo = now - .hours(1)
    for (bundleID, times) in restored.silentPushes {
      let recent = times.filter { $0 > hourAgo }
      if !recent.isEmpty { silentHistory[bundleID] = recent }
    }
  }

  /// The Focus that is on.
  public var activeFocus: FocusMode? {
    activeFocusID.flatMap { id in profile.focusModes.first { $0.id == id } }
  }

  /// The app's current profile, or the default one for an unknown bundle when allowed.
  public func app(_ bundleID: String) -> AppProfile? {
    if let app = profile.apps.first(where: { $0.bundleID == bundleID }) { return app }
    // An app installed on first sight: its profile as made then, not made again per call
    // (docs/PERFORMANCE.md, Measurements behind the code).
    guard profile.installsUnknownApps else { return nil }
    return inferredApps[bundleID] ?? profile.app(bundleID)
  }

  /// Moves time forward to `instant` (never backwards), releasing Scheduled Summaries and
  /// removing Live Activities past their dismissal date.
  public mutating func advance(to instant: SimInstant) {
    guard instant > now else { return }
    now = instant
    _ = store.releaseSummary(at: now)
    let now = now
    func isGone(_ activity: LiveActivity) -> Bool {
      if let dismissal = activity.dismissalDate, dismissal <= now { return true }
      if let ended = activity.endedAt, now - ended >= .hours(4) { return true }
      return now - activity.startedAt >= .hours(12)
    }
    // Looked at first: removing in place while the ingest step holds the list (to see whether
    // it changed) copied every activity on every push.
    if liveActivities.contains(where: isGone) { liveActivities.removeAll(where: isGone) }
  }

  /// The clock, lock, Focus and the Display As chosen in Settings, as a journal saves them.
  public var savedState: RestoredDevice.State {
    RestoredDevice.State(
      now: now, isLocked: isLocked, activeFocusID: activeFocusID, lockScreenDisplay: chosenLockScreenDisplay)
  }

  /// Changes how the lock screen shows notifications (Settings ▸ Notifications ▸ Display As):
  /// only what is drawn changes, so it is not a timeline event; a journal saves the choice with
  /// the clock (``savedState``), and a seek back keeps it. Until one is made the profile's
  /// `displayAs` stands, and is not saved (so editing the profile still changes it).
  public mutating func setLockScreenDisplay(_ display: LockScreenDisplay) {
    profile.lockScreenDisplay = display
    chosenLockScreenDisplay = display
  }

  /// Applies one event at `instant` with nothing journalled (a push through
  /// ``ingest(_:sender:at:extensions:into:)``); returns the delivery record for a push.
  @discardableResult
  public mutating func apply(_ event: DeviceEvent, at instant: SimInstant) -> DeliveryRecord? {
    var unjournaled = DiscardedChanges()
    return apply(event, at: instant, into: &unjournaled)
  }

  /// Applies an event other than a push (pushes go through ``ingest(_:sender:at:extensions:into:)``).
  mutating func applyOther(_ event: DeviceEvent, at instant: SimInstant) {
    advance(to: instant)
    switch event {
    case .push:
      return
    case .focus(let id):
      activeFocusID = id
    case .lock:
      isLocked = true
    case .unlock:
      isLocked = false
    case .setting(let bundleID, let change):
      updateApp(bundleID) { $0.apply(change) }
    case .open(let id):
      guard let stored = store.remove(id) else { return }
      responses.append((id, .didReceive, "com.apple.UNNotificationDefaultActionIdentifier", nil))
      engage(stored.notification.bundleID) { $0.taps += 1 }
      updateApp(stored.notification.bundleID) { $0.state = .foreground }
    case .clear(let id):
      guard let stored = store.remove(id) else { return }
      dismissed(stored)
    case .clearGroup(let key):
      let members = store.notifications(in: key)
      for stored in members { store.remove(stored.id) }
      dismissed(members)
    case .clearAll:
      let all = store.all
      store.clearAll()
      dismissed(all)
    case .action(let id, let actionID, let text):
      guard let stored = store[id] else { return }
      let app = app(stored.notification.bundleID)
      // Only the actions of a registered category are offered (reference §4.5); a reply
      // needs a text-input one.
      if let problem = ResponseProblem.check(
        category: stored.notification.category, of: app, actionID: actionID, isReply: text != nil)
      {
        refusedResponses.append(RefusedResponse(id: id, actionID: actionID, text: text, problem: problem, at: now))
        return
      }
      let action = app?.category(stored.notification.category)?.actions.first { $0.identifier == actionID }
      responses.append((id, .didReceive, actionID, text))
      store.remove(id)
      engage(stored.notification.bundleID) { $0.taps += 1 }
      if action?.options.contains(.foreground) == true {
        updateApp(stored.notification.bundleID) { $0.state = .foreground }
      }
    }
  }

  /// Applies a push at `instant` through ``ingest(_:sender:at:extensions:into:)`` with nothing
  /// journalled, exactly as `apply(.push(record, sender: sender), at: instant)` does, without
  /// first copying the record into an event.
  @discardableResult
  public mutating func apply(push record: PushRecord, sender: String? = nil, at instant: SimInstant)
    -> DeliveryRecord
  {
    var unjournaled = DiscardedChanges()
    return ingest(record, sender: sender, at: instant, into: &unjournaled)
  }

  private mutating func dismissed(_ stored: StoredNotification) {
    dismissed([stored])
  }

  /// Counts dismissals and runs the dismiss actions categories ask for. Each app is re-ranked
  /// once for all of its notifications dismissed together (clearing a stack or everything),
  /// not once per notification, which re-ranked the app's whole Notification Center each time.
  private mutating func dismissed(_ notifications: [StoredNotification]) {
    var apps: [String] = []
    var counts: [String: Int] = [:]
    for stored in notifications {
      let bundleID = stored.notification.bundleID
      if counts[bundleID] == nil { apps.append(bundleID) }
      counts[bundleID, default: 0] += 1
      let category = app(bundleID)?.category(stored.notification.category)
      if category?.options.contains(.customDismissAction) == true {
        responses.append((stored.id, .didReceive, "com.apple.UNNotificationDismissActionIdentifier", nil))
      }
    }
    for bundleID in apps {
      let count = counts[bundleID] ?? 0
      engage(bundleID) { $0.dismissals += count }
    }
  }

  private mutating func engage(_ bundleID: String, _ change: (inout Engagement) -> Void) {
    var engagement = profile.engagement[bundleID] ?? Engagement()
    change(&engagement)
    profile.engagement[bundleID] = engagement
    store.rerank(bundleID: bundleID, engagement: engagement)
  }

  private mutating func updateApp(_ bundleID: String, _ change: (inout AppProfile) -> Void) {
    if let index = profile.apps.firstIndex(where: { $0.bundleID == bundleID }) {
      change(&profile.apps[index])
    } else if var app = profile.app(bundleID) {
      change(&app)
      profile.apps.append(app)
    }
  }

  /// Receives a push at ``now``; `badgeChange` becomes the app's new badge (0: none) when the
  /// push changed it, and stays nil otherwise.
  mutating func receive(_ record: PushRecord, sender: String?, badgeChange: inout Int?) -> DeliveryRecord {
    let bundleID = record.bundleID ?? ""
    let index = earlierDeliveries + receivedCount
    receivedCount += 1
    var delivery = DeliveryRecord(
      index: index, at: now, bundleID: bundleID, notification: nil,
      decision: DeliveryDecision(disposition: .rejected), group: nil, groupRank: nil, rank: nil,
      sourceFile: record.sourceParts.file, sourceLine: record.sourceParts.line, diagnostics: record.diagnostics)
    // The verdict comes from the diagnostic table, as `validate` and `serve` take theirs: a
    // push APNs rejects, or the device drops as invalid, is kept as rejected with the reason.
    let verdict = record.verdict
    guard verdict.isDelivered, record.hasPayload else {
      delivery.decision.reasons = [
        Reason(.invalidPayload, "Rejected: " + (verdict.refusalText ?? "the payload is not valid."))
      ]
      if keepsPayloadDetails {
        let bytes = record.rawBytes.prefix(DeliveryRecord.rejectedTextLimit)
        // Decoding repairs a character cut at the limit (U+FFFD); controls stay for the viewer to show.
        delivery.rejectedText = String(decoding: bytes, as: UTF8.self)
      }
      if keepsRecords { keep(delivery) }
      return delivery
    }
    let ignoredKeys = verdict.ignored.map { Reason(.keyIgnored, PushVerdict.ignoredText($0)) }
    let app = resolvedApp(bundleID)
    let id = NotificationID(nextID)
    nextID += 1
    guard
      var notification = PushNotification(
        record: record, id: id, receivedAt: now, app: app, sender: sender, keepsRawPayload: keepsPayloadDetails)
    else {
      if keepsRecords { keep(delivery) }
      return delivery
    }
    var extensionReasons: [Reason] = []
    if let result = record.serviceExtension, let app,
      DeliveryPolicy.runsServiceExtension(notification, app: app)
    {
      extensionReasons = ServiceExtensionReasons.reasons(for: result)
      if let content = result.content { notification = notification.applying(content) }
    }
    delivery.notification = notification
    let channelID = record.headers.otherHeaders.first { $0.name == "apns-channel-id" }?.value
    delivery.channelID = channelID
    // `liveActivity?.inputPushToken != nil`, not `liveActivity != nil`, which copied the content.
    if notification.pushType == .liveactivity || notification.liveActivity?.inputPushToken != nil || channelID != nil {
      delivery.decision = receiveLiveActivity(
        notification, app: app, token: record.token?.lowercased(), channelID: channelID, index: index)
      delivery.decision.reasons.insert(contentsOf: ignoredKeys, at: 0)
      if keepsRecords { keep(delivery) }
      return delivery
    }
    let hourAgo = now - .hours(1)
    // Counted in place: filtering made an array on every push.
    var recentSilent = 0
    for time in silentHistory[bundleID] ?? [] where time > hourAgo { recentSilent += 1 }
    let context = DeliveryContext(
      now: now, isLocked: isLocked, isSilentMode: profile.isSilentMode, focus: activeFocus,
      summaryTimes: profile.summaryTimes, utcOffsetSeconds: profile.utcOffsetSeconds,
      silentPushesPerHour: profile.silentPushesPerHour, recentSilentPushes: recentSilent,
      collapseTarget: store.collapseTarget(bundleID: bundleID, collapseID: notification.collapseID))
    var decision = DeliveryPolicy.decide(notification, app: app, context: context)
    decision.reasons.insert(contentsOf: ignoredKeys, at: 0)
    if !extensionReasons.isEmpty {
      let at = (decision.reasons.firstIndex { $0.code == .serviceExtensionRuns }).map { $0 + 1 } ?? 0
      decision.reasons.insert(contentsOf: extensionReasons, at: at)
    }
    if decision.disposition == .silent {
      silentHistory[bundleID, default: []].append(now)
      silentHistory[bundleID]?.removeAll { $0 <= hourAgo }
      if app?.state == .notRunning { updateApp(bundleID) { $0.state = .background } }
    }
    if let badge = decision.badge {
      // One look-up that also says whether the badge moved (the ingest step journals it then).
      let old = badge == 0 ? badges.removeValue(forKey: bundleID) : badges.updateValue(badge, forKey: bundleID)
      if old != (badge == 0 ? nil : badge) { badgeChange = badge }
    }
    if decision.isStored, let app {
      let group = GroupKey.make(for: notification, grouping: app.settings.grouping)
      let rank = RankTerms(
        notification: notification, level: decision.effectiveLevel,
        engagement: profile.engagement[bundleID] ?? Engagement())
      var stored = StoredNotification(
        notification: notification, decision: decision, group: group, rank: rank, heldUntil: decision.heldUntil)
      // A lean store leaves the payload, keys and reasons out itself (``NotificationStore/keepsPayloadDetails``).
      if !keepsPayloadDetails { interned.share(&stored) }
      let score = store.insert(stored)
      // Moved into the record, not copied (a copy retained its lists), before making room adds
      // to its reasons.
      delivery.decision = consume decision
      makeRoom(for: stored.id, in: &delivery)
      delivery.group = group
      delivery.rank = rank
      // The stack's score from the insertion, unless making room moved it.
      delivery.groupRank =
        delivery.evicted.isEmpty ? store.groupRank(of: group, score: score) : store.groupRank(of: group)
    } else {
      // A replacement not kept (its app has Notification Center off, and it only bannered):
      // the one it replaces goes all the same. A push without text keeps its collapse target
      // (its disposition is not `replaced`).
      if decision.disposition == .replaced, let replaced = decision.replaces { store.discard(replaced) }
      delivery.decision = consume decision
    }
    // Asked here, not only in `keep`: passing the local record to it copied it (every string
    // and array it holds) on every push, kept or not.
    if keepsRecords { keep(delivery) }
    return delivery
  }

  /// Removes the oldest notifications while Notification Center holds more than the profile's
  /// limit, saying so in the delivery's reasons. The newcomer itself is never the one removed.
  private mutating func makeRoom(for newcomer: NotificationID, in delivery: inout DeliveryRecord) {
    let limit = max(profile.maxStoredNotifications, 1)
    while store.count > limit, let oldest = store.oldestID(), oldest != newcomer {
      store.discard(oldest)
      delivery.evicted.append(oldest)
    }
    guard !delivery.evicted.isEmpty else { return }
    let removed = delivery.evicted.map(\.description).joined(separator: ", ")
    delivery.decision.reasons.append(
      Reason(
        .notificationCenterFull,
        "Notification Center holds at most \(limit) notifications: the oldest (\(removed)) was removed to make room."))
  }

  /// ``app(_:)``, remembering the profiles of apps installed on first sight.
  private mutating func resolvedApp(_ bundleID: String) -> AppProfile? {
    if let app = profile.apps.first(where: { $0.bundleID == bundleID }) { return app }
    guard profile.installsUnknownApps else { return nil }
    if let app = inferredApps[bundleID] { return app }
    let app = profile.app(bundleID)
    inferredApps[bundleID] = app
    return app
  }

  /// Drops all but the latest `count` delivery records (a state kept for later, whose older
  /// records would be a copy of the ones the device goes on writing).
  public mutating func dropRecords(keepingLatest count: Int) {
    let dropped = records.count - max(count, 0)
    guard dropped > 0 else { return }
    records = Array(records.suffix(max(count, 0)))
    droppedRecords += dropped
  }

  /// Keeps a delivery record; callers ask ``keepsRecords`` first (passing the local record here
  /// copied it, kept or not).
  private mutating func keep(_ delivery: DeliveryRecord) {
    records.append(delivery)
    if let recordWindow, records.count >= 2 * max(recordWindow, 1) {
      let dropped = records.count - recordWindow
      records.removeFirst(dropped)
      droppedRecords += dropped
    }
  }

  private mutating func receiveLiveActivity(
    _ notification: PushNotification, app: AppProfile?, token: String?, channelID: String?, index: Int
  ) -> DeliveryDecision {
    var decision = DeliveryDecision(disposition: .delivered, effectiveLevel: notification.level)
    func drop(_ code: ReasonCode, _ text: String) -> DeliveryDecision {
      decision.disposition = .dropped
      decision.reasons.append(Reason(code, text))
      return decision
    }
    guard let content = notification.liveActivity, let event = content.event, let timestamp = content.timestamp else {
      return drop(.liveActivityIgnored, "A Live Activity push needs event and timestamp; it is ignored.")
    }
    guard let app else { return drop(.appNotInstalled, "\(notification.bundleID) is not installed.") }
    if let channelID {
      return receiveBroadcast(notification, content: content, event: event, timestamp: timestamp, channelID: channelID)
    }
    switch event {
    case .start:
      if let token, let expected = app.pushToStartToken, token != expected {
        return drop(
          .activityTokenMismatch,
          "The token \(Self.short(token)) is not \(app.bundleID)'s push-to-start token (\(Self.short(expected))): "
            + "no Live Activity starts.")
      }
      var activity = LiveActivity(
        bundleID: notification.bundleID, attributesType: content.attributesType ?? "Activity",
        attributes: content.attributes, contentState: content.contentState, title: notification.title,
        body: notification.body, startedAt: now, lastTimestamp: timestamp, staleDate: Self.instant(content.staleDate),
        endedAt: nil, dismissalDate: nil, relevanceScore: notification.relevanceScore)
      decision.reasons = [Reason(.liveActivityStarted, "A Live Activity starts on the lock screen.")]
      if token != nil, app.pushToStartToken != nil {
        decision.reasons[0].text = "A Live Activity starts on the lock screen (sent to the app's push-to-start token)."
      }
      if content.inputPushToken {
        let minted = Self.activityToken(bundleID: notification.bundleID, index: index)
        activity.pushToken = minted
        decision.reasons.append(
          Reason(
            .activityPushToken,
            "It has its own push token \(minted) (input-push-token: 1): send its updates to /3/device/\(minted)."))
      }
      if let wanted = content.inputPushChannel {
        if let channel = channel(wanted, bundleID: notification.bundleID) {
          activity.channelID = wanted
          decision.reasons.append(
            Reason(
              .channelSubscribed,
              "It subscribes to broadcast channel \(wanted) (input-push-channel): every broadcast on it updates it."))
          if channel.storagePolicy == .mostRecent, let message = channel.lastMessage,
            now - message.at <= BroadcastChannel.storedMessageLifetime, message.timestamp > activity.lastTimestamp
          {
            Self.apply(message, to: &activity, at: now)
            decision.reasons.append(
              Reason(
                .channelSubscribed,
                "The channel keeps its most recent message (message-storage-policy 1, under 8 hours old): "
                  + "the activity shows it at once."))
          }
        } else {
          decision.reasons.append(
            Reason(
              .channelNotRegistered,
              "input-push-channel \(wanted) is not a channel of \(notification.bundleID): the activity subscribes to nothing."
            ))
        }
      }
      liveActivities.append(activity)
    case .update, .end:
      let candidates = liveActivities.indices.filter { liveActivities[$0].bundleID == notification.bundleID }
      var index: Int?
      var byToken = ""
      if let token, let owner = candidates.last(where: { liveActivities[$0].pushToken == token }) {
        index = owner
        byToken = " (addressed by its push token \(Self.short(token)))"
      } else if let token, token == app.pushToStartToken {
        return drop(
          .activityTokenMismatch,
          "\(Self.short(token)) is the app's push-to-start token: it starts activities, it does not \(event.rawValue) "
            + "them. Send to the activity's own push token.")
      } else if let token, candidates.contains(where: { liveActivities[$0].pushToken != nil }) {
        return drop(
          .activityTokenMismatch,
          "No Live Activity of \(notification.bundleID) has the push token \(Self.short(token)): the \(event.rawValue) "
            + "is ignored.")
      } else {
        index = candidates.last {
          content.attributesType == nil || liveActivities[$0].attributesType == content.attributesType
        }
      }
      guard let index, liveActivities[index].endedAt == nil else {
        return drop(
          .liveActivityIgnored, "No running Live Activity of this app: the \(event.rawValue) is ignored.")
      }
      guard timestamp > liveActivities[index].lastTimestamp else {
        return drop(.liveActivityIgnored, "Its timestamp is not newer than the activity's: ignored.")
      }
      let message = BroadcastChannel.StoredMessage(
        at: now, event: event, timestamp: timestamp, contentState: content.contentState,
        staleDate: content.staleDate, dismissalDate: content.dismissalDate, title: notification.title,
        body: notification.body)
      Self.apply(message, to: &liveActivities[index], at: now)
      if event == .end {
        decision.reasons = [
          Reason(
            .liveActivityEnded,
            "The Live Activity\(byToken) ends; it stays on the lock screen until its dismissal date.")
        ]
      } else {
        decision.reasons = [Reason(.liveActivityUpdated, "The Live Activity\(byToken) shows the new state.")]
      }
    }
    decision.surfaces = [.liveActivity]
    if notification.hasVisibleContent {
      decision.surfaces.append(isLocked ? .lockScreen : .banner)
    }
    return decision
  }

  /// A broadcast: every running activity subscribed to the channel takes it; a channel that
  /// stores its most recent message keeps it for activities that subscribe later.
  private mutating func receiveBroadcast(
    _ notification: PushNotification, content: LiveActivityContent, event: LiveActivityEvent, timestamp: Double,
    channelID: String
  ) -> DeliveryDecision {
    var decision = DeliveryDecision(disposition: .dropped, effectiveLevel: notification.level)
    guard let channelIndex = channels.firstIndex(where: { $0.id == channelID && $0.bundleID == notification.bundleID })
    else {
      decision.reasons = [
        Reason(
          .channelNotRegistered,
          "Broadcast channel \(channelID) is not a channel of \(notification.bundleID): nothing is updated.")
      ]
      return decision
    }
    guard event != .start else {
      // APNs takes it (the payload is valid); the device refuses to start anything from it.
      decision.reasons = [
        Reason(
          .broadcastCannotStart,
          "A broadcast never starts a Live Activity (channel \(channelID)): start it with the app's push-to-start "
            + "token and input-push-channel, then broadcast updates.")
      ]
      return decision
    }
    let message = BroadcastChannel.StoredMessage(
      at: now, event: event, timestamp: timestamp, contentState: content.contentState, staleDate: content.staleDate,
      dismissalDate: content.dismissalDate, title: notification.title, body: notification.body)
    let stores = channels[channelIndex].storagePolicy == .mostRecent
    if stores { channels[channelIndex].lastMessage = message }
    var updated = 0
    var stale = 0
    for index in liveActivities.indices
    where liveActivities[index].channelID == channelID && liveActivities[index].bundleID == notification.bundleID
      && liveActivities[index].endedAt == nil
    {
      guard timestamp > liveActivities[index].lastTimestamp else {
        stale += 1
        continue
      }
      Self.apply(message, to: &liveActivities[index], at: now)
      updated += 1
    }
    let kept = stores ? " The channel keeps it for an activity that subscribes within 8 hours." : ""
    guard updated > 0 else {
      let why =
        stale > 0
        ? "its timestamp is not newer than the \(stale) subscribed activit\(stale == 1 ? "y's" : "ies'")"
        : "no running Live Activity subscribes to it"
      decision.reasons = [
        Reason(.liveActivityIgnored, "Through broadcast channel \(channelID): \(why), so nothing is updated.\(kept)")
      ]
      return decision
    }
    decision.disposition = .delivered
    let what = event == .end ? "end" : "show the new state"
    let count = updated == 1 ? "1 Live Activity" : "\(updated) Live Activities"
    decision.reasons = [
      Reason(
        event == .end ? .liveActivityEnded : .liveActivityUpdated,
        "Through broadcast channel \(channelID): \(count) \(updated == 1 ? (event == .end ? "ends" : "shows the new state") : what).\(kept)"
      )
    ]
    if stale > 0 {
      decision.reasons.append(
        Reason(
          .liveActivityIgnored,
          "\(stale) subscribed activit\(stale == 1 ? "y has" : "ies have") a newer timestamp: not updated."))
    }
    decision.surfaces = [.liveActivity]
    if notification.hasVisibleContent {
      decision.surfaces.append(isLocked ? .lockScreen : .banner)
    }
    return decision
  }

  /// A date outside the simulated years is treated as absent rather than clamped.
  static func instant(_ value: Double?) -> SimInstant? { value.flatMap { SimInstant(exactlyEpochSeconds: $0) } }

  /// Applies an update or end to a running activity.
  static func apply(_ message: BroadcastChannel.StoredMessage, to activity: inout LiveActivity, at now: SimInstant) {
    activity.lastTimestamp = message.timestamp
    if let state = message.contentState { activity.contentState = state }
    if let stale = instant(message.staleDate) { activity.staleDate = stale }
    if let title = message.title { activity.title = title }
    if let body = message.body { activity.body = body }
    if message.event == .end {
      activity.endedAt = now
      activity.dismissalDate = instant(message.dismissalDate) ?? now + .hours(4)
    }
  }

  /// The push token an activity started with `input-push-token: 1` gets: 64 hex digits made
  /// from the app and the push's index, so the same timeline always gives the same tokens.
  static func activityToken(bundleID: String, index: Int) -> String {
    // FNV-1a over the bundle id, then the index: deterministic, and distinct per push.
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bundleID.utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x100_0000_01b3
    }
    let left = String(hash, radix: 16)
    let right = String(UInt64(truncatingIfNeeded: index), radix: 16)
    let head = String(repeating: "0", count: 16 - left.count) + left
    let tail = String(repeating: "0", count: 16 - right.count) + right
    return "ac71" + String(repeating: "0", count: 28) + head + tail
  }

  /// The first 8 and last 4 hex digits of a token, for messages.
  static func short(_ token: String) -> String {
    token.count <= 16 ? token : "\(token.prefix(8))…\(token.suffix(4))"
  }

  /// What the screens show now.
  public func snapshot() -> DeviceSnapshot {
    DeviceSnapshot(
      now: now, utcOffsetSeconds: profile.utcOffsetSeconds, isLocked: isLocked, activeFocus: activeFocus?.name,
      apps: Dictionary(profile.apps.map { ($0.bundleID, $0.info) }, uniquingKeysWith: { first, _ in first }),
      notifications: store.all.filter { $0.heldUntil == nil }.map(\.notification))
  }
}

/// Shares the storage of lists that repeat across notifications (one surfaces list for a
/// million notifications instead of a million copies).
struct InternTable: Sendable {
  private var surfaces: Set<[Surface]> = []
  private var callbacks: Set<[AppCallback]> = []
  /// The values shared last: consecutive pushes mostly repeat them, and comparing a short list
  /// costs less than hashing it.
  private var lastSurfaces: [Surface] = []
  private var lastCallbacks: [AppCallback] = []

  /// Replaces the notification's repeating values by their shared copies.
  mutating func share(_ stored: inout StoredNotification) {
    if stored.decision.surfaces == lastSurfaces {
      stored.decision.surfaces = lastSurfaces
    } else {
      lastSurfaces = surfaces.insert(stored.decision.surfaces).memberAfterInsert
      stored.decision.surfaces = lastSurfaces
    }
    if stored.decision.callbacks == lastCallbacks {
      stored.decision.callbacks = lastCallbacks
    } else {
      lastCallbacks = callbacks.insert(stored.decision.callbacks).memberAfterInsert
      stored.decision.callbacks = lastCallbacks
    }
  }
}

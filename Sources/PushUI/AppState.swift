import PushCore

/// Which screen the front end shows underneath any overlay.
public enum Screen: Equatable, Sendable {
  /// The lock screen with the clock, Live Activities and notification stacks.
  case lock
  /// Notification Center: every stored notification, grouped and ranked.
  case center
  /// One notification opened in full.
  case detail(NotificationID)
}

/// A tool pane beside (wide terminals) or over (narrow ones) the screen.
public enum Pane: Equatable, Sendable {
  /// The scenario or capture timeline with playback controls.
  case timeline
  /// Focus, lock and the selected app's authorization and settings.
  case settings
}

/// A one-line field in the status line that takes typed text.
public enum Prompt: Equatable, Sendable {
  /// Seek to a time: `+5m`, `-30s`, `09:45`.
  case seek(String)

  /// The text typed so far.
  public var text: String {
    switch self {
    case .seek(let text): text
    }
  }
}

/// What is drawn over the screen and takes the keys first.
public enum Overlay: Equatable, Sendable {
  /// The help overlay listing every key.
  case help
  /// The action sheet (iOS's long press) for a notification.
  case actionSheet(ActionSheet)
  /// "Clear all notifications?": `C` asks first; Enter or `y` clears, anything else keeps them.
  case confirmClearAll
  /// A provisional app's Keep… (how to deliver) or Turn Off… (a confirmation), reference §4.2.
  case provisional(ProvisionalChoice)
}

/// What Keep… and Turn Off… under a provisional notification ask (reference §4.2): Keep offers
/// Deliver Immediately, and Deliver in Scheduled Summary when the summary is on; Turn Off asks
/// to confirm before notifications are turned off.
public struct ProvisionalChoice: Equatable, Sendable {
  /// Which button was pressed.
  public enum Kind: Equatable, Sendable { case keep, turnOff }
  /// One of Keep's choices.
  public enum Option: Equatable, Sendable {
    case deliverImmediately, deliverInSummary

    /// The words iOS uses.
    public var title: String {
      self == .deliverImmediately ? "Deliver Immediately" : "Deliver in Scheduled Summary"
    }
  }

  /// The app it is about.
  public var bundleID: String
  public var kind: Kind
  /// Keep's choices, in order (Deliver in Scheduled Summary only while the summary is on).
  public var options: [Option]
  /// The highlighted choice.
  public var highlighted: Int

  public init(bundleID: String, kind: Kind, options: [Option] = [], highlighted: Int = 0) {
    self.bundleID = bundleID
    self.kind = kind
    self.options = options
    self.highlighted = highlighted
  }
}

/// The action sheet's state: the notification, the highlighted action and what is being asked.
public struct ActionSheet: Equatable, Sendable {
  /// What the sheet is doing.
  public enum Stage: Equatable, Sendable {
    /// Choosing an action.
    case choosing
    /// An authentication-required action was chosen on a locked phone: asking to unlock first.
    case confirmUnlock(actionID: String)
    /// A text-input action was chosen: the inline reply field and its text.
    case reply(actionID: String, text: String)
  }

  /// The notification whose actions are shown.
  public var notification: NotificationID
  /// The highlighted action's index.
  public var highlighted: Int
  /// What the sheet is doing.
  public var stage: Stage

  /// Creates a sheet with the first action highlighted.
  public init(notification: NotificationID, highlighted: Int = 0, stage: Stage = .choosing) {
    self.notification = notification
    self.highlighted = highlighted
    self.stage = stage
  }
}

/// A short message shown above the status bar, for example the outcome of an action.
public struct Toast: Equatable, Sendable {
  /// The text.
  public var text: String
  /// When it leaves (simulated time).
  public var expiresAt: SimInstant
  /// The real time it was first seen (``AppState/wallElapsed``): with the clock paused it
  /// leaves after the same span of real time.
  public var wallShownAt: SimDuration? = nil
}

/// How keys are read: as commands, or as text typed into a field.
public enum InputMode: Equatable, Sendable {
  /// Keys are looked up in the key map.
  case commands
  /// Printable keys are typed into the reply field or the prompt.
  case textEntry
  /// The settings pane: ← → change the highlighted setting; other keys are commands.
  case settings
}

/// The front end's state: the simulated device, the events still to come, and what the UI shows.
///
/// The device is a pure ``DeviceSimulator``; time arrives as ``Event/tick(_:)`` and timeline
/// events are applied when they fall due, so the same inputs always give the same state.
public struct AppState: Sendable {
  /// The simulated iPhone.
  public internal(set) var device: DeviceSimulator
  /// Events still to come, in time order (capture lines kept as references: ``TimelineStore``).
  public internal(set) var timeline: TimelineStore
  /// Whether what the device changes is collected in ``changes`` for the shell's journal.
  public var journalsChanges = false
  /// What the device changed since the shell last took it (only with ``journalsChanges``): the
  /// device's own change set, written by the ingest step as each event is applied.
  public internal(set) var changes = DeviceChanges()
  /// Where the change set goes in slices while a long turn plays (a seek over a million
  /// pushes), every ``changeSliceSize`` applied events, instead of waiting whole for the end
  /// of the turn: the shell's journal. Nil: the changes wait for ``takeChanges()``.
  public var changeSlices: (any ChangeSliceSink)?
  /// The most pushes and other events a slice handed to ``changeSlices`` holds.
  public var changeSliceSize = 4_096
  /// Where a device that keeps no payload details (a large capture) finds them again: the
  /// shell's state database (``detailed(_:)``). Nil: they are not kept anywhere.
  public var deliveryDetails: (any DeliveryDetails)?

  /// Takes what the device changed since the last call, for the shell to journal.
  public mutating func takeChanges() -> DeviceChanges {
    defer { changes = DeviceChanges() }
    return changes
  }

  /// The index of the next timeline entry to apply.
  public internal(set) var timelineCursor = 0
  /// Timeline entries applied, ever (seeks back replay some again): what the seek tests count.
  public internal(set) var playedEntryCount = 0
  /// A device played ahead on another thread over the same timeline, which a long move of the
  /// clock takes instead of playing every entry here (``fastForward(toward:)``).
  public var playAhead: (any PlayAhead)?
  /// How many times the state took the place of the device played ahead.
  public internal(set) var playAheadTakeovers = 0
  /// Checkpoints this state keeps of itself for seeks, when the shell asks for them (`run` on a
  /// large capture with a state database); nil: none.
  public var seekCheckpoints: SeekCheckpoints?
  /// How many times a seek took the place of one of them (what the tests count).
  public internal(set) var seekCheckpointRestores = 0
  /// At most this many timeline entries are played in one tick (nil: all that are due): `run`
  /// sets it so that a long move of the clock plays over several turns, the screen following it,
  /// instead of freezing until the last entry is played.
  public var playSlice: Int?
  /// Where the clock is going while the state has not got there yet (the device played ahead
  /// is still reading, or the entries are played a slice a turn): shown on the status line.
  public internal(set) var followingTo: SimInstant?
  /// Entries appended after the cursor had passed their time (played at the current time, out
  /// of time order): the device played ahead no longer stands for this one.
  var lateArrivals = 0
  /// Pushes `run --listen` put on the timeline (``receive(_:)``): a device played ahead does not
  /// have them, so it no longer stands for the front end.
  var liveArrivals = 0
  /// Whether the push being played came from outside (``receive(_:)``): one the device drops
  /// then says so in a toast, since the sender is waiting to see it (a timeline's drops do not:
  /// they would be a toast a push on a fast clock; the timeline and `explain` show them).
  var followsLiveArrival = false
  /// The simulated now.
  public internal(set) var now: SimInstant
  /// The screen showing.
  public var screen: Screen = .lock
  /// The list a notification was opened from (``Screen/detail(_:)``), where Esc goes back to.
  public var detailOrigin: Screen = .center
  /// The overlay over the screen, if any.
  public var overlay: Overlay?
  /// Whether the inspector pane is open.
  public var isInspectorOpen = false
  /// How far the inspector is scrolled (rows of its wrapped text), and for what: another
  /// notification or rejected push shows from its top (``inspectorScrollRows``).
  var inspectorScroll: (subject: InspectorSubject, rows: Int)?
  /// The furthest the inspector could scroll in the last frame drawn: the runtime sets it from
  /// the frame (the pane's wrapped text is laid out by the renderer), so PgDn stops at the end.
  public var inspectorScrollLimit: Int?
  /// How far the opened notification is scrolled (rows of its wrapped content), and which one:
  /// a notification opened anew shows from its top (``detailScrollRows``).
  var detailScroll: (id: NotificationID, rows: Int)?
  /// The furthest the opened notification could scroll in the last frame drawn (0 when all of
  /// it fits): the runtime sets it from the frame, as ``inspectorScrollLimit``.
  public var detailScrollLimit: Int?
  /// How many rows PgDn scrolls the opened notification, from the last frame drawn (its
  /// window less one row); nil before one is drawn.
  public var detailPageRows: Int?
  /// The tool pane showing (timeline or settings), if any; it takes the inspector's place.
  public var pane: Pane?
  /// The status-line field taking typed text, if any.
  public internal(set) var prompt: Prompt?
  /// Where the cursor is in the field taking typed text (the prompt or the reply field): how
  /// many characters follow it. A field opens with it at the end (0).
  public internal(set) var charactersAfterCursor = 0

  /// The text being typed, with its cursor: the prompt's, or the action sheet's reply field's.
  /// Setting it writes the text and the cursor back into that field (nothing when none is open).
  public internal(set) var editedText: EditedText? {
    get {
      if let prompt { return EditedText(prompt.text, charactersAfterCursor: charactersAfterCursor) }
      if case .actionSheet(let sheet)? = overlay, case .reply(_, let text) = sheet.stage {
        return EditedText(text, charactersAfterCursor: charactersAfterCursor)
      }
      return nil
    }
    set {
      guard let edited = newValue else { return }
      if case .seek? = prompt {
        prompt = .seek(edited.text)
      } else if case .actionSheet(var sheet)? = overlay, case .reply(let actionID, _) = sheet.stage {
        sheet.stage = .reply(actionID: actionID, text: edited.text)
        overlay = .actionSheet(sheet)
      } else {
        return
      }
      charactersAfterCursor = edited.charactersAfterCursor
    }
  }
  /// Whether the clock is playing and how fast.
  public internal(set) var playback = Playback()
  /// The device as it started, kept so seeking back can rebuild it and replay the timeline.
  public let initialDevice: DeviceSimulator
  /// Device events the user caused (lock, clear, settings…), replayed when seeking back.
  public internal(set) var userEvents: [TimelineEntry] = []
  /// How many timeline entries have been logged for the shell's journal (the most ever applied).
  var journaledTimelineCount = 0
  /// The highlighted row of the settings pane.
  public var settingsSelection = 0
  /// The app the settings pane shows.
  public var settingsApp: String?
  /// Banners waiting or showing; the first one is on screen.
  public internal(set) var banners: [Banner] = []
  /// Rejected pushes, newest last, by their delivery record's ``DeliveryRecord/index`` (at most
  /// ``rejectionLimit`` kept; ``rejectedCount`` counts them all).
  public internal(set) var rejections: [Int] = []
  /// How many pushes the device rejected so far.
  public internal(set) var rejectedCount = 0
  /// How many pushes a continued state's journal holds as rejected from earlier sessions (counted
  /// on the status line; their records were not restored).
  public var savedRejectedCount = 0
  /// Pushes `run --listen`'s endpoint refused, newest last (at most ``refusalLimit`` kept;
  /// ``refusedCount`` counts them all). Not device state: a seek back keeps them.
  public internal(set) var endpointRefusals: [EndpointRefusal] = []
  /// How many pushes the endpoint refused so far.
  public internal(set) var refusedCount = 0
  /// How many refusals were dropped from the front of ``endpointRefusals``.
  var droppedRefusals = 0
  /// The address `run --listen` answers on (`127.0.0.1:8443`), shown on the status line for as
  /// long as it listens; the toast that first says so leaves after a few seconds.
  public var listeningOn: String?
  /// The rejected push the inspector shows, instead of the selected notification.
  public internal(set) var inspectedRejection: RejectedPush?
  /// The most rejected pushes kept for the inspector.
  public static let rejectionLimit = 10_000
  /// The help overlay's first row shown (it scrolls when the terminal is short).
  public internal(set) var helpScroll = 0
  /// Real time since the front end started, as the shell last reported it (``Event/wallClock(elapsed:)``).
  public internal(set) var wallElapsed: SimDuration?
  /// The message above the status bar, if any.
  public internal(set) var toast: Toast?
  /// The latest rejection's message that came while a younger toast had not been readable yet:
  /// shown when that toast leaves (``toastLeft()``), so a rejection is never only counted.
  var waitingToast: String?
  /// Notifications released by the last Scheduled Summary, shown as one card on the lock screen.
  public internal(set) var summary: [NotificationID] = []
  /// The selected row on the lock screen (an index into ``lockScreenGroups()``).
  public var lockSelection = 0
  /// The selected row in Notification Center (an index into ``centerRows()``).
  public var centerSelection = 0
  /// Stacks expanded in Notification Center.
  public var expanded: Set<GroupKey> = []
  /// The terminal's width in columns, as last reported.
  public var terminalColumns: Int
  /// The terminal's height in rows, as last reported.
  public var terminalRows: Int
  /// Whether the runtime moves time only when asked (shown in the status bar).
  public var isManualClock = false
  /// Whether this state is one pane of `run --compare`'s split view (keys only, no handlers):
  /// the help says so instead of describing the mouse.
  public var isSplitPane = false
  /// The next action invocation's id.
  public internal(set) var nextInvocationID = 1
  /// Elements the per-event bookkeeping (banner queue, summary card, removals, releases) has
  /// looked at, ever: what the scale test holds to O(n log n) for n events.
  var bookkeepingSteps = 0
  /// The store's removal count the banners and summary card have followed.
  var followedRemovals = 0
  /// The store's Scheduled Summary release count the summary card has followed.
  var followedReleases = 0
  /// Each notification's delivery record, by its ``DeliveryRecord/index`` (see ``record(for:)``).
  var recordIndex: [NotificationID: Int] = [:]
  /// The lock screen's stacks as last computed, with the store revision and summary they used
  /// (and the summary as an exclusion), updated from the store's changes.
  var lockGroupsCache:
    (revision: Int, summary: [NotificationID], exclusion: StackExclusion, groups: [NotificationGroup])?
  /// Notification Center's stacks and rows as last computed, with the store revision and
  /// expansions used, updated from the store's changes.
  var centerRowsCache: (revision: Int, expanded: Set<GroupKey>, groups: [NotificationGroup], rows: [CenterRow])?

  /// Creates the state for a device and the events still to come.
  ///
  /// - Parameters:
  ///   - device: the simulated iPhone as it starts.
  ///   - timeline: events to apply as time passes; sorted here by time (stable).
  ///   - terminalColumns: the terminal's width.
  ///   - terminalRows: the terminal's height.
  public init(
    device: DeviceSimulator, timeline: [TimelineEntry] = [], terminalColumns: Int = 80,
    terminalRows: Int = 24
  ) {
    self.init(
      device: device,
      ordered: TimelineStore(
        timeline.enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }.map(\.element)),
      terminalColumns: terminalColumns, terminalRows: terminalRows)
  }

  /// Creates the state for a device and a timeline already in time order, kept as it is (a
  /// scenario's, whose entries repeated through aliases share their events:
  /// ``TimelineStore/append(sharing:)``).
  public init(
    device: DeviceSimulator, ordered timeline: TimelineStore, terminalColumns: Int = 80, terminalRows: Int = 24
  ) {
    self.device = device
    self.initialDevice = device
    self.timeline = timeline
    self.now = device.now
    self.terminalColumns = terminalColumns
    self.terminalRows = terminalRows
    self.followedRemovals = device.store.removalCount
    self.followedReleases = device.store.releaseCount
    for record in device.records {
      if let id = record.notification?.id { recordIndex[id] = record.index }
    }
  }

  /// How keys are read now.
  public var inputMode: InputMode {
    if case .actionSheet(let sheet)? = overlay, case .reply = sheet.stage { return .textEntry }
    if overlay == .confirmClearAll { return .textEntry }
    if case .provisional(let choice)? = overlay, choice.kind == .turnOff { return .textEntry }
    if prompt != nil { return .textEntry }
    if overlay == nil, pane == .settings { return .settings }
    return .commands
  }

  /// The banner on screen, if any.
  public var currentBanner: Banner? { banners.first }

  /// The time of the next timeline event, if any.
  public var nextEventAt: SimInstant? {
    timelineCursor < timeline.count ? timeline.instant(timelineCursor) : nil
  }

  /// How many timeline events have not happened yet.
  public var pendingEventCount: Int { timeline.count - timelineCursor + laterEventCount }

  /// Events known to come after the timeline's end that the shell did not keep (`render`
  /// streams a capture and keeps nothing past its frame); counted as still to come.
  public var laterEventCount = 0

  /// How much of the inputs has been read while the front end already runs (0 to 1), shown on
  /// the status line; nil once everything is read.
  public var readingProgress: Double?

  /// Whether timeline entries are moved out as they arrive instead of copied, for a state that
  /// forgets them (``forgetArrivedTimeline()``) and never seeks back.
  public var consumesArrivedTimeline = false

  /// The delivery record of a notification (its decision, diagnostics and rank at arrival).
  public func record(for id: NotificationID) -> DeliveryRecord? {
    guard let index = recordIndex[id] else {
      // A device keeping a window of records is not indexed (a million-push frame): look in it.
      guard device.recordWindow != nil else { return nil }
      return device.records.last { $0.notification?.id == id }
    }
    let offset = index - device.firstRecordIndex
    guard offset >= 0, offset < device.records.count else { return nil }
    return device.records[offset]
  }

  /// A rejected push's delivery record, by record index, while the device still keeps it.
  public func rejectedRecord(_ index: Int) -> DeliveryRecord? {
    let offset = index - device.firstRecordIndex
    guard offset >= 0, offset < device.records.count else { return nil }
    let record = device.records[offset]
    return record.index == index && record.decision.disposition == .rejected ? record : nil
  }

  /// The app's description for display.
  public func appInfo(_ bundleID: String) -> AppInfo {
    device.app(bundleID)?.info ?? AppInfo.inferred(from: bundleID)
  }

  /// The category a notification names, when its app registered it.
  public func category(of notification: PushNotification) -> NotificationCategory? {
    device.app(notification.bundleID)?.category(notification.category)
  }

  /// The actions the action sheet offers for a notification: the category's, in order, at most 10.
  public func actions(for id: NotificationID) -> [NotificationAction] {
    actions(for: id, space: .unlimited)
  }

  /// The actions shown for a notification where there is `space`: the category's, in
  /// registration order, at most 2 where space is limited (a banner) and 10 where it is not
  /// (the action sheet, the opened notification), as on iOS.
  public func actions(for id: NotificationID, space: ActionSpace) -> [NotificationAction] {
    guard let stored = device.store[id] else { return [] }
    return actions(of: stored.notification, space: space)
  }

  /// The actions shown for a notification's content where there is `space`, stored or not (a
  /// banner of an app whose Notification Center is off carries its content).
  public func actions(of notification: PushNotification, space: ActionSpace) -> [NotificationAction] {
    Array((category(of: notification)?.actions ?? []).prefix(space.maxActions))
  }

  /// Whether the app that sent a notification is provisionally authorized (Keep… / Turn Off).
  public func isProvisional(_ id: NotificationID) -> Bool {
    guard let stored = device.store[id] else { return false }
    return device.app(stored.notification.bundleID)?.authorization == .provisional
  }
}

/// How much room a notification's actions have (`UNNotificationCategory`'s actions).
public enum ActionSpace: Sendable {
  /// A banner or another compact presentation: at most 2 actions.
  case limited
  /// The action sheet or the opened notification: up to 10.
  case unlimited

  /// The most actions shown.
  public var maxActions: Int { self == .limited ? 2 : 10 }
}

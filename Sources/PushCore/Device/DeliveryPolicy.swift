import Synchronization

/// The state of the device that a delivery decision depends on, besides the app itself.
public struct DeliveryContext: Equatable, Sendable {
  /// When the push arrives.
  public var now: SimInstant
  public var isLocked: Bool
  /// The Ring/Silent switch is on silent.
  public var isSilentMode: Bool
  /// The Focus that is on, if any.
  public var focus: FocusMode?
  /// Scheduled Summary times (local); empty when the summary is off.
  public var summaryTimes: [TimeOfDay]
  public var utcOffsetSeconds: Int
  /// The per-app hourly budget for silent pushes.
  public var silentPushesPerHour: Int
  /// Silent pushes this app received in the hour before `now`.
  public var recentSilentPushes: Int
  /// A delivered notification of this app with the same `apns-collapse-id`, if any.
  public var collapseTarget: NotificationID?

  public init(
    now: SimInstant, isLocked: Bool = false, isSilentMode: Bool = false, focus: FocusMode? = nil,
    summaryTimes: [TimeOfDay] = [], utcOffsetSeconds: Int = 0, silentPushesPerHour: Int = 3,
    recentSilentPushes: Int = 0, collapseTarget: NotificationID? = nil
  ) {
    self.now = now
    self.isLocked = isLocked
    self.isSilentMode = isSilentMode
    self.focus = focus
    self.summaryTimes = summaryTimes
    self.utcOffsetSeconds = utcOffsetSeconds
    self.silentPushesPerHour = silentPushesPerHour
    self.recentSilentPushes = recentSilentPushes
    self.collapseTarget = collapseTarget
  }

  /// The first summary time strictly after `now`, today or tomorrow.
  public func nextSummary() -> SimInstant? {
    guard !summaryTimes.isEmpty else { return nil }
    // Saturating: `now` is in EpochRange on every checked path, and a clock that is not must
    // give a wrong summary time, not a trap.
    let dayStart = now.startOfLocalDay(utcOffsetSeconds: utcOffsetSeconds).milliseconds
    let candidates = summaryTimes.sorted().map { Int64($0.minutes).saturatingMultiply(60_000) }
    let next =
      candidates.map { dayStart.saturatingAdd($0) }.first { $0 > now.milliseconds }
      ?? dayStart.saturatingAdd(86_400_000).saturatingAdd(candidates[0])
    return SimInstant(milliseconds: next)
  }
}

/// Decides, as iOS would, what happens to one push: a pure function of the notification, the
/// app's profile and the device's state, returning every reason it applied.
///
/// The rules and their sources are in `shared/reference/apple-notifications.md`; the choices
/// made where iOS's behaviour is unverified are in `docs/DECISIONS.md`. The decision is made in
/// ``stages``, in order; the order of the stages is the order of the reasons in the result.
public enum DeliveryPolicy {
  /// Decides the fate of a valid push. Live Activity pushes are handled by the activity store.
  ///
  /// - Parameters:
  ///   - notification: the push, validated and normalised.
  ///   - app: the app's profile; nil when the app is not installed.
  ///   - context: the device's state at arrival.
  public static func decide(
    _ notification: PushNotification, app: AppProfile?, context: DeliveryContext
  ) -> DeliveryDecision {
    var decision = DeliveryDecision(disposition: .delivered, effectiveLevel: notification.level)
    // Before the device: APNs discards an expired push (reference §2.2).
    if let expiration = notification.expiration, expiration < context.now {
      decision.disposition = .dropped
      decision.reasons.append(
        Reason(.expired, "apns-expiration passed before the device could receive it, so APNs discarded it."))
      return decision
    }
    guard let app else {
      decision.disposition = .dropped
      decision.reasons.append(
        Reason(
          .appNotInstalled, "\(notification.bundleID) is not installed on this device, so nothing is delivered."))
      return decision
    }
    var deciding = Deciding(notification: notification, app: app, context: context, decision: consume decision)
    // Room for the usual reasons and surfaces at once (in the decision the stages write, so no
    // other copy holds them): grown one by one, the two arrays were allocated two to three times
    // for every push (heaptrack).
    deciding.decision.reasons.reserveCapacity(4)
    deciding.decision.surfaces.reserveCapacity(3)
    for stage in stages {
      stage(&deciding)
      if deciding.isDecided { break }
    }
    // Taken out of the decision in progress, not copied from it (a copy retained its lists).
    var decided = DeliveryDecision(disposition: .delivered)
    swap(&decided, &deciding.decision)
    return decided
  }

  /// The decision in progress: what it depends on, and what is decided so far.
  struct Deciding {
    let notification: PushNotification
    let app: AppProfile
    let context: DeliveryContext
    var decision: DeliveryDecision
    /// Set by the stage that decides; the later stages do not run.
    var isDecided = false

    /// The app's notification settings.
    var settings: AppNotificationSettings { app.settings }
    /// The interruption level after ``interruptionLevel`` applied the app's entitlements.
    var level: InterruptionLevel { decision.effectiveLevel }
    /// How a shown notification is stored: in place of the one it collapses, or new.
    var stored: Disposition { decision.replaces == nil ? .delivered : .replaced }

    /// Adds a reason.
    mutating func note(_ code: ReasonCode, _ text: String) { decision.reasons.append(Reason(code, text)) }

    /// Ends the decision with a disposition and its reason.
    mutating func finish(_ disposition: Disposition, _ code: ReasonCode, _ text: String) {
      decision.disposition = disposition
      note(code, text)
      isDecided = true
    }

    /// Ends the decision with a disposition whose reasons are already noted.
    mutating func finish(_ disposition: Disposition) {
      decision.disposition = disposition
      isDecided = true
    }
  }

  /// One step of the decision: reads the decision in progress and adds to it, or ends it.
  typealias Stage = @Sendable (inout Deciding) -> Void

  /// The stages for an installed app, in order (reference sections in brackets): push types that
  /// are not user notifications [§2.3, §3], background pushes [§9], pushes with nothing to show [§1.4], authorization [§4.1, §4.2], the interruption
  /// level [§5], the service extension [§10], waking the app [§9], collapsing [§13], the
  /// foreground [§4.4], provisional delivery [§4.2], the badge [§13], a push without text
  /// [§1.4], the Scheduled Summary [§8], the Focus [§6], passive notifications [§5], then where
  /// it shows [§4.3], its sound [§13], its previews [§4.3] and the closing reason.
  static let stages: [Stage] = [
    otherPushType, silentPush, nothingToShow, authorization, interruptionLevel, serviceExtension, contentAvailableWake,
    collapse,
    foreground, provisional, badge, withoutText, scheduledSummary, focus, passive, alertSurfaces, sound, previews,
    deliveredNormally,
  ]

  /// A push whose `apns-push-type` is not a user notification (VoIP, Push to Talk, File Provider,
  /// location, widgets, controls, complication, MDM) goes to the framework or extension that
  /// registered for it: iOS shows nothing of it, alert or not, and it is not kept (reference
  /// §2.3's table, §3: only alert and background pushes are app notifications). Before, a VoIP
  /// push with an alert was a banner and a card in Notification Center.
  static func otherPushType(_ deciding: inout Deciding) {
    let receiver: String
    switch deciding.notification.pushType {
    case .alert, .background, .liveactivity: return
    case .voip: receiver = "the app's PushKit delegate, which must report a call to CallKit"
    case .pushtotalk: receiver = "the app's Push to Talk channel (PTChannelManager)"
    case .fileprovider: receiver = "the app's File Provider extension"
    case .location: receiver = "the app's Location Push Service Extension"
    case .widgets: receiver = "WidgetKit, which reloads the app's widgets"
    case .controls: receiver = "the app's controls, which reload"
    case .complication: receiver = "the paired Apple Watch's complication"
    case .mdm: receiver = "the device management service"
    }
    deciding.finish(
      .delivered, .notAUserNotification,
      "A \(deciding.notification.pushType.rawValue) push goes to \(receiver): iOS shows nothing of it, alert or not.")
  }

  /// A background push (content-available only) is decided by ``decideSilent``.
  static func silentPush(_ deciding: inout Deciding) {
    guard deciding.notification.isSilent else { return }
    _ = decideSilent(deciding.notification, app: deciding.app, context: deciding.context, decision: &deciding.decision)
    deciding.isDecided = true
  }

  /// A push with no alert, badge, sound or content-available does nothing.
  static func nothingToShow(_ deciding: inout Deciding) {
    guard !deciding.notification.isUserVisible else { return }
    deciding.finish(
      .dropped, .nothingToShow, "The push has no alert, badge, sound or content-available: nothing happens.")
  }

  /// Without permission nothing shows, though content-available may still wake the app; an
  /// App Clip's ephemeral authorization counts as authorized.
  static func authorization(_ deciding: inout Deciding) {
    let app = deciding.app
    switch app.authorization {
    case .notDetermined, .denied:
      let code: ReasonCode = app.authorization == .denied ? .notificationsDenied : .notificationsNotDetermined
      let text =
        app.authorization == .denied
        ? "Notifications are turned off for \(app.info.displayName), so nothing is shown."
        : "\(app.info.displayName) never asked for permission, so nothing is shown."
      deciding.note(code, text)
      if deciding.notification.isContentAvailable, app.state != .forceQuit, app.backgroundRemoteNotifications {
        deciding.decision.callbacks = wakeCallbacks(app.state)
        deciding.finish(.silent, .mixedPushWakesApp, "content-available still wakes the app in the background.")
        return
      }
      deciding.finish(.dropped)
    case .ephemeral:
      deciding.note(.ephemeralAuthorization, "App Clip ephemeral authorization: shown as if authorized.")
    case .authorized, .provisional:
      break
    }
  }

  /// The requested level, as the app's entitlements and settings allow (``effectiveLevel``).
  static func interruptionLevel(_ deciding: inout Deciding) {
    deciding.decision.effectiveLevel = effectiveLevel(
      deciding.notification.level, app: deciding.app, decision: &deciding.decision)
  }

  /// mutable-content runs the app's service extension before the notification is shown.
  static func serviceExtension(_ deciding: inout Deciding) {
    let notification = deciding.notification
    guard notification.isMutableContent && notification.hasVisibleContent else { return }
    if runsServiceExtension(notification, app: deciding.app) {
      deciding.decision.callbacks.append(.serviceExtension)
      deciding.note(
        .serviceExtensionRuns, "mutable-content is 1: the service extension runs before the notification is shown.")
    } else {
      deciding.note(
        .serviceExtensionMissing,
        "mutable-content is 1 but the app has no service extension: the content is shown as sent.")
    }
  }

  /// content-available on a visible push also wakes an app in the background.
  static func contentAvailableWake(_ deciding: inout Deciding) {
    let app = deciding.app
    guard deciding.notification.isContentAvailable, app.state == .background || app.state == .notRunning,
      app.backgroundRemoteNotifications
    else { return }
    deciding.decision.callbacks += wakeCallbacks(app.state)
    deciding.note(.mixedPushWakesApp, "content-available also wakes the app in the background.")
  }

  /// A matching `apns-collapse-id` replaces the delivered notification.
  static func collapse(_ deciding: inout Deciding) {
    guard let target = deciding.context.collapseTarget else { return }
    deciding.decision.replaces = target
    deciding.note(
      .collapsedReplacement, "apns-collapse-id matches \(target): this notification replaces it and alerts again.")
  }

  /// In the foreground, the app's willPresent decides everything.
  static func foreground(_ deciding: inout Deciding) {
    let app = deciding.app
    guard app.state == .foreground else { return }
    deciding.decision.callbacks.append(.willPresent)
    guard let options = app.foregroundPresentation, !options.isEmpty else {
      deciding.finish(
        .deliveredQuietly, .foregroundNotPresented, "The app is in the foreground and its willPresent shows nothing.")
      return
    }
    deciding.note(.foregroundWillPresent, "The app is in the foreground; willPresent returns \(describe(options)).")
    let settings = deciding.settings
    if options.contains(.banner) && settings.banners { deciding.decision.surfaces.append(.banner) }
    if options.contains(.list) && settings.notificationCenter {
      deciding.decision.surfaces.append(.notificationCenter)
    }
    if options.contains(.sound) {
      applySound(
        deciding.notification, level: deciding.level, app: app, context: deciding.context,
        decision: &deciding.decision)
    }
    if options.contains(.badge) { applyBadge(deciding.notification, app: app, decision: &deciding.decision) }
    deciding.finish(deciding.decision.surfaces.isEmpty ? .deliveredQuietly : deciding.stored)
  }

  /// Provisional authorization delivers quietly to Notification Center only.
  static func provisional(_ deciding: inout Deciding) {
    guard deciding.app.authorization == .provisional else { return }
    // A push with nothing to read has no card to put there (``withoutText``).
    deciding.decision.surfaces = deciding.notification.hasVisibleContent ? [.notificationCenter] : []
    deciding.finish(
      .deliveredQuietly, .provisionalQuietDelivery,
      "Provisional authorization: delivered quietly to Notification Center only, with Keep… and Turn Off.")
  }

  /// The badge, as the settings allow (``applyBadge``).
  static func badge(_ deciding: inout Deciding) {
    applyBadge(deciding.notification, app: deciding.app, decision: &deciding.decision)
  }

  /// A push with a badge or a sound but no text (no title, subtitle or body) shows nothing: no
  /// banner, nothing on the lock screen or in Notification Center, so nothing is held for a
  /// summary either. Its badge is set (``badge``) and its sound plays as its level, the Focus and
  /// the settings allow (reference §1.2, §1.4: a push alerts, badges and/or plays a sound, in
  /// any combination). Before, it showed as a blank "Notification" card, banner included.
  static func withoutText(_ deciding: inout Deciding) {
    guard !deciding.notification.hasVisibleContent else { return }
    let (app, context, level) = (deciding.app, deciding.context, deciding.level)
    var silencedBy: String?
    if level == .passive {
      silencedBy = "it is passive"
    } else if let focus = context.focus {
      // Whether the Focus lets it through, without the reasons that speak of where it shows.
      var scratch = DeliveryDecision(disposition: .delivered)
      if focusSilences(
        deciding.notification, level: level, app: app, focus: focus, isLocked: context.isLocked, decision: &scratch)
        == true
      {
        silencedBy = "\(focus.name) silences \(app.info.displayName)"
      }
    }
    if silencedBy == nil {
      applySound(deciding.notification, level: level, app: app, context: context, decision: &deciding.decision)
    }
    deciding.decision.surfaces = []
    // Nothing shows, so nothing is replaced: its apns-collapse-id leaves the notification it
    // matches where it is (docs/DECISIONS.md), and the decision says so rather than naming it
    // replaced (a state database read that as a removal the device never made).
    var keeps = ""
    if let target = deciding.decision.replaces {
      deciding.decision.replaces = nil
      deciding.decision.reasons.removeAll { $0.code == .collapsedReplacement }
      keeps = " Its apns-collapse-id matches \(target), which stays as it is."
    }
    let plays = deciding.decision.playsSound
    var text = "The push has no title, subtitle or body: nothing shows on screen or in Notification Center"
    if let silencedBy, deciding.notification.sound != nil {
      text += ", and no sound plays (\(silencedBy))."
    } else {
      text += plays ? "; its sound plays." : "."
    }
    deciding.finish(plays ? .delivered : .deliveredQuietly, .nothingToRead, text + keeps)
  }

  /// An app in the Scheduled Summary holds passive and active notifications until the next
  /// summary; direct messages and higher levels bypass it.
  static func scheduledSummary(_ deciding: inout Deciding) {
    let settings = deciding.settings
    guard settings.delivery == .scheduledSummary, let next = deciding.context.nextSummary() else { return }
    let level = deciding.level
    let directMessage = deciding.notification.sender != nil && settings.directMessages
    if level <= .active && !directMessage {
      deciding.decision.heldUntil = next
      deciding.decision.surfaces = [.notificationCenter]
      deciding.finish(
        .heldForSummary, .scheduledSummary,
        "\(deciding.app.info.displayName) delivers in the Scheduled Summary: held until \(CivilTime(next, utcOffsetSeconds: deciding.context.utcOffsetSeconds).clock)."
      )
      return
    }
    deciding.note(
      .summaryBypassed,
      directMessage
        ? "A direct message bypasses the Scheduled Summary."
        : "A \(level.rawValue) notification bypasses the Scheduled Summary.")
  }

  /// A Focus silences an app whatever the level, passive included (reference §6): its
  /// "show on Lock Screen" option then decides whether silenced notifications appear there.
  static func focus(_ deciding: inout Deciding) {
    let (app, context, level) = (deciding.app, deciding.context, deciding.level)
    guard let focus = context.focus,
      let silenced = focusSilences(
        deciding.notification, level: level, app: app, focus: focus, isLocked: context.isLocked,
        decision: &deciding.decision),
      silenced
    else { return }
    let lockScreen = showsSilencedOnLockScreen(level: level, app: app, focus: focus, isLocked: context.isLocked)
    deciding.decision.surfaces =
      (lockScreen ? [.lockScreen] : []) + (deciding.settings.notificationCenter ? [.notificationCenter] : [])
    applyPreviews(app: app, context: context, decision: &deciding.decision)
    deciding.finish(.deliveredQuietly)
  }

  /// A passive notification goes to the list without sound, banner or waking the screen.
  static func passive(_ deciding: inout Deciding) {
    guard deciding.level == .passive else { return }
    let settings = deciding.settings
    deciding.decision.surfaces =
      (settings.lockScreen && deciding.context.isLocked ? [.lockScreen] : [])
      + (settings.notificationCenter ? [.notificationCenter] : [])
    applyPreviews(app: deciding.app, context: deciding.context, decision: &deciding.decision)
    deciding.finish(
      .deliveredQuietly, .passiveLevel, "Passive: added to the list without sound, banner or waking the screen.")
  }

  /// Where an alerting notification shows: the lock screen or a banner, and Notification
  /// Center, as the settings allow (critical alerts show regardless).
  static func alertSurfaces(_ deciding: inout Deciding) {
    let (settings, level, name) = (deciding.settings, deciding.level, deciding.app.info.displayName)
    if deciding.context.isLocked {
      if settings.lockScreen || level == .critical {
        deciding.decision.surfaces.append(.lockScreen)
        deciding.note(.phoneLocked, "The phone is locked: it lights the lock screen.")
      } else {
        deciding.note(.lockScreenDisabled, "Lock Screen is off for \(name).")
      }
    } else if settings.banners || level == .critical {
      deciding.decision.surfaces.append(.banner)
    } else {
      deciding.note(.bannersDisabled, "Banners are off for \(name): no banner.")
    }
    if settings.notificationCenter {
      deciding.decision.surfaces.append(.notificationCenter)
    } else {
      deciding.note(
        .notificationCenterDisabled,
        deciding.context.isLocked
          ? "Notification Center is off for \(name): not kept in its list (only on the lock screen it lit)."
          : "Notification Center is off for \(name): not kept once its banner is gone.")
    }
  }

  /// The sound, as the level, the settings and the Ring/Silent switch allow (``applySound``).
  static func sound(_ deciding: inout Deciding) {
    applySound(
      deciding.notification, level: deciding.level, app: deciding.app, context: deciding.context,
      decision: &deciding.decision)
  }

  /// Whether the previews are hidden (``applyPreviews``).
  static func previews(_ deciding: inout Deciding) {
    applyPreviews(app: deciding.app, context: deciding.context, decision: &deciding.decision)
  }

  /// The closing reason of a notification that may alert: where it shows and whether it sounds.
  static func deliveredNormally(_ deciding: inout Deciding) {
    // The app's name, then the same few words for every push that shows in the same places
    // with or without sound: those are built once and kept (``alertTexts``), so a push costs
    // one concatenation instead of six appends (docs/PERFORMANCE.md, "Issue 15, 26 Nov (fifth
    // session)"). Read in place: a copy of the decision retained and released its lists.
    let throughFocus = deciding.context.focus != nil
    let playsSound = deciding.decision.playsSound
    // A marker bit above the two flags: without it, flags 01 read as a leading banner (code 1),
    // and "no Focus, sound, [notificationCenter]" shared a key with "no Focus, no sound,
    // [banner, notificationCenter]" (found in review). 3 + 12 × 4 bits.
    var key: UInt64 = 0b100 | (throughFocus ? 2 : 0) | (playsSound ? 1 : 0)
    var keyed = deciding.decision.surfaces.count <= 12
    for surface in deciding.decision.surfaces where keyed {
      guard let index = Surface.allCases.firstIndex(of: surface) else {
        keyed = false
        break
      }
      key = key << 4 | UInt64(index + 1)
    }
    let words: String
    if keyed, let known = alertTexts.withLock({ $0[key] }) {
      words = known
    } else {
      words = alertWords(
        surfaces: deciding.decision.surfaces, throughFocus: throughFocus, playsSound: playsSound)
      if keyed { alertTexts.withLock { $0[key] = words } }
    }
    deciding.finish(deciding.stored, .deliveredNormally, deciding.app.info.displayName + words)
  }

  /// What follows the app's name in a ``ReasonCode/deliveredNormally`` reason, by the places it
  /// shows, Focus and sound (a few dozen texts at most).
  private static let alertTexts = Mutex<[UInt64: String]>([:])

  /// " may alert: it shows as a banner and in Notification Center and plays its sound."
  static func alertWords(surfaces: [Surface], throughFocus: Bool, playsSound: Bool) -> String {
    var text = throughFocus ? " may alert through the Focus: " : " may alert: "
    if surfaces.isEmpty {
      text += "nothing shows"
    } else {
      text += "it shows "
      for (place, surface) in surfaces.enumerated() {
        if place > 0 { text += " and " }
        text += surface.words
      }
    }
    text += playsSound ? " and plays its sound." : " without sound."
    return text
  }

  static func decideSilent(
    _ notification: PushNotification, app: AppProfile, context: DeliveryContext, decision: inout DeliveryDecision
  ) -> DeliveryDecision {
    if app.state == .forceQuit {
      decision.disposition = .dropped
      decision.reasons.append(
        Reason(
          .silentToForceQuitApp, "The user force-quit \(app.info.displayName): iOS does not wake it for silent pushes.")
      )
    } else if !app.backgroundRemoteNotifications {
      decision.disposition = .dropped
      decision.reasons.append(
        Reason(.silentWithoutBackgroundMode, "The app lacks the remote-notification background mode: it is not woken."))
    } else if context.recentSilentPushes >= context.silentPushesPerHour {
      decision.disposition = .dropped
      decision.reasons.append(
        Reason(
          .silentBudgetExceeded,
          "Over the budget of \(context.silentPushesPerHour) silent pushes an hour: the app is not woken for it (iOS holds such a push until a newer one replaces it; counted as dropped)."
        ))
    } else {
      decision.disposition = .silent
      decision.callbacks = app.state == .foreground ? [.backgroundFetch] : wakeCallbacks(app.state)
      decision.reasons.append(
        Reason(
          .silentPush, "A background push: no alert; the app runs didReceiveRemoteNotification for up to 30 seconds."))
    }
    return decision
  }

  static func wakeCallbacks(_ state: AppRunState) -> [AppCallback] {
    switch state {
    case .notRunning: [.launchInBackground, .backgroundFetch]
    case .background, .foreground: [.backgroundFetch]
    case .forceQuit: []
    }
  }

  /// Applies entitlements and settings to the requested level.
  static func effectiveLevel(_ requested: InterruptionLevel, app: AppProfile, decision: inout DeliveryDecision)
    -> InterruptionLevel
  {
    switch requested {
    case .critical where !(app.criticalAlertsEntitled && app.settings.criticalAlerts):
      decision.reasons.append(
        Reason(
          .criticalDowngraded, "Critical needs the critical-alerts entitlement and permission: delivered as active."))
      return .active
    case .timeSensitive where !app.timeSensitiveEntitled:
      // Which of the two it lacks: the app's entitlement is the developer's to add, the
      // setting the user's to turn on (both read "is off"; found by an exploratory test).
      decision.reasons.append(
        Reason(
          .timeSensitiveDowngraded,
          "Time Sensitive needs the Time Sensitive Notifications entitlement, which \(app.info.displayName) does not have: delivered as active."
        ))
      return .active
    case .timeSensitive where !app.settings.timeSensitive:
      decision.reasons.append(
        Reason(
          .timeSensitiveDowngraded,
          "Time Sensitive is off for \(app.info.displayName) in its notification settings: delivered as active."))
      return .active
    default:
      return requested
    }
  }

  /// Whether the Focus silences the notification (nil never happens; the reason is recorded).
  static func focusSilences(
    _ notification: PushNotification, level: InterruptionLevel, app: AppProfile, focus: FocusMode, isLocked: Bool,
    decision: inout DeliveryDecision
  ) -> Bool? {
    if level == .critical {
      decision.reasons.append(Reason(.focusBreakthroughCritical, "Critical alerts break through \(focus.name)."))
      return false
    }
    if level == .timeSensitive && focus.allowsTimeSensitive {
      decision.reasons.append(
        Reason(.focusBreakthroughTimeSensitive, "\(focus.name) allows Time Sensitive notifications: it breaks through.")
      )
      return false
    }
    if let sender = notification.sender, focus.allowedPeople.contains(sender) {
      decision.reasons.append(
        Reason(.focusBreakthroughPerson, "\(sender) is allowed in \(focus.name): it breaks through."))
      return false
    }
    if focus.allowedApps.contains(app.bundleID) {
      if let allowed = focus.filterCriteria[app.bundleID], !(notification.filterCriteria.map(allowed.contains) ?? false)
      {
        decision.reasons.append(
          Reason(
            .focusFilterExcluded,
            "\(focus.name)'s Focus filter for \(app.info.displayName) does not match filter-criteria \(notification.filterCriteria.map { "\"\($0)\"" } ?? "(none)"): silenced."
          ))
        return true
      }
      decision.reasons.append(Reason(.focusBreakthroughApp, "\(app.info.displayName) is allowed in \(focus.name)."))
      return false
    }
    // A time-sensitive one is silenced by the Focus's own Time Sensitive switch too: said, as
    // it is the switch that would have let it through.
    let allows =
      level == .timeSensitive
      ? "does not allow Time Sensitive notifications or \(app.info.displayName)"
      : "does not allow \(app.info.displayName)"
    decision.reasons.append(
      Reason(
        .focusSilenced,
        showsSilencedOnLockScreen(level: level, app: app, focus: focus, isLocked: isLocked)
          ? "\(focus.name) is on and \(allows): silenced, delivered to Notification Center and the lock screen without sound."
          : "\(focus.name) is on and \(allows): silenced, delivered to Notification Center without sound."
      ))
    return true
  }

  /// Whether a notification the Focus silenced still goes to the lock screen: the Focus's
  /// option and the app's Lock Screen setting say so; a passive one lights nothing, so it is
  /// there only when the phone is locked as it arrives.
  static func showsSilencedOnLockScreen(level: InterruptionLevel, app: AppProfile, focus: FocusMode, isLocked: Bool)
    -> Bool
  {
    focus.showsSilencedOnLockScreen && app.settings.lockScreen && (level != .passive || isLocked)
  }

  /// Audio file extensions iOS does not play as a notification sound: it plays `.aiff`, `.wav`
  /// and `.caf` [§10] (an attachment may be MP3 or MPEG-4 audio; a sound may not).
  static let unplayableSoundExtensions: Set<String> = ["mp3", "m4a", "aac", "mp4", "ogg", "oga", "opus", "flac", "wma"]

  /// The sound file's name, when its extension names an audio format iOS does not play as a
  /// notification sound (it plays the default sound instead [§10, §13]). A name without an
  /// extension, or with one that is not an audio format, is left alone: whether the app
  /// bundles such a file cannot be known here.
  static func unplayableSoundFile(_ sound: SoundRequest?) -> String? {
    let name: String
    switch sound {
    case .named(let named)?: name = named
    case .critical(let named, _)?: name = named
    default: return nil
    }
    guard let dot = name.lastIndex(of: ".") else { return nil }
    return unplayableSoundExtensions.contains(name[name.index(after: dot)...].lowercased()) ? name : nil
  }

  static func applySound(
    _ notification: PushNotification, level: InterruptionLevel, app: AppProfile, context: DeliveryContext,
    decision: inout DeliveryDecision
  ) {
    // The sound asked for, read once (not a copy of the whole notification on every push).
    var requested = notification.sound
    if let file = unplayableSoundFile(requested) {
      if case .critical(_, let volume)? = requested {
        requested = .critical(name: "default", volume: volume)
      } else {
        requested = .systemDefault
      }
      decision.reasons.append(
        Reason(
          .soundFormatUnsupported,
          "\(file) is not an .aiff, .wav or .caf file, which iOS plays as a notification sound: the default sound stands in."
        ))
    }
    if level == .critical {
      decision.sound = requested ?? .critical(name: "default", volume: 1)
      decision.playsSound = true
      decision.reasons.append(
        Reason(.criticalAlert, "A critical alert plays its sound even in silent mode and Do Not Disturb."))
      return
    }
    guard var sound = requested else {
      decision.reasons.append(Reason(.soundNotRequested, "The payload asks for no sound."))
      return
    }
    // A critical sound on a notification that is not critical (no entitlement or permission,
    // or another level) is an ordinary sound: its name at the ringer's volume, and the Ring/
    // Silent switch and the Sounds setting apply [§5, §13]. (It was kept as "critical
    // alarm.caf at 50%" on a push explain had just said was delivered as active.)
    if case .critical(let name, _) = sound { sound = name == "default" ? .systemDefault : .named(name) }
    guard app.settings.sounds else {
      decision.reasons.append(Reason(.soundsDisabled, "Sounds are off for \(app.info.displayName): no sound."))
      return
    }
    decision.sound = sound
    if context.isSilentMode {
      decision.reasons.append(
        Reason(.silentMode, "The Ring/Silent switch is on silent: it vibrates instead of playing."))
      return
    }
    decision.playsSound = true
  }

  static func applyBadge(_ notification: PushNotification, app: AppProfile, decision: inout DeliveryDecision) {
    guard let badge = notification.badge else { return }
    guard app.settings.badges, app.authorization != .provisional else {
      decision.reasons.append(
        Reason(.badgesDisabled, "Badges are off for \(app.info.displayName): the icon is unchanged."))
      return
    }
    decision.badge = badge
    decision.reasons.append(
      badge == 0
        ? Reason(.badgeCleared, "badge 0 removes the app icon's badge.")
        : Reason(.badgeApplied, "The app icon's badge becomes \(badge)."))
  }

  static func applyPreviews(app: AppProfile, context: DeliveryContext, decision: inout DeliveryDecision) {
    let hidden: Bool
    switch app.settings.showPreviews {
    case .always: hidden = false
    case .whenUnlocked: hidden = context.isLocked
    case .never: hidden = true
    }
    guard hidden else { return }
    decision.previewsHidden = true
    decision.reasons.append(
      Reason(
        .previewsHidden,
        app.settings.showPreviews == .never
          ? "Show Previews is Never: only the app name shows."
          : "Show Previews is When Unlocked and the phone is locked: the content is hidden."))
  }

  static func describe(_ options: PresentationOptions) -> String {
    let names = PresentationOptions.names.filter { options.contains($0.1) }.map(\.0)
    return names.isEmpty ? "nothing" : "[" + names.joined(separator: ", ") + "]"
  }
}

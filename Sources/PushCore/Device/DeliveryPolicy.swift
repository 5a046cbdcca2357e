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
/// made where iOS's behaviour is unverified are in `docs/DECISIONS.md`. The order of the checks
/// is the order of the reasons in the result.
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
    func finish(_ disposition: Disposition, _ code: ReasonCode, _ text: String) -> DeliveryDecision {
      decision.disposition = disposition
      decision.reasons.append(Reason(code, text))
      return decision
    }

    if let expiration = notification.expiration, expiration < context.now {
      return finish(
        .dropped, .expired, "apns-expiration passed before the device could receive it, so APNs discarded it.")
    }
    guard let app else {
      return finish(
        .dropped, .appNotInstalled, "\(notification.bundleID) is not installed on this device, so nothing is delivered."
      )
    }
    if notification.isSilent {
      return decideSilent(notification, app: app, context: context, decision: &decision)
    }
    if !notification.isUserVisible {
      return finish(
        .dropped, .nothingToShow, "The push has no alert, badge, sound or content-available: nothing happens.")
    }

    switch app.authorization {
    case .notDetermined, .denied:
      let code: ReasonCode = app.authorization == .denied ? .notificationsDenied : .notificationsNotDetermined
      let text =
        app.authorization == .denied
        ? "Notifications are turned off for \(app.info.displayName), so nothing is shown."
        : "\(app.info.displayName) never asked for permission, so nothing is shown."
      decision.reasons.append(Reason(code, text))
      if notification.isContentAvailable, app.state != .forceQuit, app.backgroundRemoteNotifications {
        decision.callbacks = wakeCallbacks(app.state)
        return finish(.silent, .mixedPushWakesApp, "content-available still wakes the app in the background.")
      }
      decision.disposition = .dropped
      return decision
    case .ephemeral:
      decision.reasons.append(
        Reason(.ephemeralAuthorization, "App Clip ephemeral authorization: shown as if authorized."))
    case .authorized, .provisional:
      break
    }

    let settings = app.settings
    decision.effectiveLevel = effectiveLevel(notification.level, app: app, decision: &decision)
    let level = decision.effectiveLevel

    if notification.isMutableContent && notification.hasVisibleContent {
      if runsServiceExtension(notification, app: app) {
        decision.callbacks.append(.serviceExtension)
        decision.reasons.append(
          Reason(
            .serviceExtensionRuns, "mutable-content is 1: the service extension runs before the notification is shown.")
        )
      } else {
        decision.reasons.append(
          Reason(
            .serviceExtensionMissing,
            "mutable-content is 1 but the app has no service extension: the content is shown as sent."))
      }
    }
    if notification.isContentAvailable, app.state == .background || app.state == .notRunning,
      app.backgroundRemoteNotifications
    {
      decision.callbacks += wakeCallbacks(app.state)
      decision.reasons.append(Reason(.mixedPushWakesApp, "content-available also wakes the app in the background."))
    }
    if let target = context.collapseTarget {
      decision.replaces = target
      decision.reasons.append(
        Reason(
          .collapsedReplacement, "apns-collapse-id matches \(target): this notification replaces it and alerts again."))
    }
    let stored: Disposition = decision.replaces == nil ? .delivered : .replaced

    // In the foreground, the app's willPresent decides everything.
    if app.state == .foreground {
      decision.callbacks.append(.willPresent)
      guard let options = app.foregroundPresentation, !options.isEmpty else {
        decision.disposition = .deliveredQuietly
        decision.reasons.append(
          Reason(.foregroundNotPresented, "The app is in the foreground and its willPresent shows nothing."))
        return decision
      }
      decision.reasons.append(
        Reason(.foregroundWillPresent, "The app is in the foreground; willPresent returns \(describe(options))."))
      if options.contains(.banner) && settings.banners { decision.surfaces.append(.banner) }
      if options.contains(.list) && settings.notificationCenter { decision.surfaces.append(.notificationCenter) }
      if options.contains(.sound) {
        applySound(notification, level: level, app: app, context: context, decision: &decision)
      }
      if options.contains(.badge) { applyBadge(notification, app: app, decision: &decision) }
      decision.disposition = decision.surfaces.isEmpty ? .deliveredQuietly : stored
      return decision
    }

    if app.authorization == .provisional {
      decision.surfaces = [.notificationCenter]
      return finish(
        .deliveredQuietly, .provisionalQuietDelivery,
        "Provisional authorization: delivered quietly to Notification Center only, with Keep… and Turn Off.")
    }

    applyBadge(notification, app: app, decision: &decision)

    if settings.delivery == .scheduledSummary, let next = context.nextSummary() {
      let directMessage = notification.sender != nil && settings.directMessages
      if level <= .active && !directMessage {
        decision.heldUntil = next
        decision.surfaces = [.notificationCenter]
        return finish(
          .heldForSummary, .scheduledSummary,
          "\(app.info.displayName) delivers in the Scheduled Summary: held until \(CivilTime(next, utcOffsetSeconds: context.utcOffsetSeconds).clock)."
        )
      }
      decision.reasons.append(
        Reason(
          .summaryBypassed,
          directMessage
            ? "A direct message bypasses the Scheduled Summary."
            : "A \(level.rawValue) notification bypasses the Scheduled Summary."))
    }

    // A Focus silences an app whatever the level, passive included (reference §6): its
    // "show on Lock Screen" option then decides whether silenced notifications appear there.
    if let focus = context.focus,
      let silenced = focusSilences(
        notification, level: level, app: app, focus: focus, isLocked: context.isLocked, decision: &decision),
      silenced
    {
      let lockScreen = showsSilencedOnLockScreen(level: level, app: app, focus: focus, isLocked: context.isLocked)
      decision.surfaces =
        (lockScreen ? [.lockScreen] : []) + (settings.notificationCenter ? [.notificationCenter] : [])
      applyPreviews(app: app, context: context, decision: &decision)
      decision.disposition = .deliveredQuietly
      return decision
    }

    if level == .passive {
      decision.surfaces =
        (settings.lockScreen && context.isLocked ? [.lockScreen] : [])
        + (settings.notificationCenter ? [.notificationCenter] : [])
      applyPreviews(app: app, context: context, decision: &decision)
      return finish(
        .deliveredQuietly, .passiveLevel, "Passive: added to the list without sound, banner or waking the screen.")
    }

    if context.isLocked {
      if settings.lockScreen || level == .critical {
        decision.surfaces.append(.lockScreen)
        decision.reasons.append(Reason(.phoneLocked, "The phone is locked: it lights the lock screen."))
      } else {
        decision.reasons.append(Reason(.lockScreenDisabled, "Lock Screen is off for \(app.info.displayName)."))
      }
    } else if settings.banners || level == .critical {
      decision.surfaces.append(.banner)
    } else {
      decision.reasons.append(Reason(.bannersDisabled, "Banners are off for \(app.info.displayName): no banner."))
    }
    if settings.notificationCenter {
      decision.surfaces.append(.notificationCenter)
    } else {
      decision.reasons.append(
        Reason(.notificationCenterDisabled, "Notification Center is off for \(app.info.displayName)."))
    }
    applySound(notification, level: level, app: app, context: context, decision: &decision)
    applyPreviews(app: app, context: context, decision: &decision)
    decision.disposition = stored
    // Built by appending into one buffer: interpolating and joining was a tenth of a decision.
    var text = app.info.displayName
    text.reserveCapacity(text.utf8.count + 96)
    text += context.focus == nil ? " may alert: " : " may alert through the Focus: "
    if decision.surfaces.isEmpty {
      text += "nothing shows"
    } else {
      text += "it shows "
      for (place, surface) in decision.surfaces.enumerated() {
        if place > 0 { text += " and " }
        text += surface.words
      }
    }
    text += decision.playsSound ? " and plays its sound." : " without sound."
    decision.reasons.append(Reason(.deliveredNormally, text))
    return decision
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
          "Over the budget of \(context.silentPushesPerHour) silent pushes an hour: iOS holds it and a newer one replaces it."
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
    case .timeSensitive where !(app.timeSensitiveEntitled && app.settings.timeSensitive):
      decision.reasons.append(
        Reason(.timeSensitiveDowngraded, "Time Sensitive is off for \(app.info.displayName): delivered as active."))
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
    decision.reasons.append(
      Reason(
        .focusSilenced,
        showsSilencedOnLockScreen(level: level, app: app, focus: focus, isLocked: isLocked)
          ? "\(focus.name) is on and does not allow \(app.info.displayName): silenced, delivered to Notification Center and the lock screen without sound."
          : "\(focus.name) is on and does not allow \(app.info.displayName): silenced, delivered to Notification Center without sound."
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

  static func applySound(
    _ notification: PushNotification, level: InterruptionLevel, app: AppProfile, context: DeliveryContext,
    decision: inout DeliveryDecision
  ) {
    if level == .critical {
      decision.sound = notification.sound ?? .critical(name: "default", volume: 1)
      decision.playsSound = true
      decision.reasons.append(
        Reason(.criticalAlert, "A critical alert plays its sound even in silent mode and Do Not Disturb."))
      return
    }
    guard let sound = notification.sound else {
      decision.reasons.append(Reason(.soundNotRequested, "The payload asks for no sound."))
      return
    }
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

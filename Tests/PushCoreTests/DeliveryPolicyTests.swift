import Testing

@testable import PushCore

/// A notification with defaults; each test names only what matters.
func note(
  level: InterruptionLevel = .active, sound: SoundRequest? = .systemDefault, badge: Int? = nil,
  title: String? = "Title", body: String? = "Body", contentAvailable: Bool = false, mutableContent: Bool = false,
  sender: String? = nil, filter: String? = nil, expiration: SimInstant? = nil, bundle: String = "com.example.app"
) -> PushNotification {
  var notification = PushNotification(
    id: NotificationID(1), bundleID: bundle, title: title, body: body, level: level, sound: sound, badge: badge,
    isContentAvailable: contentAvailable, isMutableContent: mutableContent, filterCriteria: filter,
    receivedAt: SimInstant(milliseconds: 1_000_000))
  notification.sender = sender
  notification.expiration = expiration
  return notification
}

func app(
  _ authorization: AuthorizationStatus = .authorized, state: AppRunState = .background,
  configure: (inout AppProfile) -> Void = { _ in }
) -> AppProfile {
  var profile = AppProfile(
    info: AppInfo(bundleID: "com.example.app", displayName: "Example", iconGlyph: "E"), authorization: authorization,
    state: state)
  configure(&profile)
  return profile
}

let now = SimInstant(milliseconds: 1_000_000)
let work = FocusMode(
  id: "work", name: "Work", kind: .work, allowedApps: ["com.example.allowed"], allowedPeople: ["Ana"])
let workNoTimeSensitive = FocusMode(id: "work", name: "Work", kind: .work, allowsTimeSensitive: false)

func decide(
  _ notification: PushNotification, _ app: AppProfile?, _ context: DeliveryContext = DeliveryContext(now: now)
)
  -> DeliveryDecision
{
  DeliveryPolicy.decide(notification, app: app, context: context)
}

@Suite struct DeliveryPolicyTests {
  struct Row: CustomTestStringConvertible, Sendable {
    var name: String
    var notification: PushNotification
    var app: AppProfile?
    var context: DeliveryContext
    var disposition: Disposition
    var surfaces: [Surface]
    var sound: Bool
    var reason: ReasonCode
    var testDescription: String { name }
  }

  static let locked = DeliveryContext(now: now, isLocked: true)
  static let unlocked = DeliveryContext(now: now)

  static let rows: [Row] = [
    // Authorization (reference §4.1, §4.2)
    Row(
      name: "authorized, unlocked: banner, NC, sound", notification: note(), app: app(), context: unlocked,
      disposition: .delivered, surfaces: [.banner, .notificationCenter], sound: true, reason: .soundNotRequested),
    Row(
      name: "authorized, locked: lock screen, NC, sound", notification: note(), app: app(), context: locked,
      disposition: .delivered, surfaces: [.lockScreen, .notificationCenter], sound: true, reason: .phoneLocked),
    Row(
      name: "denied: dropped", notification: note(), app: app(.denied), context: unlocked,
      disposition: .dropped, surfaces: [], sound: false, reason: .notificationsDenied),
    Row(
      name: "not determined: dropped", notification: note(), app: app(.notDetermined), context: unlocked,
      disposition: .dropped, surfaces: [], sound: false, reason: .notificationsNotDetermined),
    Row(
      name: "denied but content-available: wakes app", notification: note(contentAvailable: true), app: app(.denied),
      context: unlocked, disposition: .silent, surfaces: [], sound: false, reason: .mixedPushWakesApp),
    Row(
      name: "provisional: quietly to NC only", notification: note(badge: 3), app: app(.provisional), context: locked,
      disposition: .deliveredQuietly, surfaces: [.notificationCenter], sound: false, reason: .provisionalQuietDelivery),
    Row(
      name: "ephemeral: as authorized", notification: note(), app: app(.ephemeral), context: unlocked,
      disposition: .delivered, surfaces: [.banner, .notificationCenter], sound: true, reason: .ephemeralAuthorization),
    Row(
      name: "not installed: dropped", notification: note(), app: nil, context: unlocked,
      disposition: .dropped, surfaces: [], sound: false, reason: .appNotInstalled),
    // Per-app settings (§4.3)
    Row(
      name: "banners off, unlocked: NC only", notification: note(), app: app { $0.settings.banners = false },
      context: unlocked, disposition: .delivered, surfaces: [.notificationCenter], sound: true, reason: .bannersDisabled
    ),
    Row(
      name: "lock screen off, locked: NC only", notification: note(), app: app { $0.settings.lockScreen = false },
      context: locked, disposition: .delivered, surfaces: [.notificationCenter], sound: true,
      reason: .lockScreenDisabled),
    Row(
      name: "NC off: banner only", notification: note(), app: app { $0.settings.notificationCenter = false },
      context: unlocked, disposition: .delivered, surfaces: [.banner], sound: true, reason: .notificationCenterDisabled),
    Row(
      name: "sounds off: silent banner", notification: note(), app: app { $0.settings.sounds = false },
      context: unlocked, disposition: .delivered, surfaces: [.banner, .notificationCenter], sound: false,
      reason: .soundsDisabled),
    Row(
      name: "previews never: hidden", notification: note(), app: app { $0.settings.showPreviews = .never },
      context: unlocked, disposition: .delivered, surfaces: [.banner, .notificationCenter], sound: true,
      reason: .previewsHidden),
    Row(
      name: "previews when unlocked, locked: hidden", notification: note(), app: app(), context: locked,
      disposition: .delivered, surfaces: [.lockScreen, .notificationCenter], sound: true, reason: .previewsHidden),
    // Interruption levels (§5)
    Row(
      name: "passive: quiet list only", notification: note(level: .passive), app: app(), context: locked,
      disposition: .deliveredQuietly, surfaces: [.lockScreen, .notificationCenter], sound: false, reason: .passiveLevel),
    Row(
      name: "critical without entitlement: active", notification: note(level: .critical), app: app(), context: unlocked,
      disposition: .delivered, surfaces: [.banner, .notificationCenter], sound: true, reason: .criticalDowngraded),
    Row(
      name: "critical with entitlement: sounds in silent mode",
      notification: note(level: .critical, sound: nil), app: app { $0.criticalAlertsEntitled = true },
      context: DeliveryContext(now: now, isSilentMode: true), disposition: .delivered,
      surfaces: [.banner, .notificationCenter], sound: true, reason: .criticalAlert),
    Row(
      name: "silent mode: vibrates", notification: note(), app: app(),
      context: DeliveryContext(now: now, isSilentMode: true),
      disposition: .delivered, surfaces: [.banner, .notificationCenter], sound: false, reason: .silentMode),
    Row(
      name: "time-sensitive with the setting off: active", notification: note(level: .timeSensitive),
      app: app { $0.settings.timeSensitive = false }, context: unlocked, disposition: .delivered,
      surfaces: [.banner, .notificationCenter], sound: true, reason: .timeSensitiveDowngraded),
    // Focus (§6)
    Row(
      name: "Focus silences an app it does not allow", notification: note(), app: app(),
      context: DeliveryContext(now: now, isLocked: true, focus: work), disposition: .deliveredQuietly,
      surfaces: [.notificationCenter], sound: false, reason: .focusSilenced),
    Row(
      name: "Focus lets an allowed app through", notification: note(bundle: "com.example.allowed"),
      app: app { $0.info = AppInfo(bundleID: "com.example.allowed", displayName: "Allowed", iconGlyph: "A") },
      context: DeliveryContext(now: now, focus: work), disposition: .delivered,
      surfaces: [.banner, .notificationCenter], sound: true, reason: .focusBreakthroughApp),
    Row(
      name: "time-sensitive breaks through a Focus that allows it", notification: note(level: .timeSensitive),
      app: app(),
      context: DeliveryContext(now: now, focus: work), disposition: .delivered,
      surfaces: [.banner, .notificationCenter], sound: true, reason: .focusBreakthroughTimeSensitive),
    Row(
      name: "time-sensitive is silenced by a Focus that does not allow it", notification: note(level: .timeSensitive),
      app: app(), context: DeliveryContext(now: now, focus: workNoTimeSensitive), disposition: .deliveredQuietly,
      surfaces: [.notificationCenter], sound: false, reason: .focusSilenced),
    Row(
      name: "critical breaks through Do Not Disturb", notification: note(level: .critical),
      app: app { $0.criticalAlertsEntitled = true },
      context: DeliveryContext(now: now, isLocked: true, focus: .doNotDisturb),
      disposition: .delivered, surfaces: [.lockScreen, .notificationCenter], sound: true,
      reason: .focusBreakthroughCritical),
    Row(
      name: "an allowed person breaks through", notification: note(sender: "Ana"), app: app(),
      context: DeliveryContext(now: now, focus: work), disposition: .delivered,
      surfaces: [.banner, .notificationCenter], sound: true, reason: .focusBreakthroughPerson),
    Row(
      name: "another person is silenced", notification: note(sender: "Bob"), app: app(),
      context: DeliveryContext(now: now, focus: work), disposition: .deliveredQuietly,
      surfaces: [.notificationCenter], sound: false, reason: .focusSilenced),
    Row(
      name: "Focus filter excludes other criteria",
      notification: note(filter: "personal", bundle: "com.example.allowed"),
      app: app { $0.info = AppInfo(bundleID: "com.example.allowed", displayName: "Allowed", iconGlyph: "A") },
      context: DeliveryContext(
        now: now,
        focus: FocusMode(
          id: "w", name: "Work", kind: .work, allowedApps: ["com.example.allowed"],
          filterCriteria: ["com.example.allowed": ["work"]])),
      disposition: .deliveredQuietly, surfaces: [.notificationCenter], sound: false, reason: .focusFilterExcluded),
    Row(
      name: "silenced shows on the lock screen when the Focus says so", notification: note(), app: app(),
      context: DeliveryContext(
        now: now, isLocked: true,
        focus: FocusMode(id: "p", name: "Personal", kind: .personal, showsSilencedOnLockScreen: true)),
      disposition: .deliveredQuietly, surfaces: [.lockScreen, .notificationCenter], sound: false, reason: .focusSilenced
    ),
    Row(
      name: "a Focus silences a passive notification too, off the lock screen", notification: note(level: .passive),
      app: app(), context: DeliveryContext(now: now, isLocked: true, focus: work), disposition: .deliveredQuietly,
      surfaces: [.notificationCenter], sound: false, reason: .focusSilenced),
    Row(
      name: "a silenced passive notification shows on the lock screen when the Focus says so",
      notification: note(level: .passive), app: app(),
      context: DeliveryContext(
        now: now, isLocked: true,
        focus: FocusMode(id: "p", name: "Personal", kind: .personal, showsSilencedOnLockScreen: true)),
      disposition: .deliveredQuietly, surfaces: [.lockScreen, .notificationCenter], sound: false, reason: .focusSilenced
    ),
    Row(
      name: "a passive notification of an allowed app stays on the lock screen",
      notification: note(level: .passive, bundle: "com.example.allowed"),
      app: app { $0.info = AppInfo(bundleID: "com.example.allowed", displayName: "Allowed", iconGlyph: "A") },
      context: DeliveryContext(now: now, isLocked: true, focus: work), disposition: .deliveredQuietly,
      surfaces: [.lockScreen, .notificationCenter], sound: false, reason: .passiveLevel),
    // Scheduled Summary (§8)
    Row(
      name: "summary app: active notification held", notification: note(),
      app: app { $0.settings.delivery = .scheduledSummary },
      context: DeliveryContext(now: now, summaryTimes: [TimeOfDay(hour: 8, minute: 0)]), disposition: .heldForSummary,
      surfaces: [.notificationCenter], sound: false, reason: .scheduledSummary),
    Row(
      name: "summary app: time-sensitive bypasses", notification: note(level: .timeSensitive),
      app: app { $0.settings.delivery = .scheduledSummary },
      context: DeliveryContext(now: now, summaryTimes: [TimeOfDay(hour: 8, minute: 0)]), disposition: .delivered,
      surfaces: [.banner, .notificationCenter], sound: true, reason: .summaryBypassed),
    Row(
      name: "summary app: a direct message bypasses", notification: note(sender: "Ana"),
      app: app { $0.settings.delivery = .scheduledSummary },
      context: DeliveryContext(now: now, summaryTimes: [TimeOfDay(hour: 8, minute: 0)]), disposition: .delivered,
      surfaces: [.banner, .notificationCenter], sound: true, reason: .summaryBypassed),
    // Foreground (§4.4)
    Row(
      name: "foreground: willPresent decides", notification: note(), app: app(state: .foreground), context: unlocked,
      disposition: .delivered, surfaces: [.banner, .notificationCenter], sound: true, reason: .foregroundWillPresent),
    Row(
      name: "foreground without willPresent: nothing shown", notification: note(),
      app: app(state: .foreground) { $0.foregroundPresentation = nil }, context: unlocked,
      disposition: .deliveredQuietly, surfaces: [], sound: false, reason: .foregroundNotPresented),
    Row(
      name: "foreground list only", notification: note(),
      app: app(state: .foreground) { $0.foregroundPresentation = [.list] },
      context: unlocked, disposition: .delivered, surfaces: [.notificationCenter], sound: false,
      reason: .foregroundWillPresent),
    // Silent pushes (§9)
    Row(
      name: "silent push wakes a background app",
      notification: note(sound: nil, title: nil, body: nil, contentAvailable: true),
      app: app(), context: unlocked, disposition: .silent, surfaces: [], sound: false, reason: .silentPush),
    Row(
      name: "silent push to a force-quit app is dropped",
      notification: note(sound: nil, title: nil, body: nil, contentAvailable: true),
      app: app(state: .forceQuit), context: unlocked, disposition: .dropped, surfaces: [], sound: false,
      reason: .silentToForceQuitApp),
    Row(
      name: "silent push over budget is dropped",
      notification: note(sound: nil, title: nil, body: nil, contentAvailable: true),
      app: app(), context: DeliveryContext(now: now, recentSilentPushes: 3), disposition: .dropped, surfaces: [],
      sound: false,
      reason: .silentBudgetExceeded),
    Row(
      name: "silent push without background mode is dropped",
      notification: note(sound: nil, title: nil, body: nil, contentAvailable: true),
      app: app { $0.backgroundRemoteNotifications = false }, context: unlocked, disposition: .dropped, surfaces: [],
      sound: false, reason: .silentWithoutBackgroundMode),
    // Expiration and collapse (§13, §2.2)
    Row(
      name: "expired before arrival", notification: note(expiration: SimInstant(milliseconds: 999_000)), app: app(),
      context: unlocked, disposition: .dropped, surfaces: [], sound: false, reason: .expired),
    Row(
      name: "collapse id replaces and alerts again", notification: note(), app: app(),
      context: DeliveryContext(now: now, collapseTarget: NotificationID(7)), disposition: .replaced,
      surfaces: [.banner, .notificationCenter], sound: true, reason: .collapsedReplacement),
  ]

  @Test(arguments: rows)
  func followsTheReference(row: Row) {
    let decision = decide(row.notification, row.app, row.context)
    #expect(decision.disposition == row.disposition)
    #expect(decision.surfaces == row.surfaces)
    #expect(decision.playsSound == row.sound)
    #expect(
      decision.reasonCodes.contains(row.reason) || (row.reason == .soundNotRequested && decision.playsSound),
      "reasons: \(decision.reasonCodes)")
  }

  /// The words after the app's name are kept by a key of the places, Focus and sound: every
  /// combination's reason reads as if built afresh, whichever came first (two combinations once
  /// shared a key, and the second was told the first's words).
  @Test(arguments: [false, true])
  func everyNormalDeliveryIsWordedForItsOwnPlacesAndSound(reversed: Bool) {
    var cases: [(PushNotification, AppProfile, DeliveryContext)] = []
    for locked in [false, true] {
      for focus in [false, true] {
        for sound in [false, true] {
          for banners in [false, true] {
            for lockScreen in [false, true] {
              for center in [false, true] {
                let profile = app { profile in
                  profile.settings.banners = banners
                  profile.settings.lockScreen = lockScreen
                  profile.settings.notificationCenter = center
                  profile.info = AppInfo(
                    bundleID: "com.example.allowed", displayName: "App\(cases.count)", iconGlyph: "A")
                }
                let context = DeliveryContext(
                  now: now, isLocked: locked,
                  focus: focus
                    ? FocusMode(id: "work", name: "Work", kind: .work, allowedApps: ["com.example.allowed"]) : nil)
                cases.append(
                  (note(sound: sound ? .systemDefault : nil, bundle: "com.example.allowed"), profile, context))
              }
            }
          }
        }
      }
    }
    var checked = 0
    for (notification, profile, context) in reversed ? cases.reversed() : cases {
      let decision = decide(notification, profile, context)
      guard let reason = decision.reasons.last, reason.code == .deliveredNormally else { continue }
      let words = DeliveryPolicy.alertWords(
        surfaces: decision.surfaces, throughFocus: context.focus != nil, playsSound: decision.playsSound)
      #expect(reason.text == profile.info.displayName + words)
      checked += 1
    }
    // Enough kinds of delivery to meet every collision the key could have.
    #expect(checked >= 24)
  }

  @Test func badgeZeroClearsAndBadgesOffLeavesItAlone() {
    #expect(decide(note(badge: 0), app()).badge == 0)
    #expect(decide(note(badge: 0), app()).reasonCodes.contains(.badgeCleared))
    #expect(decide(note(badge: 5), app { $0.settings.badges = false }).badge == nil)
  }

  /// A badge or a sound without text shows nothing anywhere [§1.2, §1.4]: it was delivered as a
  /// banner and a blank "Notification" card in Notification Center.
  @Test func aBadgeOrASoundWithoutTextShowsNothing() {
    let badgeOnly = decide(note(sound: nil, badge: 7, title: nil, body: nil), app())
    #expect(badgeOnly.surfaces.isEmpty)
    #expect(!badgeOnly.isStored)
    #expect(badgeOnly.badge == 7)
    #expect(badgeOnly.disposition == .deliveredQuietly)
    #expect(badgeOnly.reasonCodes == [.badgeApplied, .soundNotRequested, .nothingToRead])

    let soundOnly = decide(note(title: nil, body: nil), app(), DeliveryContext(now: now, isLocked: true))
    #expect(soundOnly.surfaces.isEmpty)
    #expect(!soundOnly.isStored)
    #expect(soundOnly.playsSound)
    #expect(soundOnly.disposition == .delivered)

    // A Focus that silences the app silences its sound; nothing is held for a summary.
    let focused = decide(note(badge: 2, title: nil, body: nil), app(), DeliveryContext(now: now, focus: work))
    #expect(focused.surfaces.isEmpty && !focused.playsSound && focused.badge == 2)
    let summary = decide(
      note(badge: 2, title: nil, body: nil), app { $0.settings.delivery = .scheduledSummary },
      DeliveryContext(now: now, summaryTimes: [TimeOfDay(hour: 18, minute: 0)]))
    #expect(summary.disposition != .heldForSummary && summary.heldUntil == nil && summary.surfaces.isEmpty)
    // Provisional delivery has no card to add either.
    #expect(decide(note(badge: 2, title: nil, body: nil), app(.provisional)).surfaces.isEmpty)
    // With text it shows as before.
    #expect(decide(note(badge: 7), app()).surfaces == [.banner, .notificationCenter])
  }

  /// A VoIP push (or any push type that is not a user notification) goes to PushKit or its
  /// extension and shows nothing, alert or not [§2.3, §3]: it was a banner and a stored card.
  @Test func aPushTypeThatIsNotAUserNotificationShowsNothing() {
    for type in [PushType.voip, .pushtotalk, .fileprovider, .location, .widgets, .controls, .complication, .mdm] {
      var voip = note(badge: 3)
      voip.pushType = type
      let decision = decide(voip, app(), DeliveryContext(now: now, isLocked: true))
      #expect(decision.surfaces.isEmpty && !decision.isStored, "\(type)")
      #expect(decision.reasonCodes == [.notAUserNotification], "\(type)")
      #expect(!decision.playsSound && decision.badge == nil, "\(type)")
    }
    var alert = note()
    alert.pushType = .alert
    #expect(decide(alert, app()).surfaces == [.banner, .notificationCenter])
  }

  /// A decision that shows nowhere keeps nothing in Notification Center [§4.3, §4.4]: the app's
  /// willPresent listing nothing, or banners and Notification Center off.
  @Test func aNotificationThatShowsNowhereIsNotKept() {
    let foreground = decide(note(), app(state: .foreground) { $0.foregroundPresentation = [.sound] })
    #expect(foreground.surfaces.isEmpty && !foreground.isStored)
    let allOff = decide(
      note(),
      app {
        $0.settings.banners = false
        $0.settings.notificationCenter = false
      })
    #expect(allOff.surfaces.isEmpty && !allOff.isStored)
    #expect(decide(note(), app()).isStored)
  }

  @Test func serviceExtensionRunsOnlyWithOneAndVisibleContent() {
    #expect(
      decide(note(mutableContent: true), app { $0.hasServiceExtension = true }).callbacks.contains(.serviceExtension))
    #expect(!decide(note(mutableContent: true), app()).callbacks.contains(.serviceExtension))
    #expect(decide(note(mutableContent: true), app()).reasonCodes.contains(.serviceExtensionMissing))
    let badgeOnly = note(badge: 1, title: nil, body: nil, mutableContent: true)
    #expect(!decide(badgeOnly, app { $0.hasServiceExtension = true }).callbacks.contains(.serviceExtension))
  }

  @Test func callbacksFollowAppState() {
    let silent = note(sound: nil, title: nil, body: nil, contentAvailable: true)
    #expect(decide(silent, app(state: .notRunning)).callbacks == [.launchInBackground, .backgroundFetch])
    #expect(decide(silent, app(state: .background)).callbacks == [.backgroundFetch])
    #expect(decide(note(), app(state: .foreground)).callbacks == [.willPresent])
    #expect(decide(note(contentAvailable: true), app(state: .background)).callbacks == [.backgroundFetch])
  }

  /// A custom sound plays only from an .aiff, .wav or .caf file [§10]: one named .mp3 (found in
  /// the corpus: `bubble-sound.mp3`, shown as playing) gets the default sound, and says why.
  @Test func aSoundFileInAFormatIOSDoesNotPlayGetsTheDefaultSound() {
    let unlocked = DeliveryContext(now: now, isLocked: false)
    let mp3 = decide(note(sound: .named("bubble-sound.MP3")), app(), unlocked)
    #expect(mp3.sound == .systemDefault && mp3.playsSound)
    #expect(
      mp3.reasons.contains {
        $0.code == .soundFormatUnsupported && $0.text.hasPrefix("bubble-sound.MP3 is not an .aiff")
      })
    let critical = decide(
      note(level: .critical, sound: .critical(name: "siren.m4a", volume: 0.5)),
      app { $0.criticalAlertsEntitled = true }, unlocked)
    #expect(critical.sound == .critical(name: "default", volume: 0.5))
    for playable in ["chime.caf", "ding.WAV", "bell.aiff", "chime", "com.example.chime"] {
      let decision = decide(note(sound: .named(playable)), app(), unlocked)
      #expect(decision.sound == .named(playable), "\(playable)")
      #expect(!decision.reasons.contains { $0.code == .soundFormatUnsupported }, "\(playable)")
    }
  }

  /// A critical alert's sound dictionary on a push delivered as something else is an ordinary
  /// sound: without the entitlement explain said "delivered as active" and then "Sound:
  /// critical alarm.caf at 50%" (found by an exploratory test).
  @Test func aCriticalSoundOnANotificationThatIsNotCriticalIsAnOrdinarySound() {
    let unlocked = DeliveryContext(now: now, isLocked: false)
    let downgraded = decide(note(level: .critical, sound: .critical(name: "alarm.caf", volume: 0.5)), app(), unlocked)
    #expect(downgraded.effectiveLevel == .active)
    #expect(downgraded.sound == .named("alarm.caf") && downgraded.playsSound)
    let active = decide(note(sound: .critical(name: "default", volume: 1)), app(), unlocked)
    #expect(active.sound == .systemDefault)
    let silent = decide(
      note(level: .critical, sound: .critical(name: "alarm.caf", volume: 0.5)), app(),
      DeliveryContext(now: now, isSilentMode: true))
    #expect(!silent.playsSound, "only a critical alert overrides the Ring/Silent switch")
    let entitled = decide(
      note(level: .critical, sound: .critical(name: "alarm.caf", volume: 0.5)),
      app { $0.criticalAlertsEntitled = true }, unlocked)
    #expect(entitled.sound == .critical(name: "alarm.caf", volume: 0.5))
  }

  @Test func nextSummaryIsTheFirstTimeAfterNow() {
    // 1970-01-01T00:16:40Z; summaries at 08:00 and 18:00 UTC.
    let context = DeliveryContext(
      now: now, summaryTimes: [TimeOfDay(hour: 18, minute: 0), TimeOfDay(hour: 8, minute: 0)])
    #expect(context.nextSummary() == SimInstant(milliseconds: 8 * 3_600_000))
    let evening = DeliveryContext(
      now: SimInstant(milliseconds: 19 * 3_600_000), summaryTimes: [TimeOfDay(hour: 8, minute: 0)])
    #expect(evening.nextSummary() == SimInstant(milliseconds: 32 * 3_600_000))
    let berlin = DeliveryContext(now: now, summaryTimes: [TimeOfDay(hour: 8, minute: 0)], utcOffsetSeconds: 3600)
    #expect(berlin.nextSummary() == SimInstant(milliseconds: 7 * 3_600_000))
  }
}

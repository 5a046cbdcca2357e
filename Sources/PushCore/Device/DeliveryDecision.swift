/// What happened to a push on the simulated device.
public enum Disposition: String, Sendable, CaseIterable, Codable {
  /// Shown as the settings allow (banner or lock screen, Notification Center, sound).
  case delivered
  /// Stored in Notification Center without lighting the screen or making a sound.
  case deliveredQuietly
  /// Kept for the next Scheduled Summary.
  case heldForSummary
  /// Delivered in place of an earlier notification with the same `apns-collapse-id`.
  case replaced
  /// A background push: no UI; the app may be woken.
  case silent
  /// Not delivered (app not installed, notifications off, expired, throttled…).
  case dropped
  /// Invalid: APNs rejects it, or the device drops it (the diagnostic table's verdict; the
  /// reason says which).
  case rejected
}

/// Where a notification appears.
public enum Surface: String, Sendable, CaseIterable, Codable, Comparable {
  case banner, lockScreen, notificationCenter, liveActivity

  /// The surface in words, for explanations.
  public var words: String {
    switch self {
    case .banner: "as a banner"
    case .lockScreen: "on the lock screen"
    case .notificationCenter: "in Notification Center"
    case .liveActivity: "in its Live Activity"
    }
  }

  public static func < (lhs: Surface, rhs: Surface) -> Bool {
    allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
  }
}

/// App code that runs because of a push or the user's response to it.
public enum AppCallback: String, Sendable, CaseIterable, Codable {
  /// `userNotificationCenter(_:willPresent:)`, in the foreground at arrival.
  case willPresent
  /// `userNotificationCenter(_:didReceive:)`, when the user acts on the notification.
  case didReceive
  /// `application(_:didReceiveRemoteNotification:fetchCompletionHandler:)`.
  case backgroundFetch
  /// The app is launched in the background to handle the push.
  case launchInBackground
  /// The Notification Service Extension's `didReceive(_:withContentHandler:)`.
  case serviceExtension
}

/// One reason behind a decision: a stable code and a sentence for people.
public struct Reason: Equatable, Sendable, Codable {
  public var code: ReasonCode
  public var text: String

  public init(_ code: ReasonCode, _ text: String) {
    self.code = code
    self.text = text
  }
}

/// Stable identifiers for every reason the policy gives.
public enum ReasonCode: String, Sendable, CaseIterable, Codable {
  case invalidPayload
  /// APNs accepted the push and the device ignores one of its keys (the diagnostic table's
  /// "ignores the key"); the text names the key.
  case keyIgnored
  case expired
  case appNotInstalled
  case notificationsNotDetermined
  case notificationsDenied
  case provisionalQuietDelivery
  case ephemeralAuthorization
  case silentPush
  case silentToForceQuitApp
  case silentWithoutBackgroundMode
  case silentBudgetExceeded
  case notificationCenterFull
  case nothingToShow
  /// A push with a badge or a sound and no title, subtitle or body: nothing shows on screen.
  case nothingToRead
  /// A push type that is not a user notification (voip, pushtotalk, fileprovider, location,
  /// widgets, controls, complication, mdm): it goes to its framework or extension, nothing shows.
  case notAUserNotification
  case foregroundWillPresent
  case foregroundNotPresented
  case criticalAlert
  case criticalDowngraded
  case timeSensitiveDowngraded
  case passiveLevel
  case scheduledSummary
  case summaryBypassed
  case focusBreakthroughCritical
  case focusBreakthroughTimeSensitive
  case focusBreakthroughPerson
  case focusBreakthroughApp
  case focusFilterExcluded
  case focusSilenced
  case lockScreenDisabled
  case notificationCenterDisabled
  case bannersDisabled
  case phoneLocked
  case soundsDisabled
  case soundNotRequested
  case soundFormatUnsupported
  case silentMode
  case badgeApplied
  case badgeCleared
  case badgesDisabled
  case previewsHidden
  case deliveredNormally
  case collapsedReplacement
  case serviceExtensionRuns
  case serviceExtensionMissing
  case serviceExtensionModified
  case serviceExtensionExpired
  case serviceExtensionFailed
  case attachmentRefused
  case mixedPushWakesApp
  case liveActivityStarted
  case liveActivityUpdated
  case liveActivityEnded
  case liveActivityIgnored
  /// A Live Activity push sent to a token that cannot take it (not the push-to-start token,
  /// not an activity's own token).
  case activityTokenMismatch
  /// A started activity got its own push token (`input-push-token: 1`).
  case activityPushToken
  /// A started activity subscribed to a broadcast channel (`input-push-channel`).
  case channelSubscribed
  /// A broadcast or subscription named a channel the app does not have.
  case channelNotRegistered
  /// A broadcast with `event: start`: broadcasts only update and end activities.
  case broadcastCannotStart
}

extension ReasonCode {
  /// The case's position in ``allCases`` (its declaration order), read without its raw value:
  /// a case without a payload is its tag, one byte. The journal fingerprints reason lists with it
  /// on every push, where `rawValue` built a string per reason.
  public var ordinal: Int {
    guard MemoryLayout<ReasonCode>.size == 1 else { return Self.allCases.firstIndex(of: self)! }
    return Int(unsafeBitCast(self, to: UInt8.self))
  }
}

/// The policy's answer for one push: where it shows, whether it sounds, what app code runs, and
/// every reason, in the order they were applied.
public struct DeliveryDecision: Equatable, Sendable {
  public var disposition: Disposition
  public var surfaces: [Surface]
  /// Whether a sound plays (or a haptic, in silent mode: see `docs/DECISIONS.md`).
  public var playsSound: Bool
  /// The sound that plays.
  public var sound: SoundRequest?
  /// The badge number set on the app icon, when it changes.
  public var badge: Int?
  /// The interruption level after entitlements and settings were applied.
  public var effectiveLevel: InterruptionLevel
  /// When a held notification is delivered (the next Scheduled Summary).
  public var heldUntil: SimInstant?
  /// The notification this one replaced, for `apns-collapse-id`.
  public var replaces: NotificationID?
  /// Whether its content is hidden where it shows (Show Previews).
  public var previewsHidden: Bool
  /// The app code that runs at arrival.
  public var callbacks: [AppCallback]
  public var reasons: [Reason]

  public init(
    disposition: Disposition, surfaces: [Surface] = [], playsSound: Bool = false, sound: SoundRequest? = nil,
    badge: Int? = nil, effectiveLevel: InterruptionLevel = .active, heldUntil: SimInstant? = nil,
    replaces: NotificationID? = nil, previewsHidden: Bool = false, callbacks: [AppCallback] = [],
    reasons: [Reason] = []
  ) {
    self.disposition = disposition
    self.surfaces = surfaces
    self.playsSound = playsSound
    self.sound = sound
    self.badge = badge
    self.effectiveLevel = effectiveLevel
    self.heldUntil = heldUntil
    self.replaces = replaces
    self.previewsHidden = previewsHidden
    self.callbacks = callbacks
    self.reasons = reasons
  }

  /// Whether the notification is kept (in Notification Center now or at the summary, or on the
  /// lock screen it lit): a disposition that keeps it, and a list that shows it. One that shows
  /// nowhere (a badge or a sound without text; a foreground app whose willPresent lists nothing;
  /// banners, the lock screen and Notification Center all off) is not kept: it was, as a card in
  /// Notification Center. Nor is one that only bannered (its app has Notification Center off, or
  /// a foreground app's willPresent asked for a banner without the list): iOS shows the banner
  /// and keeps nothing.
  public var isStored: Bool {
    switch disposition {
    case .delivered, .deliveredQuietly, .replaced, .heldForSummary:
      surfaces.contains(.notificationCenter) || surfaces.contains(.lockScreen)
    case .silent, .dropped, .rejected: false
    }
  }

  /// The reason codes, for tests and tables.
  public var reasonCodes: [ReasonCode] { reasons.map(\.code) }
}

/// An APNs payload as it is on the wire: every field optional, keys spelled as Apple spells them.
///
/// ``PayloadDecoder`` builds it from a ``JSONDocument`` and reports what is wrong on the way.
/// The device simulation turns it into a normalised notification; nothing after that looks at
/// JSON.
public struct APNsPayload: Equatable, Sendable {
  /// The `aps` dictionary.
  public var aps: APS
  /// Every key beside `aps`, whole and in order (`Simulator Target Bundle` excluded).
  public var customKeys: [JSONMember]
  /// `Simulator Target Bundle` from an Xcode `.apns` file.
  public var simulatorTargetBundle: String?

  /// Creates a payload.
  public init(aps: APS = APS(), customKeys: [JSONMember] = [], simulatorTargetBundle: String? = nil) {
    self.aps = aps
    self.customKeys = customKeys
    self.simulatorTargetBundle = simulatorTargetBundle
  }

  /// Whether the payload alerts, badges or plays a sound (what iOS calls user-visible).
  public var isUserVisible: Bool { aps.isUserVisible }

  /// Whether this is a pure background push: `content-available: 1` and nothing visible.
  public var isSilent: Bool { aps.contentAvailable && !isUserVisible }
}

/// The `aps` dictionary.
public struct APS: Equatable, Sendable {
  /// `alert`: a string (shown as the body) or a dictionary.
  public var alert: Alert?
  /// `badge`: the absolute badge number; 0 removes it.
  public var badge: Int?
  /// `sound`: a file name or the critical-alert dictionary.
  public var sound: Sound?
  /// `thread-id`.
  public var threadID: String?
  /// `category`.
  public var category: String?
  /// `content-available` is the number 1.
  public var contentAvailable: Bool = false
  /// `mutable-content` is the number 1.
  public var mutableContent: Bool = false
  /// `target-content-id`.
  public var targetContentID: String?
  /// `interruption-level`, when it is a known value.
  public var interruptionLevel: InterruptionLevel?
  /// `interruption-level` as written, known or not.
  public var interruptionLevelText: String?
  /// `relevance-score` as written.
  public var relevanceScore: Double?
  /// `filter-criteria`.
  public var filterCriteria: String?
  /// The Live Activity keys, when any is present.
  public var liveActivity: LiveActivityContent?

  /// Creates an empty `aps`.
  public init() {}

  // Presence tests by pattern match: `alert != nil` goes through the generic Optional
  // comparison, which copies the whole alert (a retain per string) just to look at it.

  /// Whether `alert` is present.
  var hasAlert: Bool {
    if case .none = alert { return false }
    return true
  }

  /// Whether `sound` is present.
  var hasSound: Bool {
    if case .none = sound { return false }
    return true
  }

  /// Whether any Live Activity key is present.
  var hasLiveActivity: Bool {
    if case .none = liveActivity { return false }
    return true
  }

  /// Whether it alerts, badges or plays a sound.
  var isUserVisible: Bool { hasAlert || badge != nil || hasSound }
}

/// `aps.alert`.
public enum Alert: Equatable, Sendable {
  /// A bare string, shown as the body.
  case text(String)
  /// The dictionary form.
  case dictionary(AlertDictionary)

  /// The literal title, if any.
  public var title: String? {
    if case .dictionary(let dictionary) = self { return dictionary.title }
    return nil
  }

  /// The literal body (a string alert is a body).
  public var body: String? {
    switch self {
    case .text(let text): text
    case .dictionary(let dictionary): dictionary.body
    }
  }

  /// The literal subtitle, if any.
  public var subtitle: String? {
    if case .dictionary(let dictionary) = self { return dictionary.subtitle }
    return nil
  }

  /// Whether a title, subtitle or body is given by a localisation key (to resolve with the
  /// app's strings). Each accessor here reads one field in place: binding the dictionary
  /// (`case .dictionary(let alert)`) copied all fourteen of its fields, for every push.
  public var isLocalized: Bool {
    guard case .dictionary(let dictionary) = self else { return false }
    return dictionary.titleLocKey != nil || dictionary.subtitleLocKey != nil || dictionary.locKey != nil
  }
}

/// The keys of the `alert` dictionary (Live Activity alerts use the same shape).
public struct AlertDictionary: Equatable, Sendable {
  public var title: String?
  public var subtitle: String?
  public var body: String?
  public var launchImage: String?
  public var titleLocKey: String?
  public var titleLocArgs: [String]?
  public var subtitleLocKey: String?
  public var subtitleLocArgs: [String]?
  public var locKey: String?
  public var locArgs: [String]?
  /// Legacy; accepted and ignored for display.
  public var actionLocKey: String?
  /// Ignored since iOS 15.
  public var summaryArg: String?
  /// Ignored since iOS 15.
  public var summaryArgCount: Int?
  /// A Live Activity alert's `sound`, which belongs inside `alert`.
  public var sound: String?

  /// Creates an empty alert dictionary.
  public init() {}

  /// Whether anything would show: a title, subtitle or body, literal or localised.
  public var hasContent: Bool {
    // Checked field by field: an array literal here would allocate and retain six strings.
    func present(_ text: String?) -> Bool { !(text?.isEmpty ?? true) }
    return present(title) || present(subtitle) || present(body) || present(titleLocKey)
      || present(subtitleLocKey) || present(locKey)
  }
}

/// `aps.sound`.
public enum Sound: Equatable, Sendable {
  /// A file name, or `"default"` for the system sound.
  case named(String)
  /// The critical-alert dictionary.
  case critical(CriticalSound)
}

/// The critical-alert form of `aps.sound`.
public struct CriticalSound: Equatable, Sendable {
  /// `critical: 1` was given.
  public var isCritical: Bool
  /// The sound file name; nil means the default critical sound.
  public var name: String?
  /// `volume` from 0.0 (silent) to 1.0 (full).
  public var volume: Double?

  /// Creates a critical sound description.
  public init(isCritical: Bool, name: String?, volume: Double?) {
    self.isCritical = isCritical
    self.name = name
    self.volume = volume
  }
}

/// A Live Activity push's `event`.
public enum LiveActivityEvent: String, Sendable, CaseIterable, Codable {
  case start, update, end
}

/// The Live Activity keys of `aps`.
public struct LiveActivityContent: Equatable, Sendable {
  /// `timestamp` (seconds), required.
  public var timestamp: Double?
  /// `event`.
  public var event: LiveActivityEvent?
  /// `content-state`, kept whole.
  public var contentState: JSONValue?
  /// `stale-date` (seconds).
  public var staleDate: Double?
  /// `dismissal-date` (seconds).
  public var dismissalDate: Double?
  /// `attributes-type` (start only).
  public var attributesType: String?
  /// `attributes` (start only), kept whole.
  public var attributes: JSONValue?
  /// `input-push-token: 1` (start only, iOS 18+).
  public var inputPushToken: Bool = false
  /// `input-push-channel` (start only, iOS 18+).
  public var inputPushChannel: String?

  /// Creates empty Live Activity content.
  public init() {}
}

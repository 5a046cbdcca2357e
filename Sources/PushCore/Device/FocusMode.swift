/// The kinds of Focus iOS offers; all behave alike except for their defaults and icon.
public enum FocusKind: String, Sendable, CaseIterable, Codable {
  case doNotDisturb, sleep, work, personal, driving, fitness, gaming, mindfulness, reading, custom

  /// The icon shown beside the Focus's name, as iOS draws one per kind: each an emoji with
  /// emoji presentation by default, so every terminal gives it two columns.
  public var glyph: String {
    switch self {
    case .doNotDisturb: "🌙"
    case .sleep: "💤"
    case .work: "💼"
    case .personal: "👤"
    case .driving: "🚗"
    case .fitness: "🏃"
    case .gaming: "🎮"
    case .mindfulness: "🧘"
    case .reading: "📖"
    case .custom: "✨"
    }
  }

  /// The name iOS gives a Focus of this kind.
  public var defaultName: String {
    switch self {
    case .doNotDisturb: "Do Not Disturb"
    case .custom: "Focus"
    default: rawValue.prefix(1).uppercased() + rawValue.dropFirst()
    }
  }
}

/// A Focus: who and what may still interrupt while it is on.
public struct FocusMode: Equatable, Sendable, Identifiable {
  /// The profile's name for it, for example `work`.
  public var id: String
  /// The name shown, for example "Work".
  public var name: String
  public var kind: FocusKind
  /// Apps whose notifications break through.
  public var allowedApps: Set<String>
  /// People (communication senders) whose messages break through.
  public var allowedPeople: Set<String>
  /// Whether time-sensitive notifications break through.
  public var allowsTimeSensitive: Bool
  /// Whether silenced notifications still appear on the lock screen.
  public var showsSilencedOnLockScreen: Bool
  /// Whether the lock screen is dimmed (Sleep does this by default).
  public var dimsLockScreen: Bool
  /// Focus filters: per app, the `filter-criteria` values that may show.
  public var filterCriteria: [String: Set<String>]

  public init(
    id: String, name: String, kind: FocusKind, allowedApps: Set<String> = [], allowedPeople: Set<String> = [],
    allowsTimeSensitive: Bool = true, showsSilencedOnLockScreen: Bool = false, dimsLockScreen: Bool? = nil,
    filterCriteria: [String: Set<String>] = [:]
  ) {
    self.id = id
    self.name = name
    self.kind = kind
    self.allowedApps = allowedApps
    self.allowedPeople = allowedPeople
    self.allowsTimeSensitive = allowsTimeSensitive
    self.showsSilencedOnLockScreen = showsSilencedOnLockScreen
    self.dimsLockScreen = dimsLockScreen ?? (kind == .sleep)
    self.filterCriteria = filterCriteria
  }

  /// Do Not Disturb with iOS's defaults: time-sensitive allowed, nothing else.
  public static let doNotDisturb = FocusMode(id: "dnd", name: "Do Not Disturb", kind: .doNotDisturb)
  /// Sleep with iOS's defaults: time-sensitive off, the lock screen dimmed.
  public static let sleep = FocusMode(id: "sleep", name: "Sleep", kind: .sleep, allowsTimeSensitive: false)
}

/// How an app's Live Activity draws its `content-state` on the lock screen: which keys make
/// the title, the detail line, a progress bar and a relative time. On iOS the app's widget
/// decides; a profile describes it here (`liveActivities:` in docs/SCENARIOS.md).
public struct LiveActivityLayout: Equatable, Sendable {
  /// The title: a key of the content-state (or of the static attributes), or a template.
  public var title: LiveActivityText?
  /// The line under the title.
  public var detail: LiveActivityText?
  /// The progress bar, if any.
  public var progress: LiveActivityProgress?
  /// The relative time ("in 18 min"), if any.
  public var time: LiveActivityTime?

  public init(
    title: LiveActivityText? = nil, detail: LiveActivityText? = nil, progress: LiveActivityProgress? = nil,
    time: LiveActivityTime? = nil
  ) {
    self.title = title
    self.detail = detail
    self.progress = progress
    self.time = time
  }
}

/// Text made from a Live Activity's values: `status` (one key) or a template such as
/// `"{courier} is on the way · {etaMinutes} min"`. A template's parts are separated by ` · `;
/// a part whose keys are missing or null is left out, so `courier: null` drops its part.
public struct LiveActivityText: Equatable, Sendable {
  /// The text as written.
  public var source: String

  public init(_ source: String) { self.source = source }

  /// Whether the text is a template (holds `{key}`) rather than one key.
  public var isTemplate: Bool { source.contains("{") }

  /// A template's parts: the text between ` · ` separators.
  static func parts(of source: String) -> [Substring] {
    var parts: [Substring] = []
    var rest = Substring(source)
    while let range = rest.firstRange(of: " · ") {
      parts.append(rest[..<range.lowerBound])
      rest = rest[range.upperBound...]
    }
    parts.append(rest)
    return parts
  }

  /// The keys the text refers to.
  public var keys: [String] {
    guard isTemplate else { return [source] }
    var keys: [String] = []
    var current: String?
    for character in source {
      if character == "{" {
        current = ""
      } else if character == "}", let key = current {
        keys.append(key)
        current = nil
      } else if current != nil {
        current?.append(character)
      }
    }
    return keys
  }

  /// The text with the values filled in; nil when nothing is left.
  public func render(_ lookup: (String) -> String?) -> String? {
    guard isTemplate else { return lookup(source) }
    var parts: [String] = []
    for part in Self.parts(of: source) {
      var text = ""
      var key: String?
      var complete = true
      for character in part {
        if character == "{" {
          key = ""
        } else if character == "}", let name = key {
          guard let value = lookup(name) else {
            complete = false
            break
          }
          text += value
          key = nil
        } else if key != nil {
          key?.append(character)
        } else {
          text.append(character)
        }
      }
      if complete, !text.isEmpty { parts.append(text) }
    }
    return parts.isEmpty ? nil : parts.joined(separator: " · ")
  }
}

/// A progress bar from a number of the content-state: the fraction from `from` to `to`
/// (`etaMinutes` from 35 to 0 fills as the courier nears), clamped to 0…1.
public struct LiveActivityProgress: Equatable, Sendable {
  public var key: String
  public var from: Double
  public var to: Double

  public init(key: String, from: Double = 0, to: Double = 1) {
    self.key = key
    self.from = from
    self.to = to
  }

  /// The fraction for a value; nil when `from` equals `to` or the value is not finite.
  public func fraction(_ value: Double) -> Double? {
    guard from != to, value.isFinite else { return nil }
    return min(1, max(0, (value - from) / (to - from)))
  }
}

/// A time of the content-state, shown relative to now ("in 18 min", "5m ago").
public struct LiveActivityTime: Equatable, Sendable {
  /// How the number is read.
  public enum Unit: String, Sendable, CaseIterable {
    /// A Swift `Date` as ActivityKit decodes it by default: seconds since 1 January 2001.
    case date
    /// Seconds since 1970.
    case unixSeconds
    /// Minutes after the update's `timestamp` (a countdown such as `etaMinutes`).
    case minutes
    /// Seconds after the update's `timestamp`.
    case seconds
  }

  public var key: String
  public var unit: Unit

  public init(key: String, unit: Unit = .date) {
    self.key = key
    self.unit = unit
  }

  /// Seconds between 1970 and 2001, the reference date of Swift's `Date`.
  static let referenceDateOffset = 978_307_200.0

  /// The instant a value stands for, given the update's `timestamp` (seconds since 1970).
  public func instant(_ value: Double, timestamp: Double) -> SimInstant? {
    let seconds: Double =
      switch unit {
      case .date: value + Self.referenceDateOffset
      case .unixSeconds: value
      case .minutes: timestamp + value * 60
      case .seconds: timestamp + value
      }
    return SimInstant(exactlyEpochSeconds: seconds)
  }
}

/// What a Live Activity shows now: its layout applied to its latest content-state.
public struct LiveActivityFace: Equatable, Sendable {
  public var title: String
  public var detail: String?
  /// 0…1, when the layout has a progress bar and the value is a number.
  public var progress: Double?
  /// The time to show relative to now.
  public var time: SimInstant?

  public init(title: String, detail: String? = nil, progress: Double? = nil, time: SimInstant? = nil) {
    self.title = title
    self.detail = detail
    self.progress = progress
    self.time = time
  }
}

extension LiveActivity {
  /// The activity drawn with `layout`, or, without one, a readable default: the attributes
  /// type as the title (`DeliveryAttributes` → "Delivery") and the content-state's pairs
  /// humanised ("Status: Picked up · Eta minutes: 18 · Courier: Kenji").
  public func face(layout: LiveActivityLayout?) -> LiveActivityFace {
    func lookup(_ key: String) -> String? {
      let value = contentState?[key] ?? attributes?[key]
      return value.flatMap(LiveActivityValues.text)
    }
    let fallbackTitle = LiveActivityValues.typeTitle(attributesType)
    guard let layout else {
      var pairs: [String] = []
      if case .object(let members)? = contentState {
        for member in members {
          guard let text = LiveActivityValues.text(member.value) else { continue }
          pairs.append("\(LiveActivityValues.humanise(member.key)): \(text)")
        }
      }
      return LiveActivityFace(
        title: fallbackTitle, detail: pairs.isEmpty ? nil : pairs.joined(separator: " · "))
    }
    var face = LiveActivityFace(
      title: layout.title?.render(lookup) ?? fallbackTitle, detail: layout.detail?.render(lookup))
    if let progress = layout.progress,
      let value = (contentState?[progress.key] ?? attributes?[progress.key])?.doubleValue
    {
      face.progress = progress.fraction(value)
    }
    if let time = layout.time, let value = (contentState?[time.key] ?? attributes?[time.key])?.doubleValue {
      face.time = time.instant(value, timestamp: lastTimestamp)
    }
    return face
  }
}

/// Turning content-state values and keys into words.
public enum LiveActivityValues {
  /// A value as text: strings (lowerCamelCase words such as `pickedUp` become "Picked up"),
  /// numbers as written, true/false as Yes/No; nil for null. Arrays and objects as JSON.
  public static func text(_ value: JSONValue) -> String? {
    switch value {
    case .null: return nil
    case .bool(let flag): return flag ? "Yes" : "No"
    case .number(let number): return number.text
    case .string(let string):
      return isIdentifierLike(string) ? humanise(string) : string
    case .array, .object: return value.compactText
    }
  }

  /// `etaMinutes` → "Eta minutes", `picked_up` → "Picked up".
  public static func humanise(_ key: String) -> String {
    var words: [String] = []
    var current = ""
    for character in key {
      if character == "_" || character == "-" || character == " " {
        if !current.isEmpty { words.append(current) }
        current = ""
      } else if character.isUppercase, !current.isEmpty, !(current.last?.isUppercase ?? false) {
        words.append(current)
        current = String(character)
      } else {
        current.append(character)
      }
    }
    if !current.isEmpty { words.append(current) }
    guard let first = words.first else { return key }
    let rest = words.dropFirst().map { word in word.count > 1 && word == word.uppercased() ? word : word.lowercased() }
    return ([first.prefix(1).uppercased() + first.dropFirst()] + rest).joined(separator: " ")
  }

  /// `DeliveryAttributes` → "Delivery"; `RideActivityAttributes` → "Ride"; "Activity" alone stays.
  public static func typeTitle(_ type: String) -> String {
    var name = Substring(type)
    for suffix in ["Attributes", "Activity"] where name.hasSuffix(suffix) && name.count > suffix.count {
      name = name.dropLast(suffix.count)
    }
    return humanise(String(name))
  }

  /// A lowerCamelCase or snake_case word, as an enum case is encoded: starts with a lowercase
  /// ASCII letter and holds only ASCII letters, digits and underscores.
  static func isIdentifierLike(_ text: String) -> Bool {
    guard let first = text.unicodeScalars.first, ("a"..."z").contains(first) else { return false }
    return text.unicodeScalars.allSatisfy {
      ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_"
    }
  }
}

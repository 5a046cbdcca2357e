/// The identifier of the default action: the user tapped the notification itself.
public let defaultActionIdentifier = "com.apple.UNNotificationDefaultActionIdentifier"
/// The identifier of the dismiss action, sent for categories with `customDismissAction`.
public let dismissActionIdentifier = "com.apple.UNNotificationDismissActionIdentifier"

/// What a binding runs: one of the built-in action handlers and its settings.
public enum HandlerKind: Equatable, Sendable {
  /// Append one JSON line per response to a file.
  case log(file: String)
  /// Run a program (an argv list, never a shell) with the response JSON on stdin.
  case exec(argv: [String], timeoutSeconds: Double)
  /// POST the response JSON to a URL.
  case http(url: String, timeoutSeconds: Double)
  /// Record the deep link or `target-content-id` the app would open; optionally append it to a file.
  case open(file: String?)
  /// Answer at once with a message, running nothing: the app's part played with no program, so
  /// a demo or a design review works on any machine. `{text}` and `{action}` in the message
  /// become what the user typed and the action's title.
  case echo(message: String?)

  /// The handler's name as written in profiles.
  public var name: String {
    switch self {
    case .log: "log"
    case .exec: "exec"
    case .http: "http"
    case .open: "open"
    case .echo: "echo"
    }
  }

  /// The names profiles may use.
  public static let names = ["log", "exec", "http", "open", "echo"]
  /// The timeout when a binding gives none.
  public static let defaultTimeoutSeconds = 5.0
}

/// A profile's binding of responses (app, category, action) to a handler.
///
/// Each pattern is an exact identifier, `*` for anything, or a glob with `*` in it
/// (`com.shop.*`). The category pattern `*` also matches notifications without a category.
public struct HandlerBinding: Equatable, Sendable {
  /// The app's bundle id pattern.
  public var app: String
  /// The category identifier pattern.
  public var category: String
  /// The action identifier pattern; `default` and `dismiss` are short for the system's
  /// default (tap) and dismiss action identifiers.
  public var action: String
  /// What runs.
  public var kind: HandlerKind

  /// Creates a binding; `default` and `dismiss` as the action are expanded to the system's
  /// identifiers.
  public init(app: String = "*", category: String = "*", action: String = "*", kind: HandlerKind) {
    self.app = app
    self.category = category
    switch action {
    case "default": self.action = defaultActionIdentifier
    case "dismiss": self.action = dismissActionIdentifier
    default: self.action = action
    }
    self.kind = kind
  }

  /// Whether this binding covers a response, and how specifically; nil when it does not match.
  ///
  /// A field scores 2 when exact, 1 when a partial glob, 0 for `*`. The total decides; on a
  /// tie, a more specific action beats a more specific category, which beats a more specific
  /// app.
  public func specificity(app bundleID: String, category categoryID: String?, action actionID: String) -> Int? {
    guard let a = Self.score(app, bundleID), let c = Self.score(category, categoryID ?? ""),
      let x = Self.score(action, actionID)
    else { return nil }
    return (a + c + x) * 100 + x * 9 + c * 3 + a
  }

  /// The match score of one pattern, or nil.
  static func score(_ pattern: String, _ value: String) -> Int? {
    if pattern == "*" { return 0 }
    if !pattern.contains("*") { return pattern == value ? 2 : nil }
    return glob(Array(pattern), Array(value)) ? 1 : nil
  }

  /// `*`-only glob matching.
  static func glob(_ pattern: [Character], _ value: [Character]) -> Bool {
    var p = 0
    var v = 0
    var star: Int?
    var mark = 0
    while v < value.count {
      if p < pattern.count, pattern[p] != "*", pattern[p] == value[v] {
        p += 1
        v += 1
      } else if p < pattern.count, pattern[p] == "*" {
        star = p
        mark = v
        p += 1
      } else if let star {
        p = star + 1
        mark += 1
        v = mark
      } else {
        return false
      }
    }
    while p < pattern.count, pattern[p] == "*" { p += 1 }
    return p == pattern.count
  }

  /// The binding that handles a response: the most specific match; the first listed on a tie.
  public static func best(
    in bindings: [HandlerBinding], app: String, category: String?, action: String
  ) -> (index: Int, binding: HandlerBinding)? {
    var best: (index: Int, binding: HandlerBinding, score: Int)?
    for (index, binding) in bindings.enumerated() {
      guard let score = binding.specificity(app: app, category: category, action: action) else { continue }
      if score > (best?.score ?? -1) { best = (index, binding, score) }
    }
    return best.map { ($0.index, $0.binding) }
  }
}

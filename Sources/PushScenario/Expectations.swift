import PushCore
import PushYAML

/// What a scenario says should happen: the `expect:` blocks of its timeline (docs/SCENARIOS.md,
/// Expectations). `pushdeck test` checks them; every other command reads and ignores them.
public struct Expectation: Equatable, Sendable {
  /// Which screen a moment's text and snapshot checks read.
  public enum Screen: String, Equatable, Sendable, CaseIterable {
    case lock, center
  }

  /// What a push's sound should be.
  public enum Sound: Equatable, Sendable {
    /// No sound plays.
    case none
    /// Some sound plays.
    case any
    /// This sound plays: `default`, a file name, or `critical NAME at N%` as explain prints it.
    case named(String)
  }

  /// One check.
  public enum Check: Equatable, Sendable {
    // Of the push on the same entry.
    case disposition(Disposition)
    /// Exactly these surfaces (sorted), none for an empty list.
    case surfaces([Surface])
    case sound(Sound)
    /// The badge the push sets; nil: left unchanged.
    case badge(Int?)
    /// Each of these reason codes is among the push's reasons.
    case reasons([ReasonCode])
    /// None of these reason codes is among the push's reasons.
    case withoutReasons([ReasonCode])
    /// The stack it joined, as explain prints it (`com.example.app`, `com.example.app#thread`).
    case group(String)
    /// Its thread identifier; nil: none.
    case thread(String?)
    /// Its stack's place in Notification Center right after it arrived (1 = top).
    case rank(Int)
    /// The interruption level it was delivered at (after Focus and settings).
    case level(InterruptionLevel)
    /// How the handler of the timeline's responses to it ended: succeeded, failed or unhandled,
    /// with a text its message contains.
    case handler(outcome: String, message: String?)
    // Of the moment.
    /// The screen's text contains this.
    case contains(String, Screen)
    /// The screen's text does not contain this.
    case notContains(String, Screen)
    /// How many notifications the lock screen shows.
    case lockScreen(Int)
    /// How many notifications Notification Center holds.
    case notificationCenter(Int)
    /// The screen's text equals the file's (`path` as written, `fullPath` from the scenario's
    /// directory).
    case snapshot(path: String, fullPath: String, screen: Screen, columns: Int, rows: Int)
  }

  public var check: Check
  /// The key as written (`disposition`, `lockScreen`…).
  public var key: String
  /// Where it was written.
  public var file: String
  public var line: Int?
  public var column: Int?
  /// The key path from the document's root, `timeline[3].expect.disposition`.
  public var path: String

  /// Creates an expectation.
  public init(check: Check, key: String, file: String, line: Int?, column: Int?, path: String) {
    self.check = check
    self.key = key
    self.file = file
    self.line = line
    self.column = column
    self.path = path
  }
}

/// The expectations of one timeline entry.
public struct ExpectationStep: Equatable, Sendable {
  /// The push this entry sends (1-based), when it sends one.
  public var push: Int?
  /// How many of the scenario's timeline events come before the check, this entry's included.
  public var eventsBefore: Int
  /// When the check happens.
  public var at: SimInstant
  /// The entry's line.
  public var line: Int?
  /// The entry's key path, `timeline[3]`.
  public var path: String
  public var expectations: [Expectation]

  /// Creates a step.
  public init(
    push: Int?, eventsBefore: Int, at: SimInstant, line: Int?, path: String, expectations: [Expectation]
  ) {
    self.push = push
    self.eventsBefore = eventsBefore
    self.at = at
    self.line = line
    self.path = path
    self.expectations = expectations
  }
}

/// A scenario with the expectations its timeline states.
public struct CheckedScenario: Equatable, Sendable {
  public var scenario: Scenario
  /// The entries with `expect:`, in timeline order.
  public var steps: [ExpectationStep]
  /// The scenario file.
  public var file: String

  /// Creates a checked scenario.
  public init(scenario: Scenario, steps: [ExpectationStep], file: String) {
    self.scenario = scenario
    self.steps = steps
    self.file = file
  }

  /// How many expectations it states.
  public var expectationCount: Int { steps.reduce(0) { $0 + $1.expectations.count } }
}

/// Reads `expect:` blocks.
struct ExpectationReader {
  static let pushKeys = [
    "disposition", "surfaces", "sound", "badge", "reasons", "withoutReasons", "group", "thread", "rank", "level",
    "handler",
  ]
  static let momentKeys = ["screen", "contains", "notContains", "lockScreen", "notificationCenter", "snapshot"]

  let directory: String
  let profile: DeviceProfile

  /// The expectations of an entry; `push` is the entry's push record when it sends one.
  func read(_ value: YAMLValue, push: PushRecord?) throws(ScenarioError) -> [Expectation] {
    let map = try value.mapping(allowed: Self.pushKeys + Self.momentKeys)
    guard !map.entries.isEmpty else {
      throw value.error(
        "an empty expect: block; expected at least one of \((Self.pushKeys + Self.momentKeys).joined(separator: ", "))")
    }
    if push == nil, let first = map.entries.first(where: { Self.pushKeys.contains($0.key) }) {
      throw first.keyValue.located(map.value, key: first.key).error(
        "\(first.key): checks the push of its entry, and this entry sends none; put it beside a push: (or check the moment with \(Self.momentKeys.filter { $0 != "screen" }.joined(separator: ", ")))"
      )
    }
    let screen = try map["screen"]?.oneOf(Expectation.Screen.self) ?? .lock
    if let screenValue = map["screen"], !map.has("contains") && !map.has("notContains") && !map.has("snapshot") {
      throw screenValue.error("screen: chooses the screen contains:, notContains: and snapshot: read; give one of them")
    }
    var expectations: [Expectation] = []
    func add(_ check: Expectation.Check, _ item: YAMLValue, _ key: String) {
      expectations.append(
        Expectation(check: check, key: key, file: item.file, line: item.line, column: item.column, path: item.path))
    }
    var disposition: Disposition?
    for entry in map.entries {
      let item = entry.value
      switch entry.key {
      case "disposition":
        let value = try item.oneOf(Disposition.self)
        disposition = value
        add(.disposition(value), item, entry.key)
      case "surfaces":
        var surfaces: [Surface] = []
        if !item.isNull, !(item.isPlain && item.scalarText == "none") {
          for element in try item.listOrOne() {
            let surface = try element.oneOf(Surface.self)
            guard !surfaces.contains(surface) else { throw element.error("\(surface.rawValue) is listed twice") }
            surfaces.append(surface)
          }
        }
        add(.surfaces(surfaces.sorted()), item, entry.key)
      case "sound": add(.sound(try sound(item)), item, entry.key)
      case "badge": add(.badge(try badge(item)), item, entry.key)
      case "reasons", "withoutReasons":
        var codes: [ReasonCode] = []
        for element in try item.listOrOne() { codes.append(try element.oneOf(ReasonCode.self)) }
        guard !codes.isEmpty else { throw item.error("expected at least one reason code") }
        add(entry.key == "reasons" ? .reasons(codes) : .withoutReasons(codes), item, entry.key)
      case "group":
        add(
          .group(try item.nonEmptyString("the stack as explain prints it, such as com.example.app#thread")), item,
          entry.key)
      case "thread":
        add(
          .thread(
            item.isNull || (item.isPlain && item.scalarText == "none") ? nil : try item.nonEmptyString("a thread id")),
          item, entry.key)
      case "rank":
        add(.rank(try item.int(in: 1...100_000)), item, entry.key)
      case "level":
        add(.level(try item.oneOf(InterruptionLevel.self)), item, entry.key)
      case "handler": add(try handler(item), item, entry.key)
      case "screen":
        break
      case "contains", "notContains":
        let texts = try item.listOrOne()
        guard !texts.isEmpty else {
          throw item.error("expected at least one text to look for (a string, or a list of them)")
        }
        for element in texts {
          let text = try element.nonEmptyString("the text to look for on the screen")
          guard !text.contains("\n") else {
            throw element.error(
              "the screen is read line by line; give text on one line (a snapshot: checks a whole screen)")
          }
          add(entry.key == "contains" ? .contains(text, screen) : .notContains(text, screen), element, entry.key)
        }
      case "lockScreen", "notificationCenter":
        let count = try item.int(in: 0...1_000_000)
        add(entry.key == "lockScreen" ? .lockScreen(count) : .notificationCenter(count), item, entry.key)
      case "snapshot":
        let (check, pathValue) = try snapshot(item, screen: screen)
        add(check, pathValue, entry.key)
      default:
        break
      }
    }
    try checkPossible(map, disposition: disposition, push: push)
    return expectations
  }

  /// `sound:`: true (any sound), false or none (no sound), or the sound's name.
  private func sound(_ item: YAMLValue) throws(ScenarioError) -> Expectation.Sound {
    if item.isPlain, ["true", "True", "TRUE"].contains(item.scalarText ?? "") { return .any }
    if item.isNull || (item.isPlain && ["false", "False", "FALSE", "none"].contains(item.scalarText ?? "")) {
      return .none
    }
    return .named(try item.nonEmptyString("true, false, none, or the sound's name such as default"))
  }

  /// `badge:`: the number the badge becomes, or nil for `unchanged`.
  private func badge(_ item: YAMLValue) throws(ScenarioError) -> Int? {
    if item.isPlain, item.scalarText == "unchanged" { return nil }
    guard item.isPlain, let text = item.scalarText, let number = YAMLValue.integer(text), (0...99_999).contains(number)
    else {
      throw item.error("expected the badge number (0 clears it, up to 99999) or unchanged, got \(item.described)")
    }
    return number
  }

  /// `handler:`: an outcome, or a mapping of `outcome` and `message`; only when the profile binds
  /// handlers.
  private func handler(_ item: YAMLValue) throws(ScenarioError) -> Expectation.Check {
    guard !profile.handlers.isEmpty else {
      throw item.error(
        "the profile binds no handlers: (docs/SCENARIOS.md, Action handlers), so no handler runs for this push")
    }
    let outcomes = ["succeeded", "failed", "unhandled"]
    guard case .mapping = item.node else {
      return .handler(outcome: try item.oneOf(outcomes.map { ($0, $0) }), message: nil)
    }
    let fields = try item.mapping(allowed: ["outcome", "message"])
    let outcome = try fields.required("outcome", "succeeded, failed or unhandled").oneOf(outcomes.map { ($0, $0) })
    return .handler(outcome: outcome, message: try fields["message"]?.string())
  }

  /// `snapshot:`: a path beside the scenario, or a mapping of `file` and `size`; returns the
  /// check and the value naming the file (where its failures point).
  private func snapshot(_ item: YAMLValue, screen: Expectation.Screen) throws(ScenarioError) -> (
    Expectation.Check, YAMLValue
  ) {
    var columns = 80
    var rows = 24
    let pathValue: YAMLValue
    if case .mapping = item.node {
      let fields = try item.mapping(allowed: ["file", "size"])
      pathValue = try fields.required("file", "the snapshot file, next to the scenario")
      if let size = fields["size"] {
        let parts = try size.string().split(separator: "x")
        // 40×12 is the smallest screen the front end draws (`LockScreenView.minimumSize`): a
        // smaller snapshot would only hold its "Terminal too small" note.
        guard parts.count == 2, let c = Int(parts[0]), let r = Int(parts[1]), (40...400).contains(c),
          (12...200).contains(r)
        else {
          throw size.error(
            "expected COLUMNSxROWS such as 80x24 (40 to 400 columns, 12 to 200 rows), got \(size.described)")
        }
        (columns, rows) = (c, r)
      }
    } else {
      pathValue = item
    }
    let path = try pathValue.nonEmptyString("the snapshot file's path, relative to the scenario")
    // `test --update` writes it: keep it beside the scenario, never elsewhere.
    guard !path.hasPrefix("/"), !path.split(separator: "/").contains(".."), !path.contains("\0") else {
      throw pathValue.error(
        "a snapshot lives beside its scenario: give a relative path without .., such as snapshots/lock.txt")
    }
    let check = Expectation.Check.snapshot(
      path: path, fullPath: ScenarioFiles.join(directory, path), screen: screen, columns: columns, rows: rows)
    return (check, pathValue)
  }

  /// Expectations that cannot all hold are errors at the one that cannot.
  private func checkPossible(_ map: YAMLMapping, disposition: Disposition?, push: PushRecord?) throws(ScenarioError) {
    let shownNowhere: [Disposition] = [.silent, .dropped, .rejected]
    var isSilentPush = false
    if let push, let payload = push.payload, PushVerdict(push.diagnostics).isDelivered {
      isSilentPush = payload.isSilent && payload.aps.liveActivity == nil
    }
    let why: String? =
      if let disposition, shownNowhere.contains(disposition) {
        "disposition is \(disposition.rawValue)"
      } else if isSilentPush {
        "the payload is a background push (content-available with no alert, sound or badge), which shows nothing"
      } else {
        nil
      }
    guard let why else { return }
    if isSilentPush, let value = map["disposition"], let disposition,
      ![.silent, .dropped, .rejected].contains(disposition)
    {
      throw value.error("a push can be \(disposition.rawValue) only if it shows something, but \(why); expected silent")
    }
    if let value = map["surfaces"], case .surfaces(let surfaces)? = try? readSurfaces(value), !surfaces.isEmpty {
      throw value.error("no surface can show it: \(why); expected none")
    }
    if let value = map["sound"],
      !(value.isNull || (value.isPlain && ["false", "False", "FALSE", "none"].contains(value.scalarText ?? "")))
    {
      throw value.error("no sound can play: \(why); expected none")
    }
    if let value = map["rank"] {
      throw value.error("it joins no stack in Notification Center, so it has no rank: \(why)")
    }
    if let value = map["group"] {
      throw value.error("it joins no stack, so it has no group: \(why)")
    }
  }

  private func readSurfaces(_ value: YAMLValue) throws(ScenarioError) -> Expectation.Check {
    if value.isNull || (value.isPlain && value.scalarText == "none") { return .surfaces([]) }
    var surfaces: [Surface] = []
    for element in try value.listOrOne() { surfaces.append(try element.oneOf(Surface.self)) }
    return .surfaces(surfaces)
  }
}

extension YAMLValue {
  /// A mapping key's own node, located with its key path (for errors about the key itself).
  fileprivate func located(_ mapping: YAMLValue, key: String) -> YAMLValue {
    YAMLValue(node: node, path: mapping.path.isEmpty ? key : mapping.path + "." + key, file: file)
  }
}

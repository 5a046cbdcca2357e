import PushCore
import PushHandlers
import PushMedia
import PushRender
import PushScenario
import PushUI

/// How one expectation came out.
public struct ExpectationResult: Equatable, Sendable {
  public enum Outcome: String, Equatable, Sendable {
    /// It held.
    case held
    /// It did not.
    case failed
    /// A snapshot file was written (`--update`).
    case recorded
  }

  public var expectation: Expectation
  public var outcome: Outcome
  /// What the scenario expected and what the device did, in the words the scenario uses.
  public var expected: String
  public var got: String
  /// What explain said about the push (its reasons and verdict), or a snapshot's diff.
  public var details: [String]
  /// `push 2: disposition` or `moment at 18:52:05: lockScreen`.
  public var name: String

  /// Creates a result.
  public init(
    expectation: Expectation, outcome: Outcome, expected: String, got: String, details: [String], name: String
  ) {
    self.expectation = expectation
    self.outcome = outcome
    self.expected = expected
    self.got = got
    self.details = details
    self.name = name
  }

  /// `file:line:column`.
  public var location: String {
    expectation.file + (expectation.line.map { ":\($0)" } ?? "") + (expectation.column.map { ":\($0)" } ?? "")
  }

  /// One line: what was expected and what happened.
  public var summary: String {
    switch outcome {
    case .held: "\(expectation.key): \(expected)"
    case .failed: "\(expectation.key): expected \(expected), got \(got)"
    case .recorded: "\(expectation.key): recorded \(expected)"
    }
  }
}

/// What `pushdeck test` found in one scenario file.
public struct ScenarioReport: Equatable, Sendable {
  public var file: String
  public var title: String?
  /// Why it could not be checked (the file is not valid); nil when it played.
  public var error: ScenarioError?
  public var results: [ExpectationResult]

  /// Creates a report.
  public init(file: String, title: String? = nil, error: ScenarioError? = nil, results: [ExpectationResult] = []) {
    self.file = file
    self.title = title
    self.error = error
    self.results = results
  }

  public var failures: [ExpectationResult] { results.filter { $0.outcome == .failed } }
  /// Whether it states no expectations (reported as such, not failed).
  public var hasNoExpectations: Bool { error == nil && results.isEmpty }
}

/// Plays scenarios and checks their expectations, as `explain` and `render` see the device.
public struct ScenarioTester: Sendable {
  /// Write snapshot files instead of comparing them.
  public var update: Bool
  public var loader: ScenarioLoader

  /// Creates a tester.
  public init(update: Bool = false, loader: ScenarioLoader = ScenarioLoader()) {
    self.update = update
    self.loader = loader
  }

  /// The scenario files among paths: files as named, directories walked (sorted) for `.yaml`
  /// and `.yml` files with a `timeline:`; problems for paths that cannot be read.
  public static func scenarioFiles(in paths: [String], loader: ScenarioLoader = ScenarioLoader()) -> (
    files: [String], problems: [String]
  ) {
    var files: [String] = []
    var problems: [String] = []
    for path in paths {
      switch FileTree.kind(path) {
      case .directory:
        let walked = FileTree.walk(path)
        problems += walked.problems
        for file in walked.files where isYAML(file) && loader.isScenario(path: file) != false {
          files.append(file)
        }
      case .file:
        files.append(path)
      case .missing:
        problems.append("\(path): no such file or directory")
      }
    }
    // A file named twice (`snap snap/s.yaml ./snap/s.yaml`) is played once, where first named.
    var seen = Set<String>()
    files = files.filter { seen.insert(FileTree.canonical($0)).inserted }
    return (files, problems)
  }

  static func isYAML(_ path: String) -> Bool {
    let lower = path.lowercased()
    return lower.hasSuffix(".yaml") || lower.hasSuffix(".yml")
  }

  /// Plays one scenario file and checks what it expects.
  public func test(path: String) -> ScenarioReport {
    let checked: CheckedScenario
    do throws(ScenarioError) {
      checked = try loader.loadCheckedScenario(path: path)
    } catch {
      return ScenarioReport(file: path, error: error)
    }
    return test(checked)
  }

  /// Plays a loaded scenario and checks what it expects.
  public func test(_ checked: CheckedScenario) -> ScenarioReport {
    var report = ScenarioReport(file: checked.file, title: checked.scenario.title)
    guard !checked.steps.isEmpty else { return report }
    var scenario = checked.scenario
    var extensions = ServiceExtensionRegistry(profile: scenario.profile)
    extensions.decorateAttachment = { ImageDecoder.withThumbnail($0) }
    scenario.timeline = extensions.processBlocking(scenario.timeline, profile: scenario.profile)
    let run = scenario.run()
    let handled = ScenarioHandlers.run(run, profile: scenario.profile)
    let offset = scenario.profile.utcOffsetSeconds
    for step in checked.steps {
      var moment: MomentView?
      for expectation in step.expectations {
        if let push = step.push, let result = checkPush(expectation, push: push, run: run, handled: handled) {
          report.results.append(result)
          continue
        }
        if moment == nil { moment = MomentView(scenario: scenario, step: step) }
        let time = CivilTime.iso8601(step.at, utcOffsetSeconds: offset)
        let name = (step.push.map { "push \($0)" } ?? "moment") + " at \(time): \(expectation.key)"
        report.results.append(checkMoment(expectation, in: &moment!, name: name))
      }
    }
    return report
  }

  // MARK: Pushes

  /// Checks a push expectation; nil for a moment's.
  func checkPush(
    _ expectation: Expectation, push: Int, run: ScenarioRun, handled: [NotificationID: [HandlerRun]]
  ) -> ExpectationResult? {
    guard push >= 1, push <= run.records.count else { return nil }
    let record = run.records[push - 1]
    let decision = record.decision
    var expected: String
    var got: String
    var held: Bool
    switch expectation.check {
    case .disposition(let disposition):
      (expected, got) = (disposition.rawValue, decision.disposition.rawValue)
      held = disposition == decision.disposition
    case .surfaces(let surfaces):
      (expected, got) = (Self.list(surfaces.map(\.rawValue)), Self.list(decision.surfaces.sorted().map(\.rawValue)))
      held = surfaces == decision.surfaces.sorted()
    case .sound(let sound):
      let playing = decision.playsSound ? decision.sound.map(SoundText.name) ?? "yes" : nil
      got = playing ?? "none"
      switch sound {
      case .none: (expected, held) = ("none", playing == nil)
      case .any: (expected, held) = ("a sound", playing != nil)
      case .named(let name): (expected, held) = (name, playing == name)
      }
    case .badge(let badge):
      (expected, got) = (badge.map(String.init) ?? "unchanged", decision.badge.map(String.init) ?? "unchanged")
      held = badge == decision.badge
    case .reasons(let codes):
      let present = decision.reasons.map(\.code)
      let missing = codes.filter { !present.contains($0) }
      expected = Self.list(codes.map(\.rawValue))
      got =
        Self.list(present.map(\.rawValue)) + (missing.isEmpty ? "" : " (missing \(Self.list(missing.map(\.rawValue))))")
      held = missing.isEmpty
    case .withoutReasons(let codes):
      let present = decision.reasons.map(\.code)
      let found = codes.filter { present.contains($0) }
      expected = "none of " + Self.list(codes.map(\.rawValue))
      got = Self.list(present.map(\.rawValue))
      held = found.isEmpty
    case .group(let group):
      (expected, got) = (group, record.group?.description ?? "no stack")
      held = record.group?.description == group
    case .thread(let thread):
      let actual = record.notification?.threadID.flatMap { $0.isEmpty ? nil : $0 }
      (expected, got) = (thread ?? "none", actual ?? "none")
      held = thread == actual
    case .rank(let rank):
      (expected, got) = ("#\(rank)", record.groupRank.map { "#\($0)" } ?? "no rank (not in Notification Center)")
      held = record.groupRank == rank
    case .level(let level):
      expected = level.rawValue
      got = record.notification == nil ? "no notification" : decision.effectiveLevel.rawValue
      held = record.notification != nil && decision.effectiveLevel == level
    case .handler(let outcome, let message):
      expected = outcome + (message.map { " with a message containing \"\($0)\"" } ?? "")
      let last = record.notification.flatMap { handled[$0.id]?.last }
      got = last.map { $0.outcomeText + " (\($0.handler ?? "no handler"))" } ?? "no response to it reached a handler"
      held = last.map { $0.outcomeName == outcome && (message.map($0.outcomeText.contains) ?? true) } ?? false
    default:
      return nil
    }
    return ExpectationResult(
      expectation: expectation, outcome: held ? .held : .failed, expected: expected, got: got,
      details: held ? [] : Self.explanation(record), name: "push \(push): \(expectation.key)")
  }

  /// What explain says about a push: its reasons (`• text [code]`) and, for a refused push, the
  /// verdict.
  public static func explanation(_ record: DeliveryRecord) -> [String] {
    var lines = ["explain: \(record.decision.disposition.rawValue) (\(record.source))"]
    lines += record.decision.reasons.map { "  • \($0.text) [\($0.code.rawValue)]" }
    if let refusal = PushVerdict(record.diagnostics).refusalText { lines.append("  verdict: " + refusal) }
    return lines
  }

  static func list(_ items: [String]) -> String { items.isEmpty ? "none" : "[" + items.joined(separator: ", ") + "]" }

  // MARK: Moments

  func checkMoment(_ expectation: Expectation, in moment: inout MomentView, name: String) -> ExpectationResult {
    func result(_ held: Bool, _ expected: String, _ got: String, _ details: [String] = []) -> ExpectationResult {
      ExpectationResult(
        expectation: expectation, outcome: held ? .held : .failed, expected: expected, got: got, details: details,
        name: name)
    }
    switch expectation.check {
    case .lockScreen(let count):
      let actual = moment.lockScreenCount
      return result(actual == count, "\(count) on the lock screen", "\(actual)")
    case .notificationCenter(let count):
      let actual = moment.centerCount
      return result(actual == count, "\(count) in Notification Center", "\(actual)")
    case .contains(let text, let screen), .notContains(let text, let screen):
      let wanted = expectation.key == "contains"
      let shown = moment.text(screen: screen, columns: 80, rows: 24)
      let found = shown.contains(text)
      let dump =
        ["screen (\(screen.rawValue), 80x24):"]
        + shown.split(separator: "\n", omittingEmptySubsequences: false).map { "  |" + $0 }
      return result(
        found == wanted, "the \(screen.rawValue) screen \(wanted ? "to contain" : "not to contain") \"\(text)\"",
        found ? "found" : "not found", found == wanted ? [] : dump)
    case .snapshot(let path, let fullPath, let screen, let columns, let rows):
      let shown = moment.text(screen: screen, columns: columns, rows: rows) + "\n"
      let label = "\(path) (\(screen.rawValue) screen, \(columns)x\(rows))"
      // A folder where the file goes can be neither read nor recorded: said so, not "no such
      // file" followed by a Foundation error from --update.
      if FileTree.kind(fullPath) == .directory {
        return result(false, label, "a folder, not a file", ["name a file for the snapshot, or move the folder away"])
      }
      if update {
        let old = FileTree.read(fullPath).map(FileTree.unixLineEndings)
        if old == shown { return result(true, label, "unchanged") }
        if let problem = FileTree.write(shown, to: fullPath) {
          return result(false, "to record \(label)", "cannot write it: \(problem)")
        }
        return ExpectationResult(
          expectation: expectation, outcome: .recorded, expected: label, got: old == nil ? "new" : "updated",
          details: [], name: name)
      }
      guard let recorded = FileTree.read(fullPath).map(FileTree.unixLineEndings) else {
        return result(
          false, label, "no such file",
          ["record it with: pushdeck test --update \(expectation.file)"])
      }
      if recorded == shown { return result(true, label, "the same") }
      return result(
        false, label, "a different screen",
        ["--- \(path) (recorded)", "+++ the screen now"] + LineDiff.unified(recorded, shown)
          + ["update it with: pushdeck test --update \(expectation.file)"])
    default:
      return result(false, "a push expectation", "no push on this entry")
    }
  }
}

/// The device at a moment of a scenario, as `render` draws it.
struct MomentView {
  var state: AppState
  private var texts: [String: String] = [:]

  init(scenario: Scenario, step: ExpectationStep) {
    let entries = scenario.timeline.prefix(step.eventsBefore).map(TimelineEntry.init)
    state = AppState(device: DeviceSimulator(profile: scenario.profile), timeline: Array(entries))
    _ = reduce(into: &state, .tick(max(step.at, state.now)))
  }

  /// How many notifications the lock screen shows (as `render --format json` counts them).
  var lockScreenCount: Int { state.lockScreenGroups().reduce(0) { $0 + $1.notifications.count } }

  /// How many notifications Notification Center holds.
  var centerCount: Int { state.device.store.rankedGroups().reduce(0) { $0 + $1.notifications.count } }

  /// The screen as `render --format text` prints it (rows without trailing spaces, no final
  /// newline).
  mutating func text(screen: Expectation.Screen, columns: Int, rows: Int) -> String {
    let key = "\(screen.rawValue) \(columns)x\(rows)"
    if let text = texts[key] { return text }
    var view = state
    _ = reduce(into: &view, .resize(columns: columns, rows: rows))
    if screen == .center { _ = reduce(into: &view, .command(.openCenter)) }
    let grid = render(view, size: Size(columns: columns, rows: rows), theme: .builtInDefault)
    let text = ScreenText.trimmed(grid.textDump())
    texts[key] = text
    return text
  }
}

/// Screen text as `render --format text` prints it.
public enum ScreenText {
  /// A grid's text dump without its `|` frame and trailing spaces, without the final newline.
  public static func trimmed(_ dump: String) -> String {
    var text = dump.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      var row = line.dropFirst().dropLast()
      while row.last == " " { row = row.dropLast() }
      return String(row)
    }.joined(separator: "\n")
    text = String(text.dropLast())
    return text
  }
}

/// A sound as explain prints it.
public enum SoundText {
  /// `default`, the file's name, or `critical NAME at N%`.
  public static func name(_ sound: SoundRequest) -> String {
    switch sound {
    case .systemDefault: "default"
    case .named(let name): name
    case .critical(let name, let volume): "critical \(name) at \(Int((volume * 100).rounded()))%"
    }
  }
}

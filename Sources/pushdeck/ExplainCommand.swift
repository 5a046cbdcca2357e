import ArgumentParser
import PushCheck
import PushCore
import PushHandlers
import PushScenario
import PushUI

/// `pushdeck explain`: what a device does with each push, and why.
struct ExplainCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "explain",
    abstract: "Explain where each push goes on the simulated iPhone, and why.",
    discussion: """
      INPUT is a scenario (.yaml, .yml), a payload file (.apns, .json), a capture (.jsonl), a \
      directory of payloads and captures, or - for standard input. Each scenario plays on its own \
      device (its own profile, else --profile, else the standard profile). Payloads and captures \
      play together on one device from --profile, or the standard profile: every bundle \
      installed and authorized with iOS's defaults, in the background, on an unlocked phone with \
      no Focus. Capture lines arrive at their "at" times; payload files one second apart from \
      the profile's start.

      A push is rejected when APNs rejects it or the device drops it as invalid (the reason says \
      which): the pushes validate reports errors for. A key the device ignores is named in the \
      reasons ("badge ignored: …") and the push is delivered.

      Exit status: 0 when every push was accepted, 1 when any was rejected, 2 for usage or I/O \
      errors and for errors in a profile or scenario.
      """
  )

  enum Format: String, ExpressibleByArgument, CaseIterable {
    case text, json
  }

  @Option(name: .long, help: "Output format: text (for people) or json (JSON Lines, one object per push).")
  var format: Format = .text

  @Option(name: .long, help: "A device profile (YAML) to play payloads, captures and profile-less scenarios on.")
  var profile: String?

  @Option(name: .long, help: "The app for payload files that name none (default: \(fallbackBundleID)).")
  var bundle: String?

  @Flag(
    name: .long, inversion: .prefixedNo,
    help: """
      Run the profile's action handlers for the taps and actions a scenario's timeline makes, as \
      run would (exec, log and http have their effects); --no-handlers shows where each would go \
      and runs none.
      """)
  var handlers = true

  @Option(
    name: .long,
    help: """
      Devices to compare, separated by commas: presets (\(DeviceVariant.presetNames.joined(separator: ", "))) or \
      profile files. Prints a table of each push's outcome on each device.
      """)
  var compare: String?

  @Argument(help: "Scenarios, payload files, captures, directories, or - for standard input.")
  var inputs: [String]

  func validate() throws {
    if inputs.isEmpty {
      throw ValidationError("name at least one scenario, payload file, capture or - for standard input")
    }
  }

  func run() throws {
    if let compare {
      try runCompare(compare)
      return
    }
    let out = OutputStream.standardOutput()
    let err = OutputStream.standardError()
    let loader = ScenarioLoader()
    var problems: [String] = []
    var baseProfile: DeviceProfile?
    if let profile {
      do throws(ScenarioError) {
        baseProfile = try loader.loadProfile(path: profile)
      } catch {
        err.line("pushdeck: \(terminalSafe(error.description))")
        err.flush()
        throw ExitCode(2)
      }
    }
    let color = format == .text && colorEnabled(for: out)
    var rejected = false
    // Payloads and captures share one device; its records print where the first of them was
    // named, as they are decided (streamed: a capture of any size in bounded memory).
    let firstPayload = inputs.firstIndex { !Self.isScenario($0) } ?? inputs.endIndex
    func explainScenario(_ input: String) {
      do throws(ScenarioError) {
        var scenario = try loader.loadScenario(path: input, defaultProfile: baseProfile)
        scenario.timeline = ServiceExtensionRegistry.withThumbnails(profile: scenario.profile).processBlocking(
          scenario.timeline, profile: scenario.profile)
        let run = scenario.run()
        rejected = rejected || run.records.contains { $0.decision.disposition == .rejected }
        let ran = handlers ? ScenarioHandlers.run(run, profile: scenario.profile) : [:]
        out.write(render(run.records, device: run.device, color: color, ran: ran))
      } catch {
        problems.append(error.description)
      }
    }
    for input in inputs[..<firstPayload] { explainScenario(input) }
    let payloadPaths = inputs[firstPayload...].filter { !Self.isScenario($0) }
    if !payloadPaths.isEmpty {
      let (resolved, inputProblems) = resolveInputs(Array(payloadPaths))
      problems += inputProblems.map { "\($0.path): \($0.message)" }
      // One writer for every line: its buffer is allocated once.
      var json = JSONWriter(capacity: 4096)
      var player = StreamingPlayer(baseProfile: baseProfile) { record, profile in
        rejected = rejected || record.decision.disposition == .rejected
        let printer = ExplainPrinter(color: color, profile: profile)
        switch format {
        case .json:
          json.removeAll()
          printer.write(record, to: &json)
          json.newline()
          out.write(bytes: json.bytes)
        case .text: out.write(printer.text(record))
        }
      }
      for input in resolved {
        do throws(InputProblem) {
          try readRecords(
            from: input, bundleID: bundle, keepsCustomValues: baseProfile?.needsCustomKeys ?? false,
            defaultBundleID: fallbackBundleID
          ) { player.play($0) }
        } catch {
          problems.append("\(error.path): \(error.message)")
        }
      }
      player.finish()
    }
    for input in inputs[firstPayload...] where Self.isScenario(input) { explainScenario(input) }
    out.flush()
    for problem in problems { err.line("pushdeck: \(terminalSafe(problem))") }
    err.flush()
    if !problems.isEmpty { throw ExitCode(2) }
    if rejected { throw ExitCode(1) }
  }

  static func isScenario(_ path: String) -> Bool {
    path.lowercased().hasSuffix(".yaml") || path.lowercased().hasSuffix(".yml")
  }

  /// `--compare`: every push on every device, as a table (text) or one object per push (JSON
  /// Lines); each cell is explain's one-line outcome. Handlers do not run.
  func runCompare(_ list: String) throws {
    let variants = try DeviceVariant.parse(list)
    guard !inputs.contains("-") else { throw ValidationError("--compare reads files, not standard input") }
    let session = try Session.load(inputs: inputs, profile: profile, bundle: bundle).state
    let end = session.timeline.last?.at ?? session.now
    var columns: [[Int: DeliveryRecord]] = []
    var pushes: [Int: DeliveryRecord] = [:]
    var printers: [ExplainPrinter] = []
    for variant in variants {
      var state = variant.state(from: session)
      _ = reduce(into: &state, .tick(end))
      var byIndex: [Int: DeliveryRecord] = [:]
      for record in state.device.records {
        byIndex[record.index] = record
        if pushes[record.index] == nil { pushes[record.index] = record }
      }
      columns.append(byIndex)
      printers.append(ExplainPrinter(color: false, profile: state.device.profile))
    }
    let out = OutputStream.standardOutput()
    let labelWidth = variants.map { $0.label.count }.max() ?? 0
    var rejected = false
    for index in pushes.keys.sorted() {
      guard let first = pushes[index] else { continue }
      let printer = printers[0]
      switch format {
      case .text:
        out.line(printer.heading(first))
        for (column, variant) in variants.enumerated() {
          let padding = String(repeating: " ", count: max(0, labelWidth - variant.label.count))
          let outcome = columns[column][index].map(printers[column].outcome) ?? "not played"
          out.line("  " + terminalSafe(variant.label) + padding + "  " + terminalSafe(outcome))
        }
        out.line("")
      case .json:
        var json = JSONWriter()
        json.beginObject()
        json.member("index", index + 1)
        json.member("bundle", first.bundleID)
        json.member("title", first.notification?.title)
        json.key("devices")
        json.beginArray()
        for (column, variant) in variants.enumerated() {
          let record = columns[column][index]
          json.beginObject()
          json.member("device", variant.name)
          json.member("label", variant.label)
          json.member("disposition", record?.decision.disposition.rawValue)
          json.member("surfaces", strings: (record?.decision.surfaces ?? []).lazy.map(\.rawValue))
          json.member("outcome", record.map { printers[column].outcome($0) })
          json.endObject()
        }
        json.endArray()
        json.endObject()
        out.line(json.text)
      }
      rejected = rejected || columns.contains { $0[index]?.decision.disposition == .rejected }
    }
    out.flush()
    if rejected { throw ExitCode(1) }
  }

  /// Plays pushes read from files as they are read, handing each delivery record on at once:
  /// capture lines at their `at`, payload files one second apart from the device's start (never
  /// before its clock). The device starts at the first capture line's `at` (captures are in time
  /// order; payload files named before the first capture wait for it), or at the profile's start
  /// without one. It keeps no records and no payload text, so memory follows Notification
  /// Center, not the input.
  struct StreamingPlayer {
    let baseProfile: DeviceProfile?
    let deliver: (DeliveryRecord, DeviceProfile) -> Void
    private var device: DeviceSimulator?
    private var extensions = ServiceExtensionRegistry()
    private var waiting: [PushRecord] = []
    private var payloadFiles: Int64 = 0

    init(baseProfile: DeviceProfile?, deliver: @escaping (DeliveryRecord, DeviceProfile) -> Void) {
      self.baseProfile = baseProfile
      self.deliver = deliver
    }

    /// Plays one record (payload files wait until the device's start is known).
    mutating func play(_ record: PushRecord) {
      guard device != nil else {
        guard let seconds = record.at else {
          waiting.append(record)
          return
        }
        start(at: SimInstant(epochSeconds: seconds))
        apply(record)
        return
      }
      apply(record)
    }

    /// Plays what still waits (payload files without a capture).
    mutating func finish() {
      if device == nil, !waiting.isEmpty { start(at: nil) }
    }

    private mutating func start(at first: SimInstant?) {
      let profile = baseProfile ?? DeviceProfile.standard(start: first ?? DemoScenario.start)
      var device = DeviceSimulator(profile: profile)
      device.keepsRecords = false
      device.keepsPayloadDetails = false
      self.device = device
      extensions = ServiceExtensionRegistry.withThumbnails(profile: profile)
      let earlier = waiting
      waiting = []
      for record in earlier { apply(record) }
    }

    private mutating func apply(_ given: PushRecord) {
      guard var device else { return }
      self.device = nil  // uniquely referenced while it changes
      defer { self.device = device }
      let record = extensions.isEmpty ? given : extensions.processBlocking(given, profile: device.profile)
      var at: SimInstant
      if let seconds = record.at {
        at = SimInstant(epochSeconds: seconds)
      } else if record.line == nil {
        at = device.profile.start + .seconds(payloadFiles)
        payloadFiles += 1
      } else {
        at = device.now
      }
      if at < device.now { at = device.now }
      if let delivery = device.apply(.push(record), at: at) { deliver(delivery, device.profile) }
    }
  }

  func render(
    _ records: [DeliveryRecord], device: DeviceSimulator, color: Bool, ran: [NotificationID: [HandlerRun]] = [:]
  ) -> String {
    let printer = ExplainPrinter(color: color, profile: device.profile, ran: ran)
    switch format {
    case .json:
      var json = JSONWriter(capacity: 1024 * records.count)
      for record in records {
        printer.write(record, to: &json)
        json.newline()
      }
      return json.text
    case .text:
      var text = ""
      for record in records { text += printer.text(record) }
      return text
    }
  }
}

/// Renders delivery records as JSON Lines or as readable blocks.
struct ExplainPrinter {
  let color: Bool
  let profile: DeviceProfile
  /// The handlers that ran for each notification's responses (scenarios with `handlers:`).
  var ran: [NotificationID: [HandlerRun]] = [:]

  private func iso(_ instant: SimInstant) -> String {
    CivilTime.iso8601(instant, utcOffsetSeconds: profile.utcOffsetSeconds)
  }

  /// A rank term: a whole number as an integer, else as Swift writes the Double.
  private func number(_ name: String, _ value: Double, to json: inout JSONWriter) {
    json.key(name)
    if value == value.rounded() && abs(value) < 1e15 { json.integer(Int64(value)) } else { json.number(value) }
  }

  /// A rank term for people: at most two decimals.
  private func short(_ value: Double) -> String {
    guard value.isFinite, abs(value) < 1e15 else { return String(value) }
    let hundredths = Int64((value * 100).rounded())
    let sign = hundredths < 0 ? "-" : ""
    let magnitude = abs(hundredths)
    let fraction = magnitude % 100
    if fraction == 0 { return sign + String(magnitude / 100) }
    return sign + String(magnitude / 100) + "." + (fraction < 10 ? "0" : "") + String(fraction).replacingSuffix()
  }

  /// One JSON object, without the newline.
  func json(_ record: DeliveryRecord) -> String {
    var json = JSONWriter(capacity: 1024)
    write(record, to: &json)
    return json.text
  }

  /// Writes one JSON object (without the newline) for a record.
  func write(_ record: DeliveryRecord, to json: inout JSONWriter) {
    let decision = record.decision
    let notification = record.notification
    json.beginObject()
    json.member("index", record.index + 1)
    json.member("at", iso(record.at))
    json.member("bundle", record.bundleID.isEmpty ? nil : record.bundleID)
    json.member("title", notification?.title)
    json.member("threadId", notification?.threadID)
    json.member("collapseId", notification?.collapseID)
    json.member("interruptionLevel", notification?.level.rawValue)
    json.member("effectiveLevel", notification == nil ? nil : decision.effectiveLevel.rawValue)
    json.member("disposition", decision.disposition.rawValue)
    json.member("surfaces", strings: decision.surfaces.lazy.map(\.rawValue))
    json.member("sound", decision.playsSound)
    json.member("soundName", decision.playsSound ? decision.sound.map(Self.soundName) : nil)
    json.member("badge", decision.badge)
    json.member("heldUntil", decision.heldUntil.map(iso))
    json.member("replaces", decision.replaces?.description)
    json.member("previewsHidden", decision.previewsHidden)
    json.key("reasons")
    json.beginArray()
    for reason in decision.reasons {
      json.beginObject()
      json.member("code", reason.code.rawValue)
      json.member("text", reason.text)
      json.endObject()
    }
    json.endArray()
    json.member("callbacks", strings: decision.callbacks.lazy.map(\.rawValue))
    json.member("group", record.group?.description)
    json.member("rank", record.groupRank)
    json.key("rankTerms")
    if let terms = record.rank {
      json.beginObject()
      number("level", terms.level, to: &json)
      number("relevance", terms.relevance, to: &json)
      number("engagement", terms.engagement, to: &json)
      number("communication", terms.communication, to: &json)
      number("recency", terms.recency, to: &json)
      number("score", terms.score, to: &json)
      json.endObject()
    } else {
      json.null()
    }
    // Only for a broadcast: the channel it came through (apns-channel-id).
    if let channel = record.channelID { json.member("channel", channel) }
    json.member("source", record.source)
    json.key("verdict")
    PushVerdict(record.diagnostics).write(to: &json)
    json.key("diagnostics")
    json.beginArray()
    for diagnostic in record.diagnostics {
      json.beginObject()
      json.member("severity", diagnostic.severity.rawValue)
      json.member("code", diagnostic.code.rawValue)
      json.member("path", diagnostic.path)
      json.member("line", diagnostic.location?.line)
      json.member("column", diagnostic.location?.column)
      json.member("message", diagnostic.message)
      json.endObject()
    }
    json.endArray()
    if !profile.handlers.isEmpty {
      json.key("handler")
      writeHandlerJSON(record.notification, to: &json)
    }
    json.endObject()
  }

  static func soundName(_ sound: SoundRequest) -> String { SoundText.name(sound) }

  private func paint(_ text: String, _ code: String) -> String {
    color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
  }

  /// The outcome in one line: what the device did, where it shows, and why (the reasons' text),
  /// as storyboards caption a push and `--compare` fills a cell.
  func outcome(_ record: DeliveryRecord) -> String {
    let decision = record.decision
    let surfaces = decision.surfaces.map(Self.surfaceName)
    var line = disposition(decision).0 + (surfaces.isEmpty ? "" : ": " + surfaces.joined(separator: ", "))
    for reason in decision.reasons.prefix(2) { line += " · " + reason.text }
    return line
  }

  /// A push in one line: its number, time, app and title.
  func heading(_ record: DeliveryRecord) -> String {
    let info =
      record.bundleID.isEmpty ? nil : profile.app(record.bundleID)?.info ?? AppInfo.inferred(from: record.bundleID)
    var line = "#\(record.index + 1)  " + iso(record.at) + "  "
    line += info.map { terminalSafe($0.iconGlyph) + " " + terminalSafe($0.displayName) } ?? "Unknown app"
    if let title = record.notification?.title, !title.isEmpty { line += " “" + terminalSafe(title) + "”" }
    return line
  }

  /// A readable block, ending with a blank line.
  func text(_ record: DeliveryRecord) -> String {
    let decision = record.decision
    let info =
      record.bundleID.isEmpty
      ? AppInfo(bundleID: "", displayName: "Unknown app", iconGlyph: "🔔")
      : profile.app(record.bundleID)?.info ?? AppInfo.inferred(from: record.bundleID)
    var lines: [String] = []
    lines.append(
      paint("#\(record.index + 1)", "1") + "  " + iso(record.at) + "  " + terminalSafe(info.iconGlyph) + " "
        + paint(terminalSafe(info.displayName), "1") + " ("
        + (record.bundleID.isEmpty ? "no bundle id" : terminalSafe(record.bundleID)) + ")")
    if let notification = record.notification {
      let heading = [notification.title, notification.subtitle].compactMap { $0 }.filter { !$0.isEmpty }
        .joined(separator: " · ")
      let content = [heading, notification.body ?? ""].filter { !$0.isEmpty }.joined(separator: " — ")
      if !content.isEmpty { lines.append("  “" + terminalSafe(content) + "”") }
      var facts = [notification.level.rawValue]
      if decision.effectiveLevel != notification.level { facts[0] += " → " + decision.effectiveLevel.rawValue }
      if let thread = notification.threadID { facts.append("thread " + terminalSafe(thread)) }
      if let collapse = notification.collapseID { facts.append("collapse id " + terminalSafe(collapse)) }
      if let sender = notification.sender { facts.append("from " + terminalSafe(sender)) }
      lines.append("  Level: " + facts.joined(separator: ", "))
    }
    let (word, colorCode) = disposition(decision)
    let surfaces = decision.surfaces.map(Self.surfaceName)
    lines.append(
      "  " + paint(word, colorCode) + (surfaces.isEmpty ? "" : ": " + surfaces.joined(separator: ", ")))
    var sound = "Sound: "
    if decision.playsSound, let request = decision.sound {
      sound += terminalSafe(Self.soundName(request))
    } else {
      sound += decision.playsSound ? "yes" : "none"
    }
    let badge: String
    switch decision.badge {
    case nil: badge = "unchanged"
    case 0: badge = "cleared"
    case .some(let value): badge = String(value)
    }
    lines.append("  " + sound + " · Badge: " + badge + (decision.previewsHidden ? " · Previews hidden" : ""))
    if !decision.reasons.isEmpty {
      lines.append("  Why:")
      for reason in decision.reasons {
        lines.append("    • " + terminalSafe(reason.text) + " " + paint("[\(reason.code.rawValue)]", "2"))
      }
    }
    if !decision.callbacks.isEmpty {
      lines.append("  Callbacks: " + decision.callbacks.map(\.rawValue).joined(separator: ", "))
    }
    if !profile.handlers.isEmpty, let notification = record.notification {
      lines.append("  Handlers: " + terminalSafe(handlerRoutes(notification)))
      for run in ran[notification.id] ?? [] {
        lines.append(
          "  Handled: " + terminalSafe(Self.responseLabel(run.action)) + " → "
            + terminalSafe(run.handler ?? "no handler") + ": " + terminalSafe(run.outcomeText))
      }
    }
    if let group = record.group {
      var stack = "  Stack: " + terminalSafe(group.description)
      if let rank = record.groupRank { stack += ", #\(rank) in Notification Center" }
      if let terms = record.rank {
        stack += String(
          " (level \(short(terms.level)), relevance \(short(terms.relevance)), engagement \(short(terms.engagement)), communication \(short(terms.communication)))"
        )
      }
      lines.append(stack)
    }
    for diagnostic in record.diagnostics {
      let label = diagnostic.severity == .error ? paint("error", "1;31") : paint(diagnostic.severity.rawValue, "1;33")
      var line = "  " + label + "[\(diagnostic.code.rawValue)]: " + terminalSafe(diagnostic.message)
      if let path = diagnostic.path { line += " (at " + terminalSafe(path) + ")" }
      lines.append(line)
    }
    if let channel = record.channelID { lines.append("  Channel: " + terminalSafe(channel) + " (a broadcast)") }
    lines.append("  Source: " + terminalSafe(record.source))
    return lines.joined(separator: "\n") + "\n\n"
  }

  /// `tap`, `dismiss`, or the action's identifier.
  static func responseLabel(_ action: String) -> String {
    switch action {
    case defaultActionIdentifier: "tap"
    case dismissActionIdentifier: "dismiss"
    default: action
    }
  }

  /// Each response a notification can get and the handler it would go to (nil: none).
  private func routes(_ notification: PushNotification) -> [(label: String, action: String, handler: String?)] {
    let category = profile.app(notification.bundleID)?.category(notification.category)
    var responses = [("tap", defaultActionIdentifier)]
    responses += (category?.actions ?? []).prefix(10).map { ($0.identifier, $0.identifier) }
    if category?.options.contains(.customDismissAction) == true {
      responses.append(("dismiss", dismissActionIdentifier))
    }
    return responses.map { label, action in
      let binding = HandlerBinding.best(
        in: profile.handlers, app: notification.bundleID, category: notification.category, action: action)
      return (label, action, binding.map { HandlerRegistry.summary($0.binding.kind) })
    }
  }

  /// Where each response to a notification would go under the profile's `handlers:`.
  private func handlerRoutes(_ notification: PushNotification) -> String {
    routes(notification).map { $0.label + " → " + ($0.handler ?? "no handler") }.joined(separator: "; ")
  }

  /// `{"routes":[{response, action, handler}], "ran":[{action, handler, outcome, message}]}`.
  private func writeHandlerJSON(_ notification: PushNotification?, to json: inout JSONWriter) {
    guard let notification else { return json.null() }
    json.beginObject()
    json.key("routes")
    json.beginArray()
    for route in routes(notification) {
      json.beginObject()
      json.member("response", route.label)
      json.member("action", route.action)
      json.member("handler", route.handler)
      json.endObject()
    }
    json.endArray()
    json.key("ran")
    json.beginArray()
    for run in ran[notification.id] ?? [] {
      json.beginObject()
      json.member("action", run.action)
      json.member("handler", run.handler)
      json.member("outcome", run.outcomeName)
      json.member("message", run.message)
      json.endObject()
    }
    json.endArray()
    json.endObject()
  }

  private func disposition(_ decision: DeliveryDecision) -> (String, String) {
    switch decision.disposition {
    case .delivered: ("Delivered", "1;32")
    case .deliveredQuietly: ("Delivered quietly", "32")
    case .heldForSummary:
      ("Held for the Scheduled Summary" + (decision.heldUntil.map { " at " + iso($0) } ?? ""), "1;33")
    case .replaced: ("Replaced an earlier notification" + (decision.replaces.map { " (\($0))" } ?? ""), "1;32")
    case .silent: ("Silent push, nothing shown", "36")
    case .dropped: ("Dropped", "1;31")
    case .rejected: ("Rejected", "1;31")
    }
  }

  static func surfaceName(_ surface: Surface) -> String {
    switch surface {
    case .banner: "banner"
    case .lockScreen: "lock screen"
    case .notificationCenter: "Notification Center"
    case .liveActivity: "Live Activity"
    }
  }
}

extension String {
  /// Drops a trailing zero of a two-digit fraction (`50` → `5`).
  fileprivate func replacingSuffix() -> String {
    count == 2 && hasSuffix("0") ? String(dropLast()) : self
  }
}

import ArgumentParser
import PushCheck
import PushCore
import PushHandlers
import PushScenario
import PushShell
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
      no Focus. Capture lines arrive at their "at" times (the device starts three seconds before \
      the first); payload files three seconds after the previous push (the first three seconds \
      after the device's start), as run, render and replay place them.

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

  @Option(
    name: .long,
    help: """
      A device profile (YAML) to play payloads, captures and profile-less scenarios on, or a preset \
      (unlocked, locked, dnd or sleep) that sets the lock and Focus of every device, as in render and run.
      """)
  var profile: String?

  @Option(
    name: .long,
    help:
      "The app for payload files (over a file's Simulator Target Bundle, as xcrun simctl push does; capture lines name their own); default: \(fallbackBundleID)).",
    transform: BundleOption.parse)
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
    // A profile file, or a preset (nil here) that `Session.applyPreset` sets on each device, as
    // render and run read `--profile`.
    let baseProfile: DeviceProfile?
    do {
      baseProfile = try Session.profileFile(profile)
    } catch {
      err.line("pushdeck: \(terminalSafe(String(describing: error)))")
      err.flush()
      throw ExitCode(2)
    }
    let color = format == .text && colorEnabled(for: out)
    var rejected = false
    // Payloads and captures share one device; its records print where the first of them was
    // named, as they are decided (streamed: a capture of any size in bounded memory).
    let firstPayload = inputs.firstIndex { !Session.isScenario($0) } ?? inputs.endIndex
    // One writer for every line: its buffer is allocated once.
    var json = JSONWriter(capacity: 4096)
    func write(_ record: DeliveryRecord, _ printer: ExplainPrinter, untimed: Bool = false) {
      switch format {
      case .json:
        json.removeAll()
        printer.write(record, to: &json, untimed: untimed)
        json.newline()
        out.write(bytes: json.bytes)
      case .text: out.write(printer.text(record, untimed: untimed))
      }
    }
    func explainScenario(_ input: String) {
      do throws(ScenarioError) {
        var scenario = try loader.loadScenario(path: input, defaultProfile: baseProfile)
        Session.applyPreset(profile, to: &scenario.profile)
        scenario.timeline = ServiceExtensionRegistry.withThumbnails(profile: scenario.profile).processBlocking(
          scenario.timeline, profile: scenario.profile)
        guard handlers, !scenario.profile.handlers.isEmpty else {
          // Actions and replies the notifications do not offer are said under their push,
          // which is written before they come: found in a first pass, as lean as the second.
          let refused = ScenarioStream.refusedResponses(scenario)
          // Each push is written as the device decides it, and forgotten (issue 15 §5).
          // Lean, as a capture plays: explain prints no payload text.
          ScenarioStream.play(scenario, keepsPayloadDetails: false) { record, profile in
            rejected = rejected || record.decision.disposition == .rejected
            write(record, ExplainPrinter(color: color, profile: profile, refused: refused))
          }
          return
        }
        // Handlers answer the timeline's responses, which come after the pushes they answer:
        // every record is printed once the whole timeline has played.
        let run = scenario.run()
        rejected = rejected || run.records.contains { $0.decision.disposition == .rejected }
        let ran = ScenarioHandlers.run(run, profile: scenario.profile)
        let printer = ExplainPrinter(
          color: color, profile: run.device.profile, ran: ran,
          refused: ExplainPrinter.byNotification(run.device.refusedResponses))
        for record in run.records { write(record, printer) }
      } catch {
        problems.append(error.description)
      }
    }
    for input in inputs[..<firstPayload] { explainScenario(input) }
    let payloadPaths = inputs[firstPayload...].filter { !Session.isScenario($0) }
    if !payloadPaths.isEmpty {
      let (resolved, inputProblems) = resolveInputs(Array(payloadPaths))
      problems += inputProblems.map { "\($0.path): \($0.message)" }
      useOneAllocatorArena()
      var player = StreamingPlayer(baseProfile: baseProfile, preset: profile) { record, profile, untimed in
        rejected = rejected || record.decision.disposition == .rejected
        write(record, ExplainPrinter(color: color, profile: profile), untimed: untimed)
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
    for input in inputs[firstPayload...] where Session.isScenario(input) { explainScenario(input) }
    out.flush()
    for problem in problems { err.line("pushdeck: \(terminalSafe(problem))") }
    err.flush()
    if !problems.isEmpty { throw ExitCode(2) }
    if rejected { throw ExitCode(1) }
  }

  /// `--compare`: every push on every device, as a table (text) or one object per push (JSON
  /// Lines); each cell is explain's one-line outcome. Handlers do not run. As without
  /// `--compare`, each scenario plays on devices of its own and the payload files and captures
  /// share theirs (they played on the first scenario's device, which its own steps had locked
  /// or silenced; found by an exploratory test).
  func runCompare(_ list: String) throws {
    let variants = try DeviceVariant.parse(list)
    guard !inputs.contains("-") else { throw ValidationError("--compare reads files, not standard input") }
    var groups = inputs.filter(Session.isScenario).map { [$0] }
    let payloads = inputs.filter { !Session.isScenario($0) }
    if !payloads.isEmpty {
      // Where explain prints them: at the first payload file named.
      let scenariosBefore = inputs.prefix { Session.isScenario($0) }.count
      groups.insert(payloads, at: scenariosBefore)
    }
    var rejected = false
    for group in groups {
      rejected = try compare(group, on: variants) || rejected
    }
    if rejected { throw ExitCode(1) }
  }

  /// Compares the pushes of `group` (a scenario, or payload files and captures) on each of
  /// `variants`; returns whether any was rejected.
  private func compare(_ group: [String], on variants: [DeviceVariant]) throws -> Bool {
    let session = try Session.load(inputs: group, profile: profile, bundle: bundle).state
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
    // Each push as read, in the order the device takes them (its record's index): a rejected
    // capture line is headed with its own time, or none, as explain says it without --compare.
    var read: [PushRecord] = []
    for entry in session.timeline {
      if case .device(.push(let record, _)) = entry.event { read.append(record) }
    }
    let out = OutputStream.standardOutput()
    let labelWidth = variants.map { $0.label.count }.max() ?? 0
    var rejected = false
    for index in pushes.keys.sorted() {
      guard var first = pushes[index] else { continue }
      let printer = printers[0]
      var untimed = false
      if first.decision.disposition == .rejected, read.indices.contains(index), read[index].line != nil {
        let line = read[index]
        let own = line.at ?? PushReader.timeBeforeSyntaxError(inCaptureLine: line.rawBytes)
        if let own { first.at = SimInstant(epochSeconds: own) } else { untimed = true }
      }
      switch format {
      case .text:
        out.line(printer.heading(first, untimed: untimed))
        for (column, variant) in variants.enumerated() {
          let padding = String(repeating: " ", count: max(0, labelWidth - variant.label.count))
          let outcome = columns[column][index].map(printers[column].outcome) ?? "not played"
          out.line("  " + terminalSafe(variant.label) + padding + "  " + terminalSafe(outcome))
        }
        if !first.source.isEmpty { out.line("  Source: " + terminalSafe(first.source)) }
        out.line("")
      case .json:
        var json = JSONWriter()
        json.beginObject()
        json.member("index", index + 1)
        json.member("bundle", first.bundleID)
        json.member("source", first.source.isEmpty ? nil : first.source)
        json.member("title", first.notification?.title)
        json.member("subtitle", first.notification?.subtitle)
        json.member("body", first.notification?.body)
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
    return rejected
  }

  /// Plays pushes read from files as they are read, handing each delivery record on at once,
  /// placed as `render` and `run` place them (``ArrivalClock``): capture lines at their `at`,
  /// payload files `Timeline.fileSpacing` after the previous push (never before the device's
  /// clock). The device starts one spacing before the first capture line's `at` (captures are in
  /// time order; payload files named before the first capture wait for it), or at the profile's
  /// start without one. It keeps no records and no payload text, so memory follows
  /// Notification Center, not the input.
  ///
  /// A rejected capture line's record is dated at the line's own `at`, read before the mistake
  /// in a line that is not JSON (the device's clock stays where the pushes it took left it), and
  /// handed on as untimed (`deliver`'s third argument) when the line gives no time: it was dated
  /// at the push before it.
  struct StreamingPlayer {
    let baseProfile: DeviceProfile?
    /// `--profile` when it names a preset, set on the device (``Session/applyPreset(_:to:)``).
    let preset: String?
    /// Takes each record, the device's profile, and whether the record has no time of its own.
    let deliver: (DeliveryRecord, DeviceProfile, Bool) -> Void
    private var device: DeviceSimulator?
    private var extensions = ServiceExtensionRegistry()
    private var waiting: [PushRecord] = []
    private var arrivals = ArrivalClock(start: DemoScenario.start)
    /// Payload files placed (``ArrivalClock``) but not yet due: each is played once the capture
    /// reaches its time, so pushes play in time order as `render`'s timeline has them (a file
    /// named before a capture was played first and held the capture back to its own time).
    /// Their times only grow, so this is a queue.
    private var later: [(at: SimInstant, record: PushRecord)] = []
    private var laterHead = 0

    init(
      baseProfile: DeviceProfile?, preset: String? = nil,
      deliver: @escaping (DeliveryRecord, DeviceProfile, Bool) -> Void
    ) {
      self.baseProfile = baseProfile
      self.preset = preset
      self.deliver = deliver
    }

    /// Plays one record (payload files wait until the device's start is known).
    mutating func play(_ record: PushRecord) {
      guard device != nil else {
        guard let seconds = record.at else {
          waiting.append(record)
          return
        }
        start(at: ArrivalClock.start(beforeCapture: SimInstant(epochSeconds: seconds)))
        apply(record)
        return
      }
      apply(record)
    }

    /// Plays what still waits (payload files without a capture, and those after the last one).
    mutating func finish() {
      if device == nil, !waiting.isEmpty { start(at: nil) }
      playFiles(through: nil)
    }

    /// Starts the device at `start` (before the first capture line), or at the profile's start.
    private mutating func start(at start: SimInstant?) {
      var profile = baseProfile ?? DeviceProfile.standard(start: start ?? DemoScenario.start)
      // As `render` starts it: a capture brings its own time, whatever the profile's start.
      if let start { profile.start = start }
      Session.applyPreset(preset, to: &profile)
      arrivals = ArrivalClock(start: profile.start)
      var device = DeviceSimulator(profile: profile)
      device.keepsRecords = false
      device.keepsPayloadDetails = false
      // Never shown: each push is printed from its delivery record, which holds its texts.
      device.keepsNotificationTexts = false
      self.device = device
      extensions = ServiceExtensionRegistry.withThumbnails(profile: profile)
      let earlier = waiting
      waiting = []
      for record in earlier { apply(record) }
    }

    /// Places a record on the arrival clock, in the order read: a capture line plays now (after
    /// the files due by its time), a payload file when its time comes.
    private mutating func apply(_ given: PushRecord) {
      guard device != nil else { return }
      let at = arrivals.arrival(of: given)
      if given.at == nil, given.line == nil {
        later.append((at, given))
        return
      }
      playFiles(through: at)
      play(given, at: at)
    }

    /// Plays the payload files due by `instant` (all of them for nil), in the order placed.
    private mutating func playFiles(through instant: SimInstant?) {
      while laterHead < later.count, instant.map({ later[laterHead].at <= $0 }) ?? true {
        let (at, record) = later[laterHead]
        laterHead += 1
        play(record, at: at)
      }
      if laterHead == later.count, laterHead > 0 {
        later.removeAll(keepingCapacity: true)
        laterHead = 0
      }
    }

    private mutating func play(_ given: PushRecord, at: SimInstant) {
      if extensions.isEmpty {
        ingest(given, at: at)
      } else {
        ingest(extensions.processBlocking(given, profile: device!.profile), at: at)
      }
    }

    /// The push through the one way in (``DeviceSimulator/apply(push:sender:at:)``), and its
    /// record handed on. `device!` changes the simulator in place: copying it out and back, or
    /// the push into an event, retained every one of their fields for each push.
    private mutating func ingest(_ record: PushRecord, at arrival: SimInstant) {
      guard let now = device?.now else { return }
      var at = arrival
      if at < now { at = now }
      var delivery = device!.apply(push: record, at: at)
      var untimed = false
      if delivery.decision.disposition == .rejected, record.line != nil {
        // Said at the line's own time (read before the mistake in a line that is not JSON), or
        // at none: not at the push before it.
        let own = record.at ?? PushReader.timeBeforeSyntaxError(inCaptureLine: record.rawBytes)
        if let own { delivery.at = SimInstant(epochSeconds: own) } else { untimed = true }
      }
      deliver(delivery, device!.profile, untimed)
    }
  }

}

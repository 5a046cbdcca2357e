import Foundation
import PushCore
import PushHandlers
import PushScenario
import PushUI

/// What `run` and `render` play: a device at its start and a timeline of events.
///
/// Inputs may mix scenarios (`.yaml`, `.yml`), payload files and captures: a scenario brings its
/// own device profile and timeline; pushes from files and captures are placed on the timeline as
/// `explain` places them. `--profile` takes a built-in preset or a YAML profile file.
package struct Session {
  package var state: AppState

  /// The built-in profile presets, by name.
  package static let presets = ["unlocked", "locked", "dnd", "sleep"]

  /// Loads a session, or the built-in demo when there are no inputs.
  ///
  /// - Parameter leanFrom: from this many timeline events on, the device is lean, as a large
  ///   capture's is (``startReading``): no payload text or reasons kept in the store, and a window
  ///   of delivery records unless the timeline refers to pushes by number (`open: 3`), which
  ///   needs them all. Nil: never (what compares or storyboards every record).
  /// - Throws: `UsageError` with a located message for unreadable inputs and profile or
  ///   scenario errors (the commands exit 2).
  package static func load(
    inputs: [String], profile profileOption: String?, bundle: String?, leanFrom: Int? = nil
  ) throws -> Session {
    let loader = ScenarioLoader()
    guard !inputs.isEmpty else {
      // A profile file with no inputs: that device, waiting (for `run --listen`, the keys).
      if let file = try profileFile(profileOption) {
        return Session(state: AppState(device: DeviceSimulator(profile: file)))
      }
      var state: AppState
      do throws(ScenarioError) {
        state = AppState(opening: try BuiltInDemo.scenario(), at: BuiltInDemo.opensAt)
      } catch {
        throw UsageError(error.description)
      }
      if let profileOption {
        let preset = try presetProfile(profileOption, start: state.now)
        var device = state.device
        if preset.isLocked != device.isLocked { device.apply(preset.isLocked ? .lock : .unlock, at: device.now) }
        if preset.activeFocusID != device.activeFocusID { device.apply(.focus(preset.activeFocusID), at: device.now) }
        state = AppState(device: device, timeline: Array(state.timeline))
      }
      return Session(state: state)
    }
    let explicitProfile = try profileFile(profileOption)
    var scenarioProfile: DeviceProfile?
    // The scenarios' events, kept as loaded: entries repeated through a YAML alias share theirs.
    var scenarioTimeline: [TimedEvent] = []
    var entries: [TimelineEntry] = []
    var records: [PushRecord] = []
    let (resolved, problems) = resolveInputs(inputs.filter { !isScenario($0) })
    if let problem = problems.first { throw UsageError("\(problem.path): \(problem.message)") }
    for path in inputs where isScenario(path) {
      do throws(ScenarioError) {
        let scenario = try loader.loadScenario(path: path, defaultProfile: explicitProfile)
        if scenarioProfile == nil { scenarioProfile = scenario.profile }
        scenarioTimeline += scenario.timeline
      } catch {
        throw UsageError(error.description)
      }
    }
    for input in resolved {
      do throws(InputProblem) {
        try readRecords(from: input, bundleID: bundle, defaultBundleID: fallbackBundleID) { records.append($0) }
      } catch {
        throw UsageError("\(error.path): \(error.message)")
      }
    }
    let baseStart = scenarioProfile?.start ?? explicitProfile?.start ?? DemoScenario.start
    var profile = scenarioProfile ?? explicitProfile ?? DeviceProfile.standard(start: baseStart)
    if !records.isEmpty {
      // Without a scenario the inputs bring their own time: the device starts just before the
      // earliest capture line (a payload file alone starts at the profile's time).
      let ownTime = scenarioTimeline.isEmpty
      let (start, pushes) = Timeline.entries(
        for: records, start: scenarioTimeline.last?.at ?? baseStart, startsAtCapture: ownTime)
      if scenarioProfile == nil { profile.start = ownTime ? start : min(profile.start, start) }
      entries += pushes
    }
    applyPreset(profileOption, to: &profile)
    // Service extensions run before the front end starts, in the shell; the device reads
    // each push's result when it arrives (docs/DECISIONS.md, Service extensions).
    let extensions = ServiceExtensionRegistry.withThumbnails(profile: profile)
    if !extensions.isEmpty {
      scenarioTimeline = extensions.processBlocking(scenarioTimeline, profile: profile)
      entries = extensions.processBlocking(entries, profile: profile)
    }
    var device = DeviceSimulator(profile: profile)
    if let leanFrom, scenarioTimeline.count + entries.count >= leanFrom {
      device.keepsPayloadDetails = false
      if !refersToPushes(scenarioTimeline) { device.recordWindow = leanRecordWindow }
    }
    var latest = SimInstant(milliseconds: .min)
    func follows(_ at: SimInstant) -> Bool {
      defer { latest = at }
      return latest <= at
    }
    guard scenarioTimeline.allSatisfy({ follows($0.at) }) && entries.allSatisfy({ follows($0.at) }) else {
      // Out of time order (several scenarios, or captures before a scenario's end): sorted.
      return Session(state: AppState(device: device, timeline: scenarioTimeline.map(TimelineEntry.init) + entries))
    }
    // In time order already (one scenario, then the pushes of files after it): kept as it is.
    var timeline = TimelineStore()
    timeline.append(sharing: scenarioTimeline)
    for entry in entries { timeline.append(entry) }
    return Session(state: AppState(device: device, ordered: timeline))
  }

  /// Timelines of this many events or more are played on a lean device by `run` and `render`
  /// (``load(inputs:profile:bundle:leanFrom:)``), as large captures are.
  package static let leanTimelineEvents = 65_536

  /// Whether a timeline names a push by its number (`open: 3`), which resolves through the
  /// device's delivery records.
  static func refersToPushes(_ timeline: [TimedEvent]) -> Bool {
    timeline.contains { timed in
      switch timed.event {
      case .open(.push), .clear(.push), .clearGroup(.push), .action(.push, _), .reply(.push, _, _): true
      default: false
      }
    }
  }

  /// The inputs of a streamed session (payloads and captures, no scenario) and the profile
  /// file `--profile` names, if it names one.
  private static func streamedInputs(_ inputs: [String], profile option: String?) throws -> (
    DeviceProfile?, [ResolvedInput]
  ) {
    let explicitProfile = try profileFile(option)
    let (resolved, problems) = resolveInputs(inputs)
    if let problem = problems.first { throw UsageError("\(problem.path): \(problem.message)") }
    return (explicitProfile, resolved)
  }

  /// A streamed session's device profile: the profile file, or the standard device, starting
  /// when the inputs start, with what a preset asks.
  private static func streamedProfile(start: SimInstant, explicit: DeviceProfile?, option: String?) -> DeviceProfile {
    var profile = explicit ?? DeviceProfile.standard(start: start)
    profile.start = start
    applyPreset(option, to: &profile)
    return profile
  }

  /// Starts `run` on payloads and captures (no scenario) without waiting for them: a reader
  /// thread places them on the timeline (``TimelineFeed``) and the device starts as soon as the
  /// first capture line (or the end of the inputs) says when; the rest arrives while the front
  /// end runs.
  ///
  /// - Returns: the state with what has been read so far, and the feed still reading (nil when
  ///   everything was read before the first frame).
  package static func startReading(
    inputs: [String], profile profileOption: String?, bundle: String?, playsAhead: Bool = false
  ) throws -> (
    state: AppState, feed: TimelineFeed?
  ) {
    let (explicitProfile, resolved) = try streamedInputs(inputs, profile: profileOption)
    let defaultStart = explicitProfile?.start ?? DemoScenario.start
    // A large capture is played on lean devices: no payload text or reasons in the store and
    // a window of delivery records (as `render` plays it), so that the front end and the
    // device played ahead fit in memory at a million lines. With a state database the journal
    // keeps every record whole (the change set carries the payload's bytes).
    let lean = TimelineFeed.totalBytes(of: resolved) >= leanDeviceBytes
    let makeDevice: @Sendable (SimInstant) -> DeviceSimulator = { start in
      var device = DeviceSimulator(
        profile: streamedProfile(start: start, explicit: explicitProfile, option: profileOption))
      if lean {
        device.keepsPayloadDetails = false
        device.recordWindow = leanRecordWindow
      }
      return device
    }
    let feed = TimelineFeed.start(
      resolved, bundle: bundle, defaultStart: defaultStart, extensionProfile: explicitProfile,
      makeDevice: playsAhead ? makeDevice : nil)
    let start = feed.waitForStart() ?? defaultStart
    let first = feed.take()
    if first.isDone, let failure = first.failure { throw UsageError(failure) }
    // The device played ahead is made the same way.
    var state = AppState(device: makeDevice(start))
    state.appendTimeline(first.entries)
    guard !first.isDone else { return (state, nil) }
    state.readingProgress = first.progress
    return (state, feed)
  }

  /// The timeline entries `run --ephemeral` plays in one turn while reading in the background
  /// (``AppState/playSlice``): about a tenth of a second of decoding and playing, so a long seek
  /// plays over several turns with the screen following it.
  package static let seekSlice = 8_192

  /// The same with a state database. Each turn there also waits for what it played to be
  /// committed, so the journal stops while the next slice plays: at 8,192 entries a turn a
  /// seek over a million lines arrived after 27.5–29 s (20.5 s in one turn, with the screen
  /// standing still); at 32,768 after 22–23 s, the screen answering in 0.6–0.75 s.
  package static let journalledSeekSlice = 32_768

  /// Inputs from this size on are played on lean devices when played ahead (``startReading``).
  package static let leanDeviceBytes = 32 << 20

  /// The delivery records a lean device keeps: the latest pushes' sources and diagnostics.
  package static let leanRecordWindow = 4_096

  /// Plays payloads and captures (no scenario) for one frame, streamed: records are read,
  /// placed (``StreamingTimeline``), run through the service extensions and played in chunks,
  /// and what has arrived is forgotten, so memory follows Notification Center, not the input.
  /// The device is lean (no payload text, no delivery records).
  ///
  /// - Parameters:
  ///   - target: the frame's instant for a state at the device's start (nil: after the last
  ///     event); events after it are counted, not kept.
  /// - Returns: the state at the target (or at the last event) and that instant.
  package static func streamFrame(
    inputs: [String], profile profileOption: String?, bundle: String?,
    target: (AppState) throws -> SimInstant?
  ) throws -> (state: AppState, at: SimInstant) {
    let (explicitProfile, resolved) = try streamedInputs(inputs, profile: profileOption)
    var placer = StreamingTimeline(defaultStart: explicitProfile?.start ?? DemoScenario.start)
    var state: AppState?
    var until: SimInstant??
    var extensions = ServiceExtensionRegistry()
    var chunk: [TimelineEntry] = []
    var last: SimInstant?
    var failure: (any Error)?

    func begin() throws {
      guard state == nil, let start = placer.start else { return }
      let profile = streamedProfile(start: start, explicit: explicitProfile, option: profileOption)
      var device = DeviceSimulator(profile: profile)
      device.keepsPayloadDetails = false
      // No delivery records: a frame shows none but a Live Activity's banner, which keeps its
      // own push (``Banner/carriedContent``). Keeping a window of them cost a third of
      // the main thread (docs/PERFORMANCE.md, render and explain at 1M).
      device.keepsRecords = false
      var made = AppState(device: device)
      made.consumesArrivedTimeline = true
      until = .some(try target(made))
      extensions = ServiceExtensionRegistry.withThumbnails(profile: profile)
      state = made
    }

    func play() {
      guard var current = state, !chunk.isEmpty else { return }
      state = nil  // uniquely referenced while it changes
      defer {
        state = current
        chunk.removeAll(keepingCapacity: true)
      }
      if !extensions.isEmpty { chunk = extensions.processBlocking(chunk, profile: current.device.profile) }
      let limit = until.flatMap { $0 }
      if let limit {
        // Events after the frame are counted, not kept (in order: what is kept keeps its order).
        let before = chunk.count
        chunk.removeAll { $0.at > limit }
        current.laterEventCount += before - chunk.count
      }
      if let newest = chunk.lazy.map(\.at).max() { last = max(last ?? newest, newest) }
      // Played straight from the chunk, not placed on the timeline and taken off again.
      if let latest = last { current.playArrived(&chunk, through: limit.map { min($0, latest) } ?? latest) }
    }

    func take() {
      do {
        try begin()
      } catch {
        failure = error
        return
      }
      if chunk.count >= 4096 { play() }
    }

    for input in resolved {
      do throws(InputProblem) {
        // Top-level custom keys are read only for a service extension: a frame never shows them.
        // Jobs of 2 MiB, not 4: four in flight, decoded, held 60 MiB more at a million lines.
        try readRecords(
          from: input, bundleID: bundle, keepsCustomValues: explicitProfile?.needsCustomKeys ?? false,
          defaultBundleID: fallbackBundleID, jobBytes: 2 << 20, transform: { $0 }
        ) { (record: inout PushRecord) in
          guard failure == nil else { return }
          placer.place(record, into: &chunk)
          take()
        }
      } catch {
        throw UsageError("\(error.path): \(error.message)")
      }
      if let failure { throw failure }
    }
    chunk += placer.finish()
    take()
    if let failure { throw failure }
    play()
    guard let final = state else { throw UsageError("no pushes to render") }
    let start = final.device.profile.start
    return (final, until.flatMap { $0 } ?? max(last ?? start, start))
  }

  package static func isScenario(_ path: String) -> Bool {
    let lowered = path.lowercased()
    return lowered.hasSuffix(".yaml") || lowered.hasSuffix(".yml")
  }

  /// What a preset asks of a phone: only what its name says. `locked` locks and keeps a saved
  /// Focus; `dnd` and `sleep` lock it and turn their Focus on; `unlocked`
  /// unlocks. A new phone takes it over the standard device (``presetProfile(_:start:)``).
  package struct PresetRequest: Equatable {
    package var isLocked: Bool?
    package var focusID: String?

    /// The request of a preset's name; nil for anything else (a YAML profile file).
    package init?(preset name: String) {
      switch name {
      case "unlocked": isLocked = false
      case "locked": isLocked = true
      // Locked, as --compare's dnd and sleep are: one name, one phone in every command.
      case "dnd": (isLocked, focusID) = (true, FocusMode.doNotDisturb.id)
      case "sleep": (isLocked, focusID) = (true, FocusMode.sleep.id)
      default: return nil
      }
    }

    /// The events that bring `device` to what is asked, in order (none when it already is).
    package func events(for device: DeviceSimulator) -> [DeviceEvent] {
      var events: [DeviceEvent] = []
      if let isLocked, isLocked != device.isLocked { events.append(isLocked ? .lock : .unlock) }
      if let focusID, focusID != device.activeFocusID { events.append(.focus(focusID)) }
      return events
    }
  }

  /// A built-in preset: `unlocked`, `locked`, `dnd` (Do Not Disturb, locked) or `sleep` (locked), as the
  /// standard device (unlocked, no Focus) with what the preset asks.
  package static func presetProfile(_ name: String, start: SimInstant) throws -> DeviceProfile {
    guard presets.contains(name) else {
      throw UsageError("--profile takes \(presets.joined(separator: ", ")) or a YAML profile file, not \(name)")
    }
    var profile = DeviceProfile.standard(start: start)
    applyPreset(name, to: &profile)
    return profile
  }

  /// The profile file a `--profile` value names, loaded; nil for a preset or no value. Every
  /// command that takes `--profile` reads it here, so a preset's name is never read as a file.
  ///
  /// - Throws: `UsageError` with the located message of a profile file that does not load.
  package static func profileFile(_ option: String?) throws -> DeviceProfile? {
    guard let option, !presets.contains(option) else { return nil }
    // A bare name that is no file is said as what it is not, not as a file that cannot be read
    // (a path or a .yaml name is a file the user meant, and its error says so).
    if !FileManager.default.fileExists(atPath: option), !isScenario(option), !option.contains("/") {
      let list = presets.joined(separator: ", ")
      if DeviceVariant.presetNames.contains(option) {
        throw UsageError(
          "--profile: \(option) is a preset of --compare only; --profile takes \(list) or a YAML profile file")
      }
      throw UsageError("--profile: \(option) is neither a preset (\(list)) nor a profile file (no such file)")
    }
    do throws(ScenarioError) {
      return try ScenarioLoader().loadProfile(path: option)
    } catch {
      throw UsageError(error.description)
    }
  }

  /// What a `--profile` preset asks of the device a session plays on, set on `profile` (a
  /// scenario's own, a profile file's or the standard one): its lock (unlocked unless it says
  /// locked) and its Focus (none unless it names one). Nothing for a profile file or no value.
  package static func applyPreset(_ option: String?, to profile: inout DeviceProfile) {
    guard let option, let request = PresetRequest(preset: option) else { return }
    profile.isLocked = request.isLocked ?? false
    profile.activeFocusID = request.focusID
  }
}

extension DeviceProfile {
  /// Whether pushes must keep their top-level custom keys for this device: a service extension
  /// may read them (`attach-media` and `decrypt` name payload keys). Frames and explanations
  /// never show them.
  package var needsCustomKeys: Bool { apps.contains { $0.serviceExtension != nil || $0.hasServiceExtension } }
}

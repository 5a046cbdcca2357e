import ArgumentParser
import PushCore
import PushHandlers
import PushScenario
import PushUI

/// What `run` and `render` play: a device at its start and a timeline of events.
///
/// Inputs may mix scenarios (`.yaml`, `.yml`), payload files and captures: a scenario brings its
/// own device profile and timeline; pushes from files and captures are placed on the timeline as
/// `explain` places them. `--profile` takes a built-in preset or a YAML profile file.
struct Session {
  var state: AppState

  /// The built-in profile presets, by name.
  static let presets = ["unlocked", "locked", "dnd", "sleep"]

  /// Loads a session, or the built-in demo when there are no inputs.
  ///
  /// - Throws: `ValidationError` with a located message for unreadable inputs and profile or
  ///   scenario errors (the commands exit 2).
  static func load(inputs: [String], profile profileOption: String?, bundle: String?) throws -> Session {
    let loader = ScenarioLoader()
    guard !inputs.isEmpty else {
      var state = AppState.demo()
      if let profileOption {
        let preset = try presetProfile(profileOption, start: state.now)
        var device = state.device
        if preset.isLocked != device.isLocked { device.apply(preset.isLocked ? .lock : .unlock, at: device.now) }
        if preset.activeFocusID != device.activeFocusID { device.apply(.focus(preset.activeFocusID), at: device.now) }
        state = AppState(device: device, timeline: state.timeline)
      }
      return Session(state: state)
    }
    var explicitProfile: DeviceProfile?
    if let profileOption, !presets.contains(profileOption) {
      do throws(ScenarioError) {
        explicitProfile = try loader.loadProfile(path: profileOption)
      } catch {
        throw ValidationError(error.description)
      }
    }
    var scenarioProfile: DeviceProfile?
    var entries: [TimelineEntry] = []
    var records: [PushRecord] = []
    let (resolved, problems) = resolveInputs(inputs.filter { !isScenario($0) })
    if let problem = problems.first { throw ValidationError("\(problem.path): \(problem.message)") }
    for path in inputs where isScenario(path) {
      do throws(ScenarioError) {
        let scenario = try loader.loadScenario(path: path, defaultProfile: explicitProfile)
        if scenarioProfile == nil { scenarioProfile = scenario.profile }
        entries += scenario.timeline.map(TimelineEntry.init)
      } catch {
        throw ValidationError(error.description)
      }
    }
    for input in resolved {
      do throws(InputProblem) {
        try readRecords(from: input, bundleID: bundle, defaultBundleID: fallbackBundleID) { records.append($0) }
      } catch {
        throw ValidationError("\(error.path): \(error.message)")
      }
    }
    let baseStart = scenarioProfile?.start ?? explicitProfile?.start ?? DemoScenario.start
    var profile = scenarioProfile ?? explicitProfile ?? DeviceProfile.standard(start: baseStart)
    if !records.isEmpty {
      // Without a scenario the inputs bring their own time: the device starts just before the
      // earliest capture line (a payload file alone starts at the profile's time).
      let ownTime = entries.isEmpty
      let (start, pushes) = Timeline.entries(
        for: records, start: entries.last?.at ?? baseStart, startsAtCapture: ownTime)
      if scenarioProfile == nil { profile.start = ownTime ? start : min(profile.start, start) }
      entries += pushes
    }
    if let profileOption, presets.contains(profileOption) {
      let preset = try presetProfile(profileOption, start: profile.start)
      profile.isLocked = preset.isLocked
      profile.activeFocusID = preset.activeFocusID
    }
    // Service extensions run before the front end starts, in the shell; the device reads
    // each push's result when it arrives (docs/DECISIONS.md, Service extensions).
    let extensions = ServiceExtensionRegistry.withThumbnails(profile: profile)
    if !extensions.isEmpty {
      let pushes: [(slot: Int, record: PushRecord, sender: String?)] = entries.indices.compactMap { slot in
        guard case .device(.push(let record, let sender)) = entries[slot].event else { return nil }
        return (slot, record, sender)
      }
      let processed = extensions.processAllBlocking(pushes.map(\.record), profile: profile)
      for (push, record) in zip(pushes, processed) {
        entries[push.slot] = TimelineEntry(
          at: entries[push.slot].at, event: .device(.push(record, sender: push.sender)))
      }
    }
    return Session(state: AppState(device: DeviceSimulator(profile: profile), timeline: entries))
  }

  static func isScenario(_ path: String) -> Bool {
    let lowered = path.lowercased()
    return lowered.hasSuffix(".yaml") || lowered.hasSuffix(".yml")
  }

  /// What a preset asks of a phone: only what its name says. `locked` locks and keeps a saved
  /// Focus; `dnd` turns Do Not Disturb on and keeps the lock; `sleep` does both; `unlocked`
  /// unlocks. A new phone takes it over the standard device (``presetProfile(_:start:)``).
  struct PresetRequest: Equatable {
    var isLocked: Bool?
    var focusID: String?

    /// The request of a preset's name; nil for anything else (a YAML profile file).
    init?(preset name: String) {
      switch name {
      case "unlocked": isLocked = false
      case "locked": isLocked = true
      case "dnd": focusID = FocusMode.doNotDisturb.id
      case "sleep": (isLocked, focusID) = (true, FocusMode.sleep.id)
      default: return nil
      }
    }

    /// The events that bring `device` to what is asked, in order (none when it already is).
    func events(for device: DeviceSimulator) -> [DeviceEvent] {
      var events: [DeviceEvent] = []
      if let isLocked, isLocked != device.isLocked { events.append(isLocked ? .lock : .unlock) }
      if let focusID, focusID != device.activeFocusID { events.append(.focus(focusID)) }
      return events
    }
  }

  /// A built-in preset: `unlocked`, `locked`, `dnd` (Do Not Disturb) or `sleep` (locked), as the
  /// standard device (unlocked, no Focus) with what the preset asks.
  static func presetProfile(_ name: String, start: SimInstant) throws -> DeviceProfile {
    guard let request = PresetRequest(preset: name) else {
      throw ValidationError("--profile takes \(presets.joined(separator: ", ")) or a YAML profile file, not \(name)")
    }
    var profile = DeviceProfile.standard(start: start)
    profile.isLocked = request.isLocked ?? false
    profile.activeFocusID = request.focusID
    return profile
  }
}

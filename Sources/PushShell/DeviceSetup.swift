import Foundation
import PushCore
import PushScenario
import PushStore

/// Which profile a device starts from and where its state lives (`replay`'s and `serve`'s
/// `--profile`, `--state`, `--ephemeral`).
package struct DeviceSetup: Sendable {
  package var profile: String?
  package var state: String?
  package var ephemeral: Bool

  package init(profile: String?, state: String?, ephemeral: Bool) {
    self.profile = profile
    self.state = state
    self.ephemeral = ephemeral
  }

  /// Opens the state database (unless ephemeral) and asks whether it holds a device. The device
  /// itself is read later, when its profile is known, with
  /// `DeviceJournal.restoreDevice(profile:keepsPayloadDetails:)`.
  ///
  /// - Returns: the journal (nil when ephemeral) and whether it holds a device to continue.
  ///
  /// Without `--state`, the inputs choose the database as they do for `run`
  /// (``StateLocation/resolve(statePath:ephemeral:environment:inputs:)``): a replay of a capture
  /// and a `run` of it share a device, and another capture never plays into it. Standard input
  /// (`-`) names no file: a replay of standard input alone goes to the shared device.
  package func openState(_ options: DeviceJournal.Options, inputs: [String] = []) throws(StoreError) -> (
    journal: DeviceJournal?, holdsDevice: Bool
  ) {
    let location = try StateLocation.resolve(
      statePath: state, ephemeral: ephemeral, environment: ProcessInfo.processInfo.environment,
      inputs: Self.deviceInputs(inputs))
    guard case .file = location else { return (nil, false) }
    let journal = try DeviceJournal.open(location, options: options)
    return (journal, try journal.holdsDevice())
  }

  /// The inputs that name a session's own device: each file's absolute path, symbolic links
  /// resolved (the same capture named two ways is one device); standard input names none.
  package static func deviceInputs(_ inputs: [String]) -> [String] {
    inputs.filter { $0 != "-" }.map { URL(fileURLWithPath: $0).resolvingSymlinksInPath().standardizedFileURL.path }
  }
}

extension Session {
  /// Makes the device profile for a start time from a `--profile` value: a YAML file is loaded
  /// once (it has its own start); a preset (or nothing: `unlocked`) is the standard device at the
  /// given start.
  ///
  /// - Throws: `UsageError` with the located message for a bad profile file or preset name.
  package static func profileLoader(_ profile: String?) throws -> (SimInstant) throws -> DeviceProfile {
    if let loaded = try profileFile(profile) { return { _ in loaded } }
    let name = profile ?? "unlocked"
    _ = try presetProfile(name, start: DemoScenario.start)
    return { start in try presetProfile(name, start: start) }
  }
}

import ArgumentParser
import Foundation
import PushCore
import PushScenario
import PushStore

/// The device options `replay` and `serve` share: which profile the device starts from and where
/// its state lives.
struct DeviceOptions: ParsableArguments {
  @Option(
    name: .long,
    help: "A device profile: a YAML file, or a preset: unlocked (default), locked, dnd or sleep.")
  var profile: String?

  @Option(
    name: .long,
    help: "The device's state database (default: $XDG_DATA_HOME/pushdeck/device.sqlite).")
  var state: String?

  @Flag(name: .long, help: "Keep nothing: no state database is read or written.")
  var ephemeral = false

  /// Opens the state database (unless ephemeral) and asks whether it holds a device. The device
  /// itself is read later, when its profile is known, with
  /// `DeviceJournal.restoreDevice(profile:keepsPayloadDetails:)`.
  ///
  /// - Returns: the journal (nil when ephemeral) and whether it holds a device to continue.
  func openState(_ options: DeviceJournal.Options) throws(StoreError) -> (journal: DeviceJournal?, holdsDevice: Bool) {
    let location = try StateLocation.resolve(
      statePath: state, ephemeral: ephemeral, environment: ProcessInfo.processInfo.environment)
    guard case .file = location else { return (nil, false) }
    let journal = try DeviceJournal.open(location, options: options)
    return (journal, try journal.holdsDevice())
  }
}

extension Session {
  /// Makes the device profile for a start time from a `--profile` value: a YAML file is loaded
  /// once (it has its own start); a preset (or nothing: `unlocked`) is the standard device at the
  /// given start.
  ///
  /// - Throws: `ValidationError` with the located message for a bad profile file or preset name.
  static func profileLoader(_ profile: String?) throws -> (SimInstant) throws -> DeviceProfile {
    guard let profile, !presets.contains(profile) else {
      let name = profile ?? "unlocked"
      _ = try presetProfile(name, start: DemoScenario.start)
      return { start in try presetProfile(name, start: start) }
    }
    do throws(ScenarioError) {
      let loaded = try ScenarioLoader().loadProfile(path: profile)
      return { _ in loaded }
    } catch {
      throw ValidationError(error.description)
    }
  }
}

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

  /// Opens the state database (unless ephemeral) and reads back the device it holds.
  ///
  /// - Returns: the journal (nil when ephemeral) and the restored device, nil when there is none.
  func openState(_ options: DeviceJournal.Options) throws(StoreError) -> (DeviceJournal?, RestoredDevice?) {
    let location = try StateLocation.resolve(
      statePath: state, ephemeral: ephemeral, environment: ProcessInfo.processInfo.environment)
    guard case .file = location else { return (nil, nil) }
    let journal = try DeviceJournal.open(location, options: options)
    let restored = try journal.restore(keepsPayloadDetails: false)
    let remembers = restored.deliveryCount > 0 || !restored.notifications.isEmpty || restored.clock != nil
    return (journal, remembers ? restored : nil)
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

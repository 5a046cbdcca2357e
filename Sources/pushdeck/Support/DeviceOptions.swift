import ArgumentParser
import Foundation
import PushCore
import PushScenario
import PushShell
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
    help: """
      The device's state database (default: replay's files, a database of their own that run \
      shares, $XDG_DATA_HOME/pushdeck/devices/NAME-HASH.sqlite; serve and standard input, \
      $XDG_DATA_HOME/pushdeck/device.sqlite).
      """)
  var state: String?

  @Flag(name: .long, help: "Keep nothing: no state database is read or written.")
  var ephemeral = false

  /// What the shell needs of these options.
  var setup: DeviceSetup { DeviceSetup(profile: profile, state: state, ephemeral: ephemeral) }
}

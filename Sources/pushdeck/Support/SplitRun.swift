import ArgumentParser
import Foundation
import PushCore
import PushRender
import PushRuntime
import PushShell
import PushTerminal
import PushUI

/// `run --compare`: the split view of two to four devices on one clock (``SplitLoop``).
extension RunCommand {
  /// The devices `run --compare` may show side by side.
  static let comparePaneRange = 2...4

  /// Checks `--compare` before anything is opened: two to four names, and no option the split
  /// view cannot honour.
  func validateCompare() throws {
    guard let compare else { return }
    let names = compare.split(separator: ",", omittingEmptySubsequences: false)
    guard Self.comparePaneRange.contains(names.count) else {
      throw ValidationError(
        "run --compare takes 2 to 4 devices separated by commas (\(DeviceVariant.presetNames.joined(separator: ", ")) or profile files), not \"\(compare)\"; for more, use render or storyboard --compare"
      )
    }
    if listen != nil {
      throw ValidationError("run --compare cannot be combined with --listen: one endpoint feeds one device")
    }
    if state != nil { throw ValidationError("run --compare keeps no state: leave out --state") }
    // Unknown presets and broken profile files are reported before the terminal is looked at.
    _ = try DeviceVariant.parse(compare)
  }

  /// Runs the split view until `q` (or a signal); the panes keep no state.
  @MainActor
  func runCompare(_ compare: String, theme selectedTheme: Theme, locator: ThemeLocator) throws {
    let variants = try DeviceVariant.parse(compare)
    let session = try makeState()
    let panes = variants.map { SplitView.Pane(label: $0.label, state: $0.state(from: session)) }
    let environment = ProcessInfo.processInfo.environment
    let terminal = try CursesTerminal(
      noColor: !(environment["NO_COLOR"] ?? "").isEmpty, colorTerm: environment["COLORTERM"],
      signals: SignalWatcher())
    let start = panes.map(\.state.now).min() ?? session.now
    let loop = SplitLoop(
      panes: panes, screen: terminal, input: terminal,
      clock: SimulationClock(start: start, mode: clock, speed: speed), theme: selectedTheme,
      otherThemes: locator.others(than: selectedTheme), sleepTheme: try? locator.load("sleep"))
    let status = loop.run() ?? 0
    terminal.restore()
    if status != 0 { throw ExitCode(status) }
  }
}

import ArgumentParser
import Foundation
import PushCore
import PushRender
import PushRuntime
import PushTerminal
import PushUI

/// `pushdeck run`: the interactive lock screen on the built-in demo.
struct RunCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "run",
    abstract: "Open the interactive lock screen on the built-in demo scenario.",
    discussion: """
      Keys: q quits, ] moves the simulated clock one minute on, } one hour.
      NO_COLOR disables colour. Themes are looked up in $PUSHDECK_THEMES or the themes/ folder.
      """
  )

  @Option(name: .long, help: "A theme name (default, light, high-contrast, sleep) or a YAML file.")
  var theme: String = "default"

  @Option(
    name: .long, help: "How simulated time moves: wall (with real time) or manual (only with ]).")
  var clock: SimulationClock.Mode = .wall

  @MainActor
  func run() async throws {
    guard isatty(STDOUT_FILENO) == 1, isatty(STDIN_FILENO) == 1 else {
      FileHandle.standardError.write(
        Data(
          "pushdeck run: needs a terminal, but stdin or stdout is not one.\nUse `pushdeck render` to print a frame as text.\n"
            .utf8))
      throw ExitCode(2)
    }
    let selectedTheme: Theme
    do {
      selectedTheme = try ThemeLocator.forCurrentProcess().load(theme)
    } catch {
      FileHandle.standardError.write(
        Data("pushdeck: warning: \(error); using the built-in default theme\n".utf8))
      selectedTheme = .builtInDefault
    }
    let environment = ProcessInfo.processInfo.environment
    let terminal = try CursesTerminal(
      noColor: !(environment["NO_COLOR"] ?? "").isEmpty, colorTerm: environment["COLORTERM"],
      signals: SignalWatcher())
    let scenario = DemoScenario.snapshot()
    let loop = AppLoop(
      state: AppState(device: scenario), screen: terminal, input: terminal,
      clock: SimulationClock(start: scenario.now, mode: clock), theme: selectedTheme)
    let status = loop.run() ?? 0
    terminal.restore()
    if status != 0 { throw ExitCode(status) }
  }
}

extension SimulationClock.Mode: ExpressibleByArgument {}

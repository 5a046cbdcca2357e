import ArgumentParser
import Foundation
import PushCore
import PushRender
import PushRuntime
import PushTerminal
import PushUI

/// `pushdeck run`: the interactive front end on payload files, captures, or the built-in demo.
struct RunCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "run",
    abstract: "Open the interactive front end on payload files and captures, or on the demo.",
    discussion: """
      Payload files arrive three simulated seconds apart; capture lines arrive at their `at` \
      times. Without inputs the built-in demo opens.
      Keys: ? lists them all. n or Tab opens Notification Center, Enter opens or expands, \
      a shows actions, i the inspector, . moves the clock to the next push, ] one minute on, q quits.
      NO_COLOR disables colour. Themes are looked up in $PUSHDECK_THEMES or the themes/ folder.
      """
  )

  @Argument(help: "Payload files (.json, .apns), captures (.jsonl) or directories.")
  var inputs: [String] = []

  @Option(name: .long, help: "The app for payload files that name none.")
  var bundle: String?

  @Option(
    name: .long,
    help: "A built-in device profile: unlocked (default with inputs), locked, dnd or sleep.")
  var profile: BuiltInProfile?

  @Option(name: .long, help: "A theme name (default, light, high-contrast, sleep) or a YAML file.")
  var theme: String = "default"

  @Option(
    name: .long, help: "How simulated time moves: wall (with real time) or manual (only with ] and .).")
  var clock: SimulationClock.Mode = .wall

  @Option(name: .long, help: "Simulated seconds per real second with the wall clock (0.5 to 1000).")
  var speed: Double = 1

  func validate() throws {
    guard (0.5...1000).contains(speed) else { throw ValidationError("--speed must be between 0.5 and 1000") }
    if inputs.contains("-") { throw ValidationError("run reads keys from standard input; give payloads as files") }
  }

  @MainActor
  func run() async throws {
    guard isatty(STDOUT_FILENO) == 1, isatty(STDIN_FILENO) == 1 else {
      FileHandle.standardError.write(
        Data(
          "pushdeck run: needs a terminal, but stdin or stdout is not one.\nUse `pushdeck render` to print a frame as text.\n"
            .utf8))
      throw ExitCode(2)
    }
    let state = try makeState()
    let locator = ThemeLocator.forCurrentProcess()
    let selectedTheme: Theme
    do {
      selectedTheme = try locator.load(theme)
    } catch {
      FileHandle.standardError.write(Data("pushdeck: warning: \(error); using the built-in default theme\n".utf8))
      selectedTheme = .builtInDefault
    }
    let environment = ProcessInfo.processInfo.environment
    let terminal = try CursesTerminal(
      noColor: !(environment["NO_COLOR"] ?? "").isEmpty, colorTerm: environment["COLORTERM"],
      signals: SignalWatcher())
    let loop = AppLoop(
      state: state, screen: terminal, input: terminal,
      clock: SimulationClock(start: state.now, mode: clock, speed: speed), theme: selectedTheme,
      sleepTheme: try? locator.load("sleep"))
    let status = loop.run() ?? 0
    terminal.restore()
    if status != 0 { throw ExitCode(status) }
  }

  /// The demo, or a device with the inputs on its timeline.
  func makeState() throws -> AppState {
    guard !inputs.isEmpty else {
      var state = AppState.demo()
      if let profile { state = AppState(device: profile.apply(to: state.device), timeline: state.timeline) }
      return state
    }
    let (resolved, problems) = resolveInputs(inputs)
    if let problem = problems.first { throw ValidationError("\(problem.path): \(problem.message)") }
    var records: [PushRecord] = []
    for input in resolved {
      do throws(InputProblem) {
        try readRecords(from: input, bundleID: bundle) { record in
          var record = record
          if record.bundleID == nil { record.bundleID = "com.example.app" }
          records.append(record)
        }
      } catch {
        throw ValidationError("\(error.path): \(error.message)")
      }
    }
    let (start, entries) = Timeline.entries(for: records, start: DemoScenario.start)
    let device = DeviceSimulator(profile: (profile ?? .unlocked).profile(start: start))
    return AppState(device: device, timeline: entries)
  }
}

/// The device profiles `run --profile` offers until YAML profiles are wired in.
enum BuiltInProfile: String, CaseIterable, ExpressibleByArgument {
  case unlocked, locked, dnd, sleep

  /// The profile at a start time.
  func profile(start: SimInstant) -> DeviceProfile {
    var profile = DeviceProfile.standard(start: start)
    switch self {
    case .unlocked: break
    case .locked: profile.isLocked = true
    case .dnd: profile.activeFocusID = FocusMode.doNotDisturb.id
    case .sleep:
      profile.activeFocusID = FocusMode.sleep.id
      profile.isLocked = true
    }
    return profile
  }

  /// The demo device changed to match (lock and Focus only; the demo keeps its apps).
  func apply(to device: DeviceSimulator) -> DeviceSimulator {
    var device = device
    let target = profile(start: device.now)
    if target.isLocked != device.isLocked { device.apply(target.isLocked ? .lock : .unlock, at: device.now) }
    if target.activeFocusID != device.activeFocusID { device.apply(.focus(target.activeFocusID), at: device.now) }
    return device
  }
}

extension SimulationClock.Mode: ExpressibleByArgument {}

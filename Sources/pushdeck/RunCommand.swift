import ArgumentParser
import Foundation
import PushCore
import PushHandlers
import PushRender
import PushRuntime
import PushScenario
import PushServer
import PushShell
import PushStore
import PushTerminal
import PushUI
import Synchronization

/// `pushdeck run`: the interactive front end on payload files, captures, or the built-in demo.
struct RunCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "run",
    abstract: "Open the interactive front end on scenarios, payload files and captures, or on the demo.",
    discussion: """
      Scenarios (.yaml) bring their device and timeline; payload files arrive three simulated \
      seconds apart; capture lines arrive at their `at` times. Without inputs the built-in demo opens.
      Keys: ? lists them all. n or Tab opens Notification Center, Enter opens or expands, \
      a shows actions, i the inspector, t the timeline (p plays, , . previous/next push, + - speed, \
      g goes to a time), s settings (Focus, lock, each app's settings), ] one minute on, q quits. \
      The mouse selects, opens and presses buttons; the wheel scrolls.
      --compare locked,dnd splits the screen: 2 to 4 devices (presets or profile files) on one \
      clock, side by side (a 2×2 grid for 3 or 4 on a narrow screen), every key acting on all.
      c cycles the themes. NO_COLOR disables colour. The themes default, high-contrast, light and \
      sleep are built in; --theme also takes a theme file, or a NAME.yaml in $PUSHDECK_THEMES.
      """
  )

  @Argument(help: "Scenarios (.yaml), payload files (.json, .apns), captures (.jsonl) or directories.")
  var inputs: [String] = []

  @Option(
    name: .long,
    help:
      "The app for payload files (over a file's Simulator Target Bundle, as xcrun simctl push does; capture lines name their own).",
    transform: BundleOption.parse)
  var bundle: String?

  @Option(
    name: .long,
    help: "A device profile: a YAML file, or a preset: unlocked (default with inputs), locked, dnd or sleep.")
  var profile: String?

  @Option(
    name: .long, help: "A theme: default, light, high-contrast, sleep, a NAME.yaml in $PUSHDECK_THEMES, or a YAML file."
  )
  var theme: String = "default"

  @Option(
    name: .long,
    help:
      "The device's state database: restored at start, saved as it runs (default for payloads and captures: one of their own, $XDG_DATA_HOME/pushdeck/devices/NAME-HASH.sqlite)."
  )
  var state: String?

  @Flag(name: .long, help: "Keep nothing: no state database is read or written.")
  var ephemeral = false

  @Option(
    name: .long, help: "How simulated time moves: wall (with real time) or manual (only with ] and .).")
  var clock: SimulationClock.Mode = .wall

  @Option(name: .long, help: "Simulated seconds per real second with the wall clock (0.5 to 1000).")
  var speed: Double = 1

  @Option(
    name: .long,
    help: ArgumentHelp(
      "Run the APNs endpoint inside the front end on this port (2197 when none is given): accepted pushes show live.",
      valueName: "port"))
  var listen: Int?

  @Option(name: .customLong("bind"), help: "The address the --listen endpoint binds (default: 127.0.0.1).")
  var bindAddress: String?

  /// The address the endpoint binds.
  var bind: String { bindAddress ?? "127.0.0.1" }

  @Option(
    name: .long,
    help: ArgumentHelp(
      "Split the screen: 2 to 4 devices on one clock, every key acting on all (\(DeviceVariant.presetNames.joined(separator: ", ")) or profile files).",
      valueName: "devices"))
  var compare: String?

  @OptionGroup var endpointOptions: EndpointOptions

  /// `--listen` may stand alone (`run --listen`, `run --listen payload.json`): the default port
  /// is put after it when the next argument is not a port, since ArgumentParser options need a value.
  static func defaultingListenPort(_ arguments: [String]) -> [String] {
    var result: [String] = []
    var index = arguments.startIndex
    while index < arguments.endIndex {
      result.append(arguments[index])
      if arguments[index] == "--listen" {
        let next = arguments.index(after: index)
        if next == arguments.endIndex || Int(arguments[next]) == nil { result.append("2197") }
      }
      index = arguments.index(after: index)
    }
    return result
  }

  func validate() throws {
    guard (0.5...1000).contains(speed) else { throw ValidationError("--speed must be between 0.5 and 1000") }
    if let listen, !(0...65535).contains(listen) { throw ValidationError("--listen takes a port from 0 to 65535") }
    try endpointOptions.validateTLS()
    let endpointFlags = endpointOptions.given + (bindAddress == nil ? [] : ["--bind"])
    if listen == nil, !endpointFlags.isEmpty {
      throw ValidationError(
        "\(endpointFlags.joined(separator: ", ")) \(endpointFlags.count == 1 ? "configures" : "configure") the "
          + "endpoint that --listen runs; add --listen [PORT], or leave \(endpointFlags.count == 1 ? "it" : "them") out"
      )
    }
    if inputs.contains("-") { throw ValidationError("run reads keys from standard input; give payloads as files") }
    try validating { try validateCompare() }
  }

  @MainActor
  func run() async throws {
    // The theme first: an unknown one is an error before anything is opened.
    let locator = ThemeLocator.forCurrentProcess()
    let selectedTheme = try locator.commandLineTheme(theme)
    guard isatty(STDOUT_FILENO) == 1, isatty(STDIN_FILENO) == 1 else {
      FileHandle.standardError.write(
        Data(
          "pushdeck run: needs a terminal, but stdin or stdout is not one.\nUse `pushdeck render` to print a frame as text.\n"
            .utf8))
      throw ExitCode(2)
    }
    // Before anything is opened: a TERM or locale the screen cannot be drawn with is refused
    // with what to set.
    do throws(TerminalError) {
      try CursesTerminal.checkEnvironment()
    } catch {
      FileHandle.standardError.write(Data("pushdeck run: \(error.description)\n".utf8))
      throw ExitCode(2)
    }
    if let compare { return try runCompare(compare, theme: selectedTheme, locator: locator) }
    // Payloads and captures alone start at once and go on reading in the background.
    let streams = !inputs.isEmpty && !inputs.contains(where: Session.isScenario)
    var feed: TimelineFeed?
    var state: AppState
    if streams {
      // Without a state database, a device is played ahead for seeks (with one, every push
      // a seek passes is journalled, so the front end plays them).
      (state, feed) = try Session.startReading(
        inputs: inputs, profile: profile, bundle: bundle, playsAhead: ephemeral)
    } else {
      state = try makeState()
    }
    // Responses go to the handlers the profile binds (docs/SCENARIOS.md, Handlers).
    let handlers = HandlerRegistry(profile: state.device.profile)
    // The demo and scenarios define their own device, so they keep no state unless --state asks.
    let definesOwnDevice = inputs.isEmpty || inputs.contains(where: Session.isScenario)
    let location: StateLocation
    do throws(StoreError) {
      // Payloads and captures play on a device of their own (one per set of inputs), so an
      // unrelated input never continues an old device.
      location = try StateLocation.resolve(
        statePath: self.state, ephemeral: ephemeral || (self.state == nil && definesOwnDevice),
        environment: ProcessInfo.processInfo.environment, inputs: DeviceSetup.deviceInputs(inputs))
    } catch {
      throw ValidationError(error.description)
    }
    let (persistence, restoredState) = try StatePersistence.open(
      location, state: state, profile: try restoreProfile(session: state.device.profile),
      keepsTimeline: !inputs.isEmpty,
      preset: profile.flatMap(Session.PresetRequest.init(preset:)),
      announcing: inputs.isEmpty
        ? nil
        : inputs.map { $0.split(separator: "/").last.map(String.init) ?? $0 }
          .joined(separator: ", "), moreToCome: feed != nil)
    state = restoredState
    if let feed {
      // A device played ahead only without a state database (docs/DECISIONS.md, runstate).
      if persistence == nil { state.playAhead = feed }
      // With a state database the front end keeps checkpoints of its own as it plays, for seeks
      // back and into the middle (docs/DECISIONS.md, Run: seeks with a state database).
      if persistence != nil { state.seekCheckpoints = feed.seekCheckpoints() }
      // A long seek plays a slice a turn, the screen following it, with a state database too
      // (each turn journals what it played) (docs/DECISIONS.md, Run: seeks).
      state.playSlice = persistence == nil ? Session.seekSlice : Session.journalledSeekSlice
    }
    defer { persistence?.close() }
    // The endpoint, when asked for: accepted pushes go through the app's service extension (on
    // a queue of their own, in order, as `serve` and `replay` do), then wait in the inbox for
    // the loop's next turn; each is answered once that turn has saved it.
    let inbox = LiveInbox()
    let extensions = ServiceExtensionRegistry.withThumbnails(profile: state.device.profile)
    let extensionProfile = state.device.profile
    let extensionQueue = DispatchQueue(label: "pushdeck.run.extensions")
    var server: APNsServer?
    if let listen {
      let (keys, registry, fcmProject) = try endpointOptions.endpoint(profile: profile)
      let tls = try endpointOptions.serverTLS(statePath: self.state)
      do {
        server = try await APNsServer(
          configuration: .init(
            host: bind, port: listen, providerKeys: keys, registry: registry, tls: tls, fcmProject: fcmProject),
          threads: 1,
          durableSink: { record, _, done in
            guard !extensions.isEmpty else { return inbox.post(record, done: done) }
            extensionQueue.async {
              inbox.post(extensions.processBlocking(record, profile: extensionProfile), done: done)
            }
          },
          log: { exchange in
            // Refused before the device: shown on the next turn, never hidden. (A push that
            // reached the device and could not be saved is not a refusal: the turn that failed
            // to save it says so.)
            if exchange.status >= 400, !exchange.wasNotSaved { inbox.refuse(exchange) }
          })
      } catch {
        FileHandle.standardError.write(
          Data("pushdeck: cannot listen on \(bind):\(listen): \(APNsServer.listenFailure(error))\n".utf8))
        throw ExitCode(2)
      }
      let address = bind.contains(":") ? "[\(bind)]" : bind
      state.showToast("Listening on \(tls == nil ? "h2c" : "https")://\(address):\(server?.port ?? listen)")
      // The status line keeps the port (the address when it is not the loopback default).
      state.listeningOn = (bind == "127.0.0.1" ? "" : address) + ":\(server?.port ?? listen)"
    }
    var reading = FeedFollower(resumedAt: persistence?.resumedAt, skipped: persistence?.skippedAtOpen ?? 0)
    let environment = ProcessInfo.processInfo.environment
    let terminal = try CursesTerminal(
      noColor: !(environment["NO_COLOR"] ?? "").isEmpty, colorTerm: environment["COLORTERM"],
      signals: SignalWatcher())
    let loop = AppLoop(
      state: state, screen: terminal, input: terminal,
      clock: SimulationClock(start: state.now, mode: clock, speed: speed),
      theme: selectedTheme, otherThemes: locator.others(than: selectedTheme), sleepTheme: try? locator.load("sleep"),
      handler: handlers,
      afterTurn: { state in
        if let feed { reading.follow(feed, into: &state) }
        let refused = inbox.drainRefusals()
        state.countEndpointRefusals(notKept: refused.dropped)
        for refusal in refused.refusals { state.noteEndpointRefusal(EndpointRefusal(refusal)) }
        let arrived = inbox.drain()
        for push in arrived { state.receive(push.record) }
        // Acknowledged means saved: the endpoint answers once this turn's journal is committed.
        let saved = persistence?.persist(&state) ?? true
        for push in arrived { push.done(saved ? .saved : .failed) }
      })
    let status = loop.run() ?? 0
    persistence?.finish(loop.state)
    // Pushes that arrived after the last turn were never applied: answered 500, not left to
    // wait for the endpoint's drain to give up on them.
    for push in inbox.drain() { push.done(.failed) }
    terminal.restore()
    try? await server?.shutdown()
    if status != 0 { throw ExitCode(status) }
  }

  /// The profile a restored device starts from: `--profile` when it names a YAML file, else the
  /// session's own (the demo's apps, names and settings for `run --state S` alone, a scenario's
  /// for a scenario; a preset names only a lock and a Focus, applied as events). It was the
  /// standard device: a continued demo state showed "Fooddash" and every preview hidden.
  func restoreProfile(session: DeviceProfile) throws -> DeviceProfile {
    guard let profile, !Session.presets.contains(profile) else { return session }
    return try Session.profileLoader(profile)(session.start)
  }

  /// The demo, or a device with the inputs on its timeline.
  func makeState() throws -> AppState {
    try Session.load(inputs: inputs, profile: profile, bundle: bundle, leanFrom: Session.leanTimelineEvents).state
  }
}

extension SimulationClock.Mode: ExpressibleByArgument {}

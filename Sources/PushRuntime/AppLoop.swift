import PushCore
import PushRender
import PushUI
import Synchronization

/// The interactive loop: input → events → state → render → present, on one thread.
///
/// Each turn waits at most ``inputTimeoutMilliseconds`` for input, so the clock and pending
/// termination signals are looked at several times a second. Chosen actions go to the
/// ``ActionHandler`` on a task; their outcomes come back through an inbox drained each turn.
@MainActor
public final class AppLoop {
  /// The current state.
  public private(set) var state: AppState
  /// The longest wait for input in one turn.
  public let inputTimeoutMilliseconds: Int
  private let screen: any TerminalScreen
  private let input: any InputSource
  /// The themes `c` cycles through, adapted to the screen; the first is the one chosen.
  private let themes: [Theme]
  private var themeIndex = 0
  private var theme: Theme { themes[themeIndex] }
  private let sleepTheme: Theme?
  private let keyMap: KeyMap
  private let handler: (any ActionHandler)?
  private let inbox = ActionInbox()
  private var clock: SimulationClock
  private var running: [Task<Void, Never>] = []
  private let afterTurn: ((inout AppState) -> Void)?
  /// The last frame presented: mouse presses are resolved against its hit regions.
  private var lastFrame = CellGrid(width: 0, height: 0)
  /// When the loop was made: the wall clock banners and toasts leave on while time is paused.
  private let started = ContinuousClock.now

  /// Creates a loop; nothing happens until ``run(maxTurns:)``.
  ///
  /// - Parameters:
  ///   - state: the initial state.
  ///   - screen: where frames go.
  ///   - input: where keys, resizes and signals come from.
  ///   - clock: the simulation clock.
  ///   - theme: the full-colour theme; it is adapted to the screen's colour capability.
  ///   - otherThemes: the themes the next-theme key moves on to, in order, after `theme`.
  ///   - sleepTheme: the theme for a Focus that dims the lock screen, if loaded.
  ///   - handler: where chosen actions go; without one, each action reports `.unhandled`.
  ///   - keyMap: key bindings.
  ///   - inputTimeoutMilliseconds: the longest wait per turn (at most 250 ms is sensible).
  ///   - afterTurn: called after every turn and before exiting, for the shell's own work such as
  ///     persisting what the device did.
  public init(
    state: AppState, screen: any TerminalScreen, input: any InputSource, clock: SimulationClock,
    theme: Theme, otherThemes: [Theme] = [], sleepTheme: Theme? = nil, handler: (any ActionHandler)? = nil,
    keyMap: KeyMap = .standard,
    inputTimeoutMilliseconds: Int = 250, afterTurn: ((inout AppState) -> Void)? = nil
  ) {
    self.afterTurn = afterTurn
    self.state = state
    self.state.isManualClock = clock.mode == .manual
    self.state.configurePlayback(isPlaying: clock.mode == .wall, speed: clock.speed)
    self.screen = screen
    self.input = input
    self.clock = clock
    self.themes = ([theme] + otherThemes).map { $0.adapted(to: screen.colorCapability) }
    self.sleepTheme = sleepTheme?.adapted(to: screen.colorCapability)
    self.handler = handler
    self.keyMap = keyMap
    self.inputTimeoutMilliseconds = inputTimeoutMilliseconds
  }

  /// Runs until an effect asks to exit, or for `maxTurns` turns (for tests).
  ///
  /// - Returns: the exit status requested (0 for `q`, 128 + signal for a signal), or `nil` when
  ///   `maxTurns` ran out first.
  @discardableResult
  public func run(maxTurns: Int? = nil) -> Int32? {
    let size = screen.size
    _ = reduce(into: &state, .resize(columns: size.columns, rows: size.rows))
    _ = reduce(into: &state, .tick(clock.now()))
    lastFrame = draw()
    var turns = 0
    while maxTurns.map({ turns < $0 }) ?? true {
      turns += 1
      var events: [Event] = []
      // While a long seek is on its way (a slice a turn, or waiting for the device played
      // ahead), turns follow each other quickly; a key still answers at once.
      let timeout = state.followingTo == nil ? inputTimeoutMilliseconds : min(inputTimeoutMilliseconds, 20)
      if let inputEvent = input.nextInput(timeoutMilliseconds: timeout),
        let event = event(for: inputEvent)
      {
        events.append(event)
      }
      events += inbox.drain().map { Event.actionFinished($0.id, $0.outcome) }
      let wall = ContinuousClock.now - started
      events.append(
        .wallClock(
          elapsed: SimDuration(
            milliseconds: wall.components.seconds * 1000 + wall.components.attoseconds / 1_000_000_000_000_000)))
      // The tick reads the clock after the other events, which may have moved or seeked it.
      for event in events + [nil] {
        if let status = handle(event ?? .tick(clock.now())) {
          afterTurn?(&state)
          return status
        }
      }
      afterTurn?(&state)
      followState()
      let frame = render(
        state, size: Size(columns: state.terminalColumns, rows: state.terminalRows), theme: theme,
        sleepTheme: sleepTheme)
      Self.handBack(frame, to: &state)
      if frame != lastFrame {
        screen.present(frame)
        lastFrame = frame
      }
    }
    return nil
  }

  /// The clock goes on from where the state went on its own: a live push that arrived while the
  /// front end was back in time brought the state to where its journal is (``AppState/receive(_:)``),
  /// ahead of the clock, whose ticks were then ignored until real time caught up (the clock stood
  /// still for as long as the seek had gone back, and every push in between arrived at one time).
  private func followState() {
    guard state.now > clock.now() else { return }
    clock.seek(to: state.now)
  }

  /// The event for terminal input: mouse presses hit what the last frame drew there.
  private func event(for input: InputEvent) -> Event? {
    if case .mouse(let x, let y, let kind) = input {
      return KeyMap.mouseEvent(kind, target: lastFrame.hitTarget(at: Point(column: x, row: y)))
    }
    return keyMap.event(for: input, mode: state.inputMode)
  }

  /// Waits for the action handlers still running (tests call this before looking at outcomes).
  public func finishActions() async {
    for task in running { await task.value }
    running = []
  }

  /// Applies one event and performs its effects; returns an exit status when asked to exit.
  private func handle(_ event: Event) -> Int32? {
    for effect in reduce(into: &state, event) {
      switch effect {
      case .exit(let status):
        return status
      case .advanceClock(let duration):
        clock.advance(by: duration)
        _ = reduce(into: &state, .tick(clock.now()))
      case .perform(let invocation):
        perform(invocation)
      case .setClock(let running, let speed):
        clock.set(running: running, speed: speed)
      case .seekClock(let instant):
        clock.seek(to: instant)
        _ = reduce(into: &state, .tick(clock.now()))
      case .nextTheme:
        themeIndex = (themeIndex + 1) % themes.count
        state.showToast("Theme: \(theme.name)")
      }
    }
    return nil
  }

  private func perform(_ invocation: ActionInvocation) {
    guard let handler else {
      inbox.post(id: invocation.id, outcome: .unhandled(nil))
      return
    }
    let inbox = self.inbox
    running.removeAll { $0.isCancelled }
    running.append(
      Task.detached {
        let outcome = await handler.perform(invocation)
        inbox.post(id: invocation.id, outcome: outcome)
      })
  }

  /// Hands the state what only the renderer knows, as it wraps the text: how far the inspector
  /// and an opened notification can scroll, and an opened notification's page. Written only
  /// when it changed (the state is copied on write).
  private static func handBack(_ frame: CellGrid, to state: inout AppState) {
    if state.inspectorScrollLimit != frame.inspectorScrollLimit {
      state.inspectorScrollLimit = frame.inspectorScrollLimit
    }
    if state.detailScrollLimit != frame.detailScrollLimit { state.detailScrollLimit = frame.detailScrollLimit }
    if state.detailPageRows != frame.detailPageRows { state.detailPageRows = frame.detailPageRows }
  }

  private func draw() -> CellGrid {
    let frame = render(
      state, size: Size(columns: state.terminalColumns, rows: state.terminalRows), theme: theme,
      sleepTheme: sleepTheme)
    Self.handBack(frame, to: &state)
    screen.present(frame)
    return frame
  }
}

/// Outcomes of actions, posted from handler tasks and drained by the loop's thread.
final class ActionInbox: Sendable {
  private let outcomes = Mutex<[(id: Int, outcome: ActionOutcome)]>([])

  /// Posts an outcome.
  func post(id: Int, outcome: ActionOutcome) {
    outcomes.withLock { $0.append((id, outcome)) }
  }

  /// Takes every outcome posted so far, in order.
  func drain() -> [(id: Int, outcome: ActionOutcome)] {
    outcomes.withLock { pending in
      let taken = pending
      pending = []
      return taken
    }
  }
}

import PushCore
import PushRender
import PushUI

/// The interactive loop of `run --compare`: several devices on one clock, side by side
/// (``SplitView``), every key going to each of them.
///
/// One ``SimulationClock`` drives every pane. An event is reduced into each pane in turn with
/// that pane's input mode; the clock effects it asks for (advance, seek, pause, speed) are
/// applied once, from the first pane that asked, and then every pane is ticked to the clock.
/// Actions are not run in a split view: each pane reports its action as unhandled.
@MainActor
public final class SplitLoop {
  /// The panes, in the order they are drawn.
  public private(set) var panes: [SplitView.Pane]
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
  private var clock: SimulationClock
  private var unhandled: [(pane: Int, id: ActionInvocation.ID)] = []
  private var screenSize = Size(columns: 0, rows: 0)

  /// Creates a loop; nothing happens until ``run(maxTurns:)``.
  ///
  /// - Parameters:
  ///   - panes: two to four devices (more are drawn, but the layout is made for four).
  ///   - clock: the one clock every pane follows.
  ///   - otherThemes: the themes the next-theme key moves on to, in order, after `theme`.
  public init(
    panes: [SplitView.Pane], screen: any TerminalScreen, input: any InputSource, clock: SimulationClock,
    theme: Theme, otherThemes: [Theme] = [], sleepTheme: Theme? = nil, keyMap: KeyMap = .standard,
    inputTimeoutMilliseconds: Int = 250
  ) {
    self.panes = panes
    for index in self.panes.indices {
      self.panes[index].state.isManualClock = clock.mode == .manual
      self.panes[index].state.isSplitPane = true
      self.panes[index].state.configurePlayback(isPlaying: clock.mode == .wall, speed: clock.speed)
    }
    self.screen = screen
    self.input = input
    self.clock = clock
    self.themes = ([theme] + otherThemes).map { $0.adapted(to: screen.colorCapability) }
    self.sleepTheme = sleepTheme?.adapted(to: screen.colorCapability)
    self.keyMap = keyMap
    self.inputTimeoutMilliseconds = inputTimeoutMilliseconds
  }

  /// The current frame.
  public var frame: CellGrid {
    SplitView.render(panes, size: screenSize, theme: theme, sleepTheme: sleepTheme)
  }

  /// Runs until a pane asks to exit, or for `maxTurns` turns (for tests).
  ///
  /// - Returns: the exit status requested, or `nil` when `maxTurns` ran out first.
  @discardableResult
  public func run(maxTurns: Int? = nil) -> Int32? {
    resize(screen.size)
    tickAll()
    var lastFrame = frame
    screen.present(lastFrame)
    var turns = 0
    while maxTurns.map({ turns < $0 }) ?? true {
      turns += 1
      if let inputEvent = input.nextInput(timeoutMilliseconds: inputTimeoutMilliseconds) {
        if let status = handle(inputEvent) { return status }
      }
      let finished = unhandled
      unhandled = []
      for (pane, id) in finished {
        _ = reduce(into: &panes[pane].state, .actionFinished(id, .unhandled("Actions are not run in the split view")))
      }
      tickAll()
      let next = frame
      if next != lastFrame {
        screen.present(next)
        lastFrame = next
      }
    }
    return nil
  }

  /// Applies terminal input to every pane; returns an exit status when one asks to exit.
  func handle(_ inputEvent: InputEvent) -> Int32? {
    if case .resize(let columns, let rows) = inputEvent {
      resize(Size(columns: columns, rows: rows))
      return nil
    }
    // The mouse is not routed to a pane: the split view is driven by keys.
    if case .mouse = inputEvent { return nil }
    var clockTaken = false
    var themeTaken = false
    for index in panes.indices {
      guard let event = keyMap.event(for: inputEvent, mode: panes[index].state.inputMode) else { continue }
      let effects = reduce(into: &panes[index].state, event)
      var asksClock = false
      for effect in effects {
        switch effect {
        case .exit(let status):
          return status
        case .perform(let invocation):
          unhandled.append((index, invocation.id))
        case .advanceClock(let duration):
          asksClock = true
          if !clockTaken { clock.advance(by: duration) }
        case .setClock(let running, let speed):
          asksClock = true
          if !clockTaken { clock.set(running: running, speed: speed) }
        case .seekClock(let instant):
          asksClock = true
          if !clockTaken { clock.seek(to: instant) }
        case .nextTheme:
          // One theme for the whole screen: moved on once, said in every pane.
          if !themeTaken { themeIndex = (themeIndex + 1) % themes.count }
          themeTaken = true
          panes[index].state.showToast("Theme: \(theme.name)")
        }
      }
      if asksClock { clockTaken = true }
    }
    tickAll()
    return nil
  }

  private func resize(_ size: Size) {
    screenSize = size
    for (index, content) in SplitView.contentSizes(count: panes.count, size: size).enumerated() {
      _ = reduce(into: &panes[index].state, .resize(columns: content.columns, rows: content.rows))
    }
  }

  private func tickAll() {
    let now = clock.now()
    for index in panes.indices { _ = reduce(into: &panes[index].state, .tick(now)) }
  }
}

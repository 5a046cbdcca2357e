import PushCore
import PushRender
import PushUI

/// The interactive loop: input → events → state → render → present, on one thread.
///
/// Each turn waits at most ``inputTimeoutMilliseconds`` for input, so the clock and pending
/// termination signals are looked at several times a second.
@MainActor
public final class AppLoop {
  /// The current state.
  public private(set) var state: AppState
  /// The longest wait for input in one turn.
  public let inputTimeoutMilliseconds: Int
  private let screen: any TerminalScreen
  private let input: any InputSource
  private let theme: Theme
  private let keyMap: KeyMap
  private var clock: SimulationClock

  /// Creates a loop; nothing happens until ``run(maxTurns:)``.
  ///
  /// - Parameters:
  ///   - state: the initial state.
  ///   - screen: where frames go.
  ///   - input: where keys, resizes and signals come from.
  ///   - clock: the simulation clock.
  ///   - theme: the full-colour theme; it is adapted to the screen's colour capability.
  ///   - keyMap: key bindings.
  ///   - inputTimeoutMilliseconds: the longest wait per turn (at most 250 ms is sensible).
  public init(
    state: AppState, screen: any TerminalScreen, input: any InputSource, clock: SimulationClock,
    theme: Theme, keyMap: KeyMap = .standard, inputTimeoutMilliseconds: Int = 250
  ) {
    self.state = state
    self.screen = screen
    self.input = input
    self.clock = clock
    self.theme = theme.adapted(to: screen.colorCapability)
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
    var lastFrame = draw()
    var turns = 0
    while maxTurns.map({ turns < $0 }) ?? true {
      turns += 1
      var events: [Event] = []
      if let inputEvent = input.nextInput(timeoutMilliseconds: inputTimeoutMilliseconds),
        let event = keyMap.event(for: inputEvent)
      {
        events.append(event)
      }
      events.append(.tick(clock.now()))
      for event in events {
        for effect in reduce(into: &state, event) {
          switch effect {
          case .exit(let status):
            return status
          case .advanceClock(let duration):
            clock.advance(by: duration)
            _ = reduce(into: &state, .tick(clock.now()))
          }
        }
      }
      let frame = render(
        state, size: Size(columns: state.terminalColumns, rows: state.terminalRows), theme: theme)
      if frame != lastFrame {
        screen.present(frame)
        lastFrame = frame
      }
    }
    return nil
  }

  private func draw() -> CellGrid {
    let frame = render(
      state, size: Size(columns: state.terminalColumns, rows: state.terminalRows), theme: theme)
    screen.present(frame)
    return frame
  }
}

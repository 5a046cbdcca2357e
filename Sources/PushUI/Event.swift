import PushCore

/// A user intention, decoded from a key by a ``KeyMap``.
public enum Command: Equatable, Sendable {
  /// Leave the front end normally.
  case quit
  /// Move the simulated clock forward.
  case advanceClock(SimDuration)
}

/// Something that happened, fed to ``reduce(into:_:)``.
public enum Event: Equatable, Sendable {
  /// Simulated time moved on.
  case tick(SimInstant)
  /// The terminal changed size.
  case resize(columns: Int, rows: Int)
  /// The user asked for something.
  case command(Command)
  /// The process was asked to stop by a signal (SIGINT, SIGTERM).
  case terminationRequested(signal: Int32)
}

/// Work the shell must do after an event; the reducer itself performs none.
public enum Effect: Equatable, Sendable {
  /// Restore the terminal and exit with this status.
  case exit(status: Int32)
  /// Move the simulation clock forward (the runtime owns the clock).
  case advanceClock(SimDuration)
}

/// Applies an event to the state and returns the effects the shell must perform.
public func reduce(into state: inout AppState, _ event: Event) -> [Effect] {
  switch event {
  case .tick(let now):
    state.device.now = now
    return []
  case .resize(let columns, let rows):
    state.terminalColumns = columns
    state.terminalRows = rows
    return []
  case .command(.quit):
    return [.exit(status: 0)]
  case .command(.advanceClock(let duration)):
    return [.advanceClock(duration)]
  case .terminationRequested(let signal):
    // The shell convention: 128 + signal number (130 for SIGINT, 143 for SIGTERM).
    return [.exit(status: 128 + signal)]
  }
}

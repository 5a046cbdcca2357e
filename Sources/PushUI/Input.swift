import PushCore

/// A key the user pressed, decoded by the terminal backend.
public enum Key: Equatable, Hashable, Sendable {
  /// A printable character.
  case character(Character)
  /// A control chord such as Ctrl-C, named by its letter.
  case control(Character)
  /// Arrow keys.
  case up, down, left, right
  /// Return or Enter.
  case enter
  /// Escape.
  case escape
  /// Backspace or Delete.
  case backspace
  /// Tab.
  case tab
  /// A key the backend could not name, with its code.
  case unknown(Int32)
}

/// Input from the terminal.
public enum InputEvent: Equatable, Sendable {
  /// A key press.
  case key(Key)
  /// The terminal was resized.
  case resize(columns: Int, rows: Int)
  /// A termination signal arrived (SIGINT, SIGTERM).
  case signal(Int32)
}

/// Maps keys to commands.
public struct KeyMap: Equatable, Sendable {
  /// The bindings.
  public var bindings: [Key: Command]

  /// Creates a key map.
  public init(bindings: [Key: Command]) { self.bindings = bindings }

  /// The default bindings: `q` quits, `]` moves the clock a minute on.
  public static let standard = KeyMap(bindings: [
    .character("q"): .quit,
    .character("Q"): .quit,
    .character("]"): .advanceClock(.minutes(1)),
    .character("}"): .advanceClock(.hours(1)),
  ])

  /// The command for a key, if bound.
  public func command(for key: Key) -> Command? { bindings[key] }

  /// Turns terminal input into an event, if it means anything.
  public func event(for input: InputEvent) -> Event? {
    switch input {
    case .key(let key): return command(for: key).map(Event.command)
    case .resize(let columns, let rows): return .resize(columns: columns, rows: rows)
    case .signal(let number): return .terminationRequested(signal: number)
    }
  }
}

import PushCore

/// Which screen the front end shows.
public enum Screen: Equatable, Sendable {
  /// The lock screen with the clock and notification stacks.
  case lock
}

/// The front end's state: the device snapshot, the screen and the terminal's size.
public struct AppState: Equatable, Sendable {
  /// What the device holds now.
  public var device: DeviceSnapshot
  /// The screen showing.
  public var screen: Screen
  /// The terminal's width in columns, as last reported.
  public var terminalColumns: Int
  /// The terminal's height in rows, as last reported.
  public var terminalRows: Int

  /// Creates the state for a device snapshot.
  public init(
    device: DeviceSnapshot, screen: Screen = .lock, terminalColumns: Int = 80,
    terminalRows: Int = 24
  ) {
    self.device = device
    self.screen = screen
    self.terminalColumns = terminalColumns
    self.terminalRows = terminalRows
  }
}

import PushUI

/// A screen that can show a ``CellGrid``: the seam between the runtime and a terminal backend.
///
/// Declared here so that both the runtime and the curses backend depend downwards on it.
@MainActor
public protocol TerminalScreen: AnyObject {
  /// The current size in cells.
  var size: Size { get }
  /// What colours the screen can show.
  var colorCapability: ColorCapability { get }
  /// Shows the grid, replacing what was there.
  func present(_ grid: CellGrid)
}

/// A source of key presses, resizes and termination signals.
@MainActor
public protocol InputSource: AnyObject {
  /// Waits up to `timeoutMilliseconds` for input; `nil` means the time ran out.
  func nextInput(timeoutMilliseconds: Int) -> InputEvent?
}

import PushRender
import PushUI

/// A terminal for tests: scripted input, captured frames.
@MainActor
public final class FakeTerminal: TerminalScreen, InputSource {
  /// The size reported to the runtime.
  public var size: Size
  /// The colour capability reported to the runtime.
  public var colorCapability: ColorCapability
  /// Every frame presented, in order.
  public private(set) var frames: [CellGrid] = []
  /// Input still to deliver; `nil` entries are timeouts.
  public var script: [InputEvent?]

  /// Creates a fake terminal.
  public init(size: Size, colorCapability: ColorCapability = .monochrome, script: [InputEvent?]) {
    self.size = size
    self.colorCapability = colorCapability
    self.script = script
  }

  /// Records the frame.
  public func present(_ grid: CellGrid) { frames.append(grid) }

  /// Delivers the next scripted input, or a timeout when the script is done.
  public func nextInput(timeoutMilliseconds: Int) -> InputEvent? {
    script.isEmpty ? nil : script.removeFirst()
  }
}

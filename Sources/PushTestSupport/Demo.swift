import PushCore
import PushScenario
import PushUI

extension AppState {
  /// The built-in demo (`Examples/demo.yaml`) as `pushdeck` opens it, at 09:41.
  ///
  /// - Parameter upcoming: whether the pushes after 09:41 are on the timeline.
  public static func demo(upcoming: Bool = true) -> AppState {
    // The embedded file loads (DemoAndRunTests); a broken one stops the tests here, loudly.
    guard let scenario = try? BuiltInDemo.scenario() else { fatalError("Examples/demo.yaml does not load") }
    return AppState(opening: scenario, at: BuiltInDemo.opensAt, upcoming: upcoming)
  }
}

extension AppState {
  /// The demo with Notification Center open and the Messages notification's action sheet at its
  /// reply field (its first action, `REPLY`, chosen), empty.
  public static func demoAtReplyField() -> AppState {
    var state = AppState.demo(upcoming: false)
    _ = reduce(into: &state, .command(.openCenter))
    state.centerSelection = state.centerRows().firstIndex { $0.groupKey.bundleID == "com.example.messages" } ?? 0
    _ = reduce(into: &state, .command(.showActions))
    _ = reduce(into: &state, .command(.activate))
    return state
  }
}

import PushCore
import PushScenario
import PushUI
import Testing

/// Clearing a notification sends the dismiss action to the handler only for categories with
/// `customDismissAction`, as on iOS.
struct DismissActionTests {
  func state(options: String) throws -> AppState {
    let scenario = try ScenarioLoader().loadScenario(
      text: """
        profile:
          apps:
            - bundle: com.example.shop
              categories: [{id: ORDER, options: [\(options)], actions: [{id: CANCEL, title: Cancel}]}]
        timeline:
          - at: +1m
            push: {bundle: com.example.shop, payload: {aps: {alert: Shipped, category: ORDER}}}
        """, file: "s.yaml")
    var state = AppState(
      device: DeviceSimulator(profile: scenario.profile), timeline: scenario.timeline.map(TimelineEntry.init))
    _ = reduce(into: &state, .tick(scenario.profile.start + .minutes(2)))
    _ = reduce(into: &state, .command(.openCenter))
    return state
  }

  @Test func customDismissActionCategoriesSendTheDismissAction() throws {
    var state = try state(options: "customDismissAction")
    let effects = reduce(into: &state, .command(.clearSelected))
    guard case .perform(let invocation)? = effects.first else {
      Issue.record("expected a perform effect, got \(effects)")
      return
    }
    #expect(invocation.actionID == dismissActionIdentifier)
    #expect(invocation.bundleID == "com.example.shop")
    #expect(invocation.categoryID == "ORDER")
  }

  @Test func otherCategoriesDismissQuietly() throws {
    var state = try state(options: "")
    #expect(reduce(into: &state, .command(.clearSelected)).isEmpty)
  }
}

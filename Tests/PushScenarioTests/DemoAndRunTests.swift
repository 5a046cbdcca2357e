import Foundation
import PushCore
import PushTestSupport
import Testing

@testable import PushScenario

/// The built-in demo and playing timelines.
struct DemoAndRunTests {
  @Test func theBuiltInDemoIsTheExampleFileCompiledIn() throws {
    let url = Corpus.repositoryRoot().appendingPathComponent("Examples/demo.yaml")
    let file = try String(contentsOf: url, encoding: .utf8)
    // The build embeds the file (the EmbedFiles plugin): no copy to keep in step by hand.
    #expect(BuiltInDemo.yaml == file)
    let scenario = try BuiltInDemo.scenario()
    #expect(scenario.title == "Monday morning")
    #expect(scenario.timeline.contains { $0.at < BuiltInDemo.opensAt })
    #expect(scenario.timeline.contains { $0.at > BuiltInDemo.opensAt })
  }

  @Test func theDemoShowsOffTheFeaturesAndEveryPushIsAccepted() throws {
    let run = try BuiltInDemo.scenario().run()
    #expect(run.records.count == 14)
    #expect(!run.records.contains { $0.decision.disposition == .rejected })
    let codes = Set(run.records.flatMap(\.decision.reasonCodes))
    for code: ReasonCode in [
      .criticalAlert, .focusBreakthroughCritical, .focusSilenced, .scheduledSummary, .liveActivityStarted,
      .liveActivityUpdated, .provisionalQuietDelivery, .previewsHidden,
    ] {
      #expect(codes.contains(code), "the demo no longer shows \(code)")
    }
    #expect(run.records.contains { $0.decision.effectiveLevel == .timeSensitive })
    let threads = run.records.compactMap(\.notification?.threadID)
    #expect(threads.filter { $0 == "chat-ana" }.count >= 2)
  }

  @Test func everyTapAndActionInTheDemoHasAHandler() throws {
    let profile = try BuiltInDemo.scenario().profile
    for app in profile.apps {
      for category in app.categories {
        for action in category.actions.map(\.identifier) + [defaultActionIdentifier, dismissActionIdentifier] {
          let route = HandlerBinding.best(
            in: profile.handlers, app: app.bundleID, category: category.identifier, action: action)
          #expect(route != nil, "\(app.bundleID) \(category.identifier) \(action) has no handler")
          // Built in and needing no program, so the demo works on any machine.
          if let kind = route?.binding.kind {
            #expect(kind.name == "echo" || kind == .open(file: nil), "\(action) → \(kind.name)")
          }
        }
      }
      let tap = HandlerBinding.best(
        in: profile.handlers, app: app.bundleID, category: nil, action: defaultActionIdentifier)
      #expect(tap?.binding.kind == .open(file: nil))
    }
  }

  @Test func replyUsesTheCategorysTextInputAction() throws {
    let text = """
      profile:
        apps:
          - bundle: com.example.chat
            categories: [{id: MSG, actions: [{id: LIKE, title: Like}, {id: ANSWER, title: Reply, textInput: {}}]}]
      timeline:
        - push: {bundle: com.example.chat, payload: {aps: {alert: Hi, category: MSG}}}
        - after: 1m
          reply: {notification: 1, text: Hello}
      """
    let run = try ScenarioLoader(files: .none).loadScenario(text: text, file: "s.yaml").run()
    #expect(run.device.responses.map(\.actionID) == ["ANSWER"])
    #expect(run.device.responses.map(\.text) == ["Hello"])
    #expect(run.device.store.count == 0)
  }

  @Test func referencesFollowCollapsedReplacements() throws {
    let text = """
      timeline:
        - push: {bundle: a.b, headers: {apns-collapse-id: score}, payload: {aps: {alert: "1-0"}}}
        - push: {bundle: a.b, headers: {apns-collapse-id: score}, payload: {aps: {alert: "2-0"}}}
        - clear: 1
      """
    let run = try ScenarioLoader(files: .none).loadScenario(text: text, file: "s.yaml").run()
    #expect(run.records.map(\.decision.disposition) == [.delivered, .replaced])
    #expect(run.device.store.count == 0)
  }

  @Test func runIsDeterministic() throws {
    let scenario = try BuiltInDemo.scenario()
    #expect(scenario.run().records == scenario.run().records)
  }

  @Test func timeParsing() {
    #expect((try? TimeGrammar.duration("1h30m")) == .minutes(90))
    #expect((try? TimeGrammar.duration("+250ms")) == SimDuration(milliseconds: 250))
    #expect((try? TimeGrammar.duration("5")) == nil)
    #expect(TimeGrammar.stamp("2026-11-23T09:45:00.5+01:30")?.offset == 5400)
    #expect(TimeGrammar.stamp("2026-02-30 10:00") == nil)
  }
}

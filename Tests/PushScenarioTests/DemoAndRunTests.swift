import Foundation
import PushCore
import PushTestSupport
import Testing

@testable import PushScenario

/// The built-in demo and playing timelines.
struct DemoAndRunTests {
  @Test func embeddedDemoIsByteIdenticalToTheExample() throws {
    let url = Corpus.repositoryRoot().appendingPathComponent("Examples/demo.yaml")
    let file = try String(contentsOf: url, encoding: .utf8)
    #expect(BuiltInDemo.yaml == file, "Examples/demo.yaml changed: copy it into BuiltInDemo.yaml")
  }

  @Test func demoSnapshotMatchesPushCoresDemo() throws {
    _ = try BuiltInDemo.scenario()
    let played = BuiltInDemo.snapshot()
    let written = DemoScenario.snapshot()
    #expect(played.now == written.now && played.isLocked == written.isLocked)
    #expect(played.activeFocus == written.activeFocus && played.utcOffsetSeconds == written.utcOffsetSeconds)
    #expect(played.apps == written.apps)
    func visible(_ n: PushNotification) -> String {
      "\(n.id) \(n.bundleID) \(n.threadID ?? "-") \(n.title ?? "-") \(n.subtitle ?? "-") \(n.body ?? "-") "
        + "\(n.category ?? "-") \(n.level) \(String(describing: n.sound)) \(n.badge ?? -1) \(n.receivedAt.milliseconds)"
    }
    #expect(played.notifications.map(visible) == written.notifications.map(visible))
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
    #expect(TimeText.duration("1h30m") == .minutes(90))
    #expect(TimeText.duration("+250ms") == SimDuration(milliseconds: 250))
    #expect(TimeText.duration("5") == nil)
    #expect(TimeText.stamp("2026-11-23T09:45:00.5+01:30")?.offset == 5400)
    #expect(TimeText.stamp("2026-02-30 10:00") == nil)
  }
}

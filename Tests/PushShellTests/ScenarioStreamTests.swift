import Foundation
import PushCore
import PushScenario
import PushTestSupport
import Testing

@testable import PushShell

/// `explain` plays a scenario through ``ScenarioStream`` (each record handed out as decided,
/// none kept); it must decide exactly what `Scenario.run()` decides.
@Suite struct ScenarioStreamTests {
  static let examples: [String] = {
    let folder = Corpus.repositoryRoot().appendingPathComponent("Examples")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.filter { $0.hasSuffix(".yaml") }.sorted().map { folder.appendingPathComponent($0).path }
  }()

  @Test func theExamplesHaveScenarios() {
    #expect(Self.examples.count >= 5)
  }

  @Test(arguments: examples) func streamingDecidesWhatRunDecides(path: String) throws {
    let scenario = try ScenarioLoader().loadScenario(path: path)
    let run = scenario.run()
    var streamed: [DeliveryRecord] = []
    let device = ScenarioStream.play(scenario) { record, _ in streamed.append(record) }
    #expect(streamed == run.records)
    #expect(device.records.isEmpty)
    #expect(device.store.all.map(\.id) == run.device.store.all.map(\.id))
    #expect(device.responses.count == run.device.responses.count)
  }

  /// `explain` plays lean (no payload text kept in the store or handed out), as it plays
  /// captures: what it prints, as text and as JSON, is what the full records print.
  @Test(arguments: examples) func leanPlayingPrintsWhatRunPrints(path: String) throws {
    let scenario = try ScenarioLoader().loadScenario(path: path)
    let run = scenario.run()
    var text: [String] = []
    var json: [String] = []
    let device = ScenarioStream.play(scenario, keepsPayloadDetails: false) { record, profile in
      let printer = ExplainPrinter(color: false, profile: profile)
      text.append(printer.text(record))
      json.append(printer.json(record))
    }
    #expect(!device.keepsPayloadDetails)
    #expect(device.store.all.allSatisfy { $0.notification.rawPayload.isEmpty })
    let printer = ExplainPrinter(color: false, profile: run.device.profile)
    #expect(text == run.records.map(printer.text))
    #expect(json == run.records.map(printer.json))
  }

  /// Per push, only the pushes the timeline refers to by number are remembered.
  @Test func theLastReferencedPushIsFound() throws {
    let yaml = """
      timeline:
        - push: {bundle: com.example.chat, payload: {aps: {alert: one}}}
        - push: {bundle: com.example.chat, payload: {aps: {alert: two}}}
        - clear: 2
        - open: 1
      """
    let scenario = try ScenarioLoader().loadScenario(text: yaml, file: "refs.yaml")
    #expect(ScenarioStream.lastReferencedPush(scenario.timeline) == 2)
    #expect(ScenarioStream.lastReferencedPush(Array(scenario.timeline.prefix(2))) == 0)
  }

  /// References to "the n-th push" follow a notification replaced through its collapse id, and
  /// find nothing once it is gone, as `Scenario.run()` does.
  @Test func pushReferencesFollowCollapseIDsWithoutRecords() throws {
    let yaml = """
      timeline:
        - push: {bundle: com.example.chat, headers: {apns-collapse-id: c1}, payload: {aps: {alert: one}}}
        - after: 1s
          push: {bundle: com.example.chat, headers: {apns-collapse-id: c1}, payload: {aps: {alert: two}}}
        - push: {bundle: com.example.chat, payload: {aps: {alert: three}}}
        - after: 1s
          clear: 1
        - after: 1s
          open: 3
        - after: 1s
          open: 3
        - push: {bundle: com.example.chat, payload: {aps: {alert: four}}}
      """
    let scenario = try ScenarioLoader().loadScenario(text: yaml, file: "refs.yaml")
    let run = scenario.run()
    var streamed: [DeliveryRecord] = []
    let device = ScenarioStream.play(scenario) { record, _ in streamed.append(record) }
    #expect(streamed.count == 4)
    #expect(streamed == run.records)
    #expect(device.store.all.map(\.id) == run.device.store.all.map(\.id))
    // `clear: 1` cleared the notification the second push replaced: only "four" remains.
    #expect(device.store.all.map(\.notification.body) == [run.records[3].notification?.body])
    #expect(device.responses.count == run.device.responses.count)
  }
}

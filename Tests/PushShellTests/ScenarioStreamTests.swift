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

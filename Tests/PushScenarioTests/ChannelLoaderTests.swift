import PushCore
import Testing

@testable import PushScenario

/// Profiles declare an app's push-to-start token and broadcast channels; timelines send to a
/// channel with `channel:`.
struct ChannelLoaderTests {
  static let token = String(repeating: "5a", count: 32)

  func load(_ text: String) throws(ScenarioError) -> Scenario {
    try ScenarioLoader(files: .memory([:])).loadScenario(text: text, file: "s.yaml")
  }

  func error(_ text: String) -> String {
    do {
      _ = try load(text)
      return "no error"
    } catch {
      return error.description
    }
  }

  @Test func aChannelUpdatesTheActivitiesThatSubscribed() throws {
    let scenario = try load(
      """
      profile:
        apps:
          - bundle: com.example.scores
            tokens: {pushToStart: \(Self.token)}
            channels:
              - {id: c2NvcmVzLWdhbWUtNDI=, storage: mostRecent}
              - id: b3RoZXI=
      timeline:
        - push:
            bundle: com.example.scores
            token: \(Self.token)
            headers: {apns-push-type: liveactivity}
            payload: {aps: {event: start, timestamp: 1, attributes-type: Game, attributes: {}, content-state: {score: 0-0}, alert: {title: Kick-off, body: A v B}, input-push-channel: c2NvcmVzLWdhbWUtNDI=}}
        - push:
            bundle: com.example.scores
            channel: c2NvcmVzLWdhbWUtNDI=
            payload: {aps: {event: update, timestamp: 2, content-state: {score: 1-0}}}
      """)
    let app = try #require(scenario.profile.apps.first)
    #expect(app.pushToStartToken == Self.token)
    #expect(app.channels.map(\.id) == ["c2NvcmVzLWdhbWUtNDI=", "b3RoZXI="])
    #expect(app.channels.map(\.storagePolicy) == [.mostRecent, .noStorage])
    let run = scenario.run()
    #expect(run.records.map(\.decision.disposition) == [.delivered, .delivered])
    #expect(run.records[1].channelID == "c2NvcmVzLWdhbWUtNDI=")
    #expect(run.records[1].decision.reasons.first?.text.contains("broadcast channel c2NvcmVzLWdhbWUtNDI=") == true)
  }

  @Test func badTokensAndChannelsAreLocated() {
    #expect(
      error("profile:\n  apps:\n    - bundle: a.b\n      tokens: {pushToStart: xyz}\ntimeline: []")
        .hasPrefix("s.yaml:4:29: profile.apps[0].tokens.pushToStart: the device token \"xyz\" is not a hex string"))
    #expect(
      error("profile:\n  apps:\n    - bundle: a.b\n      channels: [{id: not-base64}]\ntimeline: []")
        .hasPrefix("s.yaml:4:23: profile.apps[0].channels[0].id: \"not-base64\" is not a channel id"))
    #expect(
      error("profile:\n  apps:\n    - bundle: a.b\n      channels: [{id: YWJj, storage: forever}]\ntimeline: []")
        .contains("profile.apps[0].channels[0].storage"))
    #expect(
      error("profile:\n  apps:\n    - bundle: a.b\n      channels: [{id: YWJj}, {id: YWJj}]\ntimeline: []")
        .contains("the channel \"YWJj\" is declared twice"))
    #expect(
      error("timeline:\n  - push: {bundle: a.b, channel: '!!', payload: {aps: {}}}")
        .hasPrefix("s.yaml:2:34: timeline[0].push.channel: \"!!\" is not a channel id"))
  }
}

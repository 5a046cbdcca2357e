import Testing

@testable import PushCore

/// Only the actions of a registered category can be picked (reference §4.5), and a reply needs
/// a text-input action: the device refuses the rest, says why, and does nothing else.
@Suite struct ResponseRulesTests {
  func device() -> DeviceSimulator {
    var profile = DeviceProfile(start: start)
    let actions = [
      NotificationAction(identifier: "LIKE", title: "Like"),
      NotificationAction(identifier: "ANSWER", title: "Reply", textInputButtonTitle: "Send"),
    ]
    profile.apps = [
      AppProfile(
        info: .inferred(from: "com.example.chat"),
        categories: [
          NotificationCategory(identifier: "MSG", actions: actions),
          NotificationCategory(identifier: "PLAIN", actions: [NotificationAction(identifier: "OK", title: "OK")]),
        ])
    ]
    return DeviceSimulator(profile: profile)
  }

  /// A push of the chat app with this `category` (none when nil); its notification's id.
  func deliver(_ category: String?, to sim: inout DeviceSimulator, at second: Int64 = 1) throws -> NotificationID {
    let field = category.map { #", "category": "\#($0)""# } ?? ""
    let record = sim.apply(.push(push(#"{"aps": {"alert": "hi"\#(field)}}"#)), at: at(second))
    return try #require(record?.notification?.id)
  }

  @Test(
    arguments: [
      (nil, "LIKE", nil, ResponseProblem.noCategory, "the notification has no category"),
      ("NEWS", "LIKE", nil, .unregisteredCategory("NEWS"), "the app registers no category NEWS"),
      ("MSG", "NOPE", nil, .noSuchAction(category: "MSG", action: "NOPE"), "category MSG has no action NOPE"),
      ("PLAIN", "reply", "hello", .noTextInputAction(category: "PLAIN"), "category PLAIN has no text-input action"),
      (
        "MSG", "LIKE", "hello", .notTextInput(category: "MSG", action: "LIKE"),
        "action LIKE of category MSG takes no text input"
      ),
    ] as [(String?, String, String?, ResponseProblem, String)])
  func anActionTheNotificationDoesNotOfferIsRefused(
    category: String?, action: String, text: String?, problem: ResponseProblem, reason: String
  ) throws {
    var sim = device()
    let id = try deliver(category, to: &sim)
    sim.apply(.action(id, actionID: action, text: text), at: at(2))
    #expect(
      sim.refusedResponses == [RefusedResponse(id: id, actionID: action, text: text, problem: problem, at: at(2))])
    #expect(sim.refusedResponses.first?.reason == reason)
    // Nothing else happened: the notification stays, the app heard nothing, no tap counted.
    #expect(sim.store[id] != nil)
    #expect(sim.responses.isEmpty)
    #expect(sim.profile.engagement["com.example.chat"] == nil)
  }

  @Test func anOfferedActionOrReplyIsMade() throws {
    var sim = device()
    let liked = try deliver("MSG", to: &sim)
    let answered = try deliver("MSG", to: &sim, at: 2)
    sim.apply(.action(liked, actionID: "LIKE"), at: at(3))
    sim.apply(.action(answered, actionID: "ANSWER", text: "hello"), at: at(4))
    #expect(sim.refusedResponses.isEmpty)
    #expect(sim.responses.map(\.actionID) == ["LIKE", "ANSWER"])
    #expect(sim.store.count == 0)
  }

  /// What only playing can know: a reference that follows a replacement (`apns-collapse-id`)
  /// to a notification of another category.
  @Test func aReferenceFollowingAReplacementMeetsTheReplacementsCategory() throws {
    let collapse = [("apns-collapse-id", "k")]
    let scenario = Scenario(
      profile: device().profile,
      timeline: [
        TimedEvent(
          at: at(1), event: .device(.push(push(#"{"aps": {"alert": "a", "category": "MSG"}}"#, headers: collapse))),
          source: "s.yaml"),
        TimedEvent(
          at: at(2), event: .device(.push(push(#"{"aps": {"alert": "b"}}"#, headers: collapse))), source: "s.yaml"),
        TimedEvent(at: at(3), event: .action(.push(1), actionID: "LIKE"), source: "s.yaml"),
        TimedEvent(at: at(4), event: .reply(.push(1), actionID: nil, text: "hello"), source: "s.yaml"),
      ])
    let run = scenario.run()
    let replacement = try #require(run.records[1].notification?.id)
    #expect(run.device.refusedResponses.map(\.id) == [replacement, replacement])
    #expect(run.device.refusedResponses.map(\.reason) == Array(repeating: "the notification has no category", count: 2))
    #expect(run.device.responses.isEmpty)
    #expect(run.device.store[replacement] != nil)
  }
}

import Foundation
import PushCore
import PushHandlers
import PushTestSupport
import PushUI
import Testing

/// Builds an invocation for tests.
func invocation(
  app: String = "com.shop", category: String? = "ORDER", action: String = "CANCEL", title: String = "Cancel order",
  text: String? = nil, payload: String = #"{"aps":{"alert":"Order 1234 shipped","category":"ORDER"},"order":1234}"#,
  targetContentID: String? = nil
) -> ActionInvocation {
  ActionInvocation(
    id: 1, notification: NotificationID(7), bundleID: app, categoryID: category, actionID: action,
    actionTitle: title, text: text, payload: payload, targetContentID: targetContentID)
}

@Suite struct DispatchTests {
  /// A registry with one recording handler per route, named by the route.
  func registry(_ routes: [(String, String, String)]) -> (HandlerRegistry, [RecordingActionHandler]) {
    // Routing, not deadlines, is tested here: a deadline far beyond a loaded machine's stalls
    // (two pool threads, both held by other suites' subprocess waits for over 30 s, were seen).
    var registry = HandlerRegistry(appNames: ["com.shop": "Shop"], deadlineSeconds: 600)
    var handlers: [RecordingActionHandler] = []
    for (app, category, action) in routes {
      let handler = RecordingActionHandler(outcome: .succeeded("\(app) \(category) \(action)"))
      handlers.append(handler)
      registry.register(app: app, category: category, action: action, summary: "test", handler)
    }
    return (registry, handlers)
  }

  @Test func theMostSpecificRouteWins() async {
    let (registry, _) = registry([
      ("*", "*", "*"),
      ("com.shop", "*", "*"),
      ("com.shop", "ORDER", "*"),
      ("com.shop", "ORDER", "CANCEL"),
      ("*", "*", "CANCEL"),
      ("com.*", "ORDER", "*"),
    ])
    #expect(await registry.perform(invocation()) == .succeeded("Shop: com.shop ORDER CANCEL"))
    #expect(await registry.perform(invocation(action: "TRACK")) == .succeeded("Shop: com.shop ORDER *"))
    #expect(await registry.perform(invocation(category: "PROMO", action: "TRACK")) == .succeeded("Shop: com.shop * *"))
    #expect(
      await registry.perform(invocation(app: "org.mail", category: nil, action: "CANCEL")).message
        == "Mail: * * CANCEL")
    #expect(await registry.perform(invocation(app: "com.chat", action: "X")).message == "Chat: com.* ORDER *")
    #expect(await registry.perform(invocation(app: "org.mail", category: "X", action: "Y")).message == "Mail: * * *")
  }

  @Test func onATieTheActionBeatsTheCategoryBeatsTheAppThenTheFirstListed() {
    let (registry, _) = registry([
      ("com.shop", "*", "*"), ("*", "ORDER", "*"), ("*", "*", "CANCEL"), ("*", "*", "CANCEL"),
    ])
    #expect(registry.route(app: "com.shop", category: "ORDER", action: "CANCEL")?.binding.action == "CANCEL")
    let (second, _) = self.registry([("com.shop", "*", "*"), ("*", "ORDER", "*")])
    #expect(second.route(app: "com.shop", category: "ORDER", action: "X")?.binding.category == "ORDER")
    // Equal routes: the first registered.
    let (_, handlers) = self.registry([("*", "*", "CANCEL"), ("*", "*", "CANCEL")])
    _ = handlers
  }

  @Test func tapAndDismissHaveTheirOwnActionIdentifiers() async {
    var registry = HandlerRegistry(deadlineSeconds: 600)
    let tap = RecordingActionHandler(outcome: .succeeded("tapped"))
    let dismiss = RecordingActionHandler(outcome: .succeeded("dismissed"))
    let other = RecordingActionHandler(outcome: .succeeded("other"))
    registry.register(action: "default", summary: "tap", tap)
    registry.register(action: "dismiss", summary: "dismiss", dismiss)
    registry.register(action: "*", summary: "other", other)
    #expect(await registry.perform(invocation(action: defaultActionIdentifier)).message?.hasSuffix("tapped") == true)
    #expect(await registry.perform(invocation(action: dismissActionIdentifier)).message?.hasSuffix("dismissed") == true)
    #expect(await registry.perform(invocation(action: "REPLY")).message?.hasSuffix("other") == true)
  }

  @Test func aMissingRouteIsInformationSayingWhatWasNotBound() async {
    let registry = HandlerRegistry(appNames: ["com.shop": "Shop"])
    let outcome = await registry.perform(invocation())
    #expect(
      outcome
        == .unhandled(
          "Shop: no handler bound for action CANCEL (category ORDER); bind one under handlers: in the profile")
    )
    let tap = await registry.perform(invocation(category: nil, action: defaultActionIdentifier))
    #expect(tap.message?.contains("no handler bound for a tap") == true)
  }

  @Test func echoAnswersWithItsMessageAndRunsNothing() async {
    // Answers, not deadlines, are tested here (see registry(_:) on loaded machines).
    var registry = HandlerRegistry(appNames: ["com.shop": "Shop"], deadlineSeconds: 600)
    registry.register(
      action: "CANCEL", summary: "echo", HandlerRegistry.builtIn(.echo(message: "{action}: done, you said {text}")))
    registry.register(summary: "echo", HandlerRegistry.builtIn(.echo(message: nil)))
    let cancel = await registry.perform(invocation())
    #expect(cancel == .succeeded("Shop: Cancel order: done, you said "))
    let reply = invocation(action: "REPLY", title: "Reply", text: "On my way")
    #expect(await registry.perform(reply) == .succeeded("Shop: sent “On my way”"))
    #expect(await registry.perform(invocation(action: "TRACK")) == .succeeded("Shop: Cancel order done"))
  }

  @Test func aHandlerThatHangsIsReportedAfterTheDeadline() async {
    struct Hangs: ActionHandler {
      func perform(_ invocation: ActionInvocation) async -> ActionOutcome {
        // Ignores cancellation on purpose, and outlives the test run: only the deadline can
        // produce an answer. (No wall-clock bound on the test: on a loaded 2-core machine the
        // test task itself may wait for a free thread long after the deadline fired.)
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
          DispatchQueue.global().asyncAfter(deadline: .now() + 3_600) { done.resume() }
        }
        return .succeeded("too late")
      }
    }
    var registry = HandlerRegistry(appNames: ["com.shop": "Shop"], deadlineSeconds: 0.3)
    registry.register(summary: "hangs", Hangs())
    let outcome = await registry.perform(invocation())
    #expect(outcome == .failed("Shop: handler hangs did not answer within 0.3 s"))
  }

  @Test func aProfileBuildsBuiltInRoutes() {
    var profile = DeviceProfile(start: SimInstant(milliseconds: 0))
    profile.handlers = [
      HandlerBinding(
        app: "com.shop", category: "ORDER", action: "CANCEL", kind: .exec(argv: ["/bin/echo", "hi"], timeoutSeconds: 2)),
      HandlerBinding(kind: .log(file: "/tmp/x.jsonl")),
      HandlerBinding(action: "default", kind: .open(file: nil)),
    ]
    let registry = HandlerRegistry(profile: profile)
    #expect(
      registry.route(app: "com.shop", category: "ORDER", action: "CANCEL")?.summary == "exec /bin/echo hi (timeout 2 s)"
    )
    #expect(registry.route(app: "a", category: nil, action: "X")?.summary == "log to /tmp/x.jsonl")
    #expect(registry.route(app: "a", category: nil, action: defaultActionIdentifier)?.summary == "open")
  }
}

extension ActionOutcome {
  /// The message of a succeeded or failed outcome.
  var message: String? {
    switch self {
    case .succeeded(let message): message
    case .failed(let message): message
    case .unhandled(let message): message
    }
  }
}

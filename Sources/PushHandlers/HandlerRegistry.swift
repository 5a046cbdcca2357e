import Foundation
import PushCore
import PushUI

/// Dispatches each response to the handler bound to its app, category and action.
///
/// Routes are matched with `*` wildcards and the most specific one wins (see
/// ``HandlerBinding/specificity(app:category:action:)``); on a tie the first registered wins.
/// A failing handler and a handler that overruns its deadline come back as a `.failed` outcome
/// with a message that says which; a response no route covers is `.unhandled`, with a message
/// saying what to bind (shown as information, not as a failure). Messages are prefixed with the app's
/// name, as the app's answer: "Shop: order 1234 cancelled".
public struct HandlerRegistry: ActionHandler {
  /// One route: patterns and the handler that serves them.
  public struct Route: Sendable {
    /// The patterns matched (the binding's kind describes the handler for `explain`).
    public var binding: HandlerBinding
    /// The handler.
    public var handler: any ActionHandler
    /// A short description for `explain`, for example `exec /usr/local/bin/shop-cancel`.
    public var summary: String
  }

  /// The routes in registration order.
  public private(set) var routes: [Route] = []
  /// Display names by bundle id, for message prefixes.
  public var appNames: [String: String]
  /// The longest any handler may take before its response is reported as timed out; handlers
  /// with their own timeout (exec, http) enforce it themselves, this guards the rest.
  public var deadlineSeconds: Double

  /// Creates an empty registry.
  public init(appNames: [String: String] = [:], deadlineSeconds: Double = 30) {
    self.appNames = appNames
    self.deadlineSeconds = deadlineSeconds
  }

  /// Adds a route; patterns are identifiers, `*`, or globs.
  public mutating func register(
    app: String = "*", category: String = "*", action: String = "*", summary: String, _ handler: any ActionHandler
  ) {
    // The kind is descriptive only here; `.open(file: nil)` stands for a custom handler.
    routes.append(
      Route(
        binding: HandlerBinding(app: app, category: category, action: action, kind: .open(file: nil)),
        handler: handler, summary: summary))
  }

  /// The registry a profile describes: built-in handlers for its `handlers:` bindings.
  ///
  /// - Parameters:
  ///   - profile: the device profile; its apps give the names for messages.
  ///   - now: the wall clock for the `time` field.
  public init(profile: DeviceProfile, now: @escaping @Sendable () -> Date = { Date() }) {
    var names: [String: String] = [:]
    for app in profile.apps { names[app.bundleID] = app.info.displayName }
    self.init(appNames: names)
    for binding in profile.handlers {
      routes.append(
        Route(binding: binding, handler: Self.builtIn(binding.kind, now: now), summary: Self.summary(binding.kind)))
    }
  }

  /// A built-in handler.
  public static func builtIn(_ kind: HandlerKind, now: @escaping @Sendable () -> Date = { Date() }) -> any ActionHandler
  {
    switch kind {
    case .log(let file): JSONLogHandler(path: file, now: now)
    case .exec(let argv, let timeout): ExecHandler(argv: argv, timeoutSeconds: timeout, now: now)
    case .http(let url, let timeout): HTTPHandler(url: url, timeoutSeconds: timeout, now: now)
    case .open(let file): OpenHandler(path: file, now: now)
    case .echo(let message): EchoHandler(message: message)
    }
  }

  /// `log /tmp/responses.jsonl`, `exec ./cancel.sh (timeout 5 s)`…
  public static func summary(_ kind: HandlerKind) -> String {
    switch kind {
    case .log(let file): "log to \(file)"
    case .exec(let argv, let timeout):
      "exec \(argv.map { $0.contains(" ") || $0.isEmpty ? JSONValue.quoted($0) : $0 }.joined(separator: " ")) (timeout \(secondsText(timeout)))"
    case .http(let url, let timeout): "http POST \(url) (timeout \(secondsText(timeout)))"
    case .open(let file): file.map { "open (recorded in \($0))" } ?? "open"
    case .echo(let message): message.map { "echo \(JSONValue.quoted($0))" } ?? "echo"
    }
  }

  /// The route a response goes to, if any.
  public func route(app: String, category: String?, action: String) -> Route? {
    HandlerBinding.best(in: routes.map(\.binding), app: app, category: category, action: action).map {
      routes[$0.index]
    }
  }

  /// Sends the invocation to its route's handler and prefixes the outcome with the app's name.
  public func perform(_ invocation: ActionInvocation) async -> ActionOutcome {
    let name = appNames[invocation.bundleID] ?? AppInfo.inferred(from: invocation.bundleID).displayName
    guard let route = route(app: invocation.bundleID, category: invocation.categoryID, action: invocation.actionID)
    else {
      return .unhandled(
        "\(name): no handler bound for \(Self.describe(invocation)); bind one under handlers: in the profile")
    }
    let handler = route.handler
    let deadline = deadlineSeconds
    let outcome = await withDeadline(
      seconds: deadline,
      fallback: { ActionOutcome.failed("handler \(route.summary) did not answer within \(secondsText(deadline))") }
    ) { await handler.perform(invocation) }
    switch outcome {
    case .succeeded(let message?): return .succeeded("\(name): \(message)")
    case .succeeded(nil): return .succeeded("\(name): \(invocation.actionTitle) done")
    case .failed(let message): return .failed("\(name): \(message)")
    case .unhandled(let message): return .unhandled(message.map { "\(name): \($0)" })
    }
  }

  /// `action CANCEL (category ORDER)`, `tap`, `dismiss`.
  static func describe(_ invocation: ActionInvocation) -> String {
    let action =
      switch invocation.actionID {
      case defaultActionIdentifier: "a tap"
      case dismissActionIdentifier: "a dismissal"
      default: "action \(invocation.actionID)"
      }
    return action + (invocation.categoryID.map { " (category \($0))" } ?? "")
  }
}

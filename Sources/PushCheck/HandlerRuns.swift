import PushCore
import PushHandlers
import PushUI

/// The action handlers a scenario's responses reach, run as `run` would: shared by `explain`
/// (its Handled: lines) and `test` (handler: expectations).
public enum ScenarioHandlers {
  /// Sends the responses a scenario's timeline made (taps, actions, replies, dismissals) to the
  /// handlers its profile binds, in order, as `run` would: what ran and how it ended, by
  /// notification.
  public static func run(_ run: ScenarioRun, profile: DeviceProfile) -> [NotificationID: [HandlerRun]] {
    guard !profile.handlers.isEmpty, !run.device.responses.isEmpty else { return [:] }
    let registry = HandlerRegistry(profile: profile)
    var notifications: [NotificationID: PushNotification] = [:]
    for record in run.records {
      if let notification = record.notification { notifications[notification.id] = notification }
    }
    var ran: [NotificationID: [HandlerRun]] = [:]
    for (index, response) in run.device.responses.enumerated() {
      guard let notification = notifications[response.id] else { continue }
      let title =
        switch response.actionID {
        case defaultActionIdentifier: "Open"
        case dismissActionIdentifier: "Dismiss"
        default:
          profile.app(notification.bundleID)?.category(notification.category)?.actions.first {
            $0.identifier == response.actionID
          }?.title ?? response.actionID
        }
      let invocation = ActionInvocation(
        id: index + 1, notification: response.id, bundleID: notification.bundleID, categoryID: notification.category,
        actionID: response.actionID, actionTitle: title, text: response.text, payload: notification.rawPayload,
        targetContentID: notification.targetContentID)
      let route = registry.route(app: notification.bundleID, category: notification.category, action: response.actionID)
      let outcome = waitFor { await registry.perform(invocation) }
      ran[response.id, default: []].append(
        HandlerRun(action: response.actionID, handler: route?.summary, outcome: outcome))
    }
    return ran
  }
}

/// One response a scenario made, as its handler answered.
public struct HandlerRun: Sendable {
  public var action: String
  /// The route's summary; nil when no binding covers it.
  public var handler: String?
  public var outcome: ActionOutcome

  /// `succeeded`, `failed` or `unhandled`.
  public var outcomeName: String {
    switch outcome {
    case .succeeded: "succeeded"
    case .failed: "failed"
    case .unhandled: "unhandled"
    }
  }

  /// The handler's message, if any.
  public var message: String? {
    switch outcome {
    case .succeeded(let message): message
    case .failed(let message): message
    case .unhandled(let message): message
    }
  }

  /// `succeeded: Shop: order 1234 cancelled`.
  public var outcomeText: String { outcomeName + (message.map { ": " + $0 } ?? "") }
}

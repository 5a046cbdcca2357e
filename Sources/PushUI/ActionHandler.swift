import PushCore

/// The user's choice of a notification action, handed to an ``ActionHandler``.
public struct ActionInvocation: Equatable, Sendable, Identifiable {
  /// A counter value from the state, unique within a run.
  public var id: Int
  /// The notification acted on.
  public var notification: NotificationID
  /// The app that sent it.
  public var bundleID: String
  /// The notification's category, if any.
  public var categoryID: String?
  /// The action's identifier (`UNNotificationAction.identifier`).
  public var actionID: String
  /// The action's title as shown.
  public var actionTitle: String
  /// The text typed for a text-input action.
  public var text: String?
  /// The raw payload, as the app's `userInfo`.
  public var payload: String
  /// The notification's `aps.target-content-id`, as the device decoded it.
  public var targetContentID: String?

  /// Creates an invocation.
  public init(
    id: Int, notification: NotificationID, bundleID: String, categoryID: String?, actionID: String,
    actionTitle: String, text: String?, payload: String, targetContentID: String? = nil
  ) {
    self.id = id
    self.notification = notification
    self.bundleID = bundleID
    self.categoryID = categoryID
    self.actionID = actionID
    self.actionTitle = actionTitle
    self.text = text
    self.payload = payload
    self.targetContentID = targetContentID
  }
}

/// How an action ended, as its handler reports it.
public enum ActionOutcome: Equatable, Sendable {
  /// The handler did the work; an optional message for the toast.
  case succeeded(String?)
  /// The handler failed, with a message.
  case failed(String)
  /// No handler is bound for this response: information for the toast, not a failure.
  case unhandled(String?)
}

/// Performs notification actions: the plug-in point the runtime forwards chosen actions to.
public protocol ActionHandler: Sendable {
  /// Performs the user's chosen action and reports how it ended.
  func perform(_ invocation: ActionInvocation) async -> ActionOutcome
}

/// Why the user cannot pick an action on a notification: iOS offers a notification only the
/// actions of its category, and only when the app registered that category (reference §4.5:
/// "actions only appear for a valid registered category"); a reply needs a text-input action.
///
/// One rule for the scenario loader, which reports what it can know before playing as a located
/// error, and for the device, which refuses what it finds at play time
/// (``DeviceSimulator/refusedResponses``).
public enum ResponseProblem: Equatable, Sendable {
  /// The notification names no category, so it shows no actions.
  case noCategory
  /// The app registers no category of this identifier.
  case unregisteredCategory(String)
  /// The category has no action of this identifier.
  case noSuchAction(category: String, action: String)
  /// A reply, and the category has no text-input action.
  case noTextInputAction(category: String)
  /// A reply through an action that takes no text.
  case notTextInput(category: String, action: String)

  /// What stands in the way of picking `actionID` on a notification of category `categoryID`
  /// from `app` (nil when the app is not installed), with typed text when `isReply`; nil when
  /// the user can pick it.
  public static func check(category categoryID: String?, of app: AppProfile?, actionID: String, isReply: Bool)
    -> ResponseProblem?
  {
    guard let categoryID else { return .noCategory }
    guard let category = app?.category(categoryID) else { return .unregisteredCategory(categoryID) }
    if isReply && !category.actions.contains(where: \.isTextInput) { return .noTextInputAction(category: categoryID) }
    guard let action = category.actions.first(where: { $0.identifier == actionID }) else {
      return .noSuchAction(category: categoryID, action: actionID)
    }
    if isReply && !action.isTextInput { return .notTextInput(category: categoryID, action: actionID) }
    return nil
  }

  /// Why, in a few words: `category ORDER has no action NOPE`.
  public var reason: String {
    switch self {
    case .noCategory: "the notification has no category"
    case .unregisteredCategory(let category): "the app registers no category \(category)"
    case .noSuchAction(let category, let action): "category \(category) has no action \(action)"
    case .noTextInputAction(let category): "category \(category) has no text-input action"
    case .notTextInput(let category, let action): "action \(action) of category \(category) takes no text input"
    }
  }
}

/// A response a timeline asked for that the notification does not offer: the device did
/// nothing (the notification stays, the app hears nothing, no handler runs).
public struct RefusedResponse: Equatable, Sendable {
  /// The notification it was aimed at.
  public var id: NotificationID
  /// The action asked for (`reply` for a reply without an action when the category has no
  /// text-input action).
  public var actionID: String
  /// The typed text of a reply.
  public var text: String?
  /// Why it was not possible.
  public var problem: ResponseProblem
  /// When it was asked for.
  public var at: SimInstant

  public init(id: NotificationID, actionID: String, text: String?, problem: ResponseProblem, at: SimInstant) {
    self.id = id
    self.actionID = actionID
    self.text = text
    self.problem = problem
    self.at = at
  }

  /// Why, in a few words (``ResponseProblem/reason``).
  public var reason: String { problem.reason }
}

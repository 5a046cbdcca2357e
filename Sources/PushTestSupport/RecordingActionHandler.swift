import PushUI
import Synchronization

/// An action handler for tests: records every invocation and answers with a fixed outcome.
public final class RecordingActionHandler: ActionHandler {
  private let recorded = Mutex<[ActionInvocation]>([])
  private let outcome: ActionOutcome

  /// Creates a handler that answers every invocation with `outcome`.
  public init(outcome: ActionOutcome) { self.outcome = outcome }

  /// The invocations received so far, in order.
  public var invocations: [ActionInvocation] { recorded.withLock { $0 } }

  /// Records the invocation and returns the fixed outcome.
  public func perform(_ invocation: ActionInvocation) async -> ActionOutcome {
    recorded.withLock { $0.append(invocation) }
    return outcome
  }
}

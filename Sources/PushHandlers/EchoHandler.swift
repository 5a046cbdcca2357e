import Foundation
import PushUI

/// The `echo` handler: answers at once with a fixed message, running nothing.
///
/// The message may contain `{text}` (what the user typed, empty when nothing was) and
/// `{action}` (the action's title). Without a message the answer is `sent “…”` for a text
/// reply and `<action title> done` otherwise. Typed text is untrusted: the toast shows it after
/// the front end removes control characters, as it does for every handler's answer.
struct EchoHandler: ActionHandler {
  var message: String?

  func perform(_ invocation: ActionInvocation) async -> ActionOutcome {
    guard let message else {
      if let text = invocation.text { return .succeeded("sent “\(text)”") }
      return .succeeded(nil)
    }
    return .succeeded(
      message.replacingOccurrences(of: "{text}", with: invocation.text ?? "")
        .replacingOccurrences(of: "{action}", with: invocation.actionTitle))
  }
}

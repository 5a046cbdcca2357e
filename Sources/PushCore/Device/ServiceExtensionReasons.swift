import PushWire

extension DeliveryPolicy {
  /// Whether the app's Notification Service Extension runs for this push: `mutable-content: 1`,
  /// an alert with a title, subtitle or body, and an app that ships an extension.
  public static func runsServiceExtension(_ notification: PushNotification, app: AppProfile) -> Bool {
    notification.isMutableContent && notification.hasVisibleContent && app.hasServiceExtension
  }
}

/// The reasons `explain` gives for a service extension's run: its outcome and timing, then
/// what it noted and which attachments the device refused.
public enum ServiceExtensionReasons {
  /// The reasons for one result.
  public static func reasons(for result: ServiceExtensionResult) -> [Reason] {
    let timing = "\(elapsed(result.elapsedSeconds)) of its \(seconds(result.budgetSeconds)) budget"
    var reasons: [Reason]
    switch result.outcome {
    case .modified:
      reasons = [
        Reason(
          .serviceExtensionModified,
          "The service extension (\(result.name)) handed back \(result.content == nil ? "nothing" : "its content") \(timing)."
        )
      ]
    case .expired(let bestAttempt):
      reasons = [
        Reason(
          .serviceExtensionExpired,
          bestAttempt
            ? "The service extension (\(result.name)) ran out of its \(seconds(result.budgetSeconds)) budget: serviceExtensionTimeWillExpire delivered its best attempt."
            : "The service extension (\(result.name)) ran out of its \(seconds(result.budgetSeconds)) budget with no best attempt: the original content is shown."
        )
      ]
    case .failed(let message):
      reasons = [
        Reason(
          .serviceExtensionFailed,
          "The service extension (\(result.name)) failed \(timing): \(message); the original content is shown.")
      ]
    }
    reasons += result.notes.map { Reason(.serviceExtensionModified, $0) }
    for attachment in result.content?.attachments ?? [] {
      reasons.append(
        Reason(
          .serviceExtensionModified,
          "Attached \(JSONValue.quoted(attachment.identifier)): a \(attachment.type) \(attachment.kind.rawValue) of \(attachment.byteCount) bytes."
        ))
    }
    reasons += result.refusedAttachments.map { Reason(.attachmentRefused, $0) }
    return reasons
  }

  /// How long a run took, coarse enough that the same scenario explains the same way twice (the
  /// milliseconds of a real process differ from run to run, and `explain` in CI is diffed
  /// against what it said before): `in under a second`, else `after about 2 s`.
  static func elapsed(_ value: Double) -> String {
    value < 1 ? "in under a second" : "after about \(Int64(value.rounded())) s"
  }

  /// `12 ms` under a second; `30 s`, `1.5 s`: tenths of a second, trailing zero dropped.
  public static func seconds(_ value: Double) -> String {
    if value > 0 && value < 1 { return "\(max(1, Int64((value * 1000).rounded()))) ms" }
    let tenths = Int64((max(0, value) * 10).rounded())
    return tenths % 10 == 0 ? "\(tenths / 10) s" : "\(tenths / 10).\(tenths % 10) s"
  }
}

import PushWire

/// A push record with its notification made ahead, off the device's thread.
///
/// Making a ``PushNotification`` from a record (texts, level, sound, headers) is the same on
/// every device, except for a localised alert, which needs the app's strings, and the id and
/// arrival time the device hands out. A replay makes it on the threads that decode the capture,
/// sparing the thread that runs the device, the pipeline's slowest stage; the device takes it
/// out (a move, not a copy) and fills in the rest. See
/// ``DeviceSimulator/apply(push:sender:at:)-(inout PreparedPush,_,_)``.
public struct PreparedPush: Sendable {
  /// The record, as decoded.
  public var record: PushRecord
  /// The notification made ahead (id 0, received at the epoch); nil when the record is not
  /// valid or its alert is localised: the device then makes it itself.
  var notification: PushNotification?

  /// Makes the notification of a valid, unlocalised record ahead.
  public init(_ record: consuming PushRecord) {
    if record.isValid, !Self.isLocalized(record.payload?.aps.alert) {
      notification = PushNotification(
        record: record, id: NotificationID(0), receivedAt: SimInstant(milliseconds: 0),
        app: nil)
    }
    self.record = record
  }

  /// Whether an alert names a localisation key (the app's strings resolve its text).
  static func isLocalized(_ alert: Alert?) -> Bool {
    guard case .dictionary(let alert)? = alert else { return false }
    return alert.titleLocKey != nil || alert.subtitleLocKey != nil || alert.locKey != nil
  }
}

import PushCore

/// A push that `run --listen`'s endpoint refused (a bad token, topic or header, a payload APNs
/// would not take): it never reached the device, and it is kept with what was sent, for the
/// inspector (`r`), as a rejected line of a capture is.
public struct EndpointRefusal: Equatable, Sendable {
  /// A header as sent.
  public struct Header: Equatable, Sendable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
      self.name = name
      self.value = value
    }
  }

  /// When it was refused, on the simulated clock (set when the front end takes it).
  public var at = SimInstant(epochSeconds: 0)
  /// How many pushes the device had rejected before it: its place among them, which a seek
  /// back (replaying the same rejections) keeps.
  var afterRejections = 0
  /// The HTTP status and the APNs reason answered.
  public var status: Int
  public var reason: String
  /// Why, beyond the reason, if the endpoint said.
  public var detail: String?
  /// The app the topic names, if any.
  public var app: String?
  public var method: String
  public var path: String
  public var headers: [Header]
  /// The body's first bytes as sent (at most the endpoint's limit), as text: bytes that are not
  /// UTF-8 as `\xFF`.
  public var body: String
  /// How many of the body's bytes are kept in ``body``.
  public var keptBodyBytes: Int
  /// The body's full length in bytes.
  public var bodyByteCount: Int

  public init(
    status: Int, reason: String, detail: String? = nil, app: String? = nil, method: String = "POST",
    path: String = "", headers: [Header] = [], body: String = "", keptBodyBytes: Int? = nil, bodyByteCount: Int = 0
  ) {
    self.status = status
    self.reason = reason
    self.detail = detail
    self.app = app
    self.method = method
    self.path = path
    self.headers = headers
    self.body = body
    self.keptBodyBytes = keptBodyBytes ?? body.utf8.count
    self.bodyByteCount = bodyByteCount
  }
}

/// A rejected push the inspector can show: a delivery record the device rejected, by its
/// index, or a refusal of the endpoint, by its number (the first is 0).
public enum RejectedPush: Hashable, Sendable {
  case record(Int)
  case refusal(Int)
}

extension AppState {
  /// The most endpoint refusals kept for the inspector (each holds up to 4 KiB of body).
  public static let refusalLimit = 500

  /// A push the endpoint refused: counted, kept for the inspector and said in a toast. It
  /// never reached the device, so it survives a seek back, which replays the device.
  public mutating func noteEndpointRefusal(_ refusal: EndpointRefusal) {
    var refusal = refusal
    refusal.at = now
    refusal.afterRejections = rejectedCount
    refusedCount += 1
    endpointRefusals.append(refusal)
    if endpointRefusals.count > Self.refusalLimit {
      let dropped = endpointRefusals.count - Self.refusalLimit / 2
      endpointRefusals.removeFirst(dropped)
      droppedRefusals += dropped
    }
    guard !hasFreshToast else { return }
    showToast(
      "✗ Refused on the endpoint: \(refusal.status) \(refusal.reason)" + (refusal.app.map { " (\($0))" } ?? "")
        + " · r inspects")
  }

  /// Counts refusals that came in a flood too fast to be kept (the newest are).
  public mutating func countEndpointRefusals(notKept count: Int) {
    refusedCount += max(0, count)
  }

  /// Refusal number `number`, while it is kept.
  public func endpointRefusal(_ number: Int) -> EndpointRefusal? {
    let offset = number - droppedRefusals
    return endpointRefusals.indices.contains(offset) ? endpointRefusals[offset] : nil
  }

  /// Every rejected push still kept, oldest first: the device's rejections and the endpoint's
  /// refusals in the order they happened.
  public var rejectedPushes: [RejectedPush] {
    // The device's rejections kept are its newest; each one's place among all of them.
    let firstOrdinal = rejectedCount - rejections.count
    var merged: [RejectedPush] = []
    merged.reserveCapacity(rejections.count + endpointRefusals.count)
    var next = endpointRefusals.startIndex
    for (position, index) in rejections.enumerated() {
      while next < endpointRefusals.endIndex, endpointRefusals[next].afterRejections <= firstOrdinal + position {
        merged.append(.refusal(droppedRefusals + next))
        next += 1
      }
      if rejectedRecord(index) != nil { merged.append(.record(index)) }
    }
    for rest in next..<endpointRefusals.endIndex { merged.append(.refusal(droppedRefusals + rest)) }
    return merged
  }
}

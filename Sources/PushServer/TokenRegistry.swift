import PushWire

/// The device tokens the endpoint knows (a profile's `apns.tokens`), and what APNs answers for
/// a push to each: unknown tokens are `BadDeviceToken` (unless any token is accepted), a token
/// of another app is `DeviceTokenNotForTopic`, an inactive one `Unregistered` or `ExpiredToken`.
public struct TokenRegistry: Sendable {
  let devices: [String: APNsEndpointProfile.Device]
  /// Whether tokens the registry does not list are accepted (`--accept-any-token`).
  public let acceptsUnknownTokens: Bool

  public init(devices: [APNsEndpointProfile.Device], acceptsUnknownTokens: Bool = false) {
    self.devices = Dictionary(devices.map { ($0.token, $0) }, uniquingKeysWith: { first, _ in first })
    self.acceptsUnknownTokens = acceptsUnknownTokens
  }

  /// The answer for a push to `token` for the app `bundleID`; nil when it is delivered.
  public func check(token: String, bundleID: String) -> APNsOutcome? {
    guard let device = devices[token.lowercased()] else {
      if acceptsUnknownTokens { return nil }
      return .rejected(
        status: 400, reason: "BadDeviceToken", detail: "the token is not in the profile's apns.tokens")
    }
    guard device.bundleID == bundleID else {
      return .rejected(
        status: 400, reason: "DeviceTokenNotForTopic", detail: "the token belongs to \(device.bundleID)")
    }
    switch device.state {
    case .active: return nil
    case .unregistered(let since):
      return .rejected(status: 410, reason: "Unregistered", timestamp: since, detail: "the app was unregistered")
    case .expired:
      return .rejected(status: 410, reason: "ExpiredToken", detail: "the token expired")
    }
  }
}

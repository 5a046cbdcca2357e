/// What the APNs endpoint knows beyond the request: which device tokens exist, for which app and
/// in what state, and which provider-token signing keys it trusts. Read from a profile's `apns:`
/// section (see docs/SCENARIOS.md) and given to the endpoint; plain data.
public struct APNsEndpointProfile: Sendable, Equatable {
  /// One device token the endpoint knows.
  public struct Device: Sendable, Equatable {
    /// The token as lowercase hex.
    public var token: String
    /// The app the token was issued to (the topic's bundle id).
    public var bundleID: String
    /// Whether the token still works.
    public var state: TokenState

    public init(token: String, bundleID: String, state: TokenState = .active) {
      self.token = token.lowercased()
      self.bundleID = bundleID
      self.state = state
    }
  }

  /// The state of a device token, as APNs reports it.
  public enum TokenState: Sendable, Equatable {
    /// Pushes are accepted.
    case active
    /// The app was removed or its token is no longer valid for the topic: 410 `Unregistered`,
    /// with the time APNs learned it, in milliseconds since 1970.
    case unregistered(sinceMilliseconds: Int64)
    /// The token expired: 410 `ExpiredToken`.
    case expired
  }

  /// A provider-token signing key: an Apple `.p8` file (PKCS#8 PEM), with the ids JWTs name.
  public struct ProviderKey: Sendable, Equatable {
    /// The 10-character Key ID (the JWT header's `kid`).
    public var keyID: String
    /// The 10-character Team ID (the JWT claims' `iss`).
    public var teamID: String
    /// Where the key came from, for messages.
    public var path: String
    /// The PEM text.
    public var pem: String

    public init(keyID: String, teamID: String, path: String, pem: String) {
      self.keyID = keyID
      self.teamID = teamID
      self.path = path
      self.pem = pem
    }

    /// The Key ID in an Apple key file's name, `AuthKey_<KEYID>.p8`, nil for other names.
    public static func keyID(fromFileName path: String) -> String? {
      let name = path.split(separator: "/").last.map(String.init) ?? path
      guard name.hasPrefix("AuthKey_"), name.hasSuffix(".p8") else { return nil }
      let id = name.dropFirst("AuthKey_".count).dropLast(".p8".count)
      return id.isEmpty ? nil : String(id)
    }
  }

  /// The known device tokens; nil when the profile has no `tokens:` (any token is accepted).
  public var devices: [Device]?
  /// The trusted signing keys; provider tokens are required when there is at least one.
  public var keys: [ProviderKey]
  /// The FCM project the tokens are registered to (`fcm: {project: ID}`); a send to another
  /// project is 403 `SENDER_ID_MISMATCH`. nil: any project.
  public var fcmProject: String?

  public init(devices: [Device]? = nil, keys: [ProviderKey] = [], fcmProject: String? = nil) {
    self.devices = devices
    self.keys = keys
    self.fcmProject = fcmProject
  }
}

/// Which Notification Service Extension an app ships, as its profile describes it.
public enum ServiceExtensionKind: Equatable, Sendable {
  /// `serviceExtension: true`: an extension that hands the content back unchanged.
  case passThrough
  /// `attach-media`: fetches `file://`, `http://` or `https://` URLs found in these payload keys
  /// and attaches them.
  case attachMedia(keys: [String])
  /// `decrypt`: AES-GCM with this key (16, 24 or 32 bytes) over the payload key holding
  /// base64(nonce | ciphertext | tag); the placeholder body shows when decryption fails.
  case decrypt(key: [UInt8], payloadKey: String, placeholder: String)
  /// `exec`: a program (argv, never a shell) reads the content JSON on stdin and prints the
  /// modified content JSON.
  case exec(argv: [String])

  /// The name as written in profiles.
  public var name: String {
    switch self {
    case .passThrough: "pass-through"
    case .attachMedia: "attach-media"
    case .decrypt: "decrypt"
    case .exec: "exec"
    }
  }

  /// The names a profile may give.
  public static let names = ["attach-media", "decrypt", "exec"]
}

/// An app's service extension: what runs and its time budget.
public struct ServiceExtensionConfig: Equatable, Sendable {
  public var kind: ServiceExtensionKind
  /// Simulated seconds before `serviceExtensionTimeWillExpire` (iOS: about 30).
  public var budgetSeconds: Double

  /// The budget when the profile gives none.
  public static let defaultBudgetSeconds = 30.0

  /// Creates a configuration.
  public init(kind: ServiceExtensionKind, budgetSeconds: Double = ServiceExtensionConfig.defaultBudgetSeconds) {
    self.kind = kind
    self.budgetSeconds = budgetSeconds
  }
}

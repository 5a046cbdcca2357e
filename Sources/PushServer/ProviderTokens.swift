import Crypto
import Foundation
import PushWire
import Synchronization

/// A trusted provider-token signing key, ready to verify ES256 signatures.
public struct ProviderTokenKey: Sendable {
  /// The Key ID JWTs name in `kid`.
  public let keyID: String
  /// The Team ID JWTs name in `iss`.
  public let teamID: String
  let publicKey: P256.Signing.PublicKey

  /// Reads a key: Apple's `.p8` (a PKCS#8 `PRIVATE KEY` PEM), an `EC PRIVATE KEY` PEM, or the
  /// `PUBLIC KEY` PEM of one (a server needs only the public half).
  public init(_ key: APNsEndpointProfile.ProviderKey) throws(ProviderKeyError) {
    keyID = key.keyID
    teamID = key.teamID
    if let privateKey = try? P256.Signing.PrivateKey(pemRepresentation: key.pem) {
      publicKey = privateKey.publicKey
    } else if let publicKey = try? P256.Signing.PublicKey(pemRepresentation: key.pem) {
      self.publicKey = publicKey
    } else {
      throw ProviderKeyError(
        path: key.path,
        message:
          "not a P-256 key in PEM; expected the .p8 file Apple gives (it starts with -----BEGIN PRIVATE KEY-----) or its public key"
      )
    }
  }

  /// A key from a private key held in memory (for tests and `pushdeck push`).
  public init(keyID: String, teamID: String, publicKey: P256.Signing.PublicKey) {
    self.keyID = keyID
    self.teamID = teamID
    self.publicKey = publicKey
  }
}

/// A key file that could not be used.
public struct ProviderKeyError: Error, CustomStringConvertible, Sendable {
  public var path: String
  public var message: String
  public var description: String { "\(path): \(message)" }
}

/// A provider token that verified: who signed it and when.
public struct VerifiedProviderToken: Sendable, Equatable {
  public var keyID: String
  public var teamID: String
  /// `iat`, seconds since 1970.
  public var issuedAt: Double

  public init(keyID: String, teamID: String, issuedAt: Double) {
    self.keyID = keyID
    self.teamID = teamID
    self.issuedAt = issuedAt
  }
}

/// Verifies `authorization: bearer <jwt>` headers against the trusted keys, as APNs does:
/// ES256 only, `kid` naming a known key, `iss` its team, `iat` no older than an hour.
public struct ProviderTokenVerifier: Sendable {
  /// A token is refused as expired once `iat` is older than this (seconds).
  public static let lifetime: Double = 3600
  /// A new token on a connection sooner than this after the previous one is refused (seconds).
  public static let minimumRefreshInterval: Double = 1200
  /// How far in the future `iat` may be before the token is refused as invalid (clock skew).
  public static let allowedClockSkew: Double = 300

  let keys: [String: ProviderTokenKey]

  public init(keys: [ProviderTokenKey]) {
    self.keys = Dictionary(keys.map { ($0.keyID, $0) }, uniquingKeysWith: { first, _ in first })
  }

  /// Why a token was refused: the APNs status and reason, and a detail for the log.
  public struct Refusal: Error, Sendable, Equatable {
    public var status: Int
    public var reason: String
    public var detail: String

    static func invalid(_ detail: String) -> Refusal {
      Refusal(status: 403, reason: "InvalidProviderToken", detail: detail)
    }
  }

  /// Checks one `authorization` header value at `now` (seconds since 1970).
  public func verify(authorization: String?, now: Double) -> Result<VerifiedProviderToken, Refusal> {
    guard let authorization, !authorization.trimmingCharacters(in: .whitespaces).isEmpty else {
      return .failure(Refusal(status: 403, reason: "MissingProviderToken", detail: "no authorization header"))
    }
    let parts = authorization.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
    guard parts.count == 2, parts[0].lowercased() == "bearer" else {
      return .failure(.invalid("the authorization header is not \"bearer <JWT>\""))
    }
    let jwt = parts[1].trimmingCharacters(in: .whitespaces)
    let sections = jwt.split(separator: ".", omittingEmptySubsequences: false)
    guard sections.count == 3, let headerData = Self.base64URLDecode(sections[0]),
      let claimsData = Self.base64URLDecode(sections[1]), let signatureData = Self.base64URLDecode(sections[2]),
      let header = try? JSONDocument(bytes: Array(headerData)), header.kind(header.root) == .object,
      let claims = try? JSONDocument(bytes: Array(claimsData)), claims.kind(claims.root) == .object
    else {
      return .failure(.invalid("not a JWT (three base64url parts: header, claims, signature)"))
    }
    // A member's string, or its JSON text when it is not a string; nil when absent.
    func text(_ key: String, in document: JSONDocument) -> String? {
      document.member(key, of: document.root).map { document.stringValue($0) ?? document.rawText($0) }
    }
    func string(_ key: String, in document: JSONDocument) -> String? {
      document.member(key, of: document.root).flatMap { document.stringValue($0) }
    }
    guard string("alg", in: header) == "ES256" else {
      return .failure(.invalid("alg is \(text("alg", in: header) ?? "missing"); APNs takes ES256 only"))
    }
    guard let keyID = string("kid", in: header) else { return .failure(.invalid("no kid in the JWT header")) }
    guard let key = keys[keyID] else { return .failure(.invalid("kid \(keyID) is not a configured key")) }
    guard let issuer = string("iss", in: claims), issuer == key.teamID else {
      return .failure(
        .invalid("iss is \(text("iss", in: claims) ?? "missing"); key \(keyID) is team \(key.teamID)"))
    }
    guard let iatIndex = claims.member("iat", of: claims.root), let issuedAt = claims.double(iatIndex) else {
      return .failure(.invalid("no numeric iat claim"))
    }
    let issuedAtNumber = claims.rawText(iatIndex)
    guard let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signatureData),
      key.publicKey.isValidSignature(signature, for: Data((sections[0] + "." + sections[1]).utf8))
    else {
      return .failure(.invalid("the ES256 signature does not verify with key \(keyID)"))
    }
    guard EpochRange.contains(seconds: issuedAt) else {
      return .failure(.invalid("iat \(issuedAtNumber) is outside \(EpochRange.text)"))
    }
    if issuedAt > now + Self.allowedClockSkew {
      return .failure(.invalid("iat is \(Int(issuedAt - now)) s in the future"))
    }
    if now - issuedAt > Self.lifetime {
      return .failure(
        Refusal(
          status: 403, reason: "ExpiredProviderToken",
          detail: "iat is \(Int(now - issuedAt)) s old; tokens last \(Int(Self.lifetime)) s"))
    }
    return .success(VerifiedProviderToken(keyID: keyID, teamID: key.teamID, issuedAt: issuedAt))
  }

  static func base64URLDecode(_ text: Substring) -> Data? {
    var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    guard !base64.contains("=") else { return nil }
    base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
    return Data(base64Encoded: base64)
  }
}

/// The provider-token state of one connection: the token in use, when it was adopted, and the
/// refresh rule (a new token no sooner than 20 minutes after the previous one).
///
/// Used on the connection's event loop (every stream of a connection runs there); the state is
/// behind a lock all the same, so the compiler can check the sharing.
public final class ProviderTokenSession: Sendable {
  private struct Current {
    var token: String
    var issuedAt: Double
    var adoptedAt: Double
  }

  private let verifier: ProviderTokenVerifier
  private let current = Mutex<Current?>(nil)

  public init(verifier: ProviderTokenVerifier) { self.verifier = verifier }

  /// Checks a request's `authorization` at `now`; nil when it may go on.
  public func check(authorization: String?, now: Double) -> ProviderTokenVerifier.Refusal? {
    current.withLock { current in
      if let current, let authorization, current.token == authorization {
        // Verified already on this connection; it still expires.
        if now - current.issuedAt > ProviderTokenVerifier.lifetime {
          return ProviderTokenVerifier.Refusal(
            status: 403, reason: "ExpiredProviderToken",
            detail:
              "iat is \(Int(now - current.issuedAt)) s old; tokens last \(Int(ProviderTokenVerifier.lifetime)) s")
        }
        return nil
      }
      switch verifier.verify(authorization: authorization, now: now) {
      case .failure(let refusal):
        return refusal
      case .success(let token):
        if let current, now - current.adoptedAt < ProviderTokenVerifier.minimumRefreshInterval {
          return ProviderTokenVerifier.Refusal(
            status: 429, reason: "TooManyProviderTokenUpdates",
            detail:
              "a new token \(Int(now - current.adoptedAt)) s after the previous one on this connection; refresh no more than every 20 minutes"
          )
        }
        current = Current(token: authorization ?? "", issuedAt: token.issuedAt, adoptedAt: now)
        return nil
      }
    }
  }
}

/// Makes provider tokens: `bearer` JWTs signed with ES256, as a provider does (`pushdeck push`).
public enum ProviderTokenSigner {
  /// Signs a token for `keyID` and `teamID` issued at `issuedAt` (seconds since 1970).
  public static func token(
    privateKey: P256.Signing.PrivateKey, keyID: String, teamID: String, issuedAt: Double
  ) throws -> String {
    var header = JSONWriter()
    header.object {
      $0.member("alg", "ES256")
      $0.member("kid", keyID)
    }
    var claims = JSONWriter()
    claims.object {
      $0.member("iss", teamID)
      // Whole seconds as an integer; any other number (a test's 1e20) as Swift writes it, never a trap.
      $0.key("iat")
      if let seconds = Int64(exactly: issuedAt.rounded(.towardZero)) {
        $0.integer(seconds)
      } else {
        $0.number(issuedAt)
      }
    }
    let input = base64URL(Data(header.bytes)) + "." + base64URL(Data(claims.bytes))
    let signature = try privateKey.signature(for: Data(input.utf8))
    return input + "." + base64URL(signature.rawRepresentation)
  }

  /// Reads a `.p8` (PKCS#8) or `EC PRIVATE KEY` PEM.
  public static func privateKey(pem: String, path: String) throws(ProviderKeyError) -> P256.Signing.PrivateKey {
    do {
      return try P256.Signing.PrivateKey(pemRepresentation: pem)
    } catch {
      throw ProviderKeyError(
        path: path,
        message:
          "not a P-256 private key in PEM; expected the .p8 file Apple gives (it starts with -----BEGIN PRIVATE KEY-----)"
      )
    }
  }

  static func base64URL(_ data: Data) -> String {
    data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
      .replacingOccurrences(of: "=", with: "")
  }
}

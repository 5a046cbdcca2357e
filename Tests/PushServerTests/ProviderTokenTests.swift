import Crypto
import Foundation
import PushServer
import PushWire
import Testing

/// Provider tokens: ES256 JWTs checked as APNs checks them, and the per-connection refresh rule.
struct ProviderTokenTests {
  static let privateKey = P256.Signing.PrivateKey()
  static let keyID = "ABC123DEFG"
  static let teamID = "DEF123GHIJ"
  static let now = 1_795_426_860.0

  static var verifier: ProviderTokenVerifier {
    ProviderTokenVerifier(keys: [
      ProviderTokenKey(keyID: keyID, teamID: teamID, publicKey: privateKey.publicKey)
    ])
  }

  static func bearer(
    key: P256.Signing.PrivateKey = privateKey, keyID: String = keyID, teamID: String = teamID,
    issuedAt: Double = now - 60
  ) throws -> String {
    "bearer " + (try ProviderTokenSigner.token(privateKey: key, keyID: keyID, teamID: teamID, issuedAt: issuedAt))
  }

  func reason(_ authorization: String?, now: Double = Self.now) -> String? {
    switch Self.verifier.verify(authorization: authorization, now: now) {
    case .success: nil
    case .failure(let refusal): refusal.reason
    }
  }

  @Test func aFreshSignedTokenVerifies() throws {
    let result = Self.verifier.verify(authorization: try Self.bearer(), now: Self.now)
    #expect(
      try result.get() == VerifiedProviderToken(keyID: Self.keyID, teamID: Self.teamID, issuedAt: Self.now - 60))
    #expect(reason("Bearer " + (try Self.bearer()).dropFirst(7)) == nil)
  }

  @Test func missingHeaderIsMissingProviderToken() {
    #expect(reason(nil) == "MissingProviderToken")
    #expect(reason("  ") == "MissingProviderToken")
  }

  @Test func malformedTokensAreInvalid() throws {
    #expect(reason("Basic dXNlcjpwYXNz") == "InvalidProviderToken")
    #expect(reason("bearer not-a-jwt") == "InvalidProviderToken")
    #expect(reason("bearer a.b.c") == "InvalidProviderToken")
    // Signed by another key, an unknown kid, the wrong team.
    #expect(reason(try Self.bearer(key: P256.Signing.PrivateKey())) == "InvalidProviderToken")
    #expect(reason(try Self.bearer(keyID: "ZZZ123ZZZZ")) == "InvalidProviderToken")
    #expect(reason(try Self.bearer(teamID: "OTHERTEAM1")) == "InvalidProviderToken")
    // A tampered claim breaks the signature.
    let token = try Self.bearer()
    let parts = token.dropFirst(7).split(separator: ".")
    let claims = Data("{\"iss\":\"\(Self.teamID)\",\"iat\":\(Int(Self.now))}".utf8).base64EncodedString()
      .replacingOccurrences(of: "=", with: "")
    #expect(reason("bearer \(parts[0]).\(claims).\(parts[2])") == "InvalidProviderToken")
  }

  @Test func onlyES256IsAccepted() throws {
    let token = try Self.bearer().dropFirst(7).split(separator: ".")
    let header = Data("{\"alg\":\"HS256\",\"kid\":\"\(Self.keyID)\"}".utf8).base64EncodedString()
      .replacingOccurrences(of: "=", with: "")
    let failure = Self.verifier.verify(authorization: "bearer \(header).\(token[1]).\(token[2])", now: Self.now)
    guard case .failure(let refusal) = failure else {
      Issue.record("an HS256 token verified")
      return
    }
    #expect(refusal.reason == "InvalidProviderToken")
    #expect(refusal.detail.contains("ES256"))
  }

  @Test func tokensOlderThanAnHourAreExpired() throws {
    #expect(reason(try Self.bearer(issuedAt: Self.now - 3599)) == nil)
    #expect(reason(try Self.bearer(issuedAt: Self.now - 3601)) == "ExpiredProviderToken")
    #expect(reason(try Self.bearer(issuedAt: Self.now + 3600)) == "InvalidProviderToken")
  }

  @Test func aConnectionRefusesANewTokenWithinTwentyMinutes() throws {
    let session = ProviderTokenSession(verifier: Self.verifier)
    let first = try Self.bearer(issuedAt: Self.now - 10)
    #expect(session.check(authorization: first, now: Self.now) == nil)
    #expect(session.check(authorization: first, now: Self.now + 600) == nil)
    let second = try Self.bearer(issuedAt: Self.now + 500)
    #expect(session.check(authorization: second, now: Self.now + 600)?.reason == "TooManyProviderTokenUpdates")
    #expect(session.check(authorization: second, now: Self.now + 600)?.status == 429)
    // The first token still works; after 20 minutes the new one is taken.
    #expect(session.check(authorization: first, now: Self.now + 700) == nil)
    #expect(session.check(authorization: second, now: Self.now + 1300) == nil)
    // The token in use still expires.
    #expect(session.check(authorization: second, now: Self.now + 500 + 3601)?.reason == "ExpiredProviderToken")
    // An invalid token does not replace the one in use.
    #expect(session.check(authorization: "bearer x.y.z", now: Self.now + 1400)?.reason == "InvalidProviderToken")
    #expect(session.check(authorization: nil, now: Self.now + 1400)?.reason == "MissingProviderToken")
  }

  @Test func keysAreReadFromP8AndPublicKeyPEM() throws {
    let p8 = APNsEndpointProfile.ProviderKey(
      keyID: Self.keyID, teamID: Self.teamID, path: "AuthKey_ABC123DEFG.p8", pem: Self.privateKey.pemRepresentation)
    #expect(Self.privateKey.pemRepresentation.hasPrefix("-----BEGIN PRIVATE KEY-----"))
    let fromP8 = try ProviderTokenKey(p8)
    let fromPublic = try ProviderTokenKey(
      .init(keyID: Self.keyID, teamID: Self.teamID, path: "key.pem", pem: Self.privateKey.publicKey.pemRepresentation))
    for key in [fromP8, fromPublic] {
      let verifier = ProviderTokenVerifier(keys: [key])
      #expect((try? verifier.verify(authorization: try Self.bearer(), now: Self.now).get()) != nil)
    }
    #expect(throws: ProviderKeyError.self) {
      try ProviderTokenKey(.init(keyID: "K", teamID: "T", path: "bad.p8", pem: "hello"))
    }
    #expect(APNsEndpointProfile.ProviderKey.keyID(fromFileName: "keys/AuthKey_ABC123DEFG.p8") == "ABC123DEFG")
    #expect(APNsEndpointProfile.ProviderKey.keyID(fromFileName: "key.p8") == nil)
  }

  @Test func registryAnswersForKnownAndUnknownTokens() {
    let active = String(repeating: "ab", count: 32)
    let gone = String(repeating: "cd", count: 32)
    let expired = String(repeating: "ef", count: 32)
    let devices: [APNsEndpointProfile.Device] = [
      .init(token: active.uppercased(), bundleID: "com.example.app"),
      .init(token: gone, bundleID: "com.example.app", state: .unregistered(sinceMilliseconds: 1_795_000_000_000)),
      .init(token: expired, bundleID: "com.example.app", state: .expired),
    ]
    let registry = TokenRegistry(devices: devices)
    #expect(registry.check(token: active, bundleID: "com.example.app") == nil)
    #expect(registry.check(token: active, bundleID: "com.example.other")?.reason == "DeviceTokenNotForTopic")
    #expect(
      registry.check(token: String(repeating: "12", count: 32), bundleID: "com.example.app")?.reason == "BadDeviceToken"
    )
    guard
      case .rejected(410, "Unregistered", let timestamp?, _) = registry.check(token: gone, bundleID: "com.example.app")
    else {
      Issue.record("not 410 Unregistered with a timestamp")
      return
    }
    #expect(timestamp == 1_795_000_000_000)
    #expect(registry.check(token: expired, bundleID: "com.example.app")?.status == 410)
    #expect(registry.check(token: expired, bundleID: "com.example.app")?.reason == "ExpiredToken")
    let lenient = TokenRegistry(devices: devices, acceptsUnknownTokens: true)
    #expect(lenient.check(token: String(repeating: "12", count: 32), bundleID: "com.example.app") == nil)
    #expect(lenient.check(token: gone, bundleID: "com.example.app")?.reason == "Unregistered")
    #expect(
      APNsRequest.errorBody(reason: "Unregistered", timestamp: 1_795_000_000_000)
        == #"{"reason":"Unregistered","timestamp":1795000000000}"#)
  }
}

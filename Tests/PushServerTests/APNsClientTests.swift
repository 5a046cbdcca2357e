import Crypto
import Foundation
import PushServer
import PushWire
import Testing

/// The HTTP/2 client behind `pushdeck push`, against the endpoint in-process: answers, reasons,
/// the 410 timestamp, and several pushes on one connection (the provider-token refresh rule).
struct APNsClientTests {
  static let token = String(repeating: "ab", count: 32)
  static let headers: [(name: String, value: String)] = [("apns-topic", "com.example.app")]
  static let body = Array(#"{"aps":{"alert":"Hi"}}"#.utf8)

  func withServer(
    _ configuration: APNsServer.Configuration = .init(port: 0), _ body: (APNsClient) async throws -> Void
  ) async throws {
    let server = try await APNsServer(configuration: configuration, threads: 1, sink: { _, _ in })
    let client: APNsClient
    do {
      client = try await APNsClient(host: "127.0.0.1", port: server.port)
    } catch {
      try await server.shutdown()
      throw error
    }
    do {
      try await body(client)
    } catch {
      await client.close()
      try await server.shutdown()
      throw error
    }
    await client.close()
    try await server.shutdown()
  }

  @Test func acceptedAndRejectedPushesOnOneConnection() async throws {
    try await withServer { client in
      let accepted = try await client.send(.init(token: Self.token, headers: Self.headers, body: Self.body))
      #expect(accepted.status == 200)
      #expect(APNsHeaders.isCanonicalUUID(accepted.apnsID ?? ""))
      #expect(accepted.uniqueID != nil)
      #expect(accepted.reason == nil)
      let id = "123e4567-e89b-12d3-a456-426614174000"
      let rejected = try await client.send(
        .init(token: Self.token, headers: Self.headers + [("apns-priority", "7"), ("apns-id", id)], body: Self.body))
      #expect(rejected.status == 400)
      #expect(rejected.reason == "BadPriority")
      #expect(rejected.apnsID == id)
      let empty = try await client.send(.init(token: Self.token, headers: Self.headers, body: []))
      #expect(empty.reason == "PayloadEmpty")
    }
  }

  @Test func unregisteredTokensAnswer410WithTheTimestamp() async throws {
    let registry = TokenRegistry(devices: [
      .init(token: Self.token, bundleID: "com.example.app", state: .unregistered(sinceMilliseconds: 1_795_168_800_000))
    ])
    try await withServer(.init(port: 0, registry: registry)) { client in
      let response = try await client.send(.init(token: Self.token, headers: Self.headers, body: Self.body))
      #expect(response.status == 410)
      #expect(response.reason == "Unregistered")
      #expect(response.timestamp == 1_795_168_800_000)
      let other = try await client.send(
        .init(token: String(repeating: "cd", count: 32), headers: Self.headers, body: Self.body))
      #expect(other.status == 400)
      #expect(other.reason == "BadDeviceToken")
    }
  }

  @Test func aSecondTokenOnOneConnectionIsTooManyProviderTokenUpdates() async throws {
    let key = P256.Signing.PrivateKey()
    let keys = [ProviderTokenKey(keyID: "ABC123DEFG", teamID: "DEF123GHIJ", publicKey: key.publicKey)]
    let now = Date().timeIntervalSince1970
    func bearer(_ issuedAt: Double) throws -> (name: String, value: String) {
      (
        "authorization",
        "bearer "
          + (try ProviderTokenSigner.token(
            privateKey: key, keyID: "ABC123DEFG", teamID: "DEF123GHIJ", issuedAt: issuedAt))
      )
    }
    let first = try bearer(now - 10)
    let second = try bearer(now - 5)
    try await withServer(.init(port: 0, providerKeys: keys)) { client in
      #expect(try await client.send(.init(token: Self.token, headers: Self.headers, body: Self.body)).status == 403)
      #expect(
        try await client.send(.init(token: Self.token, headers: Self.headers + [first], body: Self.body)).status == 200)
      #expect(
        try await client.send(.init(token: Self.token, headers: Self.headers + [first], body: Self.body)).status == 200)
      let refused = try await client.send(.init(token: Self.token, headers: Self.headers + [second], body: Self.body))
      #expect(refused.status == 429)
      #expect(refused.reason == "TooManyProviderTokenUpdates")
    }
    // A new connection may start with the new token.
    try await withServer(.init(port: 0, providerKeys: keys)) { client in
      let response = try await client.send(.init(token: Self.token, headers: Self.headers + [second], body: Self.body))
      #expect(response.status == 200)
    }
  }

  @Test func connectingToNothingIsAClearError() async throws {
    // Nothing listens on port 1 (a freed ephemeral port could be taken by a test running beside).
    let port = 1
    await #expect {
      _ = try await APNsClient(host: "127.0.0.1", port: port)
    } throws: { error in
      "\(error)" == "cannot connect to 127.0.0.1:\(port): connection refused"
    }
  }
}

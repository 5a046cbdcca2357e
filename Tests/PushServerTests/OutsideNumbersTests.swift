import Foundation
import PushServer
import PushWire
import Testing

/// Numbers from a request are checked against the simulated time (`EpochRange`) where they are
/// read, and answered with the APNs reason, never a trap.
struct OutsideNumbersTests {
  func decide(headers: [(name: String, value: String)]) -> APNsOutcome {
    let body = Array(#"{"aps":{"alert":"x"}}"#.utf8)
    return APNsRequest.decide(
      method: "POST", path: "/3/device/" + String(repeating: "ab", count: 32),
      headers: [(name: "apns-topic", value: "com.example.app")] + headers, body: body, bodyByteCount: body.count,
      receivedAt: 1_795_000_000)
  }

  /// Found on main: this expiration was answered 200 and then killed `serve` with SIGILL.
  @Test(arguments: ["9223372036854775", "253402300800", "99999999999999999", "-1", "1e10"])
  func anExpirationAPNsCannotUseIsBadExpirationDate(_ value: String) {
    let outcome = decide(headers: [(name: "apns-expiration", value: value)])
    #expect(outcome.status == 400)
    #expect(outcome.reason == "BadExpirationDate")
  }

  @Test(arguments: ["0", "1795000000", "253402300799"])
  func anExpirationInTheRangeIsAccepted(_ value: String) {
    #expect(decide(headers: [(name: "apns-expiration", value: value)]).status == 200)
  }

  /// A validly signed token whose `iat` is 1e20 trapped converting `iat - now` to Int.
  @Test(arguments: [1e20, -1e20, 253_402_300_800, -1])
  func aSignedTokenWithAnIssuedAtOutsideTheRangeIsInvalid(_ issuedAt: Double) throws {
    let result = ProviderTokenTests.verifier.verify(
      authorization: try ProviderTokenTests.bearer(issuedAt: issuedAt), now: ProviderTokenTests.now)
    guard case .failure(let refusal) = result else {
      Issue.record("accepted a token issued at \(issuedAt)")
      return
    }
    #expect(refusal.status == 403)
    #expect(refusal.reason == "InvalidProviderToken")
    #expect(refusal.detail.contains("iat"))
  }
}

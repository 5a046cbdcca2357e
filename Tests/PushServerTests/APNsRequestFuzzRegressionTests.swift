import Foundation
import PushWire
import Testing

@testable import PushServer

/// Inputs the `apnsrequest` fuzz target (Fuzz/APNsRequest, docs/RELIABILITY.md) found, kept
/// byte for byte, in the target's format: "METHOD PATH", header lines, an empty line, the body.
struct APNsRequestFuzzRegressionTests {
  /// Decides a request written in the fuzz target's format.
  static func decide(_ bytes: [UInt8]) -> APNsOutcome {
    let blank = bytes.indices.first { bytes[$0] == 0x0A && $0 + 1 < bytes.count && bytes[$0 + 1] == 0x0A }
    let head = blank.map { Array(bytes[..<$0]) } ?? bytes
    let body = blank.map { Array(bytes[($0 + 2)...]) } ?? []
    let lines = head.split(separator: 0x0A, omittingEmptySubsequences: false).map {
      String(decoding: $0, as: UTF8.self)
    }
    let request = lines[0].split(separator: " ", maxSplits: 1).map(String.init)
    let headers = lines.dropFirst().map { line -> (name: String, value: String) in
      guard let colon = line.firstIndex(of: ":") else { return (line, "") }
      return (String(line[..<colon]), String(line[line.index(after: colon)...].drop { $0 == " " }))
    }
    return APNsRequest.decide(
      method: request[0], path: request[1], headers: headers, body: body, bodyByteCount: body.count,
      receivedAt: 1_795_000_000)
  }

  /// Found on 2026-11-23: a body whose `aps` is a string was answered 200 and handed to the
  /// device with no payload (its capture line did not read back as a push). APNs rejects it.
  @Test func apsThatIsNotADictionaryIsABadRequest() throws {
    let found = try #require(
      Data(
        base64Encoded:
          "UE9TVCAvMy9kZXZpY2UvYWJhYmFiYWJhYmFiYWJhYmFiYWJhYmFiYWJhYmFiYWJhYmFiYWJhYmFiYWJhQmFiYWJhYmFiYWJhYmFiYWJhYgphcG5zLXRvcGljOiDfb20uZXhhbXBsZS5hcHAKYYlwbnMtcHVzQS10eXBlOiBhbGVydAphcG5zLXByaW9yaXR5OiAxMAoKewoJIlNpbXVsYXRvciBUYXJnZXTZvXVuZGxlIjogImNoYXQucm9ja2V0LnJlYWN0bmF0aXZlIiwKCSJhcHMiOiAiOiBcImNcIiwgXCJuYW1lXCI6IFwiZ2VuZXJhbFwiIH0iCn0="
      ))
    let outcome = Self.decide(Array(found))
    // Its topic starts with the byte 0xDF, which no bundle id has: APNs checks the headers before
    // the body, so that is the answer; the body alone is a BadRequest (below).
    #expect(outcome.status == 400)
    #expect(outcome.reason == "BadTopic")
    let simple = Self.decide(
      Array(
        "POST /3/device/\(String(repeating: "ab", count: 32))\napns-topic: com.example.app\n\n{\"aps\": \"x\"}".utf8))
    #expect(simple.status == 400 && simple.reason == "BadRequest")
  }
}

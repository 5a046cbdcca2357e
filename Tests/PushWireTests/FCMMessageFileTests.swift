import Testing

@testable import PushWire

/// An FCM v1 message file read as the APNs push FCM makes from it.
@Suite struct FCMMessageFileTests {
  static let token = String(repeating: "a1", count: 32)

  @Test func aMessageFileIsReadAsTheAPNsPushFCMMakes() throws {
    let text = #"""
      {"message": {"token": "\#(Self.token)", "notification": {"title": "Generic", "body": "Body"},
        "data": {"k": "v"}, "apns": {"payload": {"aps": {"alert": {"title": "iPhone"}}}}}}
      """#
    let record = PushReader.readPayloadFile(Array(text.utf8), source: "m.json", format: .payload, bundleID: "com.a")
    let payload = try #require(record.payload)
    #expect(payload.aps.alert?.title == "iPhone")
    #expect(payload.aps.alert?.body == "Body")
    #expect(record.token == Self.token)
    #expect(record.headers.pushType == .alert)
    #expect(record.diagnostics.map(\.code) == [.fcmPayload], "FirebaseKey notes for FCM's own keys are left out")
    let note = try #require(record.diagnostics.first)
    #expect(note.location?.line == 1 && note.location?.column == 13)
    #expect(note.message.contains(#""k":"v","gcm.message_id":"0:1000000000000000""#))
    // What the device stores is the APNs payload, not the message.
    #expect(record.rawPayload.hasPrefix(#"{"aps":{"alert":{"title":"iPhone","body":"Body"}}"#))
    #expect(PushVerdict(record.diagnostics).apns == .accepts)
  }

  @Test func anAPNsPayloadWithAMessageKeyIsStillAPayload() {
    let record = PushReader.readPayloadFile(
      Array(#"{"aps": {"alert": "x"}, "message": "custom"}"#.utf8), source: "p.json", format: .payload)
    #expect(record.payload?.aps.alert?.body == "x")
    #expect(!record.diagnostics.contains { $0.code == .fcmPayload })
  }

  @Test func aBadMessageIsOneLocatedFinding() {
    let record = PushReader.readPayloadFile(
      Array(#"{"message": {"topic": "news", "token": "\#(Self.token)"}}"#.utf8), source: "m.json", format: .payload)
    #expect(record.payload == nil)
    #expect(record.diagnostics.map(\.code) == [.invalidFCMMessage])
    #expect(record.diagnostics.first?.message.contains("token and topic are set") == true)
    #expect(record.diagnostics.first?.location?.line == 1)
    #expect(PushVerdict(record.diagnostics).apns != .accepts)
  }
}

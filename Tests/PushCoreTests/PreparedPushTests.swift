import Testing

@testable import PushCore

/// A notification made ahead on a decoding thread (``PreparedPush``) must give the device
/// exactly what the record alone gives: same records, same store, same ids.
@Suite struct PreparedPushTests {
  static let payloads: [(String, [(String, String)])] = [
    (#"{"aps": {"alert": {"title": "Ana", "body": "Lunch?"}, "thread-id": "ana", "sound": "default"}}"#, []),
    (#"{"aps": {"alert": {"loc-key": "MSG", "loc-args": ["Ana", "3"]}}}"#, []),
    (#"{"aps": {"alert": "Delayed", "interruption-level": "time-sensitive", "relevance-score": 0.8}}"#, []),
    (#"{"aps": {"alert": "Score 1-0"}}"#, [("apns-collapse-id", "score")]),
    (#"{"aps": {"alert": "Score 2-0"}}"#, [("apns-collapse-id", "score")]),
    (#"{"aps": {"content-available": 1}}"#, [("apns-push-type", "background"), ("apns-priority", "5")]),
    (#"{"aps": {"alert": "x", "badge": "nine"}}"#, []),
    (#"{"aps": {"sound": {"critical": 1, "name": "alarm.caf", "volume": 0.5}, "alert": "Glucose low"}}"#, []),
  ]

  func device() -> DeviceSimulator {
    var profile = DeviceProfile(start: start)
    profile.apps = [
      AppProfile(info: .inferred(from: "com.example.chat"), localizations: ["MSG": "%1$@ sent %2$@ photos"])
    ]
    return DeviceSimulator(profile: profile)
  }

  @Test func givesTheSameDeliveriesAsTheRecordAlone() {
    var byRecord = device()
    var byPrepared = device()
    for (index, (payload, headers)) in Self.payloads.enumerated() {
      let record = push(payload, headers: headers, line: index + 1)
      let sender = index == 0 ? "Ana" : nil
      let expected = byRecord.apply(push: record, sender: sender, at: at(Int64(index)))
      var prepared = PreparedPush(record)
      let actual = byPrepared.apply(push: &prepared, sender: sender, at: at(Int64(index)))
      #expect(actual == expected, "push \(index + 1)")
      #expect(prepared.notification == nil, "the device takes the notification out")
    }
    #expect(byPrepared.store.all == byRecord.store.all)
    #expect(byRecord.store.all.contains { $0.notification.body == "Ana sent 3 photos" })
  }

  @Test func makesNothingAheadForLocalisedOrInvalidPushes() {
    let localized = PreparedPush(push(#"{"aps": {"alert": {"title-loc-key": "T"}}}"#))
    let invalid = PreparedPush(push(#"{"aps": {"alert": "x", "badge": "nine"}}"#))
    let plain = PreparedPush(push(#"{"aps": {"alert": {"title": "T", "body": "B"}}}"#))
    #expect(localized.notification == nil)
    #expect(invalid.notification == nil)
    #expect(plain.notification?.title == "T" && plain.notification?.body == "B")
  }
}

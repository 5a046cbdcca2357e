import PushServer
import PushWire
import Testing

/// `apns-topic` is a bundle id and its push type's suffix: a topic with characters no bundle id
/// has is answered 400 BadTopic, as APNs answers a bad topic, and never reaches the device.
struct TopicTests {
  func decide(topic: String, pushType: String? = nil) -> APNsOutcome {
    let body = Array(#"{"aps":{"alert":"x"}}"#.utf8)
    var headers = [(name: "apns-topic", value: topic)]
    if let pushType { headers.append((name: "apns-push-type", value: pushType)) }
    return APNsRequest.decide(
      method: "POST", path: "/3/device/" + String(repeating: "ab", count: 32), headers: headers, body: body,
      bodyByteCount: body.count, receivedAt: 1_795_000_000)
  }

  @Test(arguments: ["com.ex\u{01}ample", "com.a b", "com.example.app\t", "com.exämple.app", "com.example/app"])
  func aTopicNoBundleIdCouldBeIsBadTopic(_ topic: String) {
    let outcome = decide(topic: topic)
    #expect(outcome.status == 400)
    #expect(outcome.reason == "BadTopic")
    #expect(outcome.detail?.hasPrefix("BadTopic at headers.apns-topic: ") == true, "\(outcome.detail ?? "")")
  }

  @Test(arguments: [
    ("com.example.app", nil), ("com.arohak.xcconfig-template_dev", nil), ("com.example.app.voip", "voip"),
    ("com.example.app.push-type.liveactivity", "liveactivity"), ("com.example.app.location-query", "location"),
  ])
  func bundleIdsAndTheirSuffixesAreAccepted(topic: String, pushType: String?) {
    let outcome = decide(topic: topic, pushType: pushType)
    #expect(outcome.status == 200, "\(outcome.reason ?? "") \(outcome.detail ?? "")")
  }
}

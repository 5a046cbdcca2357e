import Testing

@testable import PushWire

/// Decodes a payload text as a plain JSON file.
private func read(
  _ text: String, format: InputFormat = .payload, headers: [(String, String)] = [], bundle: String? = "com.example.app"
) -> PushRecord {
  PushReader.readPayloadFile(
    Array(text.utf8), source: "test.json", format: format, bundleID: bundle,
    headers: headers.map { (name: $0.0, value: $0.1) })
}

private func codes(_ record: PushRecord) -> [DiagnosticCode] { record.diagnostics.map(\.code) }

@Suite struct PayloadDecoderTests {
  /// A `.apns` file's `Simulator Target Bundle` is checked as a bundle id, at its value; a
  /// placeholder is reported as one (once), and a well-formed id passes.
  @Test func aSimulatorTargetBundleThatIsNoBundleIDIsAnError() {
    for bad in ["com.bad bundle!", "", "com/example/app", String(repeating: "a", count: 256)] {
      let record = read(
        #"{"Simulator Target Bundle": "\#(bad)", "aps": {"alert": "x"}}"#, format: .simulator, bundle: nil)
      #expect(codes(record) == [.badSimulatorTargetBundle], "\(bad.prefix(20))")
      #expect(record.diagnostics.first?.location?.column == 29)
      #expect(!record.verdict.isDelivered)
    }
    let placeholder = read(
      #"{"Simulator Target Bundle": "{app_bundle_id}", "aps": {"alert": "x"}}"#, format: .simulator, bundle: nil)
    #expect(codes(placeholder) == [.placeholderValue])
    let good = read(
      #"{"Simulator Target Bundle": "com.example.app-2_b", "aps": {"alert": "x"}}"#, format: .simulator, bundle: nil)
    #expect(codes(good).isEmpty && good.verdict.isDelivered)
  }

  @Test func decodesEveryAlertKey() throws {
    let record = read(
      """
      {"aps": {"alert": {"title": "T", "subtitle": "S", "body": "B", "launch-image": "L.png",
        "title-loc-key": "TK", "title-loc-args": ["a"], "subtitle-loc-key": "SK", "subtitle-loc-args": ["b"],
        "loc-key": "BK", "loc-args": ["c", "d"]}}}
      """)
    guard case .dictionary(let alert) = try #require(record.payload?.aps.alert) else {
      Issue.record("alert is not a dictionary")
      return
    }
    #expect(alert.title == "T" && alert.subtitle == "S" && alert.body == "B" && alert.launchImage == "L.png")
    #expect(alert.titleLocKey == "TK" && alert.titleLocArgs == ["a"])
    #expect(alert.subtitleLocKey == "SK" && alert.subtitleLocArgs == ["b"])
    #expect(alert.locKey == "BK" && alert.locArgs == ["c", "d"])
    #expect(record.diagnostics.isEmpty)
  }

  @Test func stringAlertIsTheBody() {
    let record = read(#"{"aps": {"alert": "Hello"}}"#)
    #expect(record.payload?.aps.alert == .text("Hello"))
    #expect(record.payload?.aps.alert?.body == "Hello")
    #expect(record.isValid)
  }

  @Test func decodesEveryApsKey() throws {
    let record = read(
      """
      {"aps": {"alert": "x", "badge": 0, "sound": {"critical": 1, "name": "alarm.caf", "volume": 0.5},
        "thread-id": "t1", "category": "MSG", "mutable-content": 1, "target-content-id": "w1",
        "interruption-level": "time-sensitive", "relevance-score": 0.75, "filter-criteria": "work"},
       "orderId": 42, "nested": {"a": [1, "b"]}}
      """)
    let payload = try #require(record.payload)
    let aps = payload.aps
    #expect(aps.badge == 0)
    #expect(aps.sound == .critical(CriticalSound(isCritical: true, name: "alarm.caf", volume: 0.5)))
    #expect(aps.threadID == "t1" && aps.category == "MSG" && aps.mutableContent && aps.targetContentID == "w1")
    #expect(aps.interruptionLevel == .timeSensitive && aps.relevanceScore == 0.75 && aps.filterCriteria == "work")
    #expect(payload.customKeys.map(\.key) == ["orderId", "nested"])
    #expect(payload.customKeys[1].value.compactText == #"{"a":[1,"b"]}"#)
    #expect(record.diagnostics.isEmpty)
  }

  @Test func decodesLiveActivityKeys() throws {
    let record = read(
      """
      {"aps": {"timestamp": 1700000000, "event": "start", "content-state": {"eta": 12},
        "stale-date": 1700003600, "dismissal-date": 1700007200, "attributes-type": "DeliveryAttributes",
        "attributes": {"order": "A1"}, "input-push-token": 1, "relevance-score": 75,
        "alert": {"title": "Order placed", "body": "Preparing"}}}
      """, headers: [("apns-push-type", "liveactivity"), ("apns-topic", "com.example.app.push-type.liveactivity")])
    let live = try #require(record.payload?.aps.liveActivity)
    #expect(live.event == .start && live.timestamp == 1_700_000_000 && live.staleDate == 1_700_003_600)
    #expect(live.dismissalDate == 1_700_007_200 && live.attributesType == "DeliveryAttributes" && live.inputPushToken)
    #expect(live.contentState?["eta"]?.doubleValue == 12)
    #expect(record.diagnostics.isEmpty, "a relevance-score of 75 is fine for a Live Activity: \(codes(record))")
    #expect(record.pushType == "liveactivity")
  }

  @Test func liveActivityStartWithoutAttributesIsAnError() {
    let record = read(#"{"aps": {"timestamp": 1, "event": "start", "content-state": {}}}"#)
    #expect(codes(record).filter { $0 == .missingLiveActivityKey }.count == 3)
  }

  @Test(arguments: [
    (#"{"aps": {"alert": "x", "mutable-content": true}}"#, DiagnosticCode.mutableContentNotInteger),
    (#"{"aps": {"alert": "x", "mutable-content": "1"}}"#, .mutableContentNotInteger),
    (#"{"aps": {"content-available": true}}"#, .contentAvailableNotInteger),
    (#"{"aps": {"alert": {"body": "x", "sound": "default"}}}"#, .soundInsideAlert),
    (#"{"aps": {"alert": {"body": "x", "content-available": 1}}}"#, .contentAvailableInsideAlert),
    (#"{"aps": {"alert": "x", "image_url": "https://x"}}"#, .customKeyInAps),
    (#"{"aps": {"alert": {"body": "x", "wish_id": 3}}}"#, .customKeyInAlert),
    (#"{"aps": {"content_available": 1}}"#, .misspelledApsKey),
    (#"{"aps": {"alert": "x", "threadId": "a"}}"#, .misspelledApsKey),
    (#"{"aps": {"alert": "x"}, "apns-collapse-id": "c"}"#, .headerInBody),
    (#"{"aps": {"alert": "x", "apns-priority": 10}}"#, .headerInBody),
    (#"{"aps": {"badge": 1}, "alert": "x"}"#, .apsKeyOutsideAps),
    (#"{"Simulator Target Bundel": "a.b", "aps": {"alert": "x"}}"#, .misspelledSimulatorTargetBundle),
    (#"{"Simulator Target Bundle": "{app_bundle_id}", "aps": {"alert": "x"}}"#, .placeholderValue),
    (#"{"aps": {"alert": "x", "interruption-level": "urgent"}}"#, .unknownInterruptionLevel),
    (#"{"aps": {"alert": "x", "interruption-level": "time-senstive"}}"#, .unknownInterruptionLevel),
    (#"{"aps": {"alert": "x", "relevance-score": 1.5}}"#, .relevanceScoreOutOfRange),
    (#"{"aps": {"alert": "x", "relevance-score": -0.1}}"#, .relevanceScoreOutOfRange),
    (#"{"aps": {"alert": "x", "content-available": 1}}"#, .silentPushAlsoAlerts),
    (#"{"aps": {}}"#, .nothingToShowOrDo),
    (#"{"aps": {"alert": {}}}"#, .nothingToShowOrDo),
    (#"{"aps": {"thread-id": "t"}}"#, .nothingToShowOrDo),
    (#"{"aps": {"alert": "x"}, "data": "{\"a\": 1}"}"#, .customValueIsEncodedJSON),
    (#"{"aps": {"alert": "x", "sound": {"critical": 1, "volume": 3}}}"#, .criticalVolumeOutOfRange),
    (#"{"aps": {"alert": "x", "badge": 1, "badge": 2}}"#, .duplicateKey),
  ])
  func realWorldMistakesAreWarnings(source: String, expected: DiagnosticCode) {
    let record = read(source)
    #expect(codes(record).contains(expected), "got \(codes(record))")
    #expect(record.isValid, "a warning must not reject the payload: \(codes(record))")
    let diagnostic = record.diagnostics.first { $0.code == expected }
    #expect(diagnostic?.effect.isEmpty == false)
    #expect(diagnostic?.severity != .error)
  }

  /// A long placeholder is quoted by its first 80 characters (`push big.json` printed a
  /// 4,100-character alert of X's whole in the warning; found by an exploratory test).
  @Test func aLongPlaceholderIsQuotedShort() throws {
    let record = read(#"{"aps": {"alert": "\#(String(repeating: "X", count: 4_100))"}}"#)
    let warning = try #require(record.diagnostics.first { $0.code == .placeholderValue })
    let quoted = "\"" + String(repeating: "X", count: 80) + "…\" looks like a template placeholder"
    #expect(warning.message.hasPrefix(quoted), "\(warning.message.prefix(200))")
    #expect(warning.message.count < 160)
  }

  @Test func warningsSayWhatTheDeviceDoes() throws {
    let record = read(#"{"aps": {"alert": "x", "mutable-content": true}}"#)
    let warning = try #require(record.diagnostics.first)
    #expect(warning.path == "aps.mutable-content")
    #expect(warning.effect.contains("service extension will not run"))
    #expect(warning.location == TextLocation(line: 1, column: 43, offset: 42))
  }

  @Test(arguments: [
    (#"[1, 2]"#, DiagnosticCode.notAnObject),
    (#""aps""#, .notAnObject),
    (#"{"alert": "x"}"#, .missingAps),
    (#"{"aps": "alert"}"#, .missingAps),
    (#"{"aps": {"event": "update", "content-state": {}}}"#, .missingLiveActivityKey),
    ("", .payloadEmpty),
  ])
  func rejectionsAreErrors(source: String, expected: DiagnosticCode) {
    let record = read(source)
    #expect(codes(record).contains(expected), "got \(codes(record))")
    #expect(!record.isValid)
  }

  /// A scenario written as JSON and given where payload files go: the rejection says what it
  /// is and how to have it read as a scenario.
  @Test func aScenarioGivenAsAPayloadSaysToRenameIt() throws {
    let scenario = read(
      #"{"timeline": [{"at": "+1m", "push": {"bundle": "a.b", "payload": {"aps": {"alert": "hi"}}}}]}"#)
    let missing = try #require(scenario.diagnostics.first { $0.code == .missingAps })
    #expect(missing.hint?.contains("a scenario is read as one from a .yaml or .yml file") == true)
    let plain = try #require(read(#"{"alert": "x"}"#).diagnostics.first { $0.code == .missingAps })
    #expect(plain.hint?.contains("inside \"aps\"") == true)
  }

  /// A known key with a wrong value: APNs accepts the push and the device ignores the key (the
  /// verdict table), so it is a warning and the push stays valid.
  @Test(arguments: [
    #"{"aps": {"alert": 42, "sound": "default"}}"#,
    #"{"aps": {"alert": "x", "badge": "3"}}"#,
    #"{"aps": {"alert": "x", "badge": -1}}"#,
    #"{"aps": {"alert": "x", "badge": 1.5}}"#,
    #"{"aps": {"alert": "x", "sound": 1}}"#,
    #"{"aps": {"alert": "x", "thread-id": 7}}"#,
    #"{"aps": {"alert": {"body": "x", "loc-args": [1]}}}"#,
    #"{"aps": {"alert": {"title": ["x"], "body": "y"}}}"#,
  ])
  func wrongValuesAreIgnoredKeys(source: String) {
    let record = read(source)
    #expect(codes(record).contains(.invalidValue), "got \(codes(record))")
    #expect(record.isValid)
    #expect(record.diagnostics.first { $0.code == .invalidValue }?.severity == .warning)
    #expect(record.payload != nil)
  }

  @Test func payloadOverTheLimitIsTooLarge() {
    let body = String(repeating: "x", count: 4100)
    let record = read(#"{"aps": {"alert": "\#(body)"}}"#)
    #expect(codes(record).first == .payloadTooLarge)
    #expect(record.diagnostics.first?.message.contains("4096") == true)
  }

  @Test func voipAllowsFiveKilobytes() {
    let body = String(repeating: "x", count: 4500)
    let text = #"{"aps": {}, "call": "\#(body)"}"#
    let voip = read(text, headers: [("apns-push-type", "voip"), ("apns-topic", "com.example.app.voip")])
    #expect(!codes(voip).contains(.payloadTooLarge))
    #expect(codes(read(text)).contains(.payloadTooLarge))
  }

  @Test func strictModeCountsWarnings() {
    let record = read(#"{"aps": {"alert": "x", "interruption-level": "urgent"}}"#)
    #expect(record.isValid)
    #expect(!record.isStrictlyValid)
  }

  @Test func simulatorFilesKeepTheirTargetBundle() {
    let record = read(
      #"{"Simulator Target Bundle": "com.a.b", "aps": {"alert": "x"}}"#, format: .simulator, bundle: nil)
    #expect(record.bundleID == "com.a.b")
    #expect(record.payload?.customKeys.isEmpty == true)
    let named = read(
      #"{"Simulator Target Bundle": "com.a.b", "aps": {"alert": "x"}}"#, format: .simulator, bundle: "com.c.d")
    #expect(named.bundleID == "com.c.d", "a bundle named by the user wins, as with simctl")
  }

  @Test func silentPushIsBackgroundType() {
    #expect(read(#"{"aps": {"content-available": 1}, "sync": 1}"#).pushType == "background")
    #expect(read(#"{"aps": {"alert": "x"}}"#).pushType == "alert")
  }
}

/// A payload file that is not JSON keeps the `Simulator Target Bundle` it named before its
/// mistake; the app named on the command line still wins.
@Suite struct UnreadablePayloadFileTests {
  @Test func thePayloadFileKeepsTheAppItNamedBeforeItsMistake() {
    let named = read(
      "{\n  \"Simulator Target Bundle\": \"com.example.shop\",\n  \"aps\": {\"badge\": 1,}\n}", format: .simulator,
      bundle: nil)
    #expect(codes(named).first == .trailingComma)
    #expect(named.bundleID == "com.example.shop")
    #expect(
      read(#"{"aps": {"badge": 1,}, "Simulator Target Bundle": "com.example.shop"}"#, bundle: nil).bundleID == nil)
    #expect(
      read(#"{"Simulator Target Bundle": "com.example.shop", "aps": {,}}"#, bundle: "com.given").bundleID == "com.given"
    )
  }
}

@Suite struct HeaderTests {
  private func parse(_ pairs: [(String, String)], bundle: String = "com.example.app") -> (APNsHeaders, [DiagnosticCode])
  {
    let (headers, diagnostics) = APNsHeaders.parse(pairs.map { (name: $0.0, value: $0.1) }, bundleID: bundle)
    return (headers, diagnostics.map(\.code))
  }

  @Test func typesEveryHeader() {
    let (headers, problems) = parse([
      ("apns-push-type", "alert"), ("apns-priority", "5"), ("apns-expiration", "0"),
      ("apns-topic", "com.example.app"), ("apns-collapse-id", "score"),
      ("apns-id", "123e4567-e89b-12d3-a456-4266554400a0"),
    ])
    #expect(problems.isEmpty)
    #expect(headers.pushType == .alert && headers.priority == .normal && headers.expiration == 0)
    #expect(headers.topic == "com.example.app" && headers.collapseID == "score")
    #expect(headers.apnsID == "123e4567-e89b-12d3-a456-4266554400a0")
  }

  @Test(arguments: PushType.allCases)
  func everyPushTypeHasItsTopicSuffix(type: PushType) {
    guard let suffix = type.topicSuffix else { return }
    let (_, good) = parse([("apns-push-type", type.rawValue), ("apns-topic", "com.example.app" + suffix)])
    #expect(good.isEmpty)
    let (_, bad) = parse([("apns-push-type", type.rawValue), ("apns-topic", "com.other.app" + suffix)])
    #expect(bad == [.badTopic])
  }

  @Test func backgroundAtPriorityTenIsRejected() {
    #expect(parse([("apns-push-type", "background"), ("apns-priority", "10")]).1 == [.badPriority])
    #expect(parse([("apns-push-type", "background"), ("apns-priority", "5")]).1.isEmpty)
  }

  @Test(arguments: [
    ("apns-push-type", "notification", DiagnosticCode.invalidPushType),
    ("apns-priority", "7", .badPriority),
    ("apns-expiration", "tomorrow", .badExpirationDate),
    ("apns-collapse-id", String(repeating: "c", count: 65), .badCollapseId),
    ("apns-id", "not-a-uuid", .badMessageId),
  ])
  func badHeaderValues(name: String, value: String, expected: DiagnosticCode) {
    #expect(parse([(name, value)]).1 == [expected])
  }

  /// A topic is a bundle id (letters, digits, '-', '.', and '_' as real apps use it) and the
  /// push type's suffix; anything else is BadTopic, located at the header, whatever the bundle.
  @Test(arguments: [
    ("com.ex\u{01}ample", "a control character (U+0001) at character 7"),
    ("com.a b", "a space (U+0020) at character 6"),
    ("com.exämple.app", "the non-ASCII character U+00E4 at character 7"),
    ("com/example", "'/' (U+002F) at character 4"),
    ("com.example.app\n", "a control character (U+000A) at character 16"),
    // Too long to be any app's (an 8,000-character topic was answered 200).
    (
      "com." + String(repeating: "a", count: 252),
      "apns-topic is 256 bytes; a bundle id with its push type's suffix is at most 255"
    ),
  ])
  func aTopicWithCharactersNoBundleIdHasIsBadTopic(topic: String, described: String) throws {
    let (headers, diagnostics) = APNsHeaders.parse([(name: "apns-topic", value: topic)], bundleID: nil)
    #expect(diagnostics.map(\.code) == [.badTopic])
    let diagnostic = try #require(diagnostics.first)
    #expect(diagnostic.path == "headers.apns-topic")
    #expect(diagnostic.message.contains(described), "\(diagnostic.message)")
    #expect(!diagnostic.message.contains("\u{01}") && !diagnostic.message.contains("\n"))
    #expect(diagnostic.hint?.contains("bundle id") == true)
    #expect(headers.topic == nil)
  }

  @Test(arguments: [
    ("com.example.app", PushType.alert), ("com.arohak.xcconfig-template_dev", .alert),
    ("com.example.app.voip", .voip), ("com.example.app.complication", .complication),
    ("com.example.app.pushkit.fileprovider", .fileprovider),
    ("com.example.app.push-type.liveactivity", .liveactivity),
    ("com.example.app.location-query", .location), ("com.example.app.voip-ptt", .pushtotalk),
    ("com.apple.mgmt.External.18a5a6e3-2d8d-4b8f-9f3c-0a1b2c3d4e5f", .mdm),
  ])
  func bundleIdsAndTheirSuffixesAreGoodTopics(topic: String, type: PushType) {
    let suffix = type.topicSuffix ?? ""
    let bundle = type.topicSuffix == nil ? nil : String(topic.dropLast(suffix.count))
    let (headers, diagnostics) = APNsHeaders.parse(
      [(name: "apns-push-type", value: type.rawValue), (name: "apns-topic", value: topic)], bundleID: bundle)
    #expect(diagnostics.isEmpty, "\(diagnostics.map(\.message))")
    #expect(headers.topic == topic)
  }

  @Test func collapseIdOfExactlySixtyFourBytesIsFine() {
    #expect(parse([("apns-collapse-id", String(repeating: "é", count: 32))]).1.isEmpty)
    #expect(parse([("apns-collapse-id", String(repeating: "é", count: 33))]).1 == [.badCollapseId])
  }

  @Test(arguments: ["", "xyz", "abc", String(repeating: "g", count: 64)])
  func malformedDeviceTokens(token: String) {
    #expect(DeviceToken.check(token)?.code == .badDeviceToken)
  }

  @Test func wellFormedDeviceToken() {
    #expect(DeviceToken.check(String(repeating: "a1", count: 32)) == nil)
  }
}

@Suite struct CaptureTests {
  private func line(_ text: String, number: Int = 7) -> PushRecord {
    PushReader.readCaptureLine(Array(text.utf8), lineNumber: number, source: "c.jsonl")
  }

  @Test func readsAnEnvelope() throws {
    let record = line(
      #"{"at": 1767225600.125, "bundle": "com.acme.chat", "token": "\#(String(repeating: "ab", count: 32))", "headers": {"apns-push-type": "alert", "apns-priority": "10", "apns-topic": "com.acme.chat", "apns-collapse-id": "c1"}, "payload": {"aps": {"alert": {"title": "Ana", "body": "Hi"}, "thread-id": "t"}}}"#
    )
    #expect(record.isValid, "\(record.diagnostics)")
    #expect(record.at == 1_767_225_600.125 && record.bundleID == "com.acme.chat")
    #expect(record.headers.collapseID == "c1" && record.headers.priority == .immediate)
    #expect(record.payload?.aps.alert?.title == "Ana")
    #expect(record.source == "c.jsonl:7" && record.line == 7)
    #expect(record.rawPayload.hasPrefix(#"{"aps""#))
  }

  @Test func syntaxErrorsCarryTheFileLineNumber() throws {
    let record = line(#"{"at": 1, "bundle": "a.b", "payload": {"aps": {"alert": "x"},}}"#, number: 41)
    let diagnostic = try #require(record.diagnostics.first)
    #expect(diagnostic.code == .trailingComma)
    #expect(diagnostic.location?.line == 41)
    #expect(diagnostic.location?.column == 62)
    // The hint's place counts in the file too: it said "line 1" beside a location on line 41.
    #expect(diagnostic.hint == "remove the comma at line 41, column 61 (JSON allows no trailing commas)")
    #expect(record.rawPayload.contains("\"bundle\""), "the rejected line is kept whole")
  }

  @Test(arguments: [
    #"{"at": "yesterday", "bundle": "a.b", "payload": {"aps": {"alert": "x"}}}"#,
    #"{"at": 1, "payload": {"aps": {"alert": "x"}}}"#,
    #"{"at": 1, "bundle": "", "payload": {"aps": {"alert": "x"}}}"#,
    #"{"at": 1, "bundle": "a.b"}"#,
    #"{"at": 1, "bundle": "a.b", "headers": [], "payload": {"aps": {"alert": "x"}}}"#,
    #"[1]"#,
  ])
  func badEnvelopesAreErrors(text: String) {
    let record = line(text)
    #expect(record.diagnostics.contains { $0.code == .invalidEnvelope }, "\(record.diagnostics.map(\.code))")
    #expect(!record.isValid)
  }

  /// A bundle with characters no bundle id has is located at its value and says what to write;
  /// underscores, which real apps' ids carry, are accepted.
  @Test func aBundleWithCharactersNoBundleIdHasIsAnError() throws {
    let record = line(#"{"at": 1, "bundle": "com.a b", "payload": {"aps": {"alert": "x"}}}"#, number: 3)
    #expect(!record.isValid)
    #expect(record.bundleID == nil)
    let diagnostic = try #require(record.diagnostics.first { $0.path == "bundle" })
    #expect(diagnostic.code == .invalidEnvelope)
    #expect(diagnostic.location?.line == 3 && diagnostic.location?.column == 21)
    #expect(diagnostic.message.contains("a space (U+0020) at character 6"), "\(diagnostic.message)")
    #expect(diagnostic.hint?.contains("com.example.app") == true)
    #expect(record.diagnostics.filter { $0.path == "bundle" }.count == 1, "not also reported as missing")

    let long = line(
      #"{"at": 1, "bundle": "com.\#(String(repeating: "a", count: 300))", "payload": {"aps": {"alert": "x"}}}"#)
    #expect(long.bundleID == nil && !long.isValid)
    #expect(long.diagnostics.contains { $0.path == "bundle" && $0.message.contains("is 304 bytes, not a bundle id") })
    let longest = line(
      #"{"at": 1, "bundle": "com.\#(String(repeating: "a", count: 251))", "payload": {"aps": {"alert": "x"}}}"#)
    #expect(longest.isValid, "255 bytes: \(longest.diagnostics)")

    let control = line(#"{"at": 1, "bundle": "com.a\u0007b", "payload": {"aps": {"alert": "x"}}}"#)
    #expect(control.diagnostics.contains { $0.path == "bundle" && $0.message.contains("U+0007") })
    #expect(!control.isValid)

    let underscore = line(
      #"{"at": 1, "bundle": "com.arohak.xcconfig-template_dev", "payload": {"aps": {"alert": "x"}}}"#)
    #expect(underscore.isValid, "\(underscore.diagnostics.map(\.message))")
    #expect(underscore.bundleID == "com.arohak.xcconfig-template_dev")
  }

  /// A line that is not JSON keeps the app it named before its mistake, and names none when the
  /// mistake comes first (or is inside the bundle): never one it did not name.
  @Test(arguments: [
    (#"{"at": 1, "bundle": "com.acme.chat", "payload": {"aps": {"alert": "x"},}}"#, "com.acme.chat"),
    (#"{"at": 1, "bundle": "com.acme.chat", "payload": {"aps": {"alert": "hel"#, "com.acme.chat"),
    (#"{"at": 1, "bundle": "com.acme.chat", "payload": {"aps": {}}} {}"#, "com.acme.chat"),
    (#"{"at": 1, "payload": {"bundle": "com.inner.app", "aps": {"alert": "x"},}, "bundle": "com.acme.chat"}"#, nil),
    (#"{"at": NaN, "bundle": "com.acme.chat", "payload": {"aps": {}}}"#, nil),
    (#"{'at': 1, 'bundle': 'com.acme.chat'}"#, nil),
    (#"{"at": 1, "bundle": "com.acme"#, nil),
    (#"{"at": 1, "bundle": "com.a b", "payload": {"aps": {}},}"#, nil),
    (#"["bundle", "com.acme.chat",]"#, nil),
  ])
  func aLineThatIsNotJSONKeepsOnlyTheAppItNamedBeforeItsMistake(text: String, app: String?) {
    let record = line(text)
    #expect(!record.isValid)
    #expect(record.bundleID == app)
  }

  @Test func payloadPathsArePrefixed() {
    let record = line(#"{"at": 1, "bundle": "a.b", "payload": {"aps": {"alert": "x", "badge": "3"}}}"#)
    #expect(record.diagnostics.first?.path == "payload.aps.badge")
  }

  @Test func sizeIsMeasuredOnThePayloadNotTheEnvelope() {
    let body = String(repeating: "y", count: 4000)
    let record = line(
      #"{"at": 1, "bundle": "a.b", "headers": {"apns-id": "123e4567-e89b-12d3-a456-4266554400a0"}, "payload": {"aps": {"alert": "\#(body)"}}}"#
    )
    #expect(record.byteCount < 4096)
    #expect(record.isValid)
  }

  @Test func lineSplitterHandlesChunkBoundariesAndCRLF() {
    let text = Array("a\r\nbb\n\nccc\nlast".utf8)
    for chunkSize in 1...text.count {
      var splitter = LineSplitter()
      var lines: [String] = []
      var numbers: [Int] = []
      let collect = { (line: UnsafeBufferPointer<UInt8>, number: Int) in
        lines.append(String(decoding: line, as: UTF8.self))
        numbers.append(number)
      }
      var offset = 0
      while offset < text.count {
        let end = min(text.count, offset + chunkSize)
        Array(text[offset..<end]).withUnsafeBufferPointer { splitter.feed($0, collect) }
        offset = end
      }
      splitter.finish(collect)
      #expect(lines == ["a", "bb", "", "ccc", "last"], "chunk size \(chunkSize)")
      #expect(numbers == [1, 2, 3, 4, 5])
    }
  }

  @Test func overlongPartialLinesAreBounded() {
    var splitter = LineSplitter(maximumCarryBytes: 10)
    var lengths: [Int] = []
    let chunk = Array(repeating: UInt8(ascii: "x"), count: 7)
    for _ in 0..<5 { chunk.withUnsafeBufferPointer { splitter.feed($0) { line, _ in lengths.append(line.count) } } }
    Array("\nok\n".utf8).withUnsafeBufferPointer { splitter.feed($0) { line, _ in lengths.append(line.count) } }
    #expect(lengths == [11, 2])
  }

  @Test func sniffsCapturesOnStandardInput() {
    #expect(InputFormat.sniff(Array(#"{"at": 1, "bundle": "a", "payload": {"aps": {}}}"#.utf8) + [10]) == .capture)
    #expect(InputFormat.sniff(Array("{\n  \"aps\": {}\n}".utf8)) == .payload)
  }
}

/// The word-at-a-time apns-id check against the plain definition, at its edges.
@Suite struct CanonicalUUIDTests {
  @Test(arguments: [
    ("8F9797B0-6D7C-E3C9-B4A6-9F3C8D3AED99", true),
    ("8f9797b0-6d7c-e3c9-b4a6-9f3c8d3aed99", true),
    ("00000000-0000-0000-0000-000000000000", true),
    ("ffffffff-FFFF-aaaa-AAAA-0123456789ab", true),
    ("8F9797B0-6D7C-E3C9-B4A6-9F3C8D3AED9", false),
    ("8F9797B0-6D7C-E3C9-B4A6-9F3C8D3AED990", false),
    ("8F9797B0x6D7C-E3C9-B4A6-9F3C8D3AED99", false),
    ("8F9797B0-6D7Cx-E3C9-B4A6-9F3C8D3AED9", false),
    ("8F9797B0-6D7C-E3C9-B4A6-9F3C8D3AED9G", false),
    ("G F9797B0-6D7C-E3C9-B4A6-9F3C8D3AED9", false),
    ("8F9797B0-6D7C-E3C9-B4A6-9F3C8D3AED/9", false),
    ("8F9797B0-6D7C-E3C9-B4A6-9F3C8D3AED:9", false),
    ("8F9797B0-6D7C-E3C9-B4A6-9F3C8D3AED@9", false),
    ("8F9797B0-6D7C-E3C9-B4A6-9F3C8D3AED`9", false),
    ("8F9797B0-6D7C-E3C9-B4A6-9F3C8D3AEDg9", false),
    ("8F9797B0-6D7C-E3C9-B4A6-9F3C8D3AÉD9", false),
    ("8F9797B0-6D7C-E3C9-B4A6-9F3C8D3AED-9", false),
  ])
  func matchesTheDefinition(text: String, expected: Bool) {
    #expect(APNsHeaders.isCanonicalUUID(text) == expected)
  }
}

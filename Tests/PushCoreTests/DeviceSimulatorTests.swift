import Testing

@testable import PushCore

/// Builds a capture-style push record from a payload text.
func push(
  _ payload: String, bundle: String = "com.example.chat", headers: [(String, String)] = [], line: Int = 1
) -> PushRecord {
  let headerJSON = headers.map { "\"\($0.0)\": \"\($0.1)\"" }.joined(separator: ", ")
  let text = #"{"at": 0, "bundle": "\#(bundle)", "headers": {\#(headerJSON)}, "payload": \#(payload)}"#
  return PushReader.readCaptureLine(Array(text.utf8), lineNumber: line, source: "t.jsonl")
}

let start = SimInstant(milliseconds: 1_800_000_000_000)
func at(_ seconds: Int64) -> SimInstant { start + .seconds(seconds) }

@Suite struct DeviceSimulatorTests {
  func device(_ configure: (inout DeviceProfile) -> Void = { _ in }) -> DeviceSimulator {
    var profile = DeviceProfile(start: start)
    configure(&profile)
    return DeviceSimulator(profile: profile)
  }

  @Test func groupsByAppAndThreadNewestFirst() {
    var sim = device()
    sim.apply(.push(push(#"{"aps": {"alert": "a1", "thread-id": "a"}}"#)), at: at(1))
    sim.apply(.push(push(#"{"aps": {"alert": "b1", "thread-id": "b"}}"#)), at: at(2))
    sim.apply(.push(push(#"{"aps": {"alert": "a2", "thread-id": "a"}}"#)), at: at(3))
    sim.apply(.push(push(#"{"aps": {"alert": "m1"}}"#, bundle: "com.example.mail")), at: at(4))
    let groups = sim.store.rankedGroups()
    #expect(groups.map(\.key.description) == ["com.example.mail", "com.example.chat#a", "com.example.chat#b"])
    #expect(groups[1].notifications.map(\.notification.body) == ["a2", "a1"])
  }

  @Test func aFullNotificationCenterRemovesTheOldestAndSaysSo() {
    var sim = device { $0.maxStoredNotifications = 3 }
    var records: [DeliveryRecord] = []
    for index in 1...5 {
      let payload = #"{"aps": {"alert": "n\#(index)", "thread-id": "t\#(index % 2)"}}"#
      records.append(sim.apply(.push(push(payload, line: index)), at: at(Int64(index)))!)
    }
    #expect(sim.store.count == 3)
    #expect(sim.store.all.compactMap(\.notification.body).sorted() == ["n3", "n4", "n5"])
    #expect(records.prefix(3).allSatisfy { $0.evicted.isEmpty })
    #expect(records[3].evicted == [NotificationID(1)] && records[4].evicted == [NotificationID(2)])
    let reason = records[3].decision.reasons.last
    #expect(reason?.code == .notificationCenterFull)
    #expect(
      reason?.text == "Notification Center holds at most 3 notifications: the oldest (n1) was removed to make room.")
    // Clearing the oldest by hand first: the cursor skips what is already gone.
    sim.apply(.clear(NotificationID(3)), at: at(6))
    sim.apply(.push(push(#"{"aps": {"alert": "n6"}}"#, line: 6)), at: at(7))
    sim.apply(.push(push(#"{"aps": {"alert": "n7"}}"#, line: 7)), at: at(8))
    #expect(sim.store.all.compactMap(\.notification.body).sorted() == ["n5", "n6", "n7"])
  }

  @Test func byAppGroupingIgnoresThreads() {
    var sim = device {
      $0.apps = [AppProfile(info: .inferred(from: "com.example.chat"))]; $0.apps[0].settings.grouping = .byApp
    }
    sim.apply(.push(push(#"{"aps": {"alert": "a1", "thread-id": "a"}}"#)), at: at(1))
    sim.apply(.push(push(#"{"aps": {"alert": "b1", "thread-id": "b"}}"#)), at: at(2))
    #expect(sim.store.rankedGroups().count == 1)
  }

  @Test func collapseIdReplacesTheEarlierNotification() throws {
    var sim = device()
    let first = sim.apply(
      .push(push(#"{"aps": {"alert": "1–0"}}"#, headers: [("apns-collapse-id", "score")])), at: at(1))
    let second = sim.apply(
      .push(push(#"{"aps": {"alert": "2–0"}}"#, headers: [("apns-collapse-id", "score")])), at: at(2))
    #expect(second?.decision.disposition == .replaced)
    #expect(second?.decision.replaces == first?.notification?.id)
    #expect(sim.store.count == 1)
    #expect(sim.store.rankedGroups().first?.notifications.first?.notification.body == "2–0")
  }

  @Test func invalidPushesAreRejectedAndKept() throws {
    var sim = device()
    let applied = sim.apply(.push(push(#"{"alert": "x"}"#)), at: at(1))
    let record = try #require(applied)
    #expect(record.decision.disposition == .rejected)
    #expect(record.decision.reasonCodes == [.invalidPayload])
    #expect(record.decision.reasons.first?.text.contains("APNs rejects it (400 BadRequest)") == true)
    #expect(record.diagnostics.contains { $0.code == .missingAps })
    #expect(sim.records.count == 1)
  }

  /// A wrong-typed key is ignored, and the push arrives with the decision naming the key.
  @Test func ignoredKeysAreNamedAndThePushDelivered() throws {
    var sim = device()
    let applied = sim.apply(.push(push(#"{"aps": {"alert": 42, "sound": "default"}}"#)), at: at(1))
    let record = try #require(applied)
    #expect(record.decision.disposition != .rejected)
    #expect(record.decision.reasons.first?.code == .keyIgnored)
    #expect(record.decision.reasons.first?.text.hasPrefix("alert ignored: payload.aps.alert must be") == true)
  }

  @Test func silentBudgetIsPerAppPerHour() {
    var sim = device()
    let silent = #"{"aps": {"content-available": 1}}"#
    let dispositions = (0..<5).map { index in
      sim.apply(
        .push(push(silent, headers: [("apns-push-type", "background"), ("apns-priority", "5")])),
        at: at(Int64(index) * 60))?
        .decision.disposition
    }
    #expect(dispositions == [.silent, .silent, .silent, .dropped, .dropped])
    let later = sim.apply(.push(push(silent)), at: at(3700))
    #expect(later?.decision.disposition == .silent)
  }

  @Test func scheduledSummaryHoldsThenReleases() {
    var sim = device {
      $0.summaryTimes = [TimeOfDay(hour: 0, minute: 0)]
      var news = AppProfile(info: .inferred(from: "com.example.news"))
      news.settings.delivery = .scheduledSummary
      $0.apps = [news]
    }
    let record = sim.apply(.push(push(#"{"aps": {"alert": "Story"}}"#, bundle: "com.example.news")), at: at(1))
    #expect(record?.decision.disposition == .heldForSummary)
    #expect(sim.store.rankedGroups().isEmpty)
    #expect(sim.store.rankedGroups(includeHeld: true).count == 1)
    sim.advance(to: record?.decision.heldUntil ?? at(0))
    #expect(sim.store.rankedGroups().count == 1)
  }

  @Test func focusChangesApplyToTheNextPush() {
    var sim = device()
    sim.apply(.focus("dnd"), at: at(1))
    #expect(
      sim.apply(.push(push(#"{"aps": {"alert": "x", "sound": "default"}}"#)), at: at(2))?.decision.disposition
        == .deliveredQuietly)
    sim.apply(.focus(nil), at: at(3))
    #expect(
      sim.apply(.push(push(#"{"aps": {"alert": "y", "sound": "default"}}"#)), at: at(4))?.decision.playsSound == true)
  }

  @Test func openingAndClearingRecordEngagementAndRerank() throws {
    var sim = device()
    let first = sim.apply(.push(push(#"{"aps": {"alert": "c"}}"#)), at: at(1))
    let chat = try #require(first?.notification?.id)
    sim.apply(.push(push(#"{"aps": {"alert": "m"}}"#, bundle: "com.example.mail")), at: at(2))
    sim.apply(.push(push(#"{"aps": {"alert": "c2"}}"#)), at: at(2))
    sim.apply(.open(chat), at: at(3))
    #expect(sim.profile.engagement["com.example.chat"]?.taps == 1)
    #expect(sim.responses.first?.callback == .didReceive)
    #expect(sim.store.rankedGroups().first?.key.bundleID == "com.example.chat", "engagement lifts the app")
    sim.apply(.clearAll, at: at(4))
    #expect(sim.store.count == 0)
    #expect(sim.profile.engagement["com.example.mail"]?.dismissals == 1)
  }

  @Test func liveActivityStartsUpdatesAndEnds() {
    var sim = device()
    let headers = [("apns-push-type", "liveactivity"), ("apns-topic", "com.example.chat.push-type.liveactivity")]
    let startPush =
      #"{"aps": {"timestamp": 10, "event": "start", "attributes-type": "Delivery", "attributes": {"id": 1}, "content-state": {"eta": 12}, "alert": {"title": "Order", "body": "Preparing"}}}"#
    #expect(
      sim.apply(.push(push(startPush, headers: headers)), at: at(1))?.decision.reasonCodes == [.liveActivityStarted])
    let stale = #"{"aps": {"timestamp": 5, "event": "update", "content-state": {"eta": 99}}}"#
    #expect(sim.apply(.push(push(stale, headers: headers)), at: at(2))?.decision.disposition == .dropped)
    let update = #"{"aps": {"timestamp": 20, "event": "update", "content-state": {"eta": 5}}}"#
    #expect(sim.apply(.push(push(update, headers: headers)), at: at(3))?.decision.reasonCodes == [.liveActivityUpdated])
    #expect(sim.liveActivities.first?.contentState?["eta"]?.doubleValue == 5)
    let end =
      #"{"aps": {"timestamp": 30, "event": "end", "content-state": {"eta": 0}, "dismissal-date": \#(start.epochSeconds + 600)}}"#
    #expect(sim.apply(.push(push(end, headers: headers)), at: at(4))?.decision.reasonCodes == [.liveActivityEnded])
    sim.advance(to: at(601))
    #expect(sim.liveActivities.isEmpty)
  }

  @Test func localizedAlertsResolveWithTheAppStrings() {
    var sim = device {
      $0.apps = [AppProfile(info: .inferred(from: "com.example.chat"), localizations: ["MSG": "%1$@ sent %2$@ photos"])]
    }
    let record = sim.apply(.push(push(#"{"aps": {"alert": {"loc-key": "MSG", "loc-args": ["Ana", "3"]}}}"#)), at: at(1))
    #expect(record?.notification?.body == "Ana sent 3 photos")
  }

  @Test func badgeIsTrackedPerApp() {
    var sim = device()
    sim.apply(.push(push(#"{"aps": {"alert": "x", "badge": 4}}"#)), at: at(1))
    #expect(sim.badges["com.example.chat"] == 4)
    sim.apply(.push(push(#"{"aps": {"badge": 0}}"#)), at: at(2))
    #expect(sim.badges["com.example.chat"] == nil)
  }
}

@Suite struct LocalizationTests {
  @Test(arguments: [
    ("%@ and %@", ["a", "b"], "a and b"), ("%2$@ before %1$@", ["a", "b"], "b before a"),
    ("100%% sure", [], "100% sure"), ("%d items", ["3"], "3 items"), ("%@ %@", ["only"], "only "),
  ])
  func formats(format: String, arguments: [String], expected: String) {
    #expect(Localization.format(format, arguments) == expected)
  }

  @Test func missingKeysShowTheKey() {
    #expect(Localization.resolve(key: "UNKNOWN_KEY", arguments: [], table: [:]) == "UNKNOWN_KEY")
  }
}

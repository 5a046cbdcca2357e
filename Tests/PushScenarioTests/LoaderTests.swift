import PushCore
import PushTestSupport
import Testing

@testable import PushScenario

/// Loading profiles and scenarios: every key read, and every error located.
struct LoaderTests {
  let fullProfile = """
    start: 2026-11-23 09:41
    timeZone: Europe/Berlin
    locked: true
    silentMode: true
    installsUnknownApps: false
    silentPushesPerHour: 2
    summaryTimes: ["18:00", "8:00"]
    activeFocus: work
    focusModes:
      - id: work
        kind: work
        allowedApps: [com.example.chat]
        allowedPeople: [Ana]
        timeSensitive: false
        showSilencedOnLockScreen: true
        dimLockScreen: true
        filterCriteria: {com.example.mail: [work, urgent]}
    engagement:
      com.example.chat: {taps: 3, dismissals: 1}
    apps:
      - bundle: com.example.chat
        name: Chat
        icon: 💬
        authorization: provisional
        state: foreground
        foregroundPresentation: [banner, sound]
        serviceExtension: true
        backgroundMode: false
        entitlements: [criticalAlerts]
        settings:
          lockScreen: false
          notificationCenter: false
          banners: false
          bannerStyle: persistent
          sounds: false
          badges: false
          showPreviews: never
          grouping: byApp
          timeSensitive: false
          criticalAlerts: false
          directMessages: false
          delivery: scheduledSummary
        categories:
          - id: MESSAGE
            actions:
              - {id: REPLY, title: Reply, textInput: {button: Send, placeholder: Message}}
              - {id: DELETE, title: Delete, options: [destructive, authenticationRequired, foreground]}
            options: [customDismissAction, hiddenPreviewsShowTitle, hiddenPreviewsShowSubtitle]
            hiddenPreviewsPlaceholder: "%u messages"
            summaryFormat: "%u more"
        localizations: {GREETING: "Hi %@"}
      - bundle: com.example.mail
        foregroundPresentation: none
        localizations: Mail.strings
    """

  let files = ScenarioFiles.memory([
    "dir/Mail.strings": "/* c */ \"SUBJECT\" = \"New mail: %@\";\n// x\n\"Q\" = \"say \\\"hi\\\"\\n\";\n",
    "dir/payload.apns":
      #"{"Simulator Target Bundle": "com.example.chat", "aps": {"alert": "from file", "category": "MSG"}}"#,
    "dir/bad.json": #"{"aps": {"alert": "x",}}"#,
  ])

  @Test func everyProfileKeyIsRead() throws {
    let profile = try ScenarioLoader(files: files).loadProfile(text: fullProfile, file: "dir/profile.yaml")
    #expect(profile.start == SimInstant(milliseconds: 1_795_423_260_000))  // 08:41Z
    #expect(profile.timeZoneName == "Europe/Berlin")
    #expect(profile.utcOffsetSeconds == 3600)
    #expect(profile.isLocked && profile.isSilentMode && !profile.installsUnknownApps)
    #expect(profile.silentPushesPerHour == 2)
    #expect(profile.summaryTimes == [TimeOfDay(hour: 8, minute: 0), TimeOfDay(hour: 18, minute: 0)])
    #expect(profile.activeFocusID == "work")
    #expect(profile.focusModes.map(\.id) == ["dnd", "sleep", "work"])
    let work = try #require(profile.focusModes.last)
    #expect(work.kind == .work && work.name == "Work" && !work.allowsTimeSensitive)
    #expect(work.allowedApps == ["com.example.chat"] && work.allowedPeople == ["Ana"])
    #expect(work.showsSilencedOnLockScreen && work.dimsLockScreen)
    #expect(work.filterCriteria == ["com.example.mail": ["work", "urgent"]])
    #expect(profile.engagement["com.example.chat"] == Engagement(taps: 3, dismissals: 1))
    let chat = try #require(profile.apps.first)
    #expect(chat.info == AppInfo(bundleID: "com.example.chat", displayName: "Chat", iconGlyph: "💬"))
    #expect(chat.authorization == .provisional && chat.state == .foreground)
    #expect(chat.foregroundPresentation == [.banner, .sound])
    #expect(chat.hasServiceExtension && !chat.backgroundRemoteNotifications)
    #expect(chat.criticalAlertsEntitled && !chat.timeSensitiveEntitled)
    var expected = AppNotificationSettings()
    expected.lockScreen = false
    expected.notificationCenter = false
    expected.banners = false
    expected.bannerStyle = .persistent
    expected.sounds = false
    expected.badges = false
    expected.showPreviews = .never
    expected.grouping = .byApp
    expected.timeSensitive = false
    expected.criticalAlerts = false
    expected.directMessages = false
    expected.delivery = .scheduledSummary
    #expect(chat.settings == expected)
    let category = try #require(chat.categories.first)
    #expect(category.identifier == "MESSAGE")
    #expect(category.options == [.customDismissAction, .hiddenPreviewsShowTitle, .hiddenPreviewsShowSubtitle])
    #expect(category.hiddenPreviewsBodyPlaceholder == "%u messages" && category.summaryFormat == "%u more")
    #expect(category.actions[0].isTextInput && category.actions[0].textInputPlaceholder == "Message")
    #expect(category.actions[1].options == [.destructive, .authenticationRequired, .foreground])
    #expect(chat.localizations == ["GREETING": "Hi %@"])
    let mail = try #require(profile.apps.last)
    #expect(mail.foregroundPresentation == nil)
    #expect(mail.info.displayName == "Mail")
    #expect(mail.localizations == ["SUBJECT": "New mail: %@", "Q": "say \"hi\"\n"])
  }

  @Test func xcstringsUseTheSourceLanguage() throws {
    let table = try StringsFiles.xcstrings(
      #"{"sourceLanguage": "en", "strings": {"A": {"localizations": {"en": {"stringUnit": {"value": "Hello %@"}}}}, "B": {}}}"#,
      file: "x.xcstrings")
    #expect(table == ["A": "Hello %@", "B": "B"])
  }

  @Test func timelineEventsAndTimes() throws {
    let text = """
      profile:
        start: 2026-11-23T09:00:00Z
        apps:
          - bundle: com.example.chat
            categories: [{id: MSG, actions: [{id: LIKE, title: Like}, {id: ANSWER, title: Reply, textInput: {}}]}]
        focusModes: [{id: work, kind: work}]
      timeline:
        - at: +1m
          push:
            bundle: com.example.chat
            token: 0a1b2c3d4e5f6071
            sender: Ana
            headers: {apns-collapse-id: c1, apns-priority: 10}
            payload: {aps: {alert: {title: Hi, body: There}, badge: 1, relevance-score: 0.5}}
        - after: 30s
          push: {file: payload.apns}
        - focus: work
        - after: 1m
          lock:
        - unlock: true
        - set: {bundle: com.example.chat, authorization: denied, state: notRunning, settings: {banners: false}}
        - open: 1
        - tap: {push: 2}
        - clear: c1
        - clearGroup: {collapseId: c1}
        - clearAll:
        - action: {notification: 1, id: LIKE}
        - reply: {notification: 2, text: On my way}
        - at: 2026-11-23T10:00:00Z
          advance: 5m
        - at: 2026-11-23 10:06
          focus: off
      """
    let scenario = try ScenarioLoader(files: files).loadScenario(text: text, file: "dir/s.yaml")
    let start = SimInstant(milliseconds: 1_795_424_400_000)
    let times = scenario.timeline.map { ($0.at - start).milliseconds / 1000 }
    #expect(times == [60, 90, 90, 150, 150, 150, 150, 150, 150, 150, 150, 150, 150, 150, 150, 3900, 3960])
    guard case .device(.push(let record, let sender)) = scenario.timeline[0].event else {
      Issue.record("expected a push")
      return
    }
    #expect(sender == "Ana" && record.token == "0a1b2c3d4e5f6071" && record.isValid)
    #expect(record.headers.collapseID == "c1" && record.payload?.aps.badge == 1)
    #expect(record.source == "dir/s.yaml:14")
    guard case .device(.push(let fromFile, nil)) = scenario.timeline[1].event else {
      Issue.record("expected a push from a file")
      return
    }
    #expect(fromFile.bundleID == "com.example.chat" && fromFile.source == "dir/payload.apns")
    let events = scenario.timeline.dropFirst(2).map(\.event)
    #expect(
      events == [
        .device(.focus("work")), .device(.lock), .device(.unlock),
        .device(.setting(bundleID: "com.example.chat", .authorization(.denied))),
        .device(.setting(bundleID: "com.example.chat", .state(.notRunning))),
        .device(.setting(bundleID: "com.example.chat", .banners(false))),
        .open(.push(1)), .open(.push(2)), .clear(.collapseID("c1")), .clearGroup(.collapseID("c1")),
        .device(.clearAll), .action(.push(1), actionID: "LIKE"), .reply(.push(2), actionID: nil, text: "On my way"),
        .advance, .device(.focus(nil)),
      ])
  }

  @Test func invalidPayloadsAreKeptWithDiagnostics() throws {
    let text = """
      timeline:
        - push: {bundle: com.example.chat, file: bad.json}
        - push: {bundle: com.example.chat, payload: '{"aps": {"badge": "3"}}'}
      """
    let scenario = try ScenarioLoader(files: files).loadScenario(text: text, file: "dir/s.yaml")
    let run = scenario.run()
    // A string badge is ignored by the device (the verdict table), which leaves nothing to show:
    // delivered to the device and dropped by its policy, not rejected.
    #expect(run.records.map(\.decision.disposition) == [.rejected, .dropped])
    #expect(run.records[1].decision.reasonCodes == [.keyIgnored, .nothingToShow])
    #expect(run.records[0].diagnostics.first?.code == .trailingComma)
    #expect(run.records[1].source == "dir/s.yaml:3")
  }

  @Test func inlinePayloadDiagnosticsSayWhatTheyCountIn() throws {
    let text = """
      timeline:
        - push: {bundle: a.b, payload: '{"aps": {"alert": "x",}}'}
        - push:
            bundle: a.b
            payload: |
              {"aps": {"alert": "x",
                       "badge": "3"}}
        - push: {bundle: a.b, payload: {aps: {alert: x, badge: "3"}}}
      """
    let scenario = try ScenarioLoader(files: files).loadScenario(text: text, file: "s.yaml")
    let records = scenario.timeline.compactMap { timed -> PushRecord? in
      if case .device(.push(let record, _)) = timed.event { record } else { nil }
    }
    let located = records.map { $0.diagnostics.first?.location }
    // Strings, whatever their YAML style: in the string, said so.
    #expect(located[0] == TextLocation(line: 1, column: 23, offset: 22, within: "the payload string"))
    #expect(located[1]?.line == 2 && located[1]?.within == "the payload string")
    #expect(records[1].diagnostics.first?.place == " at aps.badge 2:19 of the payload string")
    // A mapping's JSON text is Pushdeck's: no place in it, only the key path.
    #expect(located[2] == nil && records[2].diagnostics.first?.path == "aps.badge")
    #expect(records.map(\.source) == ["s.yaml:2", "s.yaml:5", "s.yaml:8"])
  }

  // MARK: Errors

  func error(_ text: String, file: String = "s.yaml") -> String {
    do {
      _ = try ScenarioLoader(files: files).loadScenario(text: text, file: file)
      return "no error"
    } catch {
      return error.description
    }
  }

  @Test func wrongTypesNameFileLineColumnAndKeyPath() {
    let text = """
      profile:
        apps:
          - bundle: a.b
          - bundle: c.d
            settings:
              banners: yes please
      timeline: []
      """
    #expect(error(text) == #"s.yaml:6:18: profile.apps[1].settings.banners: expected true or false, got "yes please""#)
    #expect(
      error("profile: {locked: 1}\ntimeline: []") == "s.yaml:1:19: profile.locked: expected true or false, got 1")
    #expect(
      error("profile: {silentPushesPerHour: many}\ntimeline: []")
        == #"s.yaml:1:32: profile.silentPushesPerHour: expected a whole number, got "many""#)
    #expect(error("timeline: {a: 1}") == "s.yaml:1:11: timeline: expected a list, got a mapping")
  }

  @Test func unknownKeysSuggestTheClosest() {
    #expect(
      error("profile: {lockd: true}\ntimeline: []").hasPrefix(
        #"s.yaml:1:11: profile.lockd: unknown key "lockd" (did you mean "locked"?); expected one of start, timeZone"#))
    #expect(
      error("timline: []").hasPrefix(#"s.yaml:1:1: timline: unknown key "timline" (did you mean "timeline"?)"#))
  }

  @Test func badEnumValuesListTheValidOnes() {
    #expect(
      error("profile: {apps: [{bundle: a.b, settings: {bannerStyle: sticky}}]}\ntimeline: []")
        == #"s.yaml:1:56: profile.apps[0].settings.bannerStyle: expected one of temporary, persistent, got "sticky""#)
    #expect(
      error("profile: {apps: [{bundle: a.b, authorization: authorised}]}\ntimeline: []")
        == #"s.yaml:1:47: profile.apps[0].authorization: expected one of notDetermined, denied, authorized, provisional, ephemeral, got "authorised" (did you mean "authorized"?)"#
    )
    #expect(error("timeline:\n  - focus: slep").contains(#"(did you mean "sleep"?)"#))
  }

  @Test func badTimesSayWhatIsExpected() {
    #expect(
      error("profile: {start: tomorrow}\ntimeline: []")
        == #"s.yaml:1:18: profile.start: expected a date and time such as 2026-11-23T09:41:00+01:00 or 2026-11-23 09:41, got "tomorrow""#
    )
    #expect(
      error("timeline:\n  - after: soon\n    lock:")
        == #"s.yaml:2:12: timeline[0].after: expected a duration such as 30s, 5m, 1h30m or 250ms, got "soon""#)
    #expect(
      error("timeline:\n  - at: +5m\n    lock:\n  - at: +1m\n    unlock:").hasPrefix(
        "s.yaml:4:9: timeline[1].at: this event is at 2026-11-23T09:42:00Z, before the previous one (2026-11-23T09:46:00Z)"
      ))
    #expect(
      error("profile: {timeZone: Mars/Olympus}\ntimeline: []").hasPrefix(
        #"s.yaml:1:21: profile.timeZone: unknown time zone "Mars/Olympus""#))
  }

  @Test func missingFilesAndKeys() {
    #expect(
      error("timeline:\n  - push: {bundle: a.b, file: nope.apns}", file: "dir/s.yaml")
        == #"dir/s.yaml:2:31: timeline[0].push.file: cannot read the payload "nope.apns" (dir/nope.apns): no such file"#
    )
    #expect(
      error("profile: missing.yaml\ntimeline: []", file: "dir/s.yaml")
        == #"dir/s.yaml:1:10: profile: cannot read the profile "missing.yaml" (dir/missing.yaml): no such file"#)
    #expect(
      error("timeline:\n  - push: {payload: {aps: {alert: x}}}").hasPrefix(
        #"s.yaml:2:11: timeline[0].push: missing "bundle""#))
    #expect(error("profile: {}") == #"s.yaml:1:1: missing "timeline": expected a list of events"#)
    #expect(
      error("timeline:\n  - open: 1")
        == "s.yaml:2:11: timeline[0].open: no push comes before this event, so there is no notification 1")
    // A number that is not whole is neither a push number nor (unquoted) a collapse id.
    let push = "timeline:\n  - push: {bundle: a.b, payload: {aps: {alert: hi}}}\n"
    #expect(
      error(push + "  - open: 1.5").hasPrefix("s.yaml:3:11: timeline[1].open: expected the number of an earlier push"))
    #expect(error(push + "  - open: 1e0").contains("got the number 1e0; quote it"))
    #expect(error(push + "  - open: \"1.5\"") == "no error")
    #expect(error("timeline:\n  - lock:\n    unlock:").hasPrefix("s.yaml:2:5: timeline[0]: one event per entry"))
    #expect(error("a: [").hasPrefix("s.yaml:2:1: YAML syntax error"))
  }

  @Test func setOnAnAppThatIsNotInstalledSaysHowToInstallIt() {
    // No apps listed: the message used to end in "expected one of " and nothing.
    #expect(
      error("profile: {installsUnknownApps: false}\ntimeline:\n  - set: {bundle: com.ex.nothere, state: foreground}")
        == "s.yaml:3:19: timeline[0].set.bundle: com.ex.nothere is not installed: the profile lists no apps and installsUnknownApps is false; add it under profile.apps (- bundle: com.ex.nothere) or set installsUnknownApps: true"
    )
    #expect(
      error(
        "profile: {installsUnknownApps: false, apps: [{bundle: com.ex.here}]}\ntimeline:\n  - set: {bundle: com.ex.her, state: foreground}"
      )
        == #"s.yaml:3:19: timeline[0].set.bundle: com.ex.her is not installed (did you mean "com.ex.here"?); expected one of com.ex.here, or add it under profile.apps (- bundle: com.ex.her) or set installsUnknownApps: true"#
    )
    // A profile file: its apps: are named where they are.
    let loader = ScenarioLoader(files: .memory(["p/profile.yaml": "installsUnknownApps: false\n"]))
    do {
      _ = try loader.loadScenario(
        text: "profile: profile.yaml\ntimeline:\n  - set: {bundle: a.b, state: foreground}", file: "p/s.yaml")
      Issue.record("expected an error")
    } catch {
      #expect(
        error.description.hasSuffix(
          "; add it under apps: in p/profile.yaml (- bundle: a.b) or set installsUnknownApps: true"))
    }
  }

  static let chatProfile = """
    profile:
      apps:
        - bundle: com.ex.chat
          categories:
            - {id: C, actions: [{id: A, title: A}, {id: B, title: B}]}
            - {id: MSG, actions: [{id: LIKE, title: Like}, {id: ANSWER, title: Reply, textInput: {}}]}
    timeline:
      - push: {bundle: com.ex.chat, payload: {aps: {alert: Hi}}}
      - push: {bundle: com.ex.chat, payload: {aps: {alert: Hi, category: C}}}
      - push: {bundle: com.ex.chat, payload: {aps: {alert: Hi, category: MSG}}}
      - push: {bundle: com.ex.chat, payload: {aps: {alert: Hi, category: NEWS}}}

    """

  /// An action or reply the notification cannot offer is a located error where the loader can
  /// know it (found by an exploratory test: they were accepted and "succeeded").
  @Test func responsesANotificationCannotOfferAreLocatedErrors() {
    let chat = Self.chatProfile
    #expect(
      error(chat + "  - action:\n      notification: 2\n      id: NOPE\n")
        == "s.yaml:14:11: timeline[4].action.id: category C has no action NOPE; expected one of A, B")
    #expect(
      error(chat + "  - action: {notification: 1, id: A}\n")
        == "s.yaml:12:28: timeline[4].action.notification: push 1 (s.yaml:8) has no category, so it offers no actions and action A is not possible; give its payload an aps.category that the app declares under categories: in profile.apps"
    )
    #expect(
      error(chat + "  - action: {notification: 3, id: LIK}\n")
        .hasSuffix(#"category MSG has no action LIK (did you mean "LIKE"?); expected one of LIKE, ANSWER"#))
    #expect(
      error(chat + "  - action: {notification: 2, id: default}\n")
        .hasSuffix("category C has no action default (a tap is open: 2); expected one of A, B"))
    #expect(
      error(chat + "  - action: {notification: 4, id: A}\n")
        == #"s.yaml:12:28: timeline[4].action.notification: push 4 (s.yaml:11) has category NEWS, which com.ex.chat does not declare, so action A is not possible; expected one of C, MSG, or declare NEWS under the app's categories: in profile.apps"#
    )
    // A reply needs a text-input action: the one named, or the category's first.
    #expect(
      error(chat + "  - reply: {notification: 2, text: hello}\n")
        == "s.yaml:12:12: timeline[4].reply: category C has no text-input action to reply with; give one of its actions textInput: {button: …}, or pick one of A, B with action: instead of reply:"
    )
    #expect(
      error(chat + "  - reply: {notification: 1, text: hello}\n").contains(
        "timeline[4].reply.notification: push 1 (s.yaml:8) has no category, so it offers no actions and a reply is not possible"
      ))
    #expect(
      error(chat + "  - reply: {notification: 3, text: hello, action: LIKE}\n")
        == "s.yaml:12:51: timeline[4].reply.action: action LIKE of category MSG takes no text input, so it cannot send a reply; expected one of ANSWER (its text-input actions), or use action: {notification: 3, id: LIKE} without text"
    )
  }

  @Test func responsesTheLoaderCannotJudgeArePlayed() throws {
    let loader = ScenarioLoader(files: .none)
    // action: default in a reply is the category's first text-input action.
    let replied = try loader.loadScenario(
      text: Self.chatProfile + "  - reply: {notification: 3, text: hello, action: default}\n", file: "s.yaml")
    #expect(replied.timeline.last?.event == .reply(.push(3), actionID: nil, text: "hello"))
    #expect(replied.run().device.responses.map(\.actionID) == ["ANSWER"])
    // A push with a collapse id may be replaced before the action: the device judges it.
    let collapsing = """
      profile: {apps: [{bundle: a.b, categories: [{id: C, actions: [{id: A, title: A}]}]}]}
      timeline:
        - push: {bundle: a.b, headers: {apns-collapse-id: k}, payload: {aps: {alert: one, category: C}}}
        - push: {bundle: a.b, headers: {apns-collapse-id: k}, payload: {aps: {alert: two}}}
        - action: {notification: 1, id: A}
      """
    let run = try loader.loadScenario(text: collapsing, file: "s.yaml").run()
    #expect(run.device.refusedResponses.map(\.reason) == ["the notification has no category"])
    // Without a profile of its own, a scenario may play on one that declares the category.
    let borrowed =
      "timeline:\n  - push: {bundle: a.b, payload: {aps: {alert: x, category: C}}}\n  - action: {notification: 1, id: A}\n"
    let onProfile = try loader.loadProfile(
      text: "apps: [{bundle: a.b, categories: [{id: C, actions: [{id: A, title: A}]}]}]", file: "p.yaml")
    let played = try loader.loadScenario(text: borrowed, file: "s.yaml", defaultProfile: onProfile).run()
    #expect(played.device.responses.map(\.actionID) == ["A"])
    #expect(try loader.loadScenario(text: borrowed, file: "s.yaml").run().device.refusedResponses.count == 1)
  }

  @Test func errorsInsideAProfileFileNameThatFile() {
    let loader = ScenarioLoader(files: .memory(["p/profile.yaml": "apps:\n  - bundle: a.b\n    state: asleep\n"]))
    do {
      _ = try loader.loadScenario(text: "profile: profile.yaml\ntimeline: []", file: "p/s.yaml")
      Issue.record("expected an error")
    } catch {
      #expect(
        error.description
          == #"p/profile.yaml:3:12: apps[0].state: expected one of foreground, background, notRunning, forceQuit, got "asleep""#
      )
    }
  }
}

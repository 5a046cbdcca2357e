import Foundation
import PushCore
import PushStore
import PushTestSupport
import Testing

/// `pushdeck replay`: a generated capture into a state database, continued by a second replay,
/// and the exit-status contract. (Its speed is measured by `Benchmarks/replay.sh`.)
@Suite(.requires(PushdeckProcess.binary != nil, "the pushdeck binary was not built"))
struct ReplayCLITests {
  /// The number after `"key":` in a one-line JSON summary.
  func number(_ key: String, in json: String) -> Int? {
    guard let range = json.range(of: "\"\(key)\":") else { return nil }
    return Int(json[range.upperBound...].prefix { $0.isNumber })
  }

  @Test func replaysACaptureIntoTheStateAndContinuesIt() throws {
    let (capture, expected) = try CaptureGenerator.generate(lines: 3_000, seed: 11, badRate: 0)
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("replay-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let state = directory.appendingPathComponent("device.sqlite").path
    let first = try PushdeckProcess.run([
      "replay", "--state", state, "--batch", "250", "--format", "json", capture.path,
    ])
    #expect(first.status == 0, "\(first.standardError)")
    #expect(number("pushes", in: first.standardOutput) == expected.lines)
    #expect(first.standardOutput.contains("\"state\":\"\(state)\""))
    let stored = try #require(number("stored", in: first.standardOutput))
    #expect(stored > 0 && stored <= expected.accepted)
    #expect(FileManager.default.fileExists(atPath: state))
    // The same pushes without a database give the same Notification Center.
    let ephemeral = try PushdeckProcess.run(["replay", "--ephemeral", "--format", "json", capture.path])
    #expect(number("stored", in: ephemeral.standardOutput) == stored)
    #expect(ephemeral.standardOutput.contains("\"state\":null"))
    // A second replay (--again: the state already holds this capture) continues the saved
    // device: its notifications are still there.
    let second = try PushdeckProcess.run(["replay", "--state", state, "--again", "--format", "json", capture.path])
    #expect(second.status == 0, "\(second.standardError)")
    #expect(try #require(number("stored", in: second.standardOutput)) > stored)
    let text = try PushdeckProcess.run(["replay", "--ephemeral", capture.path])
    #expect(text.standardOutput.contains("Replayed \(expected.lines) pushes"))
    #expect(text.standardOutput.contains("State: ephemeral"))
    // One push is one push ("Replayed 1 pushes" before; found by an exploratory test).
    let one = try PushdeckProcess.run(
      ["replay", "--ephemeral", "-"], input: Data(#"{"aps":{"alert":"hi"}}"#.utf8 + [10]))
    #expect(one.standardOutput.hasPrefix("Replayed 1 push in "), "\(one.standardOutput)")
  }

  /// Without `--state`, a replay's files choose its device as `run`'s do: the database `run`
  /// opens for the same files (found by the exploratory test of 26 Nov: a replay went into the
  /// shared `device.sqlite`, so `run` on the same capture did not see it, and every capture
  /// replayed without `--state` played into one device). Another capture gets another device;
  /// standard input alone, the shared one.
  @Test func withoutAStateAReplayGoesToTheDeviceRunOpensForTheSameFiles() throws {
    let directory = try PushdeckProcess.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let data = directory.appendingPathComponent("data").path
    func capture(_ name: String, minute: Int) throws -> String {
      let path = directory.appendingPathComponent(name).path
      let line =
        #"{"at": \#(1_767_254_400 + minute * 60), "bundle": "com.example.app", "#
        + #""payload": {"aps": {"alert": "m\#(minute)"}}}"#
      try (line + "\n").write(toFile: path, atomically: true, encoding: .utf8)
      return path
    }
    let week = try capture("week.jsonl", minute: 1)
    let other = try capture("other.jsonl", minute: 2)
    func replay(_ arguments: [String], input: Data? = nil) throws -> String? {
      let result = try PushdeckProcess.run(
        ["replay", "--format", "json"] + arguments, input: input, environment: ["XDG_DATA_HOME": data])
      #expect(result.status == 0, "\(result.standardError)")
      guard let range = result.standardOutput.range(of: #""state":""#) else { return nil }
      return String(result.standardOutput[range.upperBound...].prefix { $0 != "\"" })
    }
    func runsDevice(_ inputs: [String]) throws -> String {
      let location = try StateLocation.resolve(
        statePath: nil, ephemeral: false, environment: ["XDG_DATA_HOME": data],
        inputs: inputs.map { URL(fileURLWithPath: $0).resolvingSymlinksInPath().standardizedFileURL.path })
      guard case .file(let path) = location else { throw CocoaError(.fileNoSuchFile) }
      return path
    }
    let weekState = try #require(try replay([week]))
    #expect(weekState == (try runsDevice([week])))
    #expect(weekState.contains("/pushdeck/devices/week-"), "\(weekState)")
    #expect(FileManager.default.fileExists(atPath: weekState))
    let otherState = try #require(try replay([other]))
    #expect(otherState != weekState, "another capture never plays into the first one's device")
    // Named by its absolute path: from another directory, through a relative path, the same device.
    let again = try PushdeckProcess.run(
      ["replay", "--format", "json", "week.jsonl"], environment: ["XDG_DATA_HOME": data], directory: directory)
    #expect(again.standardOutput.contains(#""state":"\#(weekState)""#), "\(again.standardOutput)")
    #expect(again.standardError.contains("already in the state"), "\(again.standardError)")
    let stdin = try #require(try replay(["-"], input: try Data(contentsOf: URL(fileURLWithPath: other))))
    #expect(stdin == data + "/pushdeck/device.sqlite")
    // A mistyped path makes no database of its own: nothing is opened when no input can be read.
    let typo = try PushdeckProcess.run(
      ["replay", directory.appendingPathComponent("typo.jsonl").path], environment: ["XDG_DATA_HOME": data])
    #expect(typo.status == 2)
    #expect(typo.standardError.contains("typo.jsonl: no such file or directory"), "\(typo.standardError)")
    let devices = try FileManager.default.contentsOfDirectory(atPath: data + "/pushdeck/devices")
    #expect(!devices.contains { $0.hasPrefix("typo-") }, "\(devices)")
  }

  /// Notifications held for the Scheduled Summary are stored but not yet in Notification
  /// Center: the summary says how many of the stored are held (it counted them as in it).
  @Test func theSummarySaysHowManyAreHeldForTheScheduledSummary() throws {
    let directory = try PushdeckProcess.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let profile = directory.appendingPathComponent("profile.yaml").path
    try """
    start: 2026-01-01 07:00
    timeZone: UTC
    summaryTimes: ["8:00"]
    apps:
      - {bundle: com.ex.news, settings: {delivery: scheduledSummary}}
    """.write(toFile: profile, atomically: true, encoding: .utf8)
    let capture = directory.appendingPathComponent("news.jsonl").path
    try [1, 2, 3].map { minute in
      #"{"at": \#(1_767_250_800 + minute * 60), "bundle": "com.ex.\#(minute == 3 ? "chat" : "news")", "#
        + #""payload": {"aps": {"alert": "n\#(minute)"}}}"#
    }.joined(separator: "\n").write(toFile: capture, atomically: true, encoding: .utf8)
    let json = try PushdeckProcess.run(["replay", "--ephemeral", "--profile", profile, "--format", "json", capture])
    #expect(json.status == 0, "\(json.standardError)")
    #expect(number("stored", in: json.standardOutput) == 3)
    #expect(number("held", in: json.standardOutput) == 2, "\(json.standardOutput)")
    let text = try PushdeckProcess.run(["replay", "--ephemeral", "--profile", profile, capture])
    #expect(text.standardOutput.contains("(2 of them held for the Scheduled Summary)"), "\(text.standardOutput)")
  }

  /// A continued state keeps its lock and Focus, unless `--profile` names a preset, which wins
  /// for what it names (journalled, so the next replay finds it): `dnd` turns Do Not Disturb on
  /// and keeps the lock; `locked` then locks and keeps Do Not Disturb.
  @Test func aNamedPresetOverridesWhatItNamesOfAContinuedState() throws {
    let directory = try PushdeckProcess.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let state = directory.appendingPathComponent("device.sqlite").path
    func replay(_ minute: Int, _ options: [String] = []) throws {
      let capture = directory.appendingPathComponent("minute-\(minute).jsonl")
      let line =
        #"{"at": \#(1_767_254_400 + minute * 60), "bundle": "com.example.app", "#
        + #""payload": {"aps": {"alert": "m\#(minute)"}}}"#
      try line.write(to: capture, atomically: true, encoding: .utf8)
      let result = try PushdeckProcess.run(["replay", "--state", state] + options + [capture.path])
      #expect(result.status == 0, "\(result.standardError)")
    }
    try replay(0)
    try replay(1, ["--profile", "dnd"])
    try replay(2, ["--profile", "locked"])
    try replay(3)
    let journal = try DeviceJournal.open(at: state)
    defer { try? journal.close() }
    let restored = try journal.restore()
    let decisions = restored.notifications.map(\.decision)
    #expect(decisions.count == 4)
    #expect(decisions[0].disposition == .delivered && decisions[0].surfaces.contains(.banner))
    // Do Not Disturb silences the rest; the lock screen lights only once the phone is locked.
    #expect(decisions.dropFirst().allSatisfy { $0.disposition == .deliveredQuietly })
    #expect(decisions[1].reasons.contains { $0.code == .focusSilenced })
    #expect(!decisions[1].reasons.contains { $0.code == .phoneLocked })
    #expect(decisions[2].reasons.contains { $0.code == .focusSilenced })
    #expect(decisions[3].reasons.contains { $0.code == .focusSilenced })
    #expect(restored.state?.isLocked == true)
    #expect(restored.state?.activeFocusID == FocusMode.doNotDisturb.id)
  }

  @Test func rejectedPushesExitOneAndUsageErrorsTwo() throws {
    let (capture, _) = try CaptureGenerator.generate(lines: 500, seed: 3, badRate: 0.05)
    #expect(try PushdeckProcess.run(["replay", "--ephemeral", capture.path]).status == 1)
    #expect(try PushdeckProcess.run(["replay", "--ephemeral"]).status == 2)
    #expect(try PushdeckProcess.run(["replay", "--ephemeral", "--batch", "0", capture.path]).status == 2)
    #expect(try PushdeckProcess.run(["replay", "--ephemeral", "--state", "x.sqlite", capture.path]).status == 2)
    #expect(try PushdeckProcess.run(["replay", "--ephemeral", "/nonexistent/capture.jsonl"]).status == 2)
  }
}

/// Notification Center's limit (`maxStoredNotifications`): the oldest go, each removal is
/// explained, replay counts them, and a bad limit is a located profile error.
@Suite(.requires(PushdeckProcess.binary != nil, "the pushdeck binary was not built"))
struct StoredNotificationLimitCLITests {
  @Test func theOldestGoWhenNotificationCenterIsFull() throws {
    let directory = try PushdeckProcess.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let profile = directory.appendingPathComponent("small.yaml")
    try "maxStoredNotifications: 2\n".write(to: profile, atomically: true, encoding: .utf8)
    let capture = directory.appendingPathComponent("three.jsonl")
    try (1...3).map {
      #"{"at": \#(1_800_000_000 + $0), "bundle": "com.example.chat", "payload": {"aps": {"alert": "n\#($0)"}}}"#
    }
    .joined(separator: "\n").write(to: capture, atomically: true, encoding: .utf8)
    let explained = try PushdeckProcess.run(["explain", "--format", "json", "--profile", profile.path, capture.path])
    #expect(explained.status == 0, "\(explained.standardError)")
    let lines = explained.standardOutput.split(separator: "\n")
    #expect(lines.count == 3)
    #expect(!lines[1].contains("notificationCenterFull"))
    #expect(lines[2].contains(#""code":"notificationCenterFull""#))
    #expect(lines[2].contains("holds at most 2 notifications: the oldest (n1) was removed"))
    let replayed = try PushdeckProcess.run([
      "replay", "--ephemeral", "--profile", profile.path, "--format", "json", capture.path,
    ])
    #expect(replayed.standardOutput.contains(#""stored":2,"evicted":1"#), "\(replayed.standardOutput)")

    try "maxStoredNotifications: 0\n".write(to: profile, atomically: true, encoding: .utf8)
    let bad = try PushdeckProcess.run(["explain", "--profile", profile.path, capture.path])
    #expect(bad.status == 2)
    #expect(bad.standardError.contains("small.yaml:1"), "\(bad.standardError)")
    #expect(bad.standardError.contains("maxStoredNotifications"))
  }

  /// The summary says which pushes were rejected and why, the first ten of them, located as
  /// `validate` locates them: it counted them and said nothing more.
  @Test func theSummaryListsTheFirstRejectedPushes() throws {
    let directory = try PushdeckProcess.temporaryDirectory()
    let capture = directory.appendingPathComponent("c.jsonl")
    var lines = [#"{"at": 1795430000, "bundle": "com.a.b", "payload": {"aps": {"alert": "ok"}}}"#]
    for second in 1...12 { lines.append(#"{"at": \#(1795430000 + second), "bundle": "com.a.b", "payload": {bad}}"#) }
    try (lines.joined(separator: "\n") + "\n").write(to: capture, atomically: true, encoding: .utf8)
    let text = try PushdeckProcess.run(["replay", "--ephemeral", capture.path])
    #expect(text.status == 1)
    #expect(text.standardOutput.contains("Rejected, the first 10 of 12 (pushdeck validate lists every one):"))
    #expect(text.standardOutput.contains("\(capture.path):2:53: error[UnquotedKey]: key bad is not in double quotes"))
    #expect(text.standardOutput.contains("\(capture.path):11:"))
    #expect(!text.standardOutput.contains("\(capture.path):12:"))
    let json = try PushdeckProcess.run(["replay", "--ephemeral", "--format", "json", capture.path])
    #expect(json.standardOutput.contains(#""rejectedFirst":["\#(capture.path):2:53: error[UnquotedKey]"#))
  }
}

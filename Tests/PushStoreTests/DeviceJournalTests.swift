import Foundation
import GRDB
import PushCore
import PushTestSupport
import Testing

@testable import PushStore

@Suite struct DeviceJournalTests {
  /// A device with two apps, threads, a collapse, a held summary, a Live Activity, engagement,
  /// badges, a setting change and a Focus, journaled in three batches.
  func journaledDevice(into journal: DeviceJournal) throws -> DeviceSimulator {
    let profile = DeviceProfile.chatAndSummarisedNews(start: start)
    var device = DeviceSimulator(profile: profile)
    var batch = JournalBatch()
    let chat = [
      #"{"aps": {"alert": {"title": "Ann", "body": "Lunch? 🍜"}, "thread-id": "ann", "badge": 3}, "msg": {"id": [1, 2.50]}}"#,
      #"{"aps": {"alert": "score 1–0", "relevance-score": 0.7}}"#,
      #"{"aps": {"alert": {"title": "Bob", "body": "On my way"}, "thread-id": "bob", "sound": "default"}}"#,
      #"{"aps": {"alert": {"title": "Ann", "body": "Still there?"}, "thread-id": "ann", "interruption-level": "time-sensitive"}}"#,
    ]
    for (offset, payload) in chat.enumerated() {
      device.apply(
        .push(push(payload, line: offset + 1)), at: at(Int64(offset)), journalingInto: &batch)
    }
    device.apply(
      .push(
        push(#"{"aps": {"alert": "score 2–0"}}"#, headers: [("apns-collapse-id", "score")], line: 5)
      ), at: at(5),
      journalingInto: &batch)
    try journal.commit(batch)

    batch = JournalBatch()
    device.apply(
      .push(push(#"{"aps": {"alert": "Headline"}}"#, bundle: "com.example.news", line: 6)),
      at: at(6), journalingInto: &batch)
    let live =
      #"{"aps": {"timestamp": 1800000007, "event": "start", "attributes-type": "Delivery", "attributes": {"order": 7}, "content-state": {"eta": 12}, "alert": {"title": "Order", "body": "Cooking"}}}"#
    device.apply(
      .push(push(live, headers: [("apns-push-type", "liveactivity")], line: 7)), at: at(7),
      journalingInto: &batch)
    let bob = try #require(device.store.all.first { $0.notification.title == "Bob" })
    device.apply(.open(bob.id), at: at(8), journalingInto: &batch)
    device.apply(
      .setting(bundleID: "com.example.chat", .grouping(.byApp)), at: at(9), journalingInto: &batch)
    try journal.commit(batch)

    batch = JournalBatch()
    device.apply(
      .push(push(#"{"aps": {"alert": "after byApp", "thread-id": "zed"}}"#, line: 8)), at: at(10),
      journalingInto: &batch)
    device.apply(.focus("dnd"), at: at(11), journalingInto: &batch)
    device.apply(.lock, at: at(12), journalingInto: &batch)
    try journal.commit(batch)
    return device
  }

  /// Journals ``journaledDevice(into:)`` into a file of `directory`, closes it and opens it again.
  func journalAndReopen(in directory: TemporaryDirectory) throws -> (DeviceSimulator, DeviceJournal) {
    let path = directory.file("device.sqlite")
    let journal = try DeviceJournal.open(at: path)
    let original = try journaledDevice(into: journal)
    try journal.close()
    return (original, try DeviceJournal.open(at: path))
  }

  @Test func restoringRebuildsTheSameNotificationCenter() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let (original, reopened) = try journalAndReopen(in: directory)
    defer { try? reopened.close() }
    let restored = try reopened.restore()
    let device = DeviceSimulator(profile: original.profile, restoring: restored)

    #expect(device.store == original.store)
    #expect(device.store.rankedGroups().map(\.key) == original.store.rankedGroups().map(\.key))
    #expect(
      device.store.rankedGroups(includeHeld: true).map { $0.notifications.map(\.id) }
        == original.store.rankedGroups(includeHeld: true).map { $0.notifications.map(\.id) })
    #expect(device.profile.engagement == original.profile.engagement)
    #expect(device.profile.engagement["com.example.chat"]?.taps == 1)
    #expect(device.badges == original.badges)
    #expect(device.liveActivities == original.liveActivities)
    #expect(device.liveActivities.count == 1)
    #expect(device.app("com.example.chat")?.settings.grouping == .byApp)
    #expect(device.now == original.now)
    #expect(device.isLocked && device.activeFocusID == "dnd")
    #expect(restored.notifications.contains { $0.heldUntil != nil })
    let custom = try #require(device.store.all.first { $0.notification.title == "Ann" })
      .notification.customKeys
    #expect(custom.first?.value.compactText == #"{"id":[1,2.50]}"#)
  }

  /// A replay journals packed batches; the device it leaves must come back at its own time,
  /// not at the start of whatever profile the next command builds (`run` builds today's).
  @Test func aReplayedDeviceResumesItsClockNotTheNextProfilesStart() throws {
    let journal = try DeviceJournal.inMemory()
    var replayed = DeviceSimulator(profile: .standard(start: start))
    for part in 0..<2 {
      var batch = JournalBatch(packsDeliveries: true)
      for n in 0..<3 {
        let line = part * 3 + n + 1
        replayed.apply(
          push: push(#"{"aps": {"alert": "n\#(line)"}}"#, line: line), at: at(Int64(line) * 60),
          journalingInto: &batch)
      }
      try journal.commit(batch)
    }
    let restored = try journal.restore(keepsPayloadDetails: false)
    #expect(restored.state?.now == at(6 * 60))
    #expect(restored.clock == at(6 * 60))
    // The next command's profile starts 326 days later (a preset at today's demo morning).
    var later = DeviceProfile.standard(start: at(326 * 86_400))
    later.isLocked = true
    let device = DeviceSimulator(profile: later, restoring: restored)
    #expect(device.now == replayed.now)
    #expect(device.now == at(6 * 60))
    #expect(device.isLocked == replayed.isLocked)
  }

  /// Display As chosen in Settings is saved with the clock, lock and Focus and comes back with
  /// the device; a state saved without a choice, or with a value this build does not know,
  /// keeps the profile's.
  @Test func displayAsIsSavedWithTheClockAndRestored() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.file("device.sqlite")
    let journal = try DeviceJournal.open(at: path)
    var device = DeviceSimulator(profile: .standard(start: start))
    device.setLockScreenDisplay(.count)
    try journal.commit(
      {
        var batch = JournalBatch()
        batch.updates.state = device.savedState
        return batch
      }())
    let restored = try journal.restore()
    #expect(restored.state?.lockScreenDisplay == .count)
    // A device whose display is the profile's saves none: editing the profile still changes it.
    #expect(DeviceSimulator(profile: .standard(start: start)).savedState.lockScreenDisplay == nil)
    var profile = DeviceProfile.standard(start: start)
    profile.lockScreenDisplay = .list
    #expect(DeviceSimulator(profile: profile, restoring: restored).profile.lockScreenDisplay == .count)
    try journal.commit(
      {
        var batch = JournalBatch()
        batch.updates.state = RestoredDevice.State(now: at(60), isLocked: false, activeFocusID: nil)
        return batch
      }())
    #expect(DeviceSimulator(profile: profile, restoring: try journal.restore()).profile.lockScreenDisplay == .list)
    try journal.close()
    let queue = try DatabaseQueue(path: path)
    try queue.write { db in try db.execute(sql: "UPDATE device_state SET lock_screen_display = 'spiral'") }
    try queue.close()
    let reopened = try DeviceJournal.open(at: path)
    defer { try? reopened.close() }
    #expect(DeviceSimulator(profile: profile, restoring: try reopened.restore()).profile.lockScreenDisplay == .list)
  }

  /// A journal without a saved clock (deliveries appended on their own, or a state written by
  /// an older Pushdeck) resumes at its last delivery, never before it.
  @Test func withoutASavedClockTheDeviceResumesAtItsLastDelivery() throws {
    let journal = try DeviceJournal.inMemory()
    var device = DeviceSimulator(profile: .standard(start: start))
    var records: [DeliveryRecord] = []
    for n in 1...3 {
      let record = device.apply(.push(push(#"{"aps": {"alert": "n\#(n)"}}"#, line: n)), at: at(Int64(n) * 100))
      records.append(try #require(record))
    }
    try journal.append(records)
    let restored = try journal.restore()
    #expect(restored.state == nil)
    #expect(restored.clock == at(300))
    #expect(DeviceSimulator(profile: .standard(start: at(86_400)), restoring: restored).now == at(300))
    // A saved clock older than the journal's last event is not trusted past it.
    try journal.commit(
      {
        var batch = JournalBatch()
        batch.updates.state = RestoredDevice.State(now: at(200), isLocked: true, activeFocusID: nil)
        batch.updates.events = [JournalBatch.Event(.unlock, at: at(400))]
        return batch
      }())
    let later = try journal.restore()
    #expect(later.clock == at(400))
    #expect(DeviceSimulator(profile: .standard(start: start), restoring: later).now == at(400))
  }

  /// What a device is, as far as a user or the next push can tell. `packedAlike` compares every
  /// stored field too: not against the live device, whose stored notifications lack what the
  /// journal adds to their reasons (a removal to make room) and, read lean, their payload details.
  func expectSameDevice(_ device: DeviceSimulator, _ other: DeviceSimulator, packedAlike: Bool = true) {
    if packedAlike { #expect(device.store == other.store) }
    #expect(device.store.all.map(\.id).sorted() == other.store.all.map(\.id).sorted())
    #expect(device.store.count == other.store.count)
    #expect(
      device.store.rankedGroups(includeHeld: true).map { $0.notifications.map(\.id) }
        == other.store.rankedGroups(includeHeld: true).map { $0.notifications.map(\.id) })
    #expect(device.store.rankedGroups().map(\.key) == other.store.rankedGroups().map(\.key))
    #expect(
      device.store.all.filter { $0.heldUntil != nil }.map(\.id).sorted()
        == other.store.all.filter { $0.heldUntil != nil }.map(\.id).sorted())
    #expect(device.profile.engagement == other.profile.engagement)
    #expect(device.profile.apps == other.profile.apps)
    #expect(device.badges == other.badges)
    #expect(device.liveActivities == other.liveActivities)
    #expect(device.now == other.now)
    #expect(device.isLocked == other.isLocked && device.activeFocusID == other.activeFocusID)
  }

  @Test func theStreamedRestoreRebuildsTheSameDeviceAsTheArrayOne() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let (original, reopened) = try journalAndReopen(in: directory)
    defer { try? reopened.close() }
    #expect(try reopened.holdsDevice())
    for keepsDetails in [true, false] {
      var streamed = try reopened.restoreDevice(profile: original.profile, keepsPayloadDetails: keepsDetails)
      var fromArray = DeviceSimulator(
        profile: original.profile, restoring: try reopened.restore(keepsPayloadDetails: keepsDetails))
      expectSameDevice(streamed, fromArray)
      expectSameDevice(streamed, original, packedAlike: keepsDetails)
      #expect(streamed.store.all.contains { $0.heldUntil != nil })
      #expect(streamed.liveActivities.count == 1)
      #expect(
        streamed.store.all.map { $0.notification.customKeys.isEmpty }
          == fromArray.store.all.map { $0.notification.customKeys.isEmpty })
      // Both go on with the same ids and record indexes, and the summary is released the same.
      var live = original
      let next = push(#"{"aps": {"alert": "next", "thread-id": "ann"}}"#, line: 9)
      let expected = live.apply(.push(next), at: at(20))
      let fromStream = streamed.apply(.push(next), at: at(20))
      let fromRestore = fromArray.apply(.push(next), at: at(20))
      #expect(fromStream?.index == expected?.index && fromRestore?.index == expected?.index)
      #expect(fromStream?.notification?.id == expected?.notification?.id)
      #expect(fromRestore?.notification?.id == expected?.notification?.id)
      streamed.advance(to: at(86_400))
      fromArray.advance(to: at(86_400))
      live.advance(to: at(86_400))
      expectSameDevice(streamed, fromArray)
      expectSameDevice(streamed, live, packedAlike: keepsDetails)
    }
  }

  /// A device that keeps at most `limit` notifications, after `count` pushes ("n1", "n2"…, one a
  /// second, in threads when `threads`), journaled in memory.
  func journaledPastItsLimit(_ limit: Int, pushes count: Int, threads: Bool) throws -> (
    profile: DeviceProfile, device: DeviceSimulator, journal: DeviceJournal
  ) {
    var profile = DeviceProfile(start: start)
    profile.maxStoredNotifications = limit
    var device = DeviceSimulator(profile: profile)
    var batch = JournalBatch()
    for index in 1...count {
      let thread = threads ? #", "thread-id": "t\#(index % 2)""# : ""
      device.apply(
        .push(push(#"{"aps": {"alert": "n\#(index)"\#(thread)}}"#, line: index)), at: at(Int64(index)),
        journalingInto: &batch)
    }
    let journal = try DeviceJournal.inMemory()
    try journal.commit(batch)
    return (profile, device, journal)
  }

  @Test func theStreamedRestoreKeepsTheEvictionLimit() throws {
    var (profile, original, journal) = try journaledPastItsLimit(3, pushes: 5, threads: true)
    var device = try journal.restoreDevice(profile: profile)
    var fromArray = DeviceSimulator(profile: profile, restoring: try journal.restore())
    expectSameDevice(device, fromArray)
    expectSameDevice(device, original, packedAlike: false)
    let next = push(#"{"aps": {"alert": "n6"}}"#, line: 6)
    let expected = original.apply(.push(next), at: at(6))
    let actual = device.apply(.push(next), at: at(6))
    let fromRestore = fromArray.apply(.push(next), at: at(6))
    #expect(actual?.evicted == expected?.evicted && fromRestore?.evicted == expected?.evicted)
    #expect(actual?.evicted.count == 1)
    #expect(actual?.index == 5)
    expectSameDevice(device, fromArray)
    expectSameDevice(device, original, packedAlike: false)
  }

  /// An app with Notification Center off: what lit the locked phone is saved and comes back
  /// on the lock screen only; what only bannered is saved as a delivery, not as a notification.
  @Test func notificationsOutsideNotificationCenterComeBackOutsideIt() throws {
    var app = AppProfile(info: .inferred(from: "com.example.chat"))
    app.settings.notificationCenter = false
    var profile = DeviceProfile(start: start, isLocked: true)
    profile.apps = [app, AppProfile(info: .inferred(from: "com.example.mail"))]
    var device = DeviceSimulator(profile: profile)
    var batch = JournalBatch()
    device.apply(
      .push(push(#"{"aps": {"alert": "locked"}}"#, bundle: "com.example.chat", line: 1)), at: at(1),
      journalingInto: &batch)
    device.apply(
      .push(push(#"{"aps": {"alert": "mail"}}"#, bundle: "com.example.mail", line: 2)), at: at(2),
      journalingInto: &batch)
    device.apply(.unlock, at: at(3), journalingInto: &batch)
    device.apply(
      .push(push(#"{"aps": {"alert": "banner"}}"#, bundle: "com.example.chat", line: 3)), at: at(4),
      journalingInto: &batch)
    #expect(device.store.count == 2 && device.store.centerCount == 1)
    let journal = try DeviceJournal.inMemory()
    try journal.commit(batch)
    let restored = try journal.restoreDevice(profile: profile)
    #expect(restored.store.count == 2 && restored.store.centerCount == 1)
    #expect(restored.store.stacks(filter: .notificationCenter).map(\.key.bundleID) == ["com.example.mail"])
    #expect(restored.store.stacks(filter: .lockScreen).count == 2)
    expectSameDevice(restored, DeviceSimulator(profile: profile, restoring: try journal.restore()))
  }

  /// A push with no text that shares an apns-collapse-id (a badge and sound update) replaces
  /// nothing on the device; the journal wrote a "replaced" removal all the same, so the state
  /// lost a notification the replay still showed (found by an exploratory test).
  @Test func aCollapsedPushWithoutTextRemovesNothingFromTheState() throws {
    let profile = DeviceProfile(start: start)
    var device = DeviceSimulator(profile: profile)
    var batch = JournalBatch()
    let collapse = [("apns-collapse-id", "c1")]
    device.apply(
      .push(push(#"{"aps": {"alert": {"title": "First", "body": "one"}}}"#, headers: collapse, line: 1)), at: at(1),
      journalingInto: &batch)
    device.apply(
      .push(push(#"{"aps": {"alert": 42, "badge": 3, "sound": "default"}}"#, headers: collapse, line: 2)),
      at: at(2), journalingInto: &batch)
    #expect(device.store.count == 1)
    #expect(device.records.last?.decision.replaces == nil)
    #expect(device.records.last?.decision.reasons.contains { $0.code == .collapsedReplacement } == false)
    let journal = try DeviceJournal.inMemory()
    try journal.commit(batch)
    let restored = try journal.restoreDevice(profile: profile)
    #expect(restored.store.count == 1 && restored.store.all.first?.notification.title == "First")
  }

  /// The same for the other decisions that name a collapse target without storing the push or
  /// replacing it: an app in the foreground whose willPresent shows nothing, and a provisional
  /// app's push without text. The journal removes only what the device removed.
  @Test(arguments: ["foreground", "provisional"])
  func aCollapseTheDeviceDoesNotMakeIsNotJournaled(_ kind: String) throws {
    var app = AppProfile(info: .inferred(from: "com.example.app"))
    if kind == "provisional" { app.authorization = .provisional }
    // In the foreground later, its willPresent shows nothing.
    if kind == "foreground" { app.foregroundPresentation = [] }
    let profile = DeviceProfile(start: start, apps: [app])
    var device = DeviceSimulator(profile: profile)
    var batch = JournalBatch()
    let collapse = [("apns-collapse-id", "c1")]
    device.apply(
      .push(push(#"{"aps": {"alert": {"title": "First", "body": "one"}}}"#, headers: collapse, line: 1)), at: at(1),
      journalingInto: &batch)
    let second: String
    if kind == "foreground" {
      device.apply(.setting(bundleID: "com.example.app", .state(.foreground)), at: at(2), journalingInto: &batch)
      second = #"{"aps": {"alert": {"title": "Second", "body": "two"}}}"#
    } else {
      second = #"{"aps": {"badge": 3, "sound": "default"}}"#
    }
    device.apply(.push(push(second, headers: collapse, line: 2)), at: at(3), journalingInto: &batch)
    if kind == "provisional" {
      #expect(device.store.all.map(\.notification.title) == ["First"], "the device keeps the first")
    }
    let journal = try DeviceJournal.inMemory()
    try journal.commit(batch)
    let restored = try journal.restoreDevice(profile: profile)
    #expect(restored.store.count == device.store.count, "\(kind)")
    #expect(
      Set(restored.store.all.map(\.notification.title)) == Set(device.store.all.map(\.notification.title)), "\(kind)")
  }

  @Test func anEmptyJournalHoldsNoDevice() throws {
    let journal = try DeviceJournal.inMemory()
    #expect(try !journal.holdsDevice())
    let device = try journal.restoreDevice(profile: DeviceProfile(start: start))
    #expect(device.store.count == 0)
    #expect(device.now == start)
  }

  /// A saved clock alone (a session where only time passed), or events alone, is a device too:
  /// it resumes at that time.
  @Test func aSavedClockOrAnEventAloneHoldsADevice() throws {
    let clockOnly = try DeviceJournal.inMemory()
    var batch = JournalBatch()
    batch.updates.state = RestoredDevice.State(now: at(3_600), isLocked: true, activeFocusID: nil)
    try clockOnly.commit(batch)
    #expect(try clockOnly.holdsDevice())
    #expect(try clockOnly.savedDeviceState() == batch.updates.state)
    let resumed = try clockOnly.restoreDevice(profile: DeviceProfile(start: start))
    #expect(resumed.now == at(3_600) && resumed.isLocked)

    let eventsOnly = try DeviceJournal.inMemory()
    try eventsOnly.record([JournalBatch.Event(.unlock, at: at(60))])
    #expect(try eventsOnly.holdsDevice())
    #expect(try eventsOnly.savedDeviceState() == nil)
    #expect(try eventsOnly.restoreDevice(profile: DeviceProfile(start: start)).now == at(60))
  }

  /// A removal saved while its notification's delivery row was lost (a failed batch) does not
  /// hide the next notification: new ids start after the removed ones too.
  @Test func newIdsStartAfterRemovedOnesEvenWithoutTheirRows() throws {
    let journal = try DeviceJournal.inMemory()
    var device = DeviceSimulator(profile: DeviceProfile(start: start))
    var batch = JournalBatch()
    device.apply(push: push(#"{"aps": {"alert": "kept"}}"#), at: at(1), journalingInto: &batch)
    try journal.commit(batch)
    try journal.removeNotification(NotificationID(7), at: at(2), reason: "cleared")
    var restored = DeviceSimulator(profile: DeviceProfile(start: start), restoring: try journal.restore())
    let next = restored.apply(push: push(#"{"aps": {"alert": "after"}}"#), at: at(3))
    #expect(next.notification?.id == NotificationID(8))
    var after = JournalBatch()
    restored.apply(push: push(#"{"aps": {"alert": "after"}}"#), at: at(4), journalingInto: &after)
    try journal.commit(after)
    #expect(try journal.restore().notifications.map(\.notification.body) == ["kept", "after"])
  }

  /// A replay keeps no payload text in its notifications (``DeviceSimulator/keepsPayloadDetails``
  /// off): the journal writes the push's bytes as they came, packed or not.
  @Test func aLeanDeviceJournalsThePayloadFromTheRecordsBytes() throws {
    let payload = #"{"aps": {"alert": {"title": "Ann", "body": "Lunch? 🍜"}}, "order": {"id": 7}}"#
    for packs in [true, false] {
      var device = DeviceSimulator(profile: DeviceProfile(start: start))
      device.keepsPayloadDetails = false
      var batch = JournalBatch(packsDeliveries: packs)
      let delivery = device.apply(push: push(payload), at: at(1), journalingInto: &batch)
      #expect(delivery.notification?.rawPayload == "")
      let journal = try DeviceJournal.inMemory()
      try journal.commit(batch)
      let restored = try journal.restore()
      #expect(restored.notifications.first?.notification.rawPayload == payload, "packed: \(packs)")
      #expect(restored.notifications.first?.notification.title == "Ann")
    }
  }

  @Test func restoredDeviceContinuesWithTheSameIdsAndIndexes() throws {
    let journal = try DeviceJournal.inMemory()
    var original = try journaledDevice(into: journal)
    var device = DeviceSimulator(profile: original.profile, restoring: try journal.restore())
    let next = push(#"{"aps": {"alert": "next"}}"#, line: 9)
    let expected = original.apply(.push(next), at: at(20))
    let actual = device.apply(.push(next), at: at(20))
    #expect(actual?.index == expected?.index)
    #expect(actual?.notification?.id == expected?.notification?.id)
    #expect(device.store == original.store)
  }

  @Test func aRestoredDeviceKeepsCountingTheSilentPushBudget() throws {
    let journal = try DeviceJournal.inMemory()
    var original = DeviceSimulator(profile: DeviceProfile(start: start))
    var batch = JournalBatch()
    let silent = #"{"aps": {"content-available": 1}}"#
    let background = [("apns-push-type", "background"), ("apns-priority", "5")]
    // Two silent pushes long ago (outside the hour), then as many as the budget allows.
    let times: [Int64] = [0, 60] + (0..<3).map { 4_000 + $0 * 60 }
    for (offset, time) in times.enumerated() {
      let record = original.apply(
        .push(push(silent, headers: background, line: offset + 1)), at: at(time), journalingInto: &batch)
      #expect(record?.decision.disposition == .silent)
    }
    try journal.commit(batch)
    let restored = try journal.restore()
    #expect(restored.silentPushes["com.example.chat"]?.count == 3)
    var device = DeviceSimulator(profile: original.profile, restoring: restored)
    // The next one is over the budget on both: the restored device did not start counting afresh.
    let next = push(silent, headers: background, line: 9)
    let expected = original.apply(.push(next), at: at(4_300))
    let actual = device.apply(.push(next), at: at(4_300))
    #expect(expected?.decision.disposition == .dropped)
    #expect(actual?.decision.disposition == expected?.decision.disposition)
    #expect(actual?.decision.reasons.map(\.code) == expected?.decision.reasons.map(\.code))
  }

  /// A push whose service extension added an image (with its thumbnail) and an audio file.
  func pushWithAttachments() -> PushRecord {
    var record = push(#"{"aps": {"alert": {"title": "Album", "body": "New photo"}, "mutable-content": 1}}"#)
    var content = NotificationContent(title: "Album", body: "Jonas added a photo")
    content.attachments = [
      NotificationAttachment(
        identifier: "photo", path: "/tmp/p.png", kind: .image, type: "png", byteCount: 77,
        thumbnail: ImageThumbnail(width: 2, height: 1, rgb: [255, 0, 0, 0, 0x7F, 0xFF])),
      NotificationAttachment(
        identifier: "voice", path: "/tmp/v.wav", kind: .audio, type: "wav", byteCount: 4096,
        thumbnailProblem: "not an image"),
    ]
    record.serviceExtension = ServiceExtensionResult(
      name: "test", outcome: .modified, content: content, elapsedSeconds: 0, budgetSeconds: 30)
    return record
  }

  @Test func attachmentsAndTheirThumbnailsSurviveARestart() throws {
    var app = AppProfile(info: .inferred(from: "com.example.chat"))
    app.hasServiceExtension = true
    var original = DeviceSimulator(profile: DeviceProfile(start: start, apps: [app]))
    var batch = JournalBatch()
    original.apply(.push(pushWithAttachments()), at: at(1), journalingInto: &batch)
    let stored = try #require(original.store.all.first).notification
    #expect(stored.attachments.count == 2 && stored.body == "Jonas added a photo")
    let journal = try DeviceJournal.inMemory()
    try journal.commit(batch)
    for keepsDetails in [true, false] {
      let restored = try journal.restore(keepsPayloadDetails: keepsDetails)
      let device = DeviceSimulator(profile: original.profile, restoring: restored)
      #expect(device.store.all.first?.notification.attachments == stored.attachments)
      #expect(device.store.all.first?.notification.attachments.first?.thumbnail?.rgb == [255, 0, 0, 0, 0x7F, 0xFF])
    }
  }

  @Test func notificationsRemovedToMakeRoomStayRemovedAfterARestart() throws {
    let (profile, original, journal) = try journaledPastItsLimit(2, pushes: 4, threads: false)
    let device = DeviceSimulator(profile: profile, restoring: try journal.restore())
    #expect(device.store.all.map(\.id).sorted() == original.store.all.map(\.id).sorted())
    #expect(device.store.all.compactMap(\.notification.body).sorted() == ["n3", "n4"])
    #expect(try journal.deliveryCount().count == 4)
  }

  @Test func removedAndReplacedNotificationsStayInTheLogButLeaveTheCenter() throws {
    let journal = try DeviceJournal.inMemory()
    var device = DeviceSimulator(profile: .standard(start: start))
    var records: [DeliveryRecord] = []
    for n in 0..<3 {
      let record = device.apply(
        .push(push(#"{"aps": {"alert": "n\#(n)"}}"#, line: n + 1)), at: at(Int64(n)))
      records.append(try #require(record))
    }
    try journal.append(records)
    let first = try #require(records[0].notification?.id)
    try journal.removeNotification(first, at: at(5), reason: "cleared")
    try journal.saveEngagement(Engagement(taps: 2, dismissals: 1), for: "com.example.chat")
    let restored = try journal.restore()
    #expect(restored.notifications.map(\.notification.body) == ["n1", "n2"])
    #expect(restored.engagement["com.example.chat"] == Engagement(taps: 2, dismissals: 1))
    #expect(try journal.deliveryCount() == (count: 3, isContiguous: true))
  }

  @Test func aSecondPushdeckOnTheSameStateIsToldWhoHoldsIt() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.file("device.sqlite")
    let first = try DeviceJournal.open(at: path, options: .init(writer: "Pushdeck test"))
    #expect(throws: StoreError.locked(path: path, holderPID: getpid(), holder: "Pushdeck test")) {
      try DeviceJournal.open(at: path)
    }
    do {
      _ = try DeviceJournal.open(at: path)
    } catch {
      #expect(error.description.contains("in use by process \(getpid()) (Pushdeck test)"))
    }
    try first.close()
    let second = try DeviceJournal.open(at: path)
    try second.close()
  }

  @Test func aDatabaseFromANewerSchemaIsRefusedAndLeftUntouched() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.file("device.sqlite")
    try DeviceJournal.open(at: path).close()
    let queue = try DatabaseQueue(path: path)
    let newer = JournalSchema.currentVersion + 1
    try queue.write { db in
      try db.execute(sql: "UPDATE meta SET value = '\(newer)' WHERE key = 'schema_version'")
      try db.execute(sql: "UPDATE meta SET value = 'Pushdeck 9.0' WHERE key = 'last_writer'")
      try db.execute(sql: "INSERT INTO grdb_migrations(identifier) VALUES ('v\(newer)')")
    }
    try queue.close()
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    #expect(
      throws: StoreError.newerSchema(
        path: path, found: newer, supported: JournalSchema.currentVersion, writtenBy: "Pushdeck 9.0")
    ) {
      try DeviceJournal.open(at: path)
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
  }

  @Test func anUnknownMigrationAloneAlsoMeansANewerSchema() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.file("device.sqlite")
    try DeviceJournal.open(at: path).close()
    let queue = try DatabaseQueue(path: path)
    try queue.write { db in
      try db.execute(sql: "INSERT INTO grdb_migrations(identifier) VALUES ('v1-extra')")
    }
    try queue.close()
    #expect {
      try DeviceJournal.open(at: path)
    } throws: { error in
      guard case .newerSchema = error as? StoreError else { return false }
      return true
    }
  }

  @Test func aFileThatIsNotADatabaseIsReportedAsDamagedAndLeftUntouched() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.file("device.sqlite")
    let garbage = Data("this is not a database, just some text that happens to be here\n".utf8)
    try garbage.write(to: URL(fileURLWithPath: path))
    do {
      _ = try DeviceJournal.open(at: path)
      Issue.record("a text file opened as a journal")
    } catch {
      guard case .corrupt = error else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(error.description.contains("is damaged"))
      #expect(error.description.contains("mv '\(path)' '\(path).broken'"))
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == garbage)
  }

  @Test func aDamagedDatabaseIsReportedNotCrashedOn() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.file("device.sqlite")
    let journal = try DeviceJournal.open(at: path)
    _ = try journaledDevice(into: journal)
    try journal.close()
    // Keep SQLite's header, overwrite everything after the first page with noise.
    var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    var generator = SystemRandomNumberGenerator()
    for index in 4096..<bytes.count { bytes[index] = UInt8.random(in: 0...255, using: &generator) }
    try bytes.write(to: URL(fileURLWithPath: path))
    do {
      let damaged = try DeviceJournal.open(at: path)
      defer { try? damaged.close() }
      _ = try damaged.restore()
      #expect(try !damaged.integrityProblems().isEmpty)
    } catch {
      guard case .corrupt = error else {
        Issue.record("unexpected \(error)")
        return
      }
    }
  }

  /// A state whose creation was stopped after GRDB made its bookkeeping table and before the
  /// first migration committed is Pushdeck's own, unfinished: it is finished, not refused.
  @Test func aStateStoppedAsItWasCreatedIsFinished() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.file("half.sqlite")
    let queue = try DatabaseQueue(path: path)
    try queue.write { db in try db.execute(sql: "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)") }
    try queue.close()
    do {
      _ = try DeviceJournal.open(at: path)
    }
    let tables = try DatabaseQueue(path: path).read { db in
      try String.fetchSet(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
    }
    #expect(tables.isSuperset(of: ["meta", "delivery", "removal", "grdb_migrations"]), "\(tables)")
    // Bookkeeping that names a migration is another matter: a table of its own is missing.
    let other = directory.file("other-half.sqlite")
    let second = try DatabaseQueue(path: other)
    try second.write { db in
      try db.execute(sql: "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
      try db.execute(sql: "INSERT INTO grdb_migrations VALUES ('v1')")
    }
    try second.close()
    #expect(throws: StoreError.foreignDatabase(path: other)) { try DeviceJournal.open(at: other) }
  }

  @Test func aForeignSQLiteDatabaseIsRefused() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.file("other.sqlite")
    let queue = try DatabaseQueue(path: path)
    try queue.write { db in try db.execute(sql: "CREATE TABLE contacts(name TEXT)") }
    try queue.close()
    #expect(throws: StoreError.foreignDatabase(path: path)) { try DeviceJournal.open(at: path) }
  }

  /// Makes a directory unwritable, even for root (which ignores permission bits): `chattr +i`.
  func makeReadOnly(_ path: String) throws -> Bool {
    if getuid() != 0 { return chmod(path, 0o555) == 0 }
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/chattr") else { return false }
    return try run("/usr/bin/chattr", ["+i", path]) == 0
  }

  func makeWritable(_ path: String) throws {
    if getuid() == 0 { try run("/usr/bin/chattr", ["-i", path]) } else { chmod(path, 0o755) }
  }

  @Test func aReadOnlyDirectoryIsReportedWithWhatToDo() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let existing = directory.file("old/device.sqlite")
    let journal = try DeviceJournal.open(at: existing)
    _ = try journaledDevice(into: journal)
    try journal.close()
    let locked = [directory.path, directory.file("old")]
    for path in locked {
      try #require(try makeReadOnly(path), "cannot make a directory read-only here")
    }
    defer { for path in locked { try? makeWritable(path) } }

    let fresh = directory.file("new/device.sqlite")
    do {
      _ = try DeviceJournal.open(at: fresh)
      Issue.record("opened a journal in a read-only directory")
    } catch {
      guard case .unwritable = error else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(error.description.contains("--state PATH"))
    }
    // An existing database in a directory that became read-only: no WAL can be created.
    do {
      let old = try DeviceJournal.open(at: existing)
      try old.close()
      Issue.record("opened a journal whose directory is read-only")
    } catch {
      guard case .unwritable = error else {
        Issue.record("unexpected \(error)")
        return
      }
    }
  }

  @Test func aFullDiskRollsBackTheBatchAndKeepsWhatWasCommitted() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.file("device.sqlite")
    let journal = try DeviceJournal.open(at: path, options: .init(maximumPageCount: 40))
    var device = DeviceSimulator(profile: .standard(start: start))
    var committed = 0
    var failure: StoreError?
    for batchNumber in 0..<100 {
      var batch = JournalBatch()
      for n in 0..<50 {
        let line = batchNumber * 50 + n
        let payload =
          #"{"aps": {"alert": "a fairly long body to fill pages quickly, number \#(line)"}}"#
        device.apply(
          .push(push(payload, line: line + 1)), at: at(Int64(line)), journalingInto: &batch)
      }
      do {
        try journal.commit(batch)
        committed += 50
      } catch {
        failure = error
        break
      }
    }
    #expect(failure == .full(path: path))
    #expect(failure?.description.contains("latest changes were not saved") == true)
    try journal.close()
    let reopened = try DeviceJournal.open(at: path)
    defer { try? reopened.close() }
    #expect(committed > 0)
    #expect(try reopened.deliveryCount() == (count: committed, isContiguous: true))
    #expect(try reopened.integrityProblems().isEmpty)
  }

  @Test func stateLocationFollowsXDGAndTheOptions() throws {
    #expect(
      try StateLocation.resolve(
        statePath: nil, ephemeral: false, environment: ["XDG_DATA_HOME": "/x/data", "HOME": "/h"])
        == .file("/x/data/pushdeck/device.sqlite"))
    #expect(
      try StateLocation.resolve(
        statePath: nil, ephemeral: false, environment: ["XDG_DATA_HOME": "rel", "HOME": "/h/"])
        == .file("/h/.local/share/pushdeck/device.sqlite"))
    #expect(
      try StateLocation.resolve(statePath: "s.db", ephemeral: false, environment: [:])
        == .file("s.db"))
    #expect(
      try StateLocation.resolve(statePath: nil, ephemeral: true, environment: [:]) == .ephemeral)
    #expect(throws: StoreError.conflictingLocations) {
      try StateLocation.resolve(statePath: "s.db", ephemeral: true, environment: [:])
    }
    #expect(throws: StoreError.noDataDirectory) {
      try StateLocation.resolve(statePath: nil, ephemeral: false, environment: [:])
    }
  }

  /// Inputs play on a device of their own: the same inputs find it again, others never do.
  @Test func eachSetOfInputsHasADeviceOfItsOwn() throws {
    let environment = ["XDG_DATA_HOME": "/x/data"]
    func location(_ inputs: [String]) throws -> String {
      guard
        case .file(let path) = try StateLocation.resolve(
          statePath: nil, ephemeral: false, environment: environment, inputs: inputs)
      else { return "" }
      return path
    }
    let week = try location(["/captures/week.jsonl"])
    #expect(week.hasPrefix("/x/data/pushdeck/devices/week-") && week.hasSuffix(".sqlite"))
    #expect(try location(["/captures/week.jsonl"]) == week)
    #expect(try location(["/other/week.jsonl"]) != week)
    #expect(try location(["/captures/week.jsonl", "/captures/day.jsonl"]) != week)
    // A name that is not letters and digits is left out of the file name, never escaped into it.
    let odd = try location(["/c/$(rm -rf x) ü.jsonl"])
    #expect(odd.hasPrefix("/x/data/pushdeck/devices/rm-rfx"))
    #expect(try location([]) == "/x/data/pushdeck/device.sqlite")
    #expect(
      try StateLocation.resolve(statePath: "s.db", ephemeral: false, environment: environment, inputs: ["/a"])
        == .file("s.db"))
  }
}

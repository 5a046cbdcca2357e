import Testing

@testable import PushCore

/// A small deterministic generator (SplitMix64), so the scale test is the same on every run.
private struct SplitMix {
  var state: UInt64

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}

/// Scale, not speed: a store of 200,000 notifications keeps its orders after out-of-order
/// arrivals, removals and reranks. (Speed is measured by `Benchmarks/replay.sh`.)
@Suite struct NotificationStoreScaleTests {
  /// Checks every order the screens rely on against a recomputation from scratch.
  private func checkInvariants(_ store: NotificationStore, expected: [NotificationID: StoredNotification]) {
    #expect(store.count == expected.count)
    let groups = store.rankedGroups(includeHeld: true)
    var seen = 0
    var previousScore = Double.infinity
    var keys: Set<GroupKey> = []
    var ordered = true
    var newestFirst = true
    var scoresMatch = true
    for group in groups {
      if group.score > previousScore { ordered = false }
      previousScore = group.score
      keys.insert(group.key)
      seen += group.notifications.count
      let best = group.notifications.map(\.rank.score).max() ?? -.infinity
      if best != group.score { scoresMatch = false }
      for (newer, older) in zip(group.notifications, group.notifications.dropFirst())
      where newer.notification.receivedAt < older.notification.receivedAt {
        newestFirst = false
      }
    }
    #expect(ordered, "stacks are ranked by score, highest first")
    #expect(newestFirst, "each stack is newest first")
    #expect(scoresMatch, "a stack's score is its best member's")
    #expect(seen == expected.count)
    #expect(keys == Set(expected.values.map(\.group)))
    #expect(store.groupCount == keys.count)
    // groupRank agrees with the listed order.
    for (place, group) in groups.prefix(50).enumerated() {
      if let id = group.notifications.first?.id { #expect(store.groupRank(of: id) == place + 1) }
    }
  }

  @Test func twoHundredThousandNotificationsStayOrdered() {
    var random = SplitMix(state: 42)
    var store = NotificationStore()
    var expected: [NotificationID: StoredNotification] = [:]
    let bundles = (0..<40).map { "com.example.app\($0)" }
    let base = SimInstant(milliseconds: 1_767_225_600_000)
    var clock: Int64 = 0
    for number in 1...200_000 {
      clock += Int64(random.below(2_000))
      // One arrival in ten is late: up to an hour before the newest.
      let late = random.below(10) == 0 ? Int64(random.below(3_600_000)) : 0
      let bundle = bundles[random.below(bundles.count)]
      let thread = random.below(8) == 0 ? nil : "t\(random.below(50))"
      var notification = PushNotification(
        id: NotificationID(number), bundleID: bundle, threadID: thread, title: "n\(number)",
        relevanceScore: Double(random.below(100)) / 100,
        receivedAt: base + SimDuration(milliseconds: max(0, clock - late)))
      notification.sender = random.below(20) == 0 ? "someone" : nil
      let level = InterruptionLevel.allCases[random.below(InterruptionLevel.allCases.count)]
      let engagement = Engagement(taps: random.below(5), dismissals: random.below(5))
      let stored = StoredNotification(
        notification: notification, decision: DeliveryDecision(disposition: .delivered, effectiveLevel: level),
        group: GroupKey.make(for: notification, grouping: random.below(50) == 0 ? .off : .automatic),
        rank: RankTerms(notification: notification, level: level, engagement: engagement))
      store.insert(stored)
      expected[stored.id] = stored
      // Now and then, clear a random earlier notification.
      if number % 20 == 0 {
        let victim = NotificationID(1 + random.below(number))
        if store.remove(victim) != nil { expected.removeValue(forKey: victim) }
      }
    }
    checkInvariants(store, expected: expected)
    // Engagement changes rerank whole apps.
    for bundle in bundles.prefix(5) {
      let engagement = Engagement(taps: 20 + random.below(10), dismissals: random.below(3))
      store.rerank(bundleID: bundle, engagement: engagement)
      for (id, stored) in expected where stored.notification.bundleID == bundle {
        expected[id]?.rank = RankTerms(
          notification: stored.notification, level: stored.decision.effectiveLevel, engagement: engagement)
      }
    }
    checkInvariants(store, expected: expected)
    #expect(store.rankedGroups(includeHeld: true).flatMap(\.notifications).allSatisfy { expected[$0.id] == $0 })
  }

  /// Clearing everything keeps what the store leaves out: a lean store stays lean.
  @Test func clearingEverythingKeepsWhatTheStoreLeavesOut() {
    var store = NotificationStore()
    store.keepsPayloadDetails = false
    store.keepsTexts = false
    func note(_ id: Int) -> StoredNotification {
      let notification = PushNotification(
        id: NotificationID(id), bundleID: "com.example.chat", title: "Ana", body: "hi",
        receivedAt: SimInstant(milliseconds: Int64(id) * 1_000), rawPayload: #"{"aps":{}}"#)
      return StoredNotification(
        notification: notification,
        decision: DeliveryDecision(
          disposition: .delivered, surfaces: [.notificationCenter], reasons: [Reason(.deliveredNormally, "why")]),
        group: GroupKey(bundleID: "com.example.chat"),
        rank: RankTerms(notification: notification, level: .active, engagement: Engagement()))
    }
    store.insert(note(1))
    store.clearAll()
    store.insert(note(2))
    let kept = store[NotificationID(2)]
    #expect(kept != nil)
    #expect(kept?.notification.title == nil && kept?.notification.body == nil)
    #expect(kept?.notification.rawPayload == "" && kept?.decision.reasons == [])
  }

  /// `discard` (a replaced or evicted notification, read from its packed form) leaves the store
  /// exactly as `remove` (which unpacks it) does: same stacks, scores, counts and collapse index.
  @Test func discardingLeavesTheStoreAsRemovingDoes() {
    var random = SplitMix(state: 7)
    var removing = NotificationStore()
    var discarding = NotificationStore()
    let base = SimInstant(milliseconds: 1_767_225_600_000)
    var discarded = 0
    for number in 1...20_000 {
      let bundle = "com.example.app\(random.below(6))"
      let thread = random.below(5) == 0 ? nil : "thread-number-\(random.below(12))"
      var notification = PushNotification(
        id: NotificationID(number), bundleID: bundle, threadID: thread, title: "n\(number)",
        relevanceScore: Double(random.below(100)) / 100,
        collapseID: random.below(3) == 0 ? "collapse-\(random.below(40))" : nil,
        receivedAt: base + SimDuration(milliseconds: Int64(number) * 1_000 - Int64(random.below(900_000))))
      notification.sender = random.below(10) == 0 ? "someone" : nil
      let level = InterruptionLevel.allCases[random.below(InterruptionLevel.allCases.count)]
      let surfaces: [Surface] = [[.banner, .notificationCenter], [.notificationCenter], [.lockScreen]][random.below(3)]
      let held = random.below(15) == 0 ? base + SimDuration(milliseconds: 86_400_000) : nil
      var rank = RankTerms(notification: notification, level: level, engagement: Engagement(taps: random.below(4)))
      if random.below(25) == 0 { rank.recency += 1 }  // a rank that does not follow from the notification
      let grouping: GroupingSetting = random.below(30) == 0 ? .off : (random.below(30) == 0 ? .byApp : .automatic)
      let stored = StoredNotification(
        notification: notification,
        decision: DeliveryDecision(disposition: .delivered, surfaces: surfaces, effectiveLevel: level, heldUntil: held),
        group: GroupKey.make(for: notification, grouping: grouping), rank: rank, heldUntil: held)
      removing.insert(stored)
      discarding.insert(stored)
      if number % 3 == 0 {
        let victim = NotificationID(1 + random.below(number))
        let removed = removing.remove(victim) != nil
        #expect(discarding.discard(victim) == removed)
        if removed { discarded += 1 }
      }
    }
    #expect(discarded > 3_000)
    #expect(discarding == removing)
    #expect(discarding.heldCount == removing.heldCount && discarding.count == removing.count)
    #expect(discarding.rankedGroups(includeHeld: true) == removing.rankedGroups(includeHeld: true))
    for bundle in 0..<6 {
      for collapse in 0..<40 {
        #expect(
          discarding.collapseTarget(bundleID: "com.example.app\(bundle)", collapseID: "collapse-\(collapse)")
            == removing.collapseTarget(bundleID: "com.example.app\(bundle)", collapseID: "collapse-\(collapse)"))
      }
    }
  }
}

/// The store packs notifications; what comes out must be exactly what went in.
@Suite struct NotificationTableTests {
  /// Packs a notification after some other text in the buffer, and unpacks it.
  private func roundTrip(_ stored: StoredNotification) -> StoredNotification {
    var text: [UInt8] = Array("earlier notifications' text".utf8)
    let packed = NotificationTable.pack(stored, text: &text)
    let start = Int(packed.textStart)
    return NotificationTable.unpack(packed, text: text[start..<start + Int(packed.textCount)])
  }

  /// A plain notification with this id, in one of three threads.
  private func plain(_ id: Int, surfaces: [Surface] = [.banner, .notificationCenter]) -> StoredNotification {
    let notification = PushNotification(
      id: NotificationID(id), bundleID: "com.example.chat", threadID: "t\(id % 3)", title: "Ana \(id)",
      body: "message \(id)", receivedAt: SimInstant(milliseconds: Int64(id) * 1_000))
    return StoredNotification(
      notification: notification,
      decision: DeliveryDecision(disposition: .delivered, surfaces: surfaces, effectiveLevel: .active),
      group: GroupKey(bundleID: "com.example.chat", thread: "t\(id % 3)"),
      rank: RankTerms(notification: notification, level: .active, engagement: Engagement()))
  }

  /// A page holds 256 slots whether or not they are filled: the slot's size is the table's
  /// memory at a million notifications (136 bytes with Swift optionals, 96 packed).
  @Test func aSlotIsNinetySixBytes() {
    #expect(MemoryLayout<NotificationTable.Packed?>.stride <= 96)
  }

  @Test func longSurfaceAndCallbackListsAreKeptWhole() {
    var stored = plain(5, surfaces: [.banner, .lockScreen, .notificationCenter, .liveActivity, .banner])
    stored.decision.callbacks = [.willPresent, .didReceive, .backgroundFetch, .launchInBackground, .serviceExtension]
    #expect(roundTrip(stored) == stored)
    stored.decision.surfaces = []
    stored.decision.callbacks = [.serviceExtension]
    #expect(roundTrip(stored) == stored)
  }

  /// What a removal reads from the packed form (``NotificationTable/removalFacts(_:)``) is what
  /// unpacking gives, for every stack form, a rank kept as it is, an empty sender, surfaces too
  /// many for the short list, held and lock-screen notifications, with and without texts.
  @Test func removalFactsAreWhatUnpackingGives() {
    var variants: [StoredNotification] = []
    let groups: [(Int) -> GroupKey] = [
      { GroupKey(bundleID: "com.example.chat", thread: "t\($0 % 3)") }, { _ in GroupKey(bundleID: "com.example.chat") },
      { GroupKey(bundleID: "com.example.chat", single: NotificationID($0)) }, { _ in GroupKey(bundleID: "other") },
    ]
    for number in 1...96 {
      var stored = plain(number)
      stored.group = groups[number % 4](number)
      if number % 3 == 0 { stored.notification.collapseID = "c\(number % 5)" }
      if number % 5 == 0 { stored.notification.sender = number % 10 == 0 ? "" : "Ana" }
      if number % 7 == 0 { stored.rank.recency += 1 }  // a rank that does not follow from the rest
      if number % 4 == 1 {
        stored.decision.surfaces = [.banner, .lockScreen, .notificationCenter, .liveActivity, .banner]
      }
      if number % 6 == 0 { stored.decision.surfaces = [.notificationCenter] }
      if number % 8 == 0 { stored.heldUntil = SimInstant(milliseconds: 1_000_000) }
      if number % 11 == 0 { stored.notification.threadID = "" }
      stored.rank =
        number % 7 == 0
        ? stored.rank
        : RankTerms(
          notification: stored.notification, level: stored.decision.effectiveLevel, engagement: Engagement())
      variants.append(stored)
    }
    for keepingTexts in [true, false] {
      var table = NotificationTable()
      for stored in variants { table.insert(stored, keepingPayloadDetails: false, keepingTexts: keepingTexts) }
      for stored in variants {
        let unpacked = table[stored.id]!
        let facts = table.removalFacts(stored.id)!
        #expect(facts.bundleID == unpacked.notification.bundleID)
        #expect(facts.collapseID == unpacked.notification.collapseID)
        #expect(facts.group == unpacked.group && facts.group == stored.group)
        #expect(facts.score == unpacked.rank.score && facts.score == stored.rank.score)
        #expect(facts.visibility.held == (unpacked.heldUntil != nil))
        #expect(facts.visibility.onLockScreen == unpacked.showsOnLockScreen)
      }
    }
  }

  /// A removal marks the slot vacant instead of writing the page, so a copy of the table (a
  /// checkpoint, a state handed to the front end) keeps sharing it; a page is cleared once 64
  /// of its slots are vacant, and dropped once all are.
  @Test func removalsWriteNoPageUntilSixtyFourAreVacant() {
    var table = NotificationTable()
    for id in 0..<1_024 { table.insert(plain(id)) }
    let kept = table
    let writes = table.pageWrites
    // 63 removals from page 1: no page is written.
    for id in stride(from: 256, to: 256 + 63 * 4, by: 4) { table[NotificationID(id)] = nil }
    #expect(table.pageWrites == writes)
    #expect(table.count == 1_024 - 63)
    #expect(table[NotificationID(256)] == nil && table[NotificationID(260)] == nil)
    #expect(table[NotificationID(257)] == plain(257))
    // The 64th vacancy clears the page: one write.
    table[NotificationID(256 + 63 * 4)] = nil
    #expect(table.pageWrites == writes + 1)
    #expect(table[NotificationID(256 + 63 * 4)] == nil && table[NotificationID(257)] == plain(257))
    // The copy taken before still has every notification.
    #expect(kept.count == 1_024)
    #expect((0..<1_024).allSatisfy { kept[NotificationID($0)] == plain($0) })
    // Emptying page 0 clears it at 64, 128 and 192 vacancies and drops it at the last, without
    // a write; the oldest is found past it.
    for id in 0..<256 { table[NotificationID(id)] = nil }
    #expect(table.pageWrites == writes + 4)
    #expect(table.oldestID() == NotificationID(257))
    // A vacant slot taken again holds the new notification; equal contents are equal tables.
    table.insert(plain(260))
    #expect(table[NotificationID(260)] == plain(260))
    var rebuilt = NotificationTable()
    for id in (256..<1_024) where id == 260 || !(id >= 256 && id <= 256 + 63 * 4 && (id - 256) % 4 == 0) {
      rebuilt.insert(plain(id))
    }
    #expect(rebuilt == table)
    #expect(table.values.map(\.id) == rebuilt.values.map(\.id))
    rebuilt[NotificationID(999)] = nil
    #expect(!(rebuilt == table))
  }

  /// Replacing notifications in place again and again leaves the text they no longer use to be
  /// compacted away: what is read back is always the latest.
  @Test func replacedTextIsReclaimed() {
    var table = NotificationTable()
    for id in 0..<10 { table.insert(plain(id)) }
    for round in 0..<2_000 {
      var stored = plain(round % 10)
      stored.notification.body = "round \(round) " + String(repeating: "x", count: round % 50)
      table.insert(stored)
      #expect(table[stored.id] == stored)
    }
    #expect(table.count == 10)
  }

  @Test func packingIsLossless() {
    var notification = PushNotification(
      id: NotificationID(700), bundleID: "com.example.bank", threadID: "t-1", title: "Ünïcødé 🏦", subtitle: "",
      body: String(repeating: "long body ", count: 40), category: "ALERT", level: .critical, relevanceScore: 0.25,
      sound: .critical(name: "alarm.caf", volume: 0.7), badge: 3, isContentAvailable: true, isMutableContent: true,
      targetContentID: "x", filterCriteria: "work", collapseID: "c", receivedAt: SimInstant(milliseconds: 123_456),
      rawPayload: #"{"aps":{},"k":1}"#)
    notification.sender = "Ana"
    notification.expiration = SimInstant(milliseconds: 999)
    notification.priority = .immediate
    notification.customKeys = [JSONMember(key: "k", value: .number(JSONNumber(text: "1", value: 1)))]
    let decision = DeliveryDecision(
      disposition: .replaced, surfaces: [.banner, .notificationCenter], playsSound: true, sound: .named("a.caf"),
      badge: 0, effectiveLevel: .timeSensitive, heldUntil: SimInstant(milliseconds: 5), replaces: NotificationID(3),
      previewsHidden: true, callbacks: [.willPresent], reasons: [Reason(.invalidPayload, "why")])
    let derived = RankTerms(notification: notification, level: .timeSensitive, engagement: Engagement(taps: 2))
    var odd = derived
    odd.recency = 1
    for group in [
      GroupKey(bundleID: "com.example.bank", thread: "t-1"), GroupKey(bundleID: "com.example.bank"),
      GroupKey(bundleID: "com.example.bank", single: NotificationID(700)), GroupKey(bundleID: "other", thread: "z"),
    ] {
      for rank in [derived, odd] {
        for heldUntil in [nil, SimInstant(milliseconds: 77)] {
          let stored = StoredNotification(
            notification: notification, decision: decision, group: group, rank: rank, heldUntil: heldUntil)
          #expect(roundTrip(stored) == stored)
        }
      }
    }
    var bare = StoredNotification(
      notification: PushNotification(id: NotificationID(1), bundleID: "", receivedAt: SimInstant(milliseconds: 0)),
      decision: DeliveryDecision(disposition: .delivered), group: GroupKey(bundleID: ""),
      rank: RankTerms(level: 0, relevance: 0, engagement: 0, communication: 0, recency: 0))
    #expect(roundTrip(bare) == bare)
    bare.notification.sound = .systemDefault
    #expect(roundTrip(bare) == bare)
  }
}

/// A notification that leaves the store stays in its stack's member list, stale, until the stale
/// outnumber the live: every count and listing must still be of the stored ones only.
@Suite struct StaleMemberTests {
  private func note(_ id: Int, thread: String = "t", score: Double = 0) -> StoredNotification {
    let notification = PushNotification(
      id: NotificationID(id), bundleID: "com.example.chat", threadID: thread, title: "n\(id)",
      receivedAt: SimInstant(milliseconds: Int64(id) * 1_000))
    var rank = RankTerms(notification: notification, level: .active, engagement: Engagement())
    rank.relevance = score
    return StoredNotification(
      notification: notification,
      decision: DeliveryDecision(disposition: .delivered, surfaces: [.notificationCenter], effectiveLevel: .active),
      group: GroupKey(bundleID: "com.example.chat", thread: thread), rank: rank)
  }

  @Test func countsListingsAndScoresAreOfStoredNotificationsOnly() {
    var store = NotificationStore()
    var expected = NotificationStore()
    for id in 1...300 {
      // The best of the stack is removed too, so its score must be found among the live.
      let stored = note(id, score: id == 150 ? 5 : Double(id % 7) / 10)
      store.insert(stored)
      if id % 3 != 0 && id != 150 { expected.insert(stored) }
    }
    for id in stride(from: 3, through: 300, by: 3) { store.remove(NotificationID(id)) }
    store.remove(NotificationID(150))
    let key = GroupKey(bundleID: "com.example.chat", thread: "t")
    #expect(store.count == expected.count)
    #expect(store.topGroups(limit: 5).map(\.count) == expected.topGroups(limit: 5).map(\.count))
    #expect(store.topGroups(limit: 5).map(\.score) == expected.topGroups(limit: 5).map(\.score))
    #expect(store.notifications(in: key).map(\.id) == expected.notifications(in: key).map(\.id))
    #expect(
      store.stack(key, filter: .notificationCenter, memberLimit: 3)?.notifications.map(\.id)
        == expected.stack(key, filter: .notificationCenter, memberLimit: 3)?.notifications.map(\.id))
    #expect(
      store.stack(key, filter: .notificationCenter)?.count == expected.stack(key, filter: .notificationCenter)?.count)
    #expect(store.rankedGroups().map(\.notifications) == expected.rankedGroups().map(\.notifications))
    // Re-ranked: stale members take no part in the stack's score.
    store.rerank(bundleID: "com.example.chat", engagement: Engagement(taps: 3))
    expected.rerank(bundleID: "com.example.chat", engagement: Engagement(taps: 3))
    #expect(store.topGroups(limit: 5).map(\.score) == expected.topGroups(limit: 5).map(\.score))
    // An id stored again (a restore, not the counter) is listed once.
    store.insert(note(3))
    expected.insert(note(3))
    #expect(store.notifications(in: key).map(\.id) == expected.notifications(in: key).map(\.id))
    #expect(store.notifications(in: key).filter { $0.id == NotificationID(3) }.count == 1)
    // Emptied, the stack is gone.
    for stored in store.notifications(in: key) { store.remove(stored.id) }
    #expect(store.topGroups(limit: 5).isEmpty && store.count == 0)
  }
}

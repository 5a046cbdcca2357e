import Testing

@testable import PushCore

/// The stacks the screens show, built from each stack's counts and updated from the store's
/// changes, agree with the predicate-based `rankedGroups` recomputed from scratch.
@Suite struct StackViewTests {
  private struct Random {
    var state: UInt64
    mutating func below(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
  }

  private let base = SimInstant(milliseconds: 1_767_225_600_000)

  private func make(_ number: Int, _ random: inout Random, clock: Int64) -> StoredNotification {
    let bundle = "com.example.app\(random.below(6))"
    let thread = random.below(5) == 0 ? nil : "t\(random.below(4))"
    var notification = PushNotification(
      id: NotificationID(number), bundleID: bundle, threadID: thread, title: "n\(number)",
      receivedAt: base + SimDuration(milliseconds: clock - Int64(random.below(3) == 0 ? random.below(60_000) : 0)))
    notification.collapseID = random.below(10) == 0 ? "c\(random.below(3))" : nil
    let surfaces: [Surface] =
      switch random.below(4) {
      case 0: [.notificationCenter]
      case 1: [.banner, .notificationCenter]
      default: [.lockScreen, .notificationCenter]
      }
    let heldUntil = random.below(6) == 0 ? base + SimDuration(milliseconds: clock + Int64(random.below(120_000))) : nil
    let decision = DeliveryDecision(disposition: .delivered, surfaces: surfaces, heldUntil: heldUntil)
    return StoredNotification(
      notification: notification, decision: decision,
      group: GroupKey.make(for: notification, grouping: random.below(20) == 0 ? .off : .automatic),
      rank: RankTerms(notification: notification, level: .active, engagement: Engagement()), heldUntil: heldUntil)
  }

  /// What the screens expect, from the store's general query.
  private func expected(
    _ store: NotificationStore, _ filter: StackFilter, excluding: Set<NotificationID>, memberLimit: Int
  ) -> [NotificationGroup] {
    store.rankedGroups(memberLimit: memberLimit) { stored in
      (filter == .notificationCenter || stored.showsOnLockScreen) && !excluding.contains(stored.id)
    }
  }

  @Test func updatedStacksMatchARebuildAfterEveryChange() {
    var random = Random(state: 7)
    var store = NotificationStore()
    var clock: Int64 = 0
    var lock = store.stacks(filter: .lockScreen, memberLimit: 1)
    var center = store.stacks(filter: .notificationCenter, memberLimit: 1)
    var revision = store.revision
    var rebuilds = 0
    var inserted: [NotificationID] = []
    for number in 1...1_500 {
      clock += Int64(random.below(5_000))
      switch random.below(20) {
      case 0:
        if !inserted.isEmpty { store.remove(inserted[random.below(inserted.count)]) }
      case 1:
        _ = store.releaseSummary(at: base + SimDuration(milliseconds: clock))
      case 2 where number % 500 == 2:
        store.clearAll()
      default:
        // Most rounds add several notifications before a frame looks.
        for extra in 0..<(1 + random.below(3)) {
          var stored = make(number * 4 + extra, &random, clock: clock)
          if let collapse = stored.notification.collapseID,
            let target = store.collapseTarget(bundleID: stored.notification.bundleID, collapseID: collapse)
          {
            stored.decision.replaces = target
          }
          store.insert(stored)
          inserted.append(stored.id)
        }
      }
      if let changed = store.changedGroups(since: revision) {
        store.update(&lock, changed: changed, filter: .lockScreen, memberLimit: 1)
        store.update(&center, changed: changed, filter: .notificationCenter, memberLimit: 1)
      } else {
        rebuilds += 1
        lock = store.stacks(filter: .lockScreen, memberLimit: 1)
        center = store.stacks(filter: .notificationCenter, memberLimit: 1)
      }
      revision = store.revision
      if number % 100 == 0 || number > 1_480 {
        #expect(lock == expected(store, .lockScreen, excluding: [], memberLimit: 1), "round \(number)")
        #expect(center == expected(store, .notificationCenter, excluding: [], memberLimit: 1), "round \(number)")
      }
    }
    #expect(rebuilds <= 8, "clearing everything is the only rebuild")
    #expect(!lock.isEmpty && !center.isEmpty)
  }

  @Test func manyChangesBetweenFramesFallBackToARebuild() {
    var random = Random(state: 11)
    var store = NotificationStore()
    let revision = store.revision
    for number in 1...1_000 { store.insert(make(number, &random, clock: Int64(number) * 1_000)) }
    #expect(store.changedGroups(since: revision) == nil, "the log keeps only the latest changes")
    let recent = store.revision
    store.insert(make(1_001, &random, clock: 1_001_000))
    #expect(store.changedGroups(since: recent)?.count == 1)
    #expect(store.changedGroups(since: store.revision) == [])
  }

  @Test func exclusionsAndFullStacksMatchThePredicate() {
    var random = Random(state: 3)
    var store = NotificationStore()
    for number in 1...2_000 { store.insert(make(number, &random, clock: Int64(number) * 1_000)) }
    _ = store.releaseSummary(at: base + SimDuration(milliseconds: 1_500_000))
    let excluded = Set(store.all.map(\.id).filter { $0.rawValue % 7 == 0 })
    for filter in [StackFilter.lockScreen, .notificationCenter] {
      let exclusion = store.exclusion(of: excluded, filter: filter)
      #expect(
        store.stacks(filter: filter, excluding: exclusion)
          == expected(store, filter, excluding: excluded, memberLimit: .max))
      #expect(
        store.stacks(filter: filter, memberLimit: 2, excluding: exclusion)
          == expected(store, filter, excluding: excluded, memberLimit: 2))
      for group in store.rankedGroups(includeHeld: true) {
        #expect(store.notifications(in: group.key) == group.notifications)
      }
      let key = store.topGroups(limit: 1)[0].key
      let full = store.stacks(filter: filter, memberLimit: 1, fullGroups: [key], excluding: exclusion)
      #expect(
        full.first { $0.key == key }
          == expected(store, filter, excluding: excluded, memberLimit: .max).first { $0.key == key })
    }
  }

  @Test func clearingAStackCountsEveryDismissalAndRanksTheAppOnce() throws {
    var profile = DeviceProfile(start: SimInstant(milliseconds: 1_800_000_000_000))
    profile.apps = [AppProfile(info: .inferred(from: "com.example.chat"))]
    var category = NotificationCategory(identifier: "MSG")
    category.options = [.customDismissAction]
    profile.apps[0].categories = [category]
    var sim = DeviceSimulator(profile: profile)
    for (index, thread) in ["a", "a", "a", "b"].enumerated() {
      let payload = #"{"aps": {"alert": "m\#(index)", "thread-id": "\#(thread)", "category": "MSG"}}"#
      sim.apply(.push(push(payload)), at: profile.start + .seconds(Int64(index + 1)))
    }
    let key = GroupKey(bundleID: "com.example.chat", thread: "a")
    let cleared = sim.store.notifications(in: key).map(\.id)
    #expect(cleared.count == 3)
    sim.apply(.clearGroup(key), at: profile.start + .seconds(10))
    #expect(sim.store.count == 1)
    #expect(sim.profile.engagement["com.example.chat"]?.dismissals == 3)
    #expect(sim.responses.map(\.id) == cleared, "one dismiss action per notification, newest first")
    // The one left is ranked with the engagement after all three dismissals.
    let left = try #require(sim.store.rankedGroups().first?.notifications.first)
    #expect(left.rank.engagement == 2 * (sim.profile.engagement["com.example.chat"] ?? Engagement()).score)
    sim.apply(.clearAll, at: profile.start + .seconds(11))
    #expect(sim.store.count == 0 && sim.profile.engagement["com.example.chat"]?.dismissals == 4)
    #expect(sim.responses.count == 4)
  }

  @Test func rerankingInPlaceGivesWhatRemovingAndReinsertingGave() {
    var random = Random(state: 19)
    var store = NotificationStore()
    for number in 1...3_000 {
      var stored = make(number, &random, clock: Int64(number) * 1_000)
      stored.notification.sender = random.below(4) == 0 ? "someone" : nil
      stored.notification.relevanceScore = random.below(3) == 0 ? Double(random.below(100)) / 100 : nil
      stored.decision.effectiveLevel = InterruptionLevel.allCases[random.below(InterruptionLevel.allCases.count)]
      stored.rank = RankTerms(
        notification: stored.notification, level: stored.decision.effectiveLevel, engagement: Engagement())
      // Now and then a rank that does not follow from the notification (a journal can hold one).
      if random.below(50) == 0 { stored.rank.relevance += 0.5 }
      store.insert(stored)
    }
    let engagement = Engagement(taps: 3, dismissals: 1)
    var expected = store
    let ids = store.all.filter { $0.notification.bundleID == "com.example.app2" }.map(\.id)
    for var stored in ids.compactMap({ expected.remove($0) }) {
      stored.rank = RankTerms(
        notification: stored.notification, level: stored.decision.effectiveLevel, engagement: engagement)
      expected.insert(stored)
    }
    let revision = store.revision
    store.rerank(bundleID: "com.example.app2", engagement: engagement)
    #expect(store == expected)
    #expect(store.rankedGroups(includeHeld: true) == expected.rankedGroups(includeHeld: true))
    #expect(Set(store.changedGroups(since: revision) ?? []) == Set(ids.compactMap { store[$0]?.group }))
  }
}

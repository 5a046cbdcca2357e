import PushCore
import PushStore
import PushTestSupport
import Testing

/// A change sink that counts the elements written to it: a whole list (the Live Activities,
/// the channels) counts each of its elements, so a step that wrote the store or a list per
/// push would show here.
private struct CountingSink: DeviceChangeSink {
  var elements = 0
  mutating func delivered(_ record: DeliveryRecord, rawPayload: ArraySlice<UInt8>?) { elements += 1 }
  mutating func removed(_ id: NotificationID, at instant: SimInstant, reason: String) { elements += 1 }
  mutating func happened(_ event: DeviceEvent, at instant: SimInstant) { elements += 1 }
  mutating func engagementChanged(_ bundleID: String, to engagement: Engagement) { elements += 1 }
  mutating func badgeChanged(_ bundleID: String, to count: Int) { elements += 1 }
  mutating func liveActivitiesChanged(to activities: [LiveActivity]) { elements += max(activities.count, 1) }
  mutating func channelsChanged(to channels: [BroadcastChannel]) { elements += max(channels.count, 1) }
  mutating func stateChanged(to state: RestoredDevice.State) { elements += 1 }
}

/// Applying n events through the ingest step and into the journal costs O(n log n), counted in
/// work, not time: copies of the store (a copy-on-write of its storage, which a second device,
/// a copy of the device held across a push or a store copied out and back would cause), the
/// elements the store moves to keep its orders, and the elements written to the change set and
/// the journal's batches.
@Suite("Ingest scale")
struct IngestScaleTests {
  private static let start = DemoScenario.start
  private static let apps = ["com.example.chat", "com.example.mail", "com.example.news", "com.example.bank"]

  /// One push a second on average over days, a collapse id on every fifth (replacements), a
  /// badge on every third, seven threads per app; every 97th is a user's open or clear.
  private static func events(_ count: Int) -> [(SimInstant, DeviceEvent)] {
    var events: [(SimInstant, DeviceEvent)] = []
    events.reserveCapacity(count)
    for index in 0..<count {
      let at = start + .seconds(Int64(index * 3))
      if index % 97 == 96 {
        events.append((at, index % 2 == 0 ? .open(NotificationID(index / 2)) : .clear(NotificationID(index / 3))))
        continue
      }
      let collapse = index % 5 == 0 ? #","headers":{"apns-collapse-id":"c\#(index % 50)"}"# : ""
      let badge = index % 3 == 0 ? #","badge":\#(index % 9)"# : ""
      let line =
        #"{"at":\#(at.epochSeconds),"bundle":"\#(apps[index % apps.count])"\#(collapse),"payload":{"aps":{"alert":{"title":"T\#(index)","body":"B"},"thread-id":"t\#(index % 7)"\#(badge)}}}"#
      events.append(
        (at, .push(PushReader.readCaptureLine(Array(line.utf8), lineNumber: index + 1, source: "scale.jsonl"))))
    }
    return events
  }

  private static func device() -> DeviceSimulator {
    var profile = DeviceProfile(start: start, isLocked: false)
    profile.maxStoredNotifications = 1_000_000
    var device = DeviceSimulator(profile: profile)
    device.keepsRecords = false
    device.keepsPayloadDetails = false
    return device
  }

  private struct Work {
    var storeCopies = 0
    var storeMoves = 0
    var written = 0
    var stored = 0
    var total: Int { storeMoves + written }
  }

  /// As `replay --state` and `serve` do: pushes ingested into batches of `batchSize`, each
  /// batch handed on (here: counted and dropped) when full.
  private func journalled(_ count: Int, batchSize: Int = 500) -> Work {
    var device = Self.device()
    var batch = JournalBatch(packsDeliveries: true)
    var work = Work()
    for (at, event) in Self.events(count) {
      if case .push(let record, _) = event {
        device.ingest(record, at: at, into: &batch)
      } else {
        device.apply(event, at: at, into: &batch)
      }
      if batch.deliveryCount >= batchSize {
        work.written +=
          batch.deliveryCount + batch.updates.removals.count + batch.updates.events.count + batch.updates.badges.count
        batch = JournalBatch(packsDeliveries: true)
      }
    }
    work.written += batch.deliveryCount + batch.updates.removals.count + batch.updates.events.count
    work.storeCopies = device.store.copiesMade
    work.storeMoves = device.store.movedElements
    work.stored = device.store.count
    return work
  }

  /// Every element the ingest step writes, counted by the sink.
  private func counted(_ count: Int) -> Work {
    var device = Self.device()
    var sink = CountingSink()
    for (at, event) in Self.events(count) { device.apply(event, at: at, into: &sink) }
    return Work(
      storeCopies: device.store.copiesMade, storeMoves: device.store.movedElements, written: sink.elements,
      stored: device.store.count)
  }

  @Test func fourTimesTheEventsIsAboutFourTimesTheWorkIntoTheJournal() {
    let small = journalled(2_000)
    let large = journalled(8_000)
    #expect(small.stored > 1_000 && large.stored > 4 * 1_000, "the pushes were stored")
    #expect(small.storeCopies == 0 && large.storeCopies == 0, "the store is never copied by the ingest step")
    // O(n log n) allows 4 × log(8000)/log(2000) ≈ 4.7×; a copy or a scan per push is 16×.
    #expect(large.total <= small.total * 5, "\(small) for 2,000 events, \(large) for 8,000")
    #expect(large.written >= 4 * small.written * 9 / 10, "every push reached the journal")
  }

  @Test func everyElementTheIngestStepWritesIsCounted() {
    let small = counted(2_000)
    let large = counted(8_000)
    #expect(small.storeCopies == 0 && large.storeCopies == 0)
    #expect(large.total <= small.total * 5, "\(small) for 2,000 events, \(large) for 8,000")
    // Each push writes a delivery and the clock; a badge push its badge.
    #expect(small.written >= 2 * 2_000 * 9 / 10)
  }

  /// The count sees what it is meant to: a device copied and kept across a push makes the store
  /// copy its storage.
  @Test func aCopyOfTheDeviceHeldAcrossAPushIsCounted() {
    var device = Self.device()
    var sink = CountingSink()
    let pushes = Self.events(10)
    for (at, event) in pushes.prefix(5) { device.apply(event, at: at, into: &sink) }
    #expect(device.store.copiesMade == 0)
    let shadow = device
    for (at, event) in pushes.dropFirst(5) { device.apply(event, at: at, into: &sink) }
    #expect(device.store.copiesMade == 1)
    #expect(shadow.store.count < device.store.count)
  }
}

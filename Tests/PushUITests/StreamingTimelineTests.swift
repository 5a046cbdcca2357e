import PushCore
import PushTestSupport
import Testing

@testable import PushUI

/// `render` streams a capture through ``StreamingTimeline`` and ``AppState/appendTimeline(_:)``:
/// it must place and play pushes as the whole-list path does.
@Suite("Streaming timeline")
struct StreamingTimelineTests {
  private let start = SimInstant(milliseconds: 1_767_254_400_000)  // 2026-01-01 08:00 UTC

  private func capture(_ seconds: Int64, _ title: String) -> PushRecord {
    TestRecords.captureLine(title, at: seconds, after: start)
  }

  private func file(_ title: String) -> PushRecord { TestRecords.payloadFile(title) }

  @Test func placesRecordsAsTheWholeListDoes() {
    // A capture in time order (the streaming device starts at its first line, the whole list's
    // at its earliest: the same for such a capture).
    let records = [file("a"), capture(10, "b"), file("c"), capture(12, "d"), capture(20, "e")]
    let whole = Timeline.entries(for: records, start: DemoScenario.start, startsAtCapture: true)
    var streaming = StreamingTimeline(defaultStart: DemoScenario.start)
    var entries: [TimelineEntry] = []
    for record in records { entries += streaming.place(record) }
    entries += streaming.finish()
    #expect(streaming.start == whole.start)
    #expect(entries.map(\.at) == whole.entries.map(\.at))
    // Payload files alone start at the default.
    var files = StreamingTimeline(defaultStart: DemoScenario.start)
    #expect(files.place(file("x")).isEmpty)
    #expect(files.finish().map(\.at) == [DemoScenario.start + Timeline.fileSpacing])
  }

  @Test func playingInChunksAndForgettingGivesTheSameDevice() {
    let records = (0..<300).map { capture(Int64($0 * 7 % 1_000), "p\($0)") }
    let placed = Timeline.entries(for: records, start: DemoScenario.start, startsAtCapture: true)
    var whole = AppState(device: DeviceSimulator(profile: .standard(start: placed.start)), timeline: placed.entries)
    let end = placed.entries.map(\.at).max()!
    _ = reduce(into: &whole, .tick(end))

    var chunked = AppState(device: DeviceSimulator(profile: .standard(start: placed.start)))
    var streaming = StreamingTimeline(defaultStart: DemoScenario.start)
    var latest = placed.start
    for slice in stride(from: 0, to: records.count, by: 64) {
      let entries = records[slice..<min(slice + 64, records.count)].flatMap { streaming.place($0) }
      chunked.appendTimeline(entries)
      latest = max(latest, entries.map(\.at).max()!)
      _ = reduce(into: &chunked, .tick(latest))
      chunked.forgetArrivedTimeline()
    }
    #expect(chunked.timeline.isEmpty)
    // Out-of-order lines that came after their time had passed arrive late, so compare what
    // is stored, not when.
    #expect(chunked.device.store.count == whole.device.store.count)
    #expect(
      Set(chunked.device.store.all.map(\.notification.title))
        == Set(whole.device.store.all.map(\.notification.title)))
  }

  /// `render` plays a capture in chunks with ``AppState/playArrived(_:through:)``: the same
  /// state as placing each chunk on the timeline, ticking and forgetting it (the long way it
  /// took before), without any entry going on the timeline. Counted, not timed.
  @Test func playingArrivedChunksIsTheLongWayWithoutTheTimeline() {
    let profile = scaleProfile(
      start: start - Timeline.fileSpacing, summaryTimes: [TimeOfDay(hour: 8, minute: 10)], maxStored: 500)
    var device = DeviceSimulator(profile: profile)
    device.keepsPayloadDetails = false
    device.recordWindow = 64
    var longWay = AppState(device: device)
    longWay.consumesArrivedTimeline = true
    var bulk = longWay
    let apps = ["com.example.chat", "com.example.mail", "com.example.news"]
    // Out of time order within a chunk and across chunks (late lines), same-time lines, a
    // rejected line every 97th, banners, collapse ids, Notification Center full.
    var placer = StreamingTimeline(defaultStart: DemoScenario.start)
    var entries: [TimelineEntry] = []
    for index in 0..<3_000 {
      let seconds = Double(index / 2 * 2) + Double(index % 13 == 0 ? -40 : 0) + Double(index % 5 * 3)
      let at = max(0, seconds)
      let payload =
        index % 97 == 0
        ? #""payload":{"aps":"not an object"}"#
        : (index % 5 == 0 ? #""headers":{"apns-collapse-id":"c\#(index % 40)"},"# : "")
          + #""payload":{"aps":{"alert":{"title":"T\#(index)","body":"B"},"thread-id":"t\#(index % 7)","badge":\#(index % 4)}}"#
      let line = #"{"at":\#(start.epochSeconds + at),"bundle":"\#(apps[index % 3])",\#(payload)}"#
      placer.place(
        PushReader.readCaptureLine(Array(line.utf8), lineNumber: index + 1, source: "s.jsonl"), into: &entries)
    }
    var latest: SimInstant?
    for slice in stride(from: 0, to: entries.count, by: 256) {
      var chunk = Array(entries[slice..<min(slice + 256, entries.count)])
      for entry in chunk { latest = max(latest ?? entry.at, entry.at) }
      longWay.appendTimeline(chunk)
      _ = reduce(into: &longWay, .tick(latest!))
      longWay.forgetArrivedTimeline()
      bulk.playArrived(&chunk, through: latest!)
      #expect(chunk.isEmpty)
    }
    #expect(longWay.timeline.placedCount == entries.count)
    #expect(bulk.timeline.placedCount == 0, "no entry went on the timeline")
    #expect(bulk.playedEntryCount == entries.count)
    #expect(bulk.now == longWay.now)
    #expect(bulk.device.store.count > 100)
    #expect(bulk.device.store.all == longWay.device.store.all)
    #expect(bulk.device.store.count == 500, "Notification Center was full")
    #expect(bulk.device.records == longWay.device.records)
    #expect(bulk.device.firstRecordIndex == longWay.device.firstRecordIndex)
    #expect(bulk.device.badges == longWay.device.badges)
    #expect(!bulk.banners.isEmpty)
    #expect(bulk.banners == longWay.banners)
    #expect(bulk.summary == longWay.summary)
    #expect(bulk.toast == longWay.toast)
    #expect(bulk.rejectedCount == entries.count / 97 + 1)
    #expect(bulk.rejections == longWay.rejections)
    #expect(bulk.lockScreenGroups() == longWay.lockScreenGroups())
  }

  @Test func appendingKeepsWhatIsToComeInTimeOrder() {
    var state = AppState(device: DeviceSimulator(profile: .standard(start: start)))
    state.appendTimeline([TimelineEntry(at: start + .seconds(10), event: .push(capture(10, "x")))])
    state.appendTimeline([TimelineEntry(at: start + .seconds(5), event: .push(capture(5, "y")))])
    #expect(state.timeline.map(\.at) == [start + .seconds(5), start + .seconds(10)])
    state.laterEventCount = 3
    #expect(state.pendingEventCount == 5)
  }
}

import PushCore
import Testing

@testable import PushUI

/// `render` streams a capture through ``StreamingTimeline`` and ``AppState/appendTimeline(_:)``:
/// it must place and play pushes as the whole-list path does.
@Suite("Streaming timeline")
struct StreamingTimelineTests {
  private let start = SimInstant(milliseconds: 1_767_254_400_000)  // 2026-01-01 08:00 UTC

  private func capture(_ seconds: Int64, _ title: String) -> PushRecord {
    let line =
      #"{"at":\#(start.epochSeconds + Double(seconds)),"bundle":"com.example.chat","payload":{"aps":{"alert":"\#(title)"}}}"#
    return PushReader.readCaptureLine(Array(line.utf8), lineNumber: 1, source: "s.jsonl")
  }

  private func file(_ title: String) -> PushRecord {
    PushReader.readPayloadFile(
      Array(#"{"aps":{"alert":"\#(title)"}}"#.utf8), source: "\(title).json", format: .payload,
      bundleID: "com.example.chat")
  }

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

  @Test func appendingKeepsWhatIsToComeInTimeOrder() {
    var state = AppState(device: DeviceSimulator(profile: .standard(start: start)))
    state.appendTimeline([TimelineEntry(at: start + .seconds(10), event: .push(capture(10, "x")))])
    state.appendTimeline([TimelineEntry(at: start + .seconds(5), event: .push(capture(5, "y")))])
    #expect(state.timeline.map(\.at) == [start + .seconds(5), start + .seconds(10)])
    state.laterEventCount = 3
    #expect(state.pendingEventCount == 5)
  }
}

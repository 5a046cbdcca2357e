import PushCore
import PushShell
import PushTestSupport
import PushUI
import PushWire
import Testing

/// `replay` places pushes read from files as `render` and `run` do (``ArrivalClock``): the Nth
/// payload file arrives at the same time in every command.
@Suite("Replay arrival times")
struct ReplayArrivalTests {
  private let start = SimInstant(milliseconds: 1_795_430_000_000)  // 2026-11-23, after the demo's start

  private func capture(_ seconds: Int64, _ title: String) -> PushRecord {
    TestRecords.captureLine(title, at: seconds, after: start)
  }

  private func file(_ title: String) -> PushRecord { TestRecords.payloadFile(title) }

  /// When each push arrived on the replay's device, by title.
  private func replayed(_ records: [PushRecord]) -> [String: SimInstant] {
    var replay = Replay(committer: nil, restoring: nil, batchSize: 1_000) { DeviceProfile.standard(start: $0) }
    for record in records { replay.push(record) }
    // A replay's store keeps no bodies (its journal does): every push here is stored, in order
    // of its id, so the Nth stored notification is the Nth record's.
    let stored = (replay.device?.store.all ?? []).sorted { $0.id < $1.id }
    guard stored.count == records.count else { return [:] }
    var times: [String: SimInstant] = [:]
    for (record, stored) in zip(records, stored) {
      times[record.payload?.aps.alert?.body ?? ""] = stored.notification.receivedAt
    }
    return times
  }

  /// When `render` places each push, by title.
  private func rendered(_ records: [PushRecord]) -> [String: SimInstant] {
    var placer = StreamingTimeline(defaultStart: DemoScenario.start)
    var entries: [TimelineEntry] = []
    for record in records { placer.place(record, into: &entries) }
    entries += placer.finish()
    var times: [String: SimInstant] = [:]
    for entry in entries {
      guard case .device(.push(let record, _)) = entry.event, let body = record.payload?.aps.alert?.body else {
        continue
      }
      times[body] = entry.at
    }
    return times
  }

  @Test func payloadFilesAloneArriveWhereRenderPlacesThem() {
    let records = [file("a"), file("b"), file("c")]
    let times = replayed(records)
    #expect(times == rendered(records))
    #expect(times["c"] == DemoScenario.start + Timeline.fileSpacing + Timeline.fileSpacing + Timeline.fileSpacing)
  }

  @Test func payloadFilesAfterACaptureArriveWhereRenderPlacesThem() {
    let records = [capture(0, "one"), capture(60, "two"), file("a"), file("b")]
    let times = replayed(records)
    #expect(times == rendered(records))
    #expect(times["b"] == start + .seconds(60) + Timeline.fileSpacing + Timeline.fileSpacing)
  }
}

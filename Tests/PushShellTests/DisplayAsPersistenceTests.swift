import Foundation
import PushCore
import PushTestSupport
import PushUI
import Testing

@testable import PushShell

/// `run` with a state database: Display As changed in Settings is saved with the clock when the
/// session ends, and the next session on the same state opens with it.
@Suite struct DisplayAsPersistenceTests {
  @Test func displayAsIsThereAgainInTheNextSession() throws {
    let path = NSTemporaryDirectory() + "pushdeck-display-\(UUID().uuidString).sqlite"
    defer {
      for suffix in ["", "-wal", "-shm", ".lock"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
    let profile = DeviceProfile(start: DemoScenario.start, isLocked: false)
    #expect(profile.lockScreenDisplay != .count)
    func session() throws -> (StatePersistence, AppState) {
      let (opened, state) = try StatePersistence.open(
        .file(path), state: AppState(device: DeviceSimulator(profile: profile)), profile: profile, keepsTimeline: true)
      return (try #require(opened), state)
    }
    var (persistence, state) = try session()
    // Settings ▸ Display As, stepped from the profile's (List) to Count, as a user does.
    _ = reduce(into: &state, .command(.toggleSettings))
    state.settingsSelection = try #require(state.settingsRows().firstIndex(of: .displayAs))
    _ = reduce(into: &state, .command(.activate))
    #expect(state.device.profile.lockScreenDisplay == .count)
    persistence.finish(state)
    persistence.close()
    (persistence, state) = try session()
    defer { persistence.close() }
    #expect(state.device.profile.lockScreenDisplay == .count)
  }
}

/// Rejected pushes are never hidden: a continued state counts those its journal holds from
/// earlier sessions, and `r` says where they are.
@Suite struct SavedRejectionsTests {
  @Test func aContinuedStateCountsTheRejectedPushesItHolds() throws {
    let path = NSTemporaryDirectory() + "pushdeck-rejected-\(UUID().uuidString).sqlite"
    defer {
      for suffix in ["", "-wal", "-shm", ".lock"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
    let start = DemoScenario.start
    let profile = DeviceProfile(start: start, isLocked: false)
    let lines = [#"{"aps":{"alert":"fine"}}"#, #"{"aps":{"alert":"cut"#, #"{"alert":"no aps"}"#]
    let timeline = lines.enumerated().map { index, text in
      TimelineEntry(
        at: start + .seconds(Int64(index + 1)),
        event: .device(
          .push(
            PushReader.readPayloadFile(
              Array(text.utf8), source: "p\(index).json", format: .payload, bundleID: "com.example.app"))))
    }
    func session(_ timeline: [TimelineEntry]) throws -> (StatePersistence, AppState) {
      let (opened, state) = try StatePersistence.open(
        .file(path), state: AppState(device: DeviceSimulator(profile: profile), timeline: timeline),
        profile: profile, keepsTimeline: true)
      return (try #require(opened), state)
    }
    var (persistence, state) = try session(timeline)
    _ = reduce(into: &state, .tick(start + .seconds(10)))
    #expect(state.rejectedCount == 2)
    persistence.finish(state)
    persistence.close()
    (persistence, state) = try session([])
    defer { persistence.close() }
    #expect(state.savedRejectedCount == 2)
    #expect(state.rejectedCount == 0)
    _ = reduce(into: &state, .command(.inspectRejected))
    #expect(state.toast?.text.hasPrefix("2 rejected pushes were saved by an earlier session") == true)
  }
}

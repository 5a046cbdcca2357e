import Foundation
import PushCore
import PushTestSupport
import PushUI
import Testing

@testable import PushShell

/// `run`'s reader thread: the device it plays ahead keeps checkpoints along the way for seeks
/// into the middle, and hands over the state so far to a front end that follows a seek.
@Suite("The timeline feed's device played ahead")
struct TimelineFeedTests {
  /// A capture of `count` pushes, one every 2 s over five apps.
  static func writeCapture(_ count: Int) throws -> String {
    let path = NSTemporaryDirectory() + "pushdeck-feed-\(UUID().uuidString).jsonl"
    var text = ""
    for n in 0..<count {
      text +=
        #"{"at": \#(1_767_254_400 + n * 2), "bundle": "com.example.app\#(n % 5)", "#
        + #""payload": {"aps": {"alert": {"title": "Push \#(n)"}}}}"# + "\n"
    }
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  static func start(_ path: String) -> TimelineFeed {
    TimelineFeed.start(
      [ResolvedInput(displayPath: "feed.jsonl", path: path, format: .capture)], bundle: nil,
      defaultStart: DemoScenario.start, extensionProfile: nil,
      makeDevice: { start in DeviceSimulator(profile: DeviceProfile(start: start, isLocked: false)) },
      checkpointsFrom: 0)
  }

  @Test func aFinishedFeedKeepsCheckpointsInOrderAndFindsTheLatestBeforeATime() async throws {
    let path = try Self.writeCapture(10_000)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let feed = Self.start(path)
    guard try await poll("read and played", timeout: .seconds(50), until: { feed.finished() != nil }) else { return }
    let final = try #require(feed.finished())
    #expect(final.playedEntryCount == 10_000)
    // One at most per chunk of 2,048 lines read, at each sixteenth of the file's bytes: 10,000
    // lines are five chunks, the last of which ends the reading (the final state stands for it).
    #expect((3...4).contains(feed.checkpointsKept))
    #expect(feed.checkpoint(atOrBefore: SimInstant(epochSeconds: 1_767_254_000)) == nil)
    var previous: AppState?
    for seconds in stride(from: 0, through: 20_000, by: 500) {
      let instant = SimInstant(epochSeconds: 1_767_254_400 + Double(seconds))
      guard let checkpoint = feed.checkpoint(atOrBefore: instant) else { continue }
      #expect(checkpoint.now <= instant)
      #expect(checkpoint.timeline.isEmpty, "a checkpoint keeps no timeline")
      #expect(checkpoint.playedEntryCount > 0 && checkpoint.playedEntryCount < 10_000)
      if let previous { #expect(checkpoint.playedEntryCount >= previous.playedEntryCount) }
      previous = checkpoint
    }
    #expect(previous != nil)
  }

  @Test func aFrontEndThatAsksGetsTheStateSoFarWhileReading() throws {
    let path = try Self.writeCapture(30_000)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let feed = Self.start(path)
    var handed: [Int] = []
    // Asked again and again, as the front end asks on every turn while it follows a seek. A
    // blocking loop on this test's own thread: an async poll can be starved of the
    // cooperative threads by the suites running beside it while the reader finishes.
    let deadline = ContinuousClock.now + .seconds(50)
    while feed.finished() == nil, ContinuousClock.now < deadline {
      if let state = feed.latest() { handed.append(state.playedEntryCount) }
      Thread.sleep(forTimeInterval: 0.01)
    }
    #expect(feed.finished()?.playedEntryCount == 30_000)
    #expect(!handed.isEmpty, "handed over at least once while reading")
    #expect(handed == handed.sorted())
    #expect(handed.allSatisfy { $0 < 30_000 })
    #expect(feed.latest() == nil, "nothing handed over once finished")
  }
}

import Foundation
import PushCore
import PushRender
import PushUI
import PushWire

/// `pushdeck render --bench 10000,1000000`: how long one turn of the front end takes (a tick
/// and building the frame) with that many notifications stored. A helper for
/// docs/PERFORMANCE.md, not a timed test.
enum FrameBenchmark {
  /// A device with `count` notifications from 40 apps in 400 threads, restored straight into
  /// the store (as a state database would), locked, so the lock screen shows them all.
  static func state(notifications count: Int, size: Size, arrivals: Int = 0) -> AppState {
    let start = SimInstant(epochSeconds: 1_795_426_860)  // 2026-11-23 09:41 UTC
    let apps = (0..<40).map { AppProfile(info: .inferred(from: "com.example.bench\($0)")) }
    var profile = DeviceProfile(start: start, isLocked: true, apps: apps)
    profile.timeZoneName = "UTC"
    var stored: [StoredNotification] = []
    stored.reserveCapacity(count)
    let decision = DeliveryDecision(disposition: .delivered, surfaces: [.lockScreen, .notificationCenter])
    for index in 0..<count {
      let bundleID = "com.example.bench\(index % 40)"
      let thread = "thread-\(index % 400)"
      let notification = PushNotification(
        id: NotificationID(index + 1), bundleID: bundleID, threadID: thread, title: "Title \(index)",
        body: "Notification number \(index) of \(count), stored for the frame benchmark.",
        receivedAt: start - SimDuration(milliseconds: Int64(count - index) * 1000))
      stored.append(
        StoredNotification(
          notification: notification, decision: decision, group: GroupKey(bundleID: bundleID, thread: thread),
          rank: RankTerms(notification: notification, level: .active, engagement: Engagement())))
    }
    let device = DeviceSimulator(
      profile: profile,
      restoring: RestoredDevice(notifications: stored, nextNotificationID: count + 1, deliveryCount: count))
    // With arrivals, one push a second from now on, so every frame has one (a 1× replay).
    let payload = Array(#"{"aps":{"alert":{"title":"Arriving","body":"One more"},"thread-id":"thread-1"}}"#.utf8)
    let timeline = (0..<arrivals).map { index in
      TimelineEntry(
        at: start + .seconds(Int64(index + 1)),
        event: .push(
          PushReader.readPayloadFile(payload, source: "bench", format: .payload, bundleID: "com.example.bench1")))
    }
    return AppState(device: device, timeline: timeline, terminalColumns: size.columns, terminalRows: size.rows)
  }

  /// Measures `frames` turns on the lock screen and in Notification Center for each count.
  static func run(counts: [Int], size: Size, frames: Int = 200) -> String {
    var lines = [
      "frame benchmark: \(size.columns)x\(size.rows), \(frames) frames per screen, median and p95 per frame; lock+push: a push arrives every frame"
    ]
    var medians: [Int: Double] = [:]
    for count in counts {
      let setupStart = ContinuousClock.now
      let initial = state(notifications: count, size: size, arrivals: frames)
      let setup = ContinuousClock.now - setupStart
      for screenName in ["lock", "center", "lock+push"] {
        var state = initial
        if screenName == "center" { _ = reduce(into: &state, .command(.openCenter)) }
        if screenName != "lock+push" { _ = reduce(into: &state, .tick(state.now + .seconds(Int64(frames) + 1))) }
        var samples: [Double] = []
        var now = state.now
        for _ in 0..<frames {
          let clock = ContinuousClock.now
          now = now + .seconds(1)
          _ = reduce(into: &state, .tick(now))
          let grid = render(state, size: size, theme: .builtInDefault)
          samples.append(
            Double((ContinuousClock.now - clock).components.attoseconds) / 1e15
              + Double((ContinuousClock.now - clock).components.seconds) * 1000)
          precondition(grid.width == size.columns)
        }
        samples.sort()
        let median = samples[samples.count / 2]
        let p95 = samples[min(samples.count - 1, samples.count * 95 / 100)]
        if screenName == "lock" { medians[count] = median }
        lines.append(
          String(
            format: "%9d stored  %-9@  median %7.3f ms  p95 %7.3f ms  (setup %.1f s)", count, screenName as NSString,
            median, p95, Double(setup.components.seconds) + Double(setup.components.attoseconds) / 1e18))
      }
    }
    if let low = counts.min(), let high = counts.max(), low != high, let a = medians[low], let b = medians[high], a > 0
    {
      lines.append(String(format: "lock screen ratio %d / %d: %.2f", high, low, b / a))
    }
    return lines.joined(separator: "\n")
  }
}

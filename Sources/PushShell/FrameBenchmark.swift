import Foundation
import PushCore
import PushRender
import PushTerminal
import PushUI
import PushWire

/// `pushdeck render --bench 10000,1000000`: how long one turn of the front end takes (a tick
/// and building the frame) with that many notifications stored. A helper for
/// docs/PERFORMANCE.md, not a timed test.
package enum FrameBenchmark {
  /// A device with `count` notifications from 40 apps in 400 threads, restored straight into
  /// the store (as a state database would), locked, so the lock screen shows them all.
  package static func state(notifications count: Int, size: Size, arrivals: Int = 0) -> AppState {
    let start = SimInstant(epochSeconds: 1_795_426_860)  // 2026-11-23 09:41 UTC
    let apps = (0..<40).map { AppProfile(info: .inferred(from: "com.example.bench\($0)")) }
    var profile = DeviceProfile(start: start, isLocked: true, apps: apps)
    profile.timeZoneName = "UTC"
    let decision = DeliveryDecision(disposition: .delivered, surfaces: [.lockScreen, .notificationCenter])
    let device = DeviceSimulator(
      profile: profile, restoring: RestoredDevice(nextNotificationID: count + 1, deliveryCount: count)
    ) { add in
      for index in 0..<count {
        let bundleID = "com.example.bench\(index % 40)"
        let thread = "thread-\(index % 400)"
        let notification = PushNotification(
          id: NotificationID(index + 1), bundleID: bundleID, threadID: thread, title: "Title \(index)",
          body: "Notification number \(index) of \(count), stored for the frame benchmark.",
          receivedAt: start - SimDuration(milliseconds: Int64(count - index) * 1000))
        add(
          StoredNotification(
            notification: notification, decision: decision, group: GroupKey(bundleID: bundleID, thread: thread),
            rank: RankTerms(notification: notification, level: .active, engagement: Engagement())))
      }
    }
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

  /// Milliseconds since `start`.
  private static func milliseconds(since start: ContinuousClock.Instant) -> Double {
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
  }

  /// Measures `frames` turns on the lock screen and in Notification Center for each count;
  /// with `present`, each frame is also presented through ncurses (a headless session on
  /// /dev/null as xterm-256color), timed separately.
  @MainActor
  package static func run(counts: [Int], size: Size, frames: Int = 200, present: Bool = true) -> String {
    var lines = [
      "frame benchmark: \(size.columns)x\(size.rows), \(frames) frames per screen, median and p95 per frame; lock+push: a push arrives every frame"
    ]
    let terminal = present ? CursesTerminal.headless(size: size) : nil
    defer { terminal?.restore() }
    if present {
      lines.append(
        terminal == nil
          ? "presenting: no headless ncurses session (is xterm-256color in terminfo?)"
          : "present: the cells that changed copied into ncurses and doupdate() to /dev/null (xterm-256color, truecolor palette); whole frame: every cell copied (as after a resize)"
      )
    }
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
        var presentSamples: [Double] = []
        var wholeSamples: [Double] = []
        var now = state.now
        let theme = Theme.builtInDefault.adapted(to: terminal?.colorCapability ?? .truecolor)
        for _ in 0..<frames {
          let clock = ContinuousClock.now
          now = now + .seconds(1)
          _ = reduce(into: &state, .tick(now))
          let grid = render(state, size: size, theme: theme)
          samples.append(milliseconds(since: clock))
          precondition(grid.width == size.columns)
          if let terminal {
            // Every other frame is copied whole (as after a resize), the others as changes.
            let whole = presentSamples.count > wholeSamples.count
            if whole { terminal.presentWholeNextFrame() }
            let presenting = ContinuousClock.now
            terminal.present(grid)
            if whole {
              wholeSamples.append(milliseconds(since: presenting))
            } else {
              presentSamples.append(milliseconds(since: presenting))
            }
          }
        }
        let (median, p95) = medianAndP95(samples)
        if screenName == "lock" { medians[count] = median }
        var line =
          "\(count.formatted(width: 9)) stored  \(screenName.padding(toLength: 9, withPad: " ", startingAt: 0))"
          + String(format: "  build median %7.3f ms  p95 %7.3f ms", median, p95)
        if !presentSamples.isEmpty {
          let (presentMedian, presentP95) = medianAndP95(presentSamples)
          let (wholeMedian, _) = medianAndP95(wholeSamples)
          line += String(
            format: "  present median %6.3f ms  p95 %6.3f ms  (whole frame %6.3f ms)", presentMedian, presentP95,
            wholeMedian)
        }
        line += String(
          format: "  (setup %.1f s)", Double(setup.components.seconds) + Double(setup.components.attoseconds) / 1e18)
        lines.append(line)
      }
    }
    if let low = counts.min(), let high = counts.max(), low != high, let a = medians[low], let b = medians[high], a > 0
    {
      lines.append(String(format: "lock screen ratio %d / %d: %.2f", high, low, b / a))
    }
    return lines.joined(separator: "\n")
  }

  private static func medianAndP95(_ samples: [Double]) -> (Double, Double) {
    let sorted = samples.sorted()
    return (sorted[sorted.count / 2], sorted[min(sorted.count - 1, sorted.count * 95 / 100)])
  }
}

extension Int {
  fileprivate func formatted(width: Int) -> String {
    let text = String(self)
    return String(repeating: " ", count: Swift.max(0, width - text.count)) + text
  }
}

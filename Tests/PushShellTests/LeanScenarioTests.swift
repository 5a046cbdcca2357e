import Foundation
import PushCore
import PushRender
import PushTestSupport
import PushUI
import Testing

@testable import PushShell

/// `run` and `render` load a scenario's timeline compactly (issue 15 §5): an entry repeated
/// through a YAML alias is one shared event and a slot, and a long timeline plays on a lean
/// device that draws the same frames.
@Suite struct LeanScenarioTests {
  static let examples = ScenarioStreamTests.examples

  func write(_ text: String, name: String) throws -> String {
    let folder = try PushdeckProcess.temporaryDirectory()
    let url = folder.appendingPathComponent(name)
    try Data(text.utf8).write(to: url)
    return url.path
  }

  /// Counted: a thousand `- *e` keep one event in the front end's timeline, beside a slot each.
  @Test func repeatedEntriesKeepOneEventInTheTimeline() throws {
    var text = "timeline:\n  - &e {after: 1s, push: {bundle: com.example.app, payload: {aps: {alert: hi}}}}\n"
    for _ in 1..<1_000 { text += "  - *e\n" }
    let path = try write(text, name: "repeat.yaml")
    let state = try Session.load(inputs: [path], profile: nil, bundle: nil).state
    #expect(state.timeline.count == 1_000)
    #expect(state.timeline.storedEventCount == 1)
    #expect(state.timeline.instant(999) == state.timeline.instant(0) + .seconds(999))
    // Not lean unless asked for.
    #expect(state.device.keepsPayloadDetails)
  }

  /// From `leanFrom` events on the device keeps no payload text and a window of records, unless
  /// the timeline names a push by number, which resolves through every record.
  @Test func longTimelinesPlayOnALeanDevice() throws {
    let pushes = "timeline:\n  - &e {after: 1s, push: {bundle: com.example.app, payload: {aps: {alert: hi}}}}\n  - *e\n"
    let plain = try Session.load(inputs: [try write(pushes, name: "a.yaml")], profile: nil, bundle: nil, leanFrom: 2)
    #expect(!plain.state.device.keepsPayloadDetails)
    #expect(plain.state.device.recordWindow == Session.leanRecordWindow)
    let referring = try Session.load(
      inputs: [try write(pushes + "  - open: 1\n", name: "b.yaml")], profile: nil, bundle: nil, leanFrom: 2)
    #expect(!referring.state.device.keepsPayloadDetails)
    #expect(referring.state.device.recordWindow == nil)
    let short = try Session.load(inputs: [try write(pushes, name: "c.yaml")], profile: nil, bundle: nil, leanFrom: 3)
    #expect(short.state.device.keepsPayloadDetails)
  }

  /// Every example draws the same lock screen and Notification Center, as text and as the
  /// screen's JSON, on a lean device as on a full one.
  @Test(arguments: examples) func aLeanDeviceDrawsTheSameFrames(path: String) throws {
    var full = try Session.load(inputs: [path], profile: nil, bundle: nil).state
    var lean = try Session.load(inputs: [path], profile: nil, bundle: nil, leanFrom: 1).state
    #expect(!lean.device.keepsPayloadDetails)
    let end = max(full.timeline.last?.at ?? full.now, full.now)
    _ = reduce(into: &full, .tick(end))
    _ = reduce(into: &lean, .tick(end))
    let theme = try #require(try Theme.builtIn(named: "default"))
    for screen in ScreenName.allCases {
      #expect(ScreenJSON.render(lean, screen: screen) == ScreenJSON.render(full, screen: screen), "\(screen)")
    }
    let size = Size(columns: 80, rows: 24)
    #expect(
      PushRender.render(lean, size: size, theme: theme).textDump()
        == PushRender.render(full, size: size, theme: theme).textDump())
    _ = reduce(into: &full, .command(.openCenter))
    _ = reduce(into: &lean, .command(.openCenter))
    #expect(
      PushRender.render(lean, size: size, theme: theme).textDump()
        == PushRender.render(full, size: size, theme: theme).textDump())
  }
}

import PushCore
import PushTestSupport
import PushUI
import Testing

@testable import PushRender

/// The lock screen on a short terminal with a Live Activity above the stacks: a stack the
/// selection moved to is drawn, and what is not drawn below is counted.
@Suite("Lock screen scrolling past a Live Activity")
struct LockScreenScrollTests {
  let start = DemoScenario.start

  /// A locked phone with a Live Activity and three stacks from three apps (one notification
  /// each, the chat's two), the first stack selected.
  func state() -> AppState {
    func app(_ bundle: String, _ name: String) -> AppProfile {
      var app = AppProfile(info: AppInfo(bundleID: bundle, displayName: name, iconGlyph: "🔔"))
      app.settings.showPreviews = .always
      return app
    }
    let profile = DeviceProfile(
      start: start, isLocked: true,
      apps: [
        app("com.example.ride", "Ride"), app("com.example.bank", "Bank"), app("com.example.chat", "Chat"),
        app("com.example.news", "News"),
      ])
    var device = DeviceSimulator(profile: profile)
    let seconds = Int(start.milliseconds / 1000)
    device.apply(
      .push(
        PushReader.readPayloadFile(
          Array(
            #"{"aps":{"timestamp":\#(seconds),"event":"start","attributes-type":"RideAttributes","attributes":{"car":"Blue Prius"},"content-state":{"status":"arriving","eta":8},"alert":{"title":"Ride","body":"On the way"}}}"#
              .utf8), source: "live.json", format: .payload, bundleID: "com.example.ride",
          headers: [("apns-push-type", "liveactivity"), ("apns-topic", "com.example.ride.push-type.liveactivity")])),
      at: start + .seconds(1))
    device.apply(
      push(#"{"aps":{"alert":{"title":"Headline","body":"Story"}}}"#, bundle: "com.example.news"),
      at: start + .seconds(2))
    device.apply(
      push(#"{"aps":{"alert":{"title":"Ana","body":"Hi"}}}"#, bundle: "com.example.chat"), at: start + .seconds(3))
    device.apply(
      push(#"{"aps":{"alert":{"title":"Ana","body":"Lunch?"}}}"#, bundle: "com.example.chat"), at: start + .seconds(4))
    device.apply(
      push(#"{"aps":{"alert":{"title":"Card payment","body":"€12.40"}}}"#, bundle: "com.example.bank"),
      at: start + .seconds(5))
    #expect(device.liveActivities.count == 1)
    var state = AppState(device: device)
    _ = reduce(into: &state, .tick(start + .seconds(60)))
    return state
  }

  @Test(arguments: [(60, 20), (60, 22), (60, 26), (40, 16), (80, 24)])
  func theSelectedStackIsDrawnWhereverTheSelectionGoes(columns: Int, rows: Int) throws {
    var state = state()
    let stacks = state.lockScreenStacks()
    #expect(stacks.count == 3)
    let total = stacks.reduce(0) { $0 + $1.count }
    for selection in 0..<stacks.count {
      state.lockSelection = selection
      let grid = frame(state, columns: columns, rows: rows)
      let dump = grid.textDump()
      // The first stack selected is the list at its top: the Live Activity first, whatever
      // fits under it. From the second on, the selected stack is drawn.
      if selection > 0 {
        #expect(
          grid.hitRegions.contains { $0.target == .lockRow(selection) },
          "\(columns)x\(rows): stack \(selection) is selected but not drawn:\n\(dump)")
      } else {
        #expect(dump.contains("Live"), "\(columns)x\(rows): the list at its top shows the Live Activity:\n\(dump)")
      }
      // The count line counts exactly the notifications of the stacks below the last drawn.
      let drawn = grid.hitRegions.compactMap { region -> Int? in
        if case .lockRow(let index) = region.target { return index }
        return nil
      }
      let hidden = stacks[(drawn.max().map { $0 + 1 } ?? 0)...].reduce(0) { $0 + $1.count }
      if hidden == 0 {
        #expect(!dump.contains("＋"), "\(columns)x\(rows), selection \(selection):\n\(dump)")
      } else {
        #expect(
          dump.contains("＋ \(PluralFormat.counted(hidden, "more notification"))"),
          "\(columns)x\(rows), selection \(selection): \(hidden) of \(total) not drawn below:\n\(dump)")
      }
    }
  }

  @Test func theLiveActivityStaysWhileTheSelectionFitsUnderIt() {
    var state = state()
    state.lockSelection = 0
    #expect(frame(state, columns: 60, rows: 26).textDump().contains("Live"))
  }

  /// On a short terminal the count line is on the toast's row: a toast hides it whole rather
  /// than leave its ends on either side of the toast's words.
  @Test func aToastOverTheCountLineHidesItWhole() throws {
    var state = state()
    let rows = 19
    let before = frame(state, columns: 60, rows: rows).textDump().split(separator: "\n").map(String.init)
    let countRow = try #require(before.firstIndex { $0.contains("＋") }, "\(before.joined(separator: "\n"))")
    #expect(countRow == rows - 2, "the count line is on the toast's row at this size")
    state.showToast("Back to 09:41")
    let after = frame(state, columns: 60, rows: rows).textDump().split(separator: "\n").map(String.init)
    let line = after[rows - 2]
    #expect(line.contains("Back to 09:41"))
    #expect(!line.contains("＋") && !line.contains("more") && !line.contains("·"), "\(line)")
  }

  /// Cards scrolled away above the selected stack are counted on a row over it, as
  /// Notification Center counts them: the Live Activity was out of sight with nothing said.
  @Test(arguments: [(60, 20), (60, 22)])
  func whatScrolledAwayAboveIsCounted(columns: Int, rows: Int) {
    var state = state()
    var scrolledPastTheActivity = false
    for selection in 1..<state.lockScreenStacks().count {
      state.lockSelection = selection
      let dump = frame(state, columns: columns, rows: rows).textDump()
      if !dump.contains("Live") {
        scrolledPastTheActivity = true
        #expect(
          dump.contains("↑ "),
          "\(columns)x\(rows), selection \(selection): the Live Activity above is not said:\n\(dump)")
      }
    }
    #expect(scrolledPastTheActivity, "the selection never scrolled the Live Activity away at \(columns)x\(rows)")
    state.lockSelection = 0
    #expect(!frame(state, columns: columns, rows: rows).textDump().contains("↑ "), "nothing is above the first stack")
  }

  /// Without a Live Activity, with many stacks: whichever is selected is drawn (a row kept for
  /// "↑ N more" once left the selected card out where the cards fitted exactly).
  @Test(arguments: [(40, 16), (60, 20), (60, 22), (80, 24)])
  func withManyStacksTheSelectedOneIsAlwaysDrawn(columns: Int, rows: Int) {
    var device = DeviceSimulator(profile: DeviceProfile(start: start, isLocked: true))
    for index in 0..<8 {
      device.apply(
        push(
          #"{"aps":{"alert":{"title":"Title \#(index)","body":"Body \#(index)"}}}"#, bundle: "com.example.app\(index)"),
        at: start + .seconds(Int64(index + 1)))
    }
    var state = AppState(device: device)
    _ = reduce(into: &state, .tick(start + .seconds(60)))
    #expect(state.lockScreenStacks().count == 8)
    for selection in 0..<8 {
      state.lockSelection = selection
      let grid = frame(state, columns: columns, rows: rows)
      #expect(
        grid.hitRegions.contains { $0.target == .lockRow(selection) },
        "\(columns)x\(rows): stack \(selection) is selected but not drawn:\n\(grid.textDump())")
    }
  }
}

import PushCore
import PushTestSupport
import PushUI
import Testing

@testable import PushRender

/// The action sheet and the opened notification on terminals too short for all they hold:
/// nothing the user can choose is left undrawn.
@Suite("Action sheet and opened notification on short terminals")
struct ShortTerminalSheetTests {
  let start = DemoScenario.start

  /// A shop whose ORDER category has ten actions (iOS's most), the last destructive, and one order
  /// notification with a subtitle, selected on the unlocked lock screen.
  func shopState() -> AppState {
    var app = AppProfile(info: AppInfo(bundleID: "com.example.shop", displayName: "Shop", iconGlyph: "🛒"))
    app.settings.showPreviews = .always
    let titles = [
      "Track", "Call courier", "Change address", "Add tip", "Rate", "Help", "Share", "Receipt", "Reorder",
    ]
    app.categories = [
      NotificationCategory(
        identifier: "ORDER",
        actions: titles.enumerated().map { NotificationAction(identifier: "A\($0.offset)", title: $0.element) }
          + [NotificationAction(identifier: "CANCEL", title: "Cancel order", options: [.destructive])])
    ]
    var device = DeviceSimulator(profile: DeviceProfile(start: start, isLocked: false, apps: [app]))
    device.apply(
      push(
        #"{"aps":{"alert":{"title":"Order 1234","subtitle":"Arriving soon","body":"Your order is on its way"},"category":"ORDER"}}"#,
        bundle: "com.example.shop"), at: start + .seconds(1))
    var state = AppState(device: device)
    _ = reduce(into: &state, .tick(start + .seconds(60)))
    return state
  }

  func text(_ grid: CellGrid) -> String { grid.textDump() }

  @Test func everyActionCanBeSeenBeforeItIsChosenOnAShortTerminal() {
    var state = shopState()
    _ = reduce(into: &state, .command(.showActions))
    let columns = 50
    let rows = 12
    // ↑ from the first action highlights the last: the destructive one.
    _ = reduce(into: &state, .command(.moveUp))
    var grid = frame(state, columns: columns, rows: rows)
    let dump = text(grid)
    #expect(dump.contains("▸ Cancel order"), "the highlighted action is drawn:\n\(dump)")
    #expect(dump.contains("↑ 4 more"), "what is not drawn is counted:\n\(dump)")
    #expect(grid.hitRegions.contains { $0.target == .action(9) })
    #expect(dump.split(separator: "\n").contains { $0.contains("╰") }, "the sheet's foot is on screen")
    // Down from the last goes back to the first, which shows in its turn.
    _ = reduce(into: &state, .command(.moveDown))
    grid = frame(state, columns: columns, rows: rows)
    #expect(text(grid).contains("▸ Track"))
    #expect(grid.hitRegions.contains { $0.target == .action(0) })
    #expect(!grid.hitRegions.contains { $0.target == .action(9) }, "an action not drawn cannot be clicked")
    // Every action is reachable, and drawn when highlighted.
    for index in 1..<10 {
      _ = reduce(into: &state, .command(.moveDown))
      grid = frame(state, columns: columns, rows: rows)
      #expect(grid.hitRegions.contains { $0.target == .action(index) }, "action \(index) is drawn")
    }
  }

  @Test func theSheetShowsTheSubtitleWhenThereIsRoom() {
    var state = shopState()
    _ = reduce(into: &state, .command(.showActions))
    let dump = text(frame(state, columns: 80, rows: 24))
    #expect(dump.contains("Arriving soon"))
    #expect(dump.contains("Cancel order") && dump.contains("Track"))
    #expect(!dump.contains(" more"), "everything fits: nothing is counted")
  }

  @Test func theWindowKeepsTheIndexInViewWithRoomForItsMoreLines() {
    for count in 1...12 {
      for rows in 3...9 {
        for index in 0..<count {
          let window = ActionSheetView.window(count: count, around: index, rows: rows)
          #expect(window.contains(index), "count \(count), rows \(rows), index \(index)")
          let more = (window.lowerBound > 0 ? 1 : 0) + (window.upperBound < count ? 1 : 0)
          #expect(window.count + more <= rows, "count \(count), rows \(rows), index \(index): \(window)")
        }
      }
    }
  }

  @Test func theOpenedNotificationsButtonRowsFollowOneBlankLine() {
    var state = shopState()
    _ = reduce(into: &state, .command(.openSelected))
    let lines = text(frame(state, columns: 50, rows: 24)).split(separator: "\n").map(String.init)
    let buttonRows = lines.indices.filter { lines[$0].contains("[ ") }
    #expect(buttonRows.count >= 2, "ten actions take several rows at 50 columns:\n\(lines.joined(separator: "\n"))")
    guard let first = buttonRows.first, let last = buttonRows.last else { return }
    #expect(buttonRows == Array(first...last), "no blank line between rows of buttons: \(buttonRows)")
    let inner = { (line: String) in line.filter { $0 != "│" && $0 != "|" && $0 != " " } }
    #expect(inner(lines[first - 1]).isEmpty, "a blank line above the buttons")
    #expect(lines[first - 2].contains("Your order is on its way"))
  }
}

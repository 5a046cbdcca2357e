import PushCore
import PushUI
import Testing

@testable import PushRender

/// An opened notification taller than the screen scrolls: ↑ ↓, PgUp PgDn, Home End and the wheel
/// move its content in a window above the buttons and the meta line, which stay; every line of
/// the body can be reached, and the rows at the window's edges say what is left out.
@Suite("Opened notification scrolling")
struct DetailScrollTests {
  private let rows = 24

  /// A shop notification whose body wraps to about a hundred lines, opened from Notification
  /// Center.
  private func openedLongBody() throws -> AppState {
    let start = DemoScenario.start
    var profile = DeviceProfile(start: start)
    var app = AppProfile(info: AppInfo(bundleID: "com.example.shop", displayName: "Shop", iconGlyph: "🛍"))
    app.categories = [
      NotificationCategory(
        identifier: "ORDER",
        actions: [NotificationAction(identifier: "A", title: "Track")]
          + (1...9).map { NotificationAction(identifier: "B\($0)", title: "Another action \($0)") })
    ]
    profile.apps = [app]
    let body = (1...600).map { String(format: "w%03d", $0) }.joined(separator: " ")
    let payload = #"{"aps":{"alert":{"title":"Order","body":"\#(body)"},"category":"ORDER"}}"#
    var state = AppState(
      device: DeviceSimulator(profile: profile),
      timeline: [TimelineEntry(at: start + .seconds(1), event: push(payload, bundle: "com.example.shop"))])
    state.terminalColumns = 80
    state.terminalRows = rows
    _ = reduce(into: &state, .tick(start + .seconds(2)))
    _ = reduce(into: &state, .command(.openCenter))
    _ = reduce(into: &state, .command(.activate))
    let id = try #require(state.device.store.all.first?.id)
    #expect(state.screen == .detail(id))
    return state
  }

  /// Draws the state as the runtime does, handing the frame's scroll limit back to it.
  private func draw(_ state: inout AppState) -> String {
    let grid = frame(state, columns: 80, rows: rows)
    state.detailScrollLimit = grid.detailScrollLimit
    state.detailPageRows = grid.detailPageRows
    return grid.textDump()
  }

  @Test func arrowsPagesAndEndsReachEveryLineWithTheButtonsKept() throws {
    var state = try openedLongBody()
    var screen = draw(&state)
    let limit = try #require(state.detailScrollLimit)
    #expect(limit > 30)
    #expect(screen.contains("Order") && screen.contains("w001"))
    #expect(screen.contains("more lines · ↓ scrolls"))
    #expect(!screen.contains("more line · ↑") && !screen.contains("lines · ↑"))
    // One row down: the title's row is above the window now, and said to be.
    _ = reduce(into: &state, .command(.moveDown))
    screen = draw(&state)
    #expect(state.detailScrollRows == 1)
    #expect(screen.contains("↑ 1 more line · ↑ scrolls back"))
    #expect(screen.contains("[ Track ]") && screen.contains("Received "))
    // Page by page to the end: every word shows on some page, and the last page has no row
    // below its window.
    var seen = screen
    var pages = 0
    while screen.contains("↓ scrolls") && pages < 100 {
      _ = reduce(into: &state, .command(.pageDown))
      screen = draw(&state)
      seen += screen
      pages += 1
    }
    #expect(pages > 2 && pages < 100)
    #expect(state.detailScrollRows == limit)
    for word in (1...600).map({ String(format: "w%03d", $0) }) where !seen.contains(word) {
      Issue.record("\(word) never showed while paging down")
      break
    }
    #expect(screen.contains("w600") && screen.contains("[ Track ]") && screen.contains("Received "))
    // Past the end it stays; Home goes back to the top, End to the end.
    _ = reduce(into: &state, .command(.moveDown))
    #expect(state.detailScrollRows == limit)
    _ = reduce(into: &state, .command(.jumpToFirst))
    screen = draw(&state)
    #expect(state.detailScrollRows == 0 && screen.contains("w001"))
    _ = reduce(into: &state, .command(.jumpToLast))
    #expect(state.detailScrollRows == limit)
    // The wheel scrolls three rows a notch.
    _ = reduce(into: &state, .command(.scroll(-1)))
    #expect(state.detailScrollRows == limit - 3)
  }

  @Test func anotherOpeningStartsAtTheTopAndAShortBodyDoesNotScroll() throws {
    var state = try openedLongBody()
    _ = draw(&state)
    _ = reduce(into: &state, .command(.pageDown))
    #expect(state.detailScrollRows > 0)
    _ = reduce(into: &state, .command(.back))
    _ = reduce(into: &state, .command(.activate))
    #expect(state.detailScrollRows == 0, "opened again, it shows from its top")
    // A notification that fits draws no window, and ↓ moves nothing.
    var demo = AppState.demo()
    demo.terminalColumns = 80
    demo.terminalRows = rows
    _ = reduce(into: &demo, .command(.openSelected))
    #expect(demo.screen != .lock && demo.screen != .center, "the demo's first notification opened")
    let screen = draw(&demo)
    #expect(demo.detailScrollLimit == 0)
    _ = reduce(into: &demo, .command(.moveDown))
    #expect(demo.detailScrollRows == 0)
    #expect(!screen.contains("↓ scrolls"))
  }
}

import PushCore
import PushRender
import PushRuntime
import PushTestSupport
import PushUI
import Testing

@Suite("Theme cycling")
@MainActor
struct ThemeCycleTests {
  @Test func cMovesToTheNextThemeAndSaysWhichThenWrapsAround() throws {
    let light = try #require(try Theme.builtIn(named: "light"))
    let terminal = FakeTerminal(
      size: Size(columns: 60, rows: 20), colorCapability: .truecolor,
      script: [.key(.character("c")), .key(.character("c"))])
    let state = AppState.demo()
    let loop = AppLoop(
      state: state, screen: terminal, input: terminal, clock: SimulationClock(start: state.now, mode: .manual),
      theme: .builtInDefault, otherThemes: [light])
    func backgrounds(_ frame: CellGrid) -> Set<String> {
      var colors: Set<String> = []
      for row in 0..<frame.height {
        for column in 0..<frame.width {
          if let hex = frame[column, row].style.background?.hexString { colors.insert(hex) }
        }
      }
      return colors
    }
    let lightCard = try #require(light[.card].background?.hexString)
    let darkCard = try #require(Theme.builtInDefault[.card].background?.hexString)
    loop.run(maxTurns: 1)
    var frame = try #require(terminal.frames.last)
    #expect(frame.textDump().contains("Theme: light"))
    #expect(backgrounds(frame).contains(lightCard))
    #expect(!backgrounds(frame).contains(darkCard))
    loop.run(maxTurns: 1)
    frame = try #require(terminal.frames.last)
    #expect(frame.textDump().contains("Theme: default"))
    #expect(backgrounds(frame).contains(darkCard))
  }

  @Test func theKeyIsInTheHelp() {
    #expect(KeyMap.documented.contains { $0.keys == "c" && $0.help.contains("theme") })
    #expect(KeyMap.standard.bindings[.character("c")] == .nextTheme)
  }
}

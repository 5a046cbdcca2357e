import PushCore
import PushRender
import PushTestSupport
import PushUI
import Testing

@Suite("Typed text with its cursor")
struct TextFieldViewTests {
  /// The row holding `text`, and the columns of its cells drawn in reverse video.
  private func reversed(in grid: CellGrid, row text: String) throws -> (line: String, columns: [Int]) {
    let lines = grid.textDump().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let row = try #require(lines.firstIndex { $0.contains(text) })
    return (lines[row], (0..<grid.width).filter { grid[$0, row].style.isReversed })
  }

  @Test func theGoToPromptShowsTheCharacterUnderTheCursorReversed() throws {
    var state = AppState.demo(upcoming: false)
    _ = reduce(into: &state, .command(.beginSeek))
    _ = reduce(into: &state, .command(.insertText("09:45")))
    // At the end: the block after the text, nothing reversed.
    var grid = frame(state)
    var found = try reversed(in: grid, row: "Go to time")
    #expect(found.line.contains("09:45█"))
    #expect(found.columns.isEmpty)
    // Two to the left: the "4" is drawn reversed, in its place, and no block is added.
    _ = reduce(into: &state, .command(.editText(.moveLeft)))
    _ = reduce(into: &state, .command(.editText(.moveLeft)))
    grid = frame(state)
    found = try reversed(in: grid, row: "Go to time")
    #expect(found.line.contains("09:45") && !found.line.contains("█"))
    let row = grid.textDump().split(separator: "\n", omittingEmptySubsequences: false).firstIndex {
      $0.contains("Go to time")
    }!
    #expect(found.columns.count == 1)
    #expect(grid[found.columns[0], row].content == .glyph("4", columns: 1))
  }

  @Test func theReplyFieldKeepsTheCursorInViewWhenTheTextIsWiderThanTheSheet() throws {
    var state = AppState.demoAtReplyField()
    let long = "start " + String(repeating: "middle ", count: 12) + "finish"
    _ = reduce(into: &state, .command(.insertText(long)))
    // At the end, the end is in view behind "…", as before.
    var found = try reversed(in: frame(state), row: "finish█")
    #expect(found.line.contains("▏…"))
    // At the start, the start is in view and the cursor is on its "s".
    _ = reduce(into: &state, .command(.editText(.moveToStart)))
    let grid = frame(state)
    found = try reversed(in: grid, row: "▏start middle")
    #expect(!found.line.contains("finish"))
    let row = grid.textDump().split(separator: "\n", omittingEmptySubsequences: false).firstIndex {
      $0.contains("▏start middle")
    }!
    #expect(found.columns.map { grid[$0, row].content } == [.glyph("s", columns: 1)])
    // What is cut off after the cursor is said with "…", as what is cut before it is.
    #expect(found.line.contains("…"), "\(found.line)")
  }
}

import Foundation
import PushRender
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

@Suite("Cell grid")
struct CellGridTests {
  @Test func textDumpPadsRowsAndShowsTheEdges() {
    var grid = CellGrid(width: 5, height: 2)
    grid.write("ab", at: Point(column: 1, row: 0), style: .plain)
    #expect(grid.textDump() == "| ab  |\n|     |\n")
  }

  @Test func wideGlyphIsDumpedOnceAndFillsTwoCells() {
    var grid = CellGrid(width: 4, height: 1)
    grid.write("中a", at: Point(column: 0, row: 0), style: .plain)
    #expect(grid[0, 0].content == .glyph("中", columns: 2))
    #expect(grid[1, 0].content == .continuation)
    #expect(grid.textDump() == "|中a |\n")
  }

  @Test func wideGlyphIsNeverSplitAtTheRightEdge() {
    var grid = CellGrid(width: 3, height: 1)
    let written = grid.write("a中", at: Point(column: 1, row: 0), style: .plain)
    #expect(written == 2)
    #expect(grid.textDump() == "| a |\n")
    #expect(!grid.cells.contains { $0.content == .continuation })
  }

  @Test func maxColumnsStopsBeforeAWideGlyphThatWouldCrossIt() {
    var grid = CellGrid(width: 6, height: 1)
    grid.write("ab中", at: Point(column: 0, row: 0), style: .plain, maxColumns: 3)
    #expect(grid.textDump() == "|ab    |\n")
  }

  @Test func overwritingHalfAWideGlyphBlanksTheOtherHalf() {
    var grid = CellGrid(width: 4, height: 1)
    grid.write("中中", at: Point(column: 0, row: 0), style: .plain)
    grid.write("x", at: Point(column: 1, row: 0), style: .plain)
    #expect(grid.textDump() == "| x中|\n")
    grid.write("y", at: Point(column: 2, row: 0), style: .plain)
    #expect(grid.textDump() == "| xy |\n")
  }

  @Test func transparentStyleKeepsTheBackgroundUnderneath() {
    var grid = CellGrid(width: 3, height: 1)
    grid.fill(Rect(column: 0, row: 0, columns: 3, rows: 1), style: Style(background: .ansi16(4)))
    grid.write(
      "a", at: Point(column: 0, row: 0), style: Style(foreground: .ansi16(7), isBold: true))
    #expect(grid[0, 0].style == Style(foreground: .ansi16(7), background: .ansi16(4), isBold: true))
  }

  @Test func styleDumpListsRunsWithRoles() {
    var grid = CellGrid(width: 6, height: 1)
    grid.write(
      "Hi", at: Point(column: 1, row: 0),
      style: Style(foreground: .rgb(255, 255, 255), isBold: true),
      role: .cardTitle)
    #expect(grid.styleDump() == "row 0, cols 1–2: cardTitle (bold, fg #FFFFFF)\n")
  }
}

@Suite struct SVGExportTests {
  @Test func boxDrawingBecomesJoinedStrokesAndTextStaysText() throws {
    var grid = CellGrid(width: 4, height: 3)
    grid.write("╭──╮", at: Point(column: 0, row: 0), style: .plain)
    grid.write("│ab│", at: Point(column: 0, row: 1), style: .plain)
    grid.write("╰──╯", at: Point(column: 0, row: 2), style: .plain)
    let svg = grid.svg(defaultForeground: .rgb(255, 255, 255), defaultBackground: .rgb(0, 0, 0))
    // Ten border cells are paths, none is text; the two letters are text.
    #expect(svg.components(separatedBy: "<path ").count - 1 == 10)
    #expect(svg.components(separatedBy: "<text ").count - 1 == 2)
    #expect(!svg.contains(">─<") && !svg.contains(">│<") && !svg.contains(">╭<"))
    // A horizontal line spans its cell edge to edge (cells are 10 × 20), so neighbours join.
    #expect(svg.contains(#"d="M10 10.5 H20""#))
    // A vertical line spans its cell top to bottom.
    #expect(svg.contains(#"d="M5.5 20 V40""#))
    // The top-left corner curves from the right edge down to the bottom edge.
    #expect(svg.contains(#"d="M10 10.5 Q5.5 10.5 5.5 20""#))
    #expect(XMLParser(data: Data(svg.utf8)).parse())
  }
}

import PushCore
import PushUI
import Testing

@testable import PushRender

/// The lock screen's card layout as a value (`LockScreenView.layoutCards`), before drawing.
@Suite("Lock screen layout")
struct LockScreenLayoutTests {
  @Test(arguments: [(80, 24), (40, 20), (60, 40), (100, 18)])
  func cardsStackDownwardsWithoutOverlapAndTheCountLineFollows(columns: Int, rows: Int) throws {
    let view = LockScreenView(state: demoState())
    let (top, bottom) = (9, rows - 3)
    let layout = try #require(view.layoutCards(width: columns, top: top, bottom: bottom))
    #expect(!layout.placed.isEmpty)
    #expect(layout.columns == min(columns - 4, 66) && layout.left == (columns - layout.columns) / 2)
    var next = top
    for card in layout.placed {
      #expect(card.row >= next, "cards overlap at row \(card.row)")
      #expect(card.rows >= 1 && card.lines.count <= card.rows)
      next = card.row + card.rows + 1
    }
    let last = try #require(layout.placed.last)
    #expect(last.row + last.rows - 1 <= bottom)
    if let count = layout.countLine {
      #expect(count.row == last.row + last.rows + 1 && count.row <= bottom)
      #expect(count.text.contains("more notification"))
    } else {
      // Nothing counted: every card fitted, gathered at the bottom.
      #expect(last.row + last.rows - 1 == bottom)
    }
  }

  @Test func aClickOnAStackCardSelectsThatStack() throws {
    let view = LockScreenView(state: demoState())
    let layout = try #require(view.layoutCards(width: 60, top: 9, bottom: 37))
    let stacks = layout.placed.compactMap(\.stack)
    #expect(stacks == Array(0..<stacks.count), "stack cards in rank order, from the first")
    #expect(layout.placed.prefix { $0.stack == nil }.count + stacks.count == layout.placed.count)
  }

  @Test func noRoomIsNoLayout() {
    #expect(LockScreenView(state: demoState()).layoutCards(width: 80, top: 10, bottom: 9) == nil)
  }
}

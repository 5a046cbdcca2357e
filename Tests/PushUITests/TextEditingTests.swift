import PushCore
import PushTestSupport
import PushUI
import Testing

@Suite("Editing typed text at a cursor")
struct TextEditingTests {
  private func edited(_ text: String, after: Int = 0, _ edits: TextEdit...) -> EditedText {
    var field = EditedText(text, charactersAfterCursor: after)
    for edit in edits { field.apply(edit) }
    return field
  }

  @Test func typingAndDeletingHappenAtTheCursor() {
    #expect(edited("helo", after: 1, .insert("l")) == EditedText("hello", charactersAfterCursor: 1))
    #expect(edited("hello", after: 2, .deleteBackward) == EditedText("helo", charactersAfterCursor: 2))
    #expect(edited("hello", after: 2, .deleteForward) == EditedText("helo", charactersAfterCursor: 1))
    // At either end there is nothing to delete on that side.
    #expect(edited("ab", after: 2, .deleteBackward) == EditedText("ab", charactersAfterCursor: 2))
    #expect(edited("ab", after: 0, .deleteForward) == EditedText("ab", charactersAfterCursor: 0))
  }

  @Test func theCursorMovesByCharactersAndStopsAtTheEnds() {
    // "👍🏽" is one character (a grapheme cluster of two scalars): one step passes it whole.
    let thumbs = edited("a👍🏽b", after: 1, .moveLeft)
    #expect(thumbs.charactersAfterCursor == 2)
    #expect(thumbs.afterCursor == "👍🏽b")
    #expect(edited("ab", after: 2, .moveLeft).charactersAfterCursor == 2)
    #expect(edited("ab", after: 0, .moveRight).charactersAfterCursor == 0)
    #expect(edited("abc", after: 1, .moveToStart).beforeCursor == "")
    #expect(edited("abc", after: 3, .moveToEnd).afterCursor == "")
    // A cursor from a longer text is kept in range.
    #expect(EditedText("ab", charactersAfterCursor: 9).charactersAfterCursor == 2)
  }

  @Test func lineEditingChordsDeleteWordsAndHalves() {
    #expect(edited("see you  soon", after: 0, .deleteWordBackward).text == "see you  ")
    #expect(edited("see you  ", after: 0, .deleteWordBackward).text == "see ")
    #expect(edited("see you soon", after: 5, .deleteWordBackward) == EditedText("see  soon", charactersAfterCursor: 5))
    #expect(edited("see you soon", after: 4, .deleteWordBackward) == EditedText("see soon", charactersAfterCursor: 4))
    #expect(edited("see you soon", after: 4, .deleteToStart) == EditedText("soon", charactersAfterCursor: 4))
    #expect(edited("see you soon", after: 4, .deleteToEnd) == EditedText("see you ", charactersAfterCursor: 0))
  }

  @Test func theReplyFieldIsEditedWithTheKeysOfAShellLine() throws {
    var state = AppState.demoAtReplyField()
    let keys = KeyMap.standard
    func press(_ pressed: Key...) {
      for key in pressed {
        if let event = keys.event(for: .key(key), mode: state.inputMode) { _ = reduce(into: &state, event) }
      }
    }
    // "on my way", then fix it to "On my way!" without retyping: Home, Delete, "O", End, "!".
    for character in "on my way" { press(.character(character)) }
    press(.home, .delete, .character("O"), .end, .character("!"))
    #expect(state.editedText == EditedText("On my way!"))
    // ← twice and Ctrl-W take the word before the cursor; Ctrl-E goes back to the end.
    press(.left, .left, .control("w"), .character("w"), .control("e"), .character("?"))
    #expect(state.editedText == EditedText("On my wy!?"))
    let effects = reduce(into: &state, .command(.activate))
    let invocation = try #require(effects.first.flatMap { if case .perform(let it) = $0 { it } else { nil } })
    #expect(invocation.text == "On my wy!?")
  }

  @Test func theGoToPromptOpensWithItsCursorAtTheEnd() {
    var state = AppState.demo(upcoming: false)
    _ = reduce(into: &state, .command(.beginSeek))
    for character in "9:45" { _ = reduce(into: &state, .command(.insertText(String(character)))) }
    _ = reduce(into: &state, .command(.editText(.moveToStart)))
    _ = reduce(into: &state, .command(.insertText("0")))
    #expect(state.prompt == .seek("09:45"))
    #expect(state.editedText?.charactersAfterCursor == 4)
    _ = reduce(into: &state, .command(.back))
    // A prompt opened again starts empty with its cursor at the end, wherever the last one was.
    _ = reduce(into: &state, .command(.beginSeek))
    _ = reduce(into: &state, .command(.insertText("+")))
    _ = reduce(into: &state, .command(.insertText("5m")))
    #expect(state.editedText == EditedText("+5m"))
  }
}

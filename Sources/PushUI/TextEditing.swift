/// An edit of the text being typed (the "go to time" prompt or an action's reply field), made
/// at its cursor, as a terminal's line editor makes it.
public enum TextEdit: Equatable, Sendable {
  /// Type text at the cursor.
  case insert(String)
  /// Backspace: delete the character before the cursor.
  case deleteBackward
  /// Delete (Ctrl-D): delete the character under the cursor.
  case deleteForward
  /// ← → (Ctrl-B, Ctrl-F): move the cursor by a character.
  case moveLeft, moveRight
  /// Home and End (Ctrl-A, Ctrl-E).
  case moveToStart, moveToEnd
  /// Ctrl-W: delete the word before the cursor (and the spaces after it).
  case deleteWordBackward
  /// Ctrl-U and Ctrl-K: delete everything before, or from, the cursor.
  case deleteToStart, deleteToEnd
}

/// Text with a cursor, counted in characters (grapheme clusters: an emoji with its modifiers is
/// one), from the end: a field opens with the cursor after its last character, and text that
/// changes under it (a new reply field) keeps it in range.
public struct EditedText: Equatable, Sendable {
  /// The text.
  public var text: String
  /// How many characters follow the cursor (0: at the end).
  public var charactersAfterCursor: Int

  /// Text with the cursor `charactersAfterCursor` characters before its end (clamped).
  public init(_ text: String, charactersAfterCursor: Int = 0) {
    self.text = text
    self.charactersAfterCursor = min(max(charactersAfterCursor, 0), text.count)
  }

  /// Where the cursor is.
  public var cursor: String.Index {
    text.index(text.endIndex, offsetBy: -charactersAfterCursor)
  }

  /// The text before and after the cursor.
  public var beforeCursor: Substring { text[..<cursor] }
  public var afterCursor: Substring { text[cursor...] }

  /// Makes `edit` at the cursor.
  public mutating func apply(_ edit: TextEdit) {
    let cursor = self.cursor
    switch edit {
    case .insert(let typed):
      text.insert(contentsOf: typed, at: cursor)
    case .deleteBackward:
      guard cursor > text.startIndex else { return }
      text.remove(at: text.index(before: cursor))
    case .deleteForward:
      guard cursor < text.endIndex else { return }
      text.remove(at: cursor)
      charactersAfterCursor -= 1
    case .moveLeft:
      if cursor > text.startIndex { charactersAfterCursor += 1 }
    case .moveRight:
      if charactersAfterCursor > 0 { charactersAfterCursor -= 1 }
    case .moveToStart:
      charactersAfterCursor = text.count
    case .moveToEnd:
      charactersAfterCursor = 0
    case .deleteWordBackward:
      var start = cursor
      while start > text.startIndex, text[text.index(before: start)].isWhitespace { start = text.index(before: start) }
      while start > text.startIndex, !text[text.index(before: start)].isWhitespace {
        start = text.index(before: start)
      }
      text.removeSubrange(start..<cursor)
    case .deleteToStart:
      text.removeSubrange(text.startIndex..<cursor)
    case .deleteToEnd:
      text.removeSubrange(cursor...)
      charactersAfterCursor = 0
    }
  }
}

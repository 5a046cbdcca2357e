import PushCore
import Testing

@testable import PushStore

/// A reason list is stored once: the same codes and texts give the same id, anything else a
/// new one, whatever the texts' lengths (the fingerprint reads them eight bytes at a step).
@Suite struct ReasonListsTests {
  static func list(_ texts: String...) -> [Reason] { texts.map { Reason(.badgeApplied, $0) } }

  @Test func sameListSameIDOtherwiseNew() {
    let lists = ReasonLists(firstID: 7)
    let badge = Self.list("The app icon's badge becomes 8.")
    #expect(lists.id(for: badge) == (7, true))
    #expect(lists.id(for: Self.list("The app icon's badge becomes 8.")) == (7, false))
    // Differences in the last byte, in a tail shorter than eight bytes, in the code, in order
    // and in count each make another list.
    #expect(lists.id(for: Self.list("The app icon's badge becomes 9.")) == (8, true))
    #expect(lists.id(for: Self.list("The app icon's badge becomes 8!")) == (9, true))
    #expect(lists.id(for: [Reason(.soundNotRequested, "The app icon's badge becomes 8.")]) == (10, true))
    #expect(lists.id(for: Self.list("a", "b")) == (11, true))
    #expect(lists.id(for: Self.list("b", "a")) == (12, true))
    #expect(lists.id(for: Self.list("a", "b", "")) == (13, true))
    #expect(lists.id(for: []) == (14, true))
    #expect(lists.id(for: Self.list("a", "b")) == (11, false))
    #expect(lists.id(for: Self.list("Ünïcödé — 通知")) == (15, true))
    #expect(lists.id(for: Self.list("Ünïcödé — 通知")) == (15, false))
  }

  @Test func fingerprintsTellApartTextsOfEveryLength() {
    // Every prefix of a text, and the same prefix with its last byte changed: all distinct.
    let text = String(repeating: "abcdefghij", count: 4)
    var seen: Set<UInt64> = []
    for length in 0...text.count {
      let prefix = String(text.prefix(length))
      seen.insert(ReasonLists.fingerprint(Self.list(prefix)))
      seen.insert(ReasonLists.fingerprint(Self.list(prefix + "#")))
    }
    #expect(seen.count == 2 * (text.count + 1))  // 82 distinct texts, 82 distinct fingerprints
  }
}

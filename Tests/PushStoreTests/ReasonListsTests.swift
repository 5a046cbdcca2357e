import PushCore
import Testing

@testable import PushStore

/// A reason list is stored once: the same codes and texts give the same id, anything else a
/// new one, whatever the texts' lengths (the fingerprint reads them eight bytes at a step).
@Suite struct ReasonListsTests {
  static func list(_ texts: String...) -> [Reason] { texts.map { Reason(.badgeApplied, $0) } }

  @Test func sameListSameIDOtherwiseNew() {
    let lists = ReasonLists(firstID: 7, sourceFiles: [:])
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

  @Test func manyListsKeepTheirIDsAsTheTableGrowsUpToItsLimit() {
    // Enough lists to grow the table's slots many times (they start at 1,024, at most half
    // full) and to share first slots, then every one asked for again, then the limit.
    let lists = ReasonLists(firstID: 1, sourceFiles: [:])
    let texts = (0..<ReasonLists.limit).map { "The app icon's badge becomes \($0)." }
    for (index, text) in texts.enumerated() where index < 5_000 {
      #expect(lists.id(for: Self.list(text)) == (Int64(index + 1), true))
    }
    for (index, text) in texts.enumerated() where index < 5_000 {
      #expect(lists.id(for: Self.list(text)) == (Int64(index + 1), false))
    }
    var firstMismatch: Int?
    for index in 5_000..<texts.count where lists.id(for: Self.list(texts[index])) != (Int64(index + 1), true) {
      firstMismatch = firstMismatch ?? index
    }
    #expect(firstMismatch == nil)
    // Full: a new list gets no id (its rows carry it inline); known ones are still found.
    #expect(lists.id(for: Self.list("one more")) == (nil, false))
    #expect(lists.id(for: Self.list(texts[0])) == (1, false))
    #expect(lists.id(for: Self.list(texts[texts.count - 1])) == (Int64(texts.count), false))
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

  /// A list that names a notification (an `apns-collapse-id` replacement, a removal to make
  /// room) never repeats: it takes no id and no place in the table, and its row keeps it.
  @Test func listsThatNameANotificationAreNotNumbered() {
    let lists = ReasonLists(firstID: 1, sourceFiles: [:])
    let delivered = [Reason(.deliveredNormally, "Chat may alert: it shows as a banner.")]
    let replacing =
      [Reason(.collapsedReplacement, "apns-collapse-id matches n42: this notification replaces it.")] + delivered
    let full =
      delivered + [
        Reason(.notificationCenterFull, "Notification Center holds at most 2 notifications: n1 was removed.")
      ]
    #expect(lists.ids(for: replacing, sourceFile: "a.jsonl") == (nil, false, 1, true))
    #expect(lists.ids(for: replacing, sourceFile: "a.jsonl") == (nil, false, 1, false))
    #expect(lists.ids(for: full, sourceFile: "a.jsonl") == (nil, false, 1, false))
    // The first list to be numbered still takes the first id.
    #expect(lists.ids(for: delivered, sourceFile: "a.jsonl") == (1, true, 1, false))
  }

  /// The fingerprint reads each code as its position among the cases.
  @Test func aCodesOrdinalIsItsPositionAmongTheCases() {
    #expect(MemoryLayout<ReasonCode>.size == 1)
    #expect(ReasonCode.allCases.enumerated().allSatisfy { $0.offset == $0.element.ordinal })
  }
}

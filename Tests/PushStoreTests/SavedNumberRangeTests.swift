import PushCore
import Testing

@testable import PushStore

/// Numbers in a saved row's JSON (an attachment's size, its thumbnail's width and height) are
/// checked where they are read: out of range is damage, never a trap.
struct SavedNumberRangeTests {
  private func attachment(_ fields: String) -> String {
    #"[{"identifier":"a","path":"/x","kind":"image","type":"public.png",\#(fields)}]"#
  }

  @Test(arguments: [
    #""size":1e300"#, #""size":-1"#, #""size":1.5"#,
    #""size":100,"width":1e10,"height":1e10,"rgb":"""#,
    #""size":100,"width":1e300,"height":0,"rgb":"""#,
    #""size":100,"width":3037000500,"height":3037000500,"rgb":"""#,
    #""size":100,"width":-1,"height":-1,"rgb":"000000""#,
  ])
  func anAttachmentNumberOutOfRangeIsDamage(_ fields: String) {
    #expect(throws: JournalCoding.Malformed.self) { try JournalCoding.attachments(attachment(fields)) }
  }

  @Test func anAttachmentInRangeIsRead() throws {
    let read = try JournalCoding.attachments(attachment(#""size":100,"width":1,"height":2,"rgb":"ff000000ff00""#))
    #expect(read.first?.byteCount == 100)
    #expect(read.first?.thumbnail?.rgb == [0xFF, 0, 0, 0, 0xFF, 0])
  }

  @Test func anEngagementScoreOfHugeCountsIsFinite() {
    #expect(Engagement(taps: Int.max, dismissals: 0).score.isFinite)
    #expect(Engagement(taps: 0, dismissals: Int.max).score.isFinite)
    #expect(Engagement(taps: Int.max, dismissals: Int.max).score.isFinite)
  }
}

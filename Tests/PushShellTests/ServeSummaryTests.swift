import Testing

@testable import PushShell

/// `serve`'s last line says where the pushes went: saved in a state database, or recorded to a
/// capture with the device's state not saved (`--ephemeral --record FILE` said "N pushes saved").
@Suite struct ServeSummaryTests {
  @Test func theLastLineSaysWhereThePushesWent() {
    func summary(_ pushes: Int, changes: Int = 0, refused: Int = 0, state: String?, record: String?) -> String {
      LiveDevice.summary(
        pushes: pushes, channelChanges: changes, refused: refused, statePath: state, recordPath: record)
    }
    #expect(
      summary(3, state: nil, record: "live.jsonl")
        == "3 pushes recorded to live.jsonl; the device's state was not saved (ephemeral)")
    #expect(summary(1, state: nil, record: "a\u{1B}[2J.jsonl").hasPrefix("1 push recorded to a\\u{1B}[2J.jsonl;"))
    #expect(summary(1, changes: 2, state: "s.sqlite", record: nil) == "1 push saved, 2 channel changes saved")
    #expect(summary(4, state: "s.sqlite", record: "c.jsonl") == "4 pushes saved and recorded to c.jsonl")
    #expect(summary(0, refused: 2, state: "s.sqlite", record: nil) == "0 pushes saved, 2 answered 500 (not saved)")
    #expect(summary(0, state: nil, record: nil) == "ephemeral: nothing saved")
  }
}

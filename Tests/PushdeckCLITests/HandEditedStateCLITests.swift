import Foundation
import PushTestSupport
import Testing

/// A state database is input from outside like any file: one edited by hand (or damaged) so that
/// a saved id, count, line or byte count is out of range is reported as damaged, naming the
/// column, with the file left as it was: never a trap when the device counts on from it.
/// (Found by an audit on 26 Nov: each of these crashed `replay` with "Illegal instruction".)
@Suite(
  .requires(PushdeckProcess.binary != nil, "the pushdeck binary was not built"),
  .requires(FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3"), "sqlite3 is not installed"))
struct HandEditedStateCLITests {
  static let first = """
    {"at": 1795000000, "bundle": "com.example.a", "payload": {"aps": {"alert": {"title": "Hi", "body": "one"}, "badge": 3}}}
    {"at": 1795000010, "bundle": "com.example.a", "payload": {"aps": {"alert": {"title": "Hi2", "body": "two"}}}}

    """
  static let more = """
    {"at": 1795000020, "bundle": "com.example.b", "payload": {"aps": {"alert": {"title": "B", "body": "x"}}}}
    {"at": 1795000030, "bundle": "com.example.b", "payload": {"aps": {"alert": {"title": "C", "body": "y"}}}}

    """

  @Test(arguments: [
    ("UPDATE source_progress SET id = 9223372036854775807", "id"),
    ("UPDATE delivery SET notification_id = 9223372036854775806 WHERE notification_id = 2", "notification_id"),
    ("UPDATE delivery SET seq = 9223372036854775806 WHERE seq = 1", "seq"),
    ("INSERT INTO reason_list(id, reasons) VALUES (9223372036854775806, '[]')", "reason_list.id"),
    ("INSERT INTO source_file(id, path) VALUES (9223372036854775807, '/x')", "source_file.id"),
    ("UPDATE source_progress SET head_bytes = -1", "head_bytes"),
    ("UPDATE source_progress SET line = 9223372036854775807", "line"),
    ("INSERT OR REPLACE INTO engagement VALUES ('com.example.b', 9223372036854775807, 0)", "taps"),
    ("INSERT OR REPLACE INTO engagement VALUES ('com.example.b', 0, 9223372036854775806)", "dismissals"),
  ])
  func aNumberOutOfRangeIsDamageNamedNotACrash(_ edit: String, column: String) throws {
    let directory = try PushdeckProcess.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let state = directory.appendingPathComponent("s.sqlite").path
    let capture = directory.appendingPathComponent("cap.jsonl")
    try Self.first.write(to: capture, atomically: true, encoding: .utf8)
    #expect(try PushdeckProcess.run(["replay", capture.path, "--state", state]).status == 0)
    _ = try ExternalTools.run("/usr/bin/sqlite3", [state, edit])
    let before = try Data(contentsOf: URL(fileURLWithPath: state))
    // The same capture grown by two lines: the replay resumes it, reading its saved progress.
    try (Self.first + Self.more).write(to: capture, atomically: true, encoding: .utf8)
    let replayed = try PushdeckProcess.run(["replay", capture.path, "--state", state])
    #expect(replayed.status == 2, "\(replayed.standardError)")
    #expect(replayed.standardError.contains("damaged"), "\(replayed.standardError)")
    #expect(replayed.standardError.contains(column), "\(replayed.standardError)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: state)) == before)
  }
}

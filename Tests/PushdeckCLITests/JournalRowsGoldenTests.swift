import Foundation
import PushTestSupport
import Testing

/// The state database a replay writes is the same, row for row, whatever route the device's
/// changes take to the journal: the golden holds each table's row count and a SHA-256 of its
/// rows (paths made relative), recorded before the ingest step (issue 15 §1) replaced the
/// journalling code, so a change that alters any saved row fails here.
@Suite(
  .requires(PushdeckProcess.binary != nil, "the pushdeck binary was not built"),
  .requires(CaptureGenerator.isAvailable, "python3 or ../shared/tools/gen_capture.py is missing"),
  .requires(FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "/usr/bin/python3 is missing"))
struct JournalRowsGoldenTests {
  /// Prints `table rows sha256` for every table of a state database, the capture's folder
  /// replaced by `<dir>` in texts and blobs (progress rows keep the resolved path).
  static let dump = #"""
    import hashlib, sqlite3, sys
    db, folder = sys.argv[1], sys.argv[2]
    con = sqlite3.connect(db)
    tables = [r[0] for r in con.execute(
        "SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%' ORDER BY name")]
    for table in tables:
        digest, count = hashlib.sha256(), 0
        for row in con.execute(f'SELECT * FROM "{table}" ORDER BY 1'):
            cells = []
            for value in row:
                if isinstance(value, bytes):
                    cells.append("x" + value.replace(folder.encode(), b"<dir>").hex())
                elif isinstance(value, str):
                    cells.append("s" + value.replace(folder, "<dir>"))
                else:
                    cells.append(repr(value))
            digest.update(("\x1f".join(cells) + "\n").encode())
            count += 1
        print(table, count, digest.hexdigest())
    """#

  @Test func aReplayAndItsContinuationSaveTheRowsTheyAlwaysSaved() throws {
    let (generated, _) = try CaptureGenerator.generate(lines: 3_000, seed: 23, badRate: 0.01)
    let directory = try PushdeckProcess.temporaryDirectory()
    defer {
      try? FileManager.default.removeItem(at: directory)
      try? FileManager.default.removeItem(at: generated.deletingLastPathComponent())
    }
    try FileManager.default.copyItem(at: generated, to: directory.appendingPathComponent("capture.jsonl"))
    // A first replay in batches, then the same capture again onto the continued device.
    let first = try PushdeckProcess.run(
      ["replay", "--state", "device.sqlite", "--batch", "400", "capture.jsonl"], directory: directory)
    #expect(first.status == 1, "\(first.standardError)")  // the capture has rejected lines
    let again = try PushdeckProcess.run(
      ["replay", "--state", "device.sqlite", "--again", "capture.jsonl"], directory: directory)
    #expect(again.status == 1, "\(again.standardError)")
    let script = directory.appendingPathComponent("dump.py")
    try Self.dump.write(to: script, atomically: true, encoding: .utf8)
    let rows = try ExternalTools.run(
      "/usr/bin/python3",
      [script.path, directory.appendingPathComponent("device.sqlite").path, directory.resolvingSymlinksInPath().path])
    let result = Golden.check(
      rows, named: "replay-journal-rows.txt", in: Golden.directory(besides: #filePath))
    #expect(result == .matched, "\(result)")
  }
}

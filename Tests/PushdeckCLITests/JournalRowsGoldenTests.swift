import Foundation
import PushTestSupport
import Testing

/// The state database a replay writes is the same, row for row, whatever route the device's
/// changes take to the journal: the golden holds each table's row count and a SHA-256 of its
/// rows (paths made relative), recorded before the ingest step (issue 15 §1) replaced the
/// journalling code, so a change that alters any saved row fails here. A `detail` is hashed as
/// format 1 (schema versions 3 to 7) encodes its values, so that version 8's smaller encoding
/// (format 2) hashes as the rows version 7 wrote, and its reason list as its JSON text wherever
/// it is kept (named by its id in `reason_list`, or in the row): since 26 Nov a list that names
/// a notification is kept in its row, and the golden was recorded again with 33df548's binary,
/// which kept every list in `reason_list`, giving the same hashes as the binary after it.
@Suite(
  .requires(PushdeckProcess.binary != nil, "the pushdeck binary was not built"),
  .requires(CaptureGenerator.isAvailable, "python3 or ../shared/tools/gen_capture.py is missing"),
  .requires(FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "/usr/bin/python3 is missing"))
struct JournalRowsGoldenTests {
  /// Prints `table rows sha256` for every table of a state database, the capture's folder
  /// replaced by `<dir>` in texts and blobs (progress rows keep the resolved path).
  static let dump = #"""
    import hashlib, sqlite3, struct, sys
    db, folder = sys.argv[1], sys.argv[2]
    con = sqlite3.connect(db)
    known = ["[]", "passive", "active", "time-sensitive", "critical", "alert", "background", "location", "voip",
        "complication", "fileprovider", "mdm", "liveactivity", "pushtotalk", "widgets", "controls", "default",
        '["banner","notificationCenter"]', '["notificationCenter"]', '["banner","lockScreen","notificationCenter"]',
        '["lockScreen","notificationCenter"]', '["banner"]', '["liveActivity"]', '["willPresent"]',
        '["didReceive"]', '["backgroundFetch"]', '["launchInBackground"]', '["serviceExtension"]']
    files = {}
    if con.execute("SELECT 1 FROM sqlite_master WHERE name = 'source_file'").fetchone():
        files = dict(con.execute("SELECT id, path FROM source_file"))
    def leb(text):
        out = bytearray()
        while text >= 0x80:
            out.append(text & 0x7F | 0x80)
            text >>= 7
        out.append(text)
        return bytes(out)
    reason_lists = {}
    if con.execute("SELECT 1 FROM sqlite_master WHERE name = 'reason_list'").fetchone():
        reason_lists = dict(con.execute("SELECT id, reasons FROM reason_list"))
    # The detail's values, in order: ("i", int), ("d", float), ("s", str) or None.
    def values(detail):
        out, at = [], 1
        def number():
            nonlocal at
            value, shift = 0, 0
            while True:
                byte = detail[at]
                at += 1
                value |= (byte & 0x7F) << shift
                shift += 7
                if byte < 0x80:
                    return value
        while at < len(detail):
            tag = detail[at]
            at += 1
            if tag == 0:
                out.append(None)
            elif tag == 1:
                out.append(("i", struct.unpack("<q", detail[at:at + 8])[0]))
                at += 8
            elif tag == 2:
                out.append(("d", struct.unpack("<d", detail[at:at + 8])[0]))
                at += 8
            elif tag == 3:
                length = number()
                out.append(("s", detail[at:at + length].decode()))
                at += length
            elif tag in (5, 6):
                value = number()
                value = (value >> 1) ^ -(value & 1)
                out.append(("i", value) if tag == 5 else ("d", float(value)))
            elif tag == 7:
                path, line = files[number()], number()
                out.append(("s", path if line == 0 else f"{path}:{line - 1}"))
            elif tag == 8:
                out.append(("s", known[detail[at]]))
                at += 1
            else:
                raise ValueError(f"tag {tag}")
        return out
    # Format 1's encoding of the values, with the reason list (the twelfth value) as its JSON
    # text wherever it is stored: a list stored once in `reason_list` and named by its id, or in
    # the row itself (a list that names a notification, or one met after the table filled up).
    named = set()
    def as_format_one(detail):
        out = bytearray([1])
        for index, value in enumerate(values(detail)):
            if index == 11 and value is not None and value[0] == "i":
                named.add(value[1])
                value = ("s", reason_lists[value[1]])
            if value is None:
                out.append(0)
            elif value[0] == "i":
                out.extend(b"\x01" + struct.pack("<q", value[1]))
            elif value[0] == "d":
                out.extend(b"\x02" + struct.pack("<d", value[1]))
            else:
                data = value[1].encode()
                out.extend(b"\x03" + leb(len(data)) + data)
        return bytes(out)
    tables = [r[0] for r in con.execute(
        "SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%' ORDER BY name")]
    for table in tables:
        if table == "reason_list":
            continue  # after delivery, whose rows name its lists
        digest, count = hashlib.sha256(), 0
        for row in con.execute(f'SELECT * FROM "{table}" ORDER BY 1'):
            cells = []
            for value in row:
                if isinstance(value, bytes) and table == "delivery":
                    value = as_format_one(value)
                if isinstance(value, bytes):
                    cells.append("x" + value.replace(folder.encode(), b"<dir>").hex())
                elif isinstance(value, str):
                    cells.append("s" + value.replace(folder, "<dir>"))
                else:
                    cells.append(repr(value))
            digest.update(("\x1f".join(cells) + "\n").encode())
            count += 1
        print(table, count, digest.hexdigest())
    # Each row's list is hashed in delivery, wherever it is kept; here, the lists the table holds
    # (their texts, sorted) and whether every one of them is named by a row.
    if reason_lists:
        texts = hashlib.sha256("\n".join(sorted(reason_lists.values())).encode()).hexdigest()
        unnamed = len(set(reason_lists) - named)
        print("reason_list", len(reason_lists), texts, f"{unnamed} named by no row")
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

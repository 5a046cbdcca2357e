import Foundation
import PushTestSupport
import Testing

/// `pushdeck validate` as a developer runs it in CI: exit codes, output formats, inputs.
@Suite(.requires(PushdeckProcess.binary != nil, "the pushdeck binary was not built"))
struct ValidateCLITests {
  let directory: URL

  init() throws {
    directory = try PushdeckProcess.temporaryDirectory()
    func write(_ name: String, _ text: String) throws {
      let url = directory.appendingPathComponent(name)
      try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try text.write(to: url, atomically: true, encoding: .utf8)
    }
    try write(
      "good.apns",
      #"{"Simulator Target Bundle": "com.example.app", "aps": {"alert": {"title": "Hi", "body": "There"}}}"#)
    try write("warn.json", #"{"aps": {"alert": "x", "mutable-content": true}}"#)
    try write("nested/bad.apns", "{\n  \"aps\": {\n    \"alert\": \"x\",\n  }\n}\n")
    try write(
      "capture.jsonl",
      #"{"at": 1, "bundle": "com.a.b", "payload": {"aps": {"alert": "one"}}}"# + "\n"
        + #"{"at": 2, "bundle": "com.a.b", "payload": {"aps": {"badge": "3"}}}"# + "\n\n"
        + #"{"at": 3, "bundle": "com.a.b", "payload": {"aps": {"alert": "three"}},}"# + "\n")
    try write("ignored.txt", "not a payload")
  }

  func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

  @Test func validFileExitsZero() throws {
    let output = try PushdeckProcess.run(["validate", path("good.apns")])
    #expect(output.status == 0)
    #expect(output.standardOutput.isEmpty)
    #expect(output.standardError.contains("checked 1 payload: 1 valid, 0 rejected"))
  }

  /// `--bundle` is checked as a bundle id where it is read: a usage error (exit 2) that says
  /// what is wrong, in every command that takes it.
  @Test func aBundleOptionThatIsNoBundleIDIsAUsageError() throws {
    for command in ["validate", "explain", "render"] {
      let output = try PushdeckProcess.run([command, "--bundle", "bad bundle!", path("warn.json")])
      #expect(output.status == 2, "\(command): \(output.standardError)")
      #expect(output.standardError.contains("is not a bundle id: it has a space (U+0020) at character 4"))
    }
    let empty = try PushdeckProcess.run(["validate", "--bundle", "", path("warn.json")])
    #expect(empty.status == 2 && empty.standardError.contains("--bundle is empty"))
    let good = try PushdeckProcess.run(["validate", "--bundle", "com.example.ok", path("warn.json")])
    #expect(good.status == 0)
  }

  @Test func warningsPassUnlessStrict() throws {
    let lenient = try PushdeckProcess.run(["validate", path("warn.json")])
    #expect(lenient.status == 0)
    #expect(lenient.standardOutput.contains("warning[MutableContentNotInteger]"))
    #expect(lenient.standardOutput.contains("effect: iOS ignores it, so the service extension will not run"))
    let strict = try PushdeckProcess.run(["validate", "--strict", path("warn.json")])
    #expect(strict.status == 1)
    #expect(strict.standardOutput.contains("error[MutableContentNotInteger]"))
  }

  @Test func syntaxErrorsAreCompilerStyleWithACaret() throws {
    let output = try PushdeckProcess.run(["validate", path("nested/bad.apns")])
    #expect(output.status == 1)
    let lines = output.standardOutput.split(separator: "\n").map(String.init)
    #expect(lines.first == "\(path("nested/bad.apns")):4:3: error[TrailingComma]: trailing comma before '}'")
    #expect(lines.contains("   |   }"))
    #expect(lines.contains("   |   ^"))
    #expect(lines.contains { $0.hasPrefix("  hint: remove the comma at line 3, column 17") })
  }

  /// A file saved with Windows line endings gets the same excerpt as one with "\n": the lines
  /// were cut at Swift Characters, which take "\r\n" for one, so a multi-line CRLF file showed
  /// no excerpt at all and a one-line one showed its "\u{D}\u{A}".
  @Test func aCRLFFileGetsItsLineAndCaretLikeAnyOther() throws {
    let crlf = directory.appendingPathComponent("crlf.apns")
    try "{\r\n  \"aps\": {\r\n    \"alert\": \"x\",\r\n  }\r\n}\r\n".write(to: crlf, atomically: true, encoding: .utf8)
    let output = try PushdeckProcess.run(["validate", crlf.path])
    #expect(output.status == 1)
    let lines = output.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    #expect(lines.first == "\(crlf.path):4:3: error[TrailingComma]: trailing comma before '}'")
    #expect(lines.dropFirst().prefix(2) == ["   |   }", "   |   ^"], "\(output.standardOutput)")
    let oneLine = directory.appendingPathComponent("one-line.json")
    try "{\"aps\": {\"alert\": \"x\"}, \"y\": [1, 2,]}\r\n".write(to: oneLine, atomically: true, encoding: .utf8)
    let single = try PushdeckProcess.run(["validate", oneLine.path])
    #expect(
      single.standardOutput.contains("   | {\"aps\": {\"alert\": \"x\"}, \"y\": [1, 2,]}\n"), "\(single.standardOutput)"
    )
    #expect(!single.standardOutput.contains("\\u{D}"), "\(single.standardOutput)")
  }

  /// A payload file saved as UTF-16 (either byte order, with its byte-order mark) is said to be
  /// UTF-16, at line 1, column 1, with what to do: it was "invalid UTF-8 byte 0xFF".
  @Test func aUTF16FileIsToldToBeSavedAsUTF8() throws {
    let text = #"{"Simulator Target Bundle": "com.example.app", "aps": {"alert": "hi"}}"# + "\n"
    for (name, encoding) in [("le.apns", String.Encoding.utf16LittleEndian), ("be.json", .utf16BigEndian)] {
      let file = directory.appendingPathComponent(name)
      let mark: [UInt8] = encoding == .utf16LittleEndian ? [0xFF, 0xFE] : [0xFE, 0xFF]
      try (Data(mark) + (try #require(text.data(using: encoding)))).write(to: file)
      let output = try PushdeckProcess.run(["validate", file.path])
      #expect(output.status == 1)
      #expect(
        output.standardOutput.hasPrefix(
          "\(file.path):1:1: error[InvalidUTF8]: the file is UTF-16 (byte-order mark at byte 0); save it as UTF-8\n"),
        "\(output.standardOutput)")
      #expect(!output.standardOutput.contains("invalid UTF-8 byte"), "\(output.standardOutput)")
      let json = try PushdeckProcess.run(["explain", "--format", "json", file.path])
      #expect(json.standardOutput.contains(#""line":1,"column":1,"#), "\(json.standardOutput)")
      #expect(json.standardOutput.contains("the file is UTF-16 (byte-order mark at byte 0)"))
    }
  }

  @Test func directoriesAreReadRecursivelyAndInOrder() throws {
    let output = try PushdeckProcess.run(["validate", "--format", "json", directory.path])
    #expect(output.status == 1)
    let records = output.standardOutput.split(separator: "\n").compactMap {
      try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
    let sources = records.compactMap { $0["source"] as? String }.map {
      $0.replacingOccurrences(of: directory.path + "/", with: "")
    }
    #expect(
      sources == ["capture.jsonl:1", "capture.jsonl:2", "capture.jsonl:4", "good.apns", "nested/bad.apns", "warn.json"])
  }

  /// A directory with no payload files is an input problem (status 2), not "checked 0
  /// payloads" and status 0: a mistyped directory in CI passed without checking anything.
  @Test func aDirectoryWithNoPayloadsIsAMistake() throws {
    let empty = directory.appendingPathComponent("empty/sub")
    try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
    try "not a payload".write(to: empty.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
    let output = try PushdeckProcess.run(["validate", path("empty")])
    #expect(output.status == 2)
    #expect(output.standardError.contains("\(path("empty")): holds no payload files"), "\(output.standardError)")
    // Beside a directory that has them, the others are still checked, and the status says so.
    let mixed = try PushdeckProcess.run(["validate", "--format", "json", path("empty"), path("good.apns")])
    #expect(mixed.status == 2)
    #expect(mixed.standardOutput.contains("good.apns"))
  }

  @Test func jsonOutputHasTheDocumentedShape() throws {
    let output = try PushdeckProcess.run(["validate", "--format", "json", path("capture.jsonl")])
    let records = output.standardOutput.split(separator: "\n").compactMap {
      try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
    #expect(records.count == 3)
    let second = try #require(records.dropFirst().first)
    // A string badge: APNs accepts it and the device ignores the key (a warning, still valid).
    #expect(second["valid"] as? Bool == true)
    #expect(second["bundle"] as? String == "com.a.b")
    #expect(second["pushType"] as? String == "alert")
    #expect(second["bytes"] as? Int == 23)
    let diagnostic = try #require((second["diagnostics"] as? [[String: Any]])?.first)
    #expect(diagnostic["severity"] as? String == "warning")
    #expect(diagnostic["apns"] as? String == "accepts (200)")
    #expect(diagnostic["device"] as? String == "ignoresKey")
    let verdict = try #require(second["verdict"] as? [String: Any])
    #expect(verdict["status"] as? Int == 200)
    #expect(verdict["delivered"] as? Bool == true)
    #expect(verdict["ignored"] as? [String] == ["payload.aps.badge"])
    let lastVerdict = try #require(records.last?["verdict"] as? [String: Any])
    #expect(lastVerdict["status"] as? Int == 400)
    #expect(lastVerdict["reason"] as? String == "BadRequest")
    #expect(lastVerdict["delivered"] as? Bool == false)
    #expect(diagnostic["code"] as? String == "InvalidValue")
    #expect(diagnostic["path"] as? String == "payload.aps.badge")
    #expect(diagnostic["line"] as? Int == 2)
    #expect(diagnostic["column"] as? Int == 61)
    #expect((diagnostic["effect"] as? String)?.isEmpty == false)
    let third = try #require(records.last)
    #expect((third["diagnostics"] as? [[String: Any]])?.first?["line"] as? Int == 4, "blank lines keep line numbers")
  }

  @Test func standardInputIsSniffed() throws {
    let payload = try PushdeckProcess.run(["validate", "-"], input: Data(#"{"aps": {"alert": "x"}}"#.utf8))
    #expect(payload.status == 0)
    let capture = try PushdeckProcess.run(
      ["validate", "--format", "json", "-"],
      input: try Data(contentsOf: directory.appendingPathComponent("capture.jsonl")))
    #expect(capture.standardOutput.split(separator: "\n").count == 3)
    #expect(capture.standardOutput.contains(#""source":"<stdin>:2""#))
  }

  @Test func missingFilesExitTwo() throws {
    let output = try PushdeckProcess.run(["validate", path("good.apns"), path("nope.apns")])
    #expect(output.status == 2)
    #expect(output.standardError.contains("nope.apns: no such file or directory"))
  }

  @Test func usageErrorsExitTwo() throws {
    let noPaths = try PushdeckProcess.run(["validate"])
    #expect(noPaths.status == 2)
    #expect(noPaths.standardError.contains("Usage"))
    let badFormat = try PushdeckProcess.run(["validate", "--format", "yaml", path("good.apns")])
    #expect(badFormat.status == 2)
    #expect(badFormat.standardError.contains("yaml"))
  }

  @Test func noColourWhenNotATerminalOrWithNoColor() throws {
    let output = try PushdeckProcess.run(["validate", path("warn.json")], environment: ["NO_COLOR": "1"])
    #expect(!output.standardOutput.contains("\u{1B}["))
  }

  @Test func hostileTextNeverReachesTheTerminal() throws {
    let hostile = #"{"aps": {"alert": {"title": "\u001b]52;c;cGF5bG9hZA==\u0007\u001b[2J", "sub\u001b[31mtitle": 1}}}"#
    let output = try PushdeckProcess.run(["validate", "-"], input: Data(hostile.utf8))
    #expect(!output.standardOutput.contains("\u{1B}"))
    #expect(!output.standardOutput.contains("\u{07}"))
    #expect(output.standardOutput.contains("CustomKeyInAlert"))
  }

  /// A directory walk says what it could not read: a broken symbolic link and a loop of them
  /// with a payload's name were passed over, and `validate DIR` exited 0 having checked the rest.
  @Test func aWalkSaysWhichLinksLeadNowhere() throws {
    let directory = try PushdeckProcess.temporaryDirectory()
    let folder = directory.appendingPathComponent("payloads").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try #"{"aps":{"alert":"x"}}"#.write(toFile: folder + "/ok.json", atomically: true, encoding: .utf8)
    try FileManager.default.createSymbolicLink(atPath: folder + "/dangling.json", withDestinationPath: "nothere.json")
    try FileManager.default.createSymbolicLink(atPath: folder + "/l1.json", withDestinationPath: "l2.json")
    try FileManager.default.createSymbolicLink(atPath: folder + "/l2.json", withDestinationPath: "l1.json")
    let output = try PushdeckProcess.run(["validate", folder])
    #expect(output.status == 2)
    #expect(output.standardError.contains("dangling.json: cannot be read: a symbolic link to nothing"))
    #expect(output.standardError.contains("l1.json: cannot be read: a loop of symbolic links"))
    #expect(output.standardError.contains("l2.json: cannot be read: a loop of symbolic links"))
    #expect(output.standardError.contains("1 payload: 1 valid"))
    // Named on the command line, the same.
    let named = try PushdeckProcess.run(["validate", folder + "/l1.json"])
    #expect(named.status == 2 && named.standardError.contains("a loop of symbolic links"))
  }

  /// A file that begins with a byte order mark is located as one without: every column was one
  /// too far, and the excerpt printed the mark.
  @Test func aByteOrderMarkIsNoColumn() throws {
    let directory = try PushdeckProcess.temporaryDirectory()
    let marked = directory.appendingPathComponent("bom.json")
    try Data([0xEF, 0xBB, 0xBF] + Array(#"{"aps":{"alert":"a",}}"#.utf8)).write(to: marked)
    let output = try PushdeckProcess.run(["validate", marked.path])
    #expect(
      output.standardError.contains("bom.json:1:21: error[TrailingComma]")
        || output.standardOutput.contains("bom.json:1:21: error[TrailingComma]"))
    #expect(!(output.standardOutput + output.standardError).contains("\u{FEFF}"))
    #expect((output.standardOutput + output.standardError).contains(#"   | {"aps":{"alert":"a",}}"#))
  }

  /// Checking nothing is no pass: an empty standard input or capture exited 0 ("checked 0
  /// payloads"), so a CI step whose generator wrote nothing passed.
  @Test func anInputWithNoPushIsNotAPass() throws {
    let directory = try PushdeckProcess.temporaryDirectory()
    let empty = directory.appendingPathComponent("empty.jsonl")
    try Data().write(to: empty)
    let output = try PushdeckProcess.run(["validate", empty.path])
    #expect(output.status == 2)
    #expect(output.standardError.contains("nothing was checked: \(empty.path) held no push"))
    let stdin = try PushdeckProcess.run(["validate", "-"], input: Data())
    #expect(stdin.status == 2 && stdin.standardError.contains("<stdin> held no push"))
    // With a push beside it, the empty capture is no problem.
    let payload = directory.appendingPathComponent("p.json")
    try #"{"aps":{"alert":"x"}}"#.write(to: payload, atomically: true, encoding: .utf8)
    #expect(try PushdeckProcess.run(["validate", empty.path, payload.path]).status == 0)
  }
}

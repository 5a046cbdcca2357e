import Foundation
import PushCore
import PushHandlers
import PushTestSupport
import PushUI
import Testing

/// A fresh directory under the temporary directory.
func scratchDirectory(_ name: String) throws -> String {
  let path = NSTemporaryDirectory() + "pushdeck-handlers-\(name)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
  try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  return path
}

/// Writes an executable script (through `Executable`, so running it cannot meet "Text file busy").
func writeScript(_ path: String, _ text: String) throws {
  try Executable.write(text, to: path)
}

let fixedTime: @Sendable () -> Date = { Date(timeIntervalSince1970: 1_795_426_860) }

@Suite struct LogHandlerTests {
  @Test func appendsOneJSONLinePerResponse() async throws {
    let directory = try scratchDirectory("log")
    let file = directory + "/responses.jsonl"
    let handler = JSONLogHandler(path: file, now: fixedTime)
    #expect(await handler.perform(invocation()) == .succeeded("Cancel order logged"))
    let hostile = "line one\nline \"two\" \u{1B}[31m $(touch x) `id`"
    #expect(
      await handler.perform(invocation(action: "REPLY", title: "Reply", text: hostile, payload: "{\n  \"aps\": {}\n}"))
        == .succeeded("Reply logged"))
    let lines = try String(contentsOfFile: file, encoding: .utf8).split(
      separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.count == 3 && lines[2].isEmpty)
    #expect(
      lines[0]
        == #"{"time":"2026-11-23T09:41:00.000Z","app":"com.shop","notification":7,"category":"ORDER","action":"CANCEL","actionTitle":"Cancel order","text":null,"userInfo":{"aps":{"alert":"Order 1234 shipped","category":"ORDER"},"order":1234}}"#
    )
    let second = try #require(
      try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any])
    #expect(second["text"] as? String == hostile)
    #expect(second["action"] as? String == "REPLY")
    #expect((second["userInfo"] as? [String: Any])?["aps"] != nil)
  }

  @Test func anUnwritableFileIsAFailureThatSaysWhy() async {
    let handler = JSONLogHandler(path: "/nonexistent-dir/responses.jsonl")
    let outcome = await handler.perform(invocation())
    guard case .failed(let message) = outcome else {
      Issue.record("expected a failure, got \(outcome)")
      return
    }
    #expect(message.hasPrefix("cannot write the log /nonexistent-dir/responses.jsonl: No such file"))
  }
}

@Suite(.serialized) struct ExecHandlerTests {
  static let hostile = [
    #"it's "quoted" $(touch PWNED_FILE) `touch PWNED_FILE` ; touch PWNED_FILE && echo hi | cat"#,
    "new\nline\r\n\u{1B}]0;title\u{07}\u{1B}[2J ${HOME} $HOME \\ * ? ~ > redirect < in 'single'",
  ].joined(separator: "\n")

  @Test func hostileTextReachesTheProgramVerbatimAndNothingIsInterpreted() async throws {
    let directory = try scratchDirectory("exec")
    let pwned = directory + "/PWNED_FILE"
    let hostile = Self.hostile.replacingOccurrences(of: "PWNED_FILE", with: pwned)
    // The script only copies what it is given: its argv, stdin and environment.
    let script = directory + "/record.sh"
    try writeScript(
      script,
      """
      #!/bin/sh
      printf '%s' "$1" > "\(directory)/arg1"
      cat > "\(directory)/stdin"
      printf '%s' "$PUSHDECK_TEXT" > "\(directory)/text"
      printf '%s|%s|%s|%s' "$PUSHDECK_APP" "$PUSHDECK_ACTION" "$PUSHDECK_NOTIFICATION_ID" "$PUSHDECK_CATEGORY" > "\(directory)/env"
      echo "order 1234 cancelled"
      echo "second line"
      echo "third line"
      """)
    let handler = ExecHandler(argv: [script, hostile], timeoutSeconds: 5, now: fixedTime)
    let outcome = await handler.perform(
      invocation(text: hostile, payload: #"{"aps":{"alert":"$(touch \#(pwned))"},"x":"`touch \#(pwned)`"}"#))
    #expect(outcome == .succeeded("order 1234 cancelled · second line"))
    #expect(try String(contentsOfFile: directory + "/arg1", encoding: .utf8) == hostile)
    #expect(try String(contentsOfFile: directory + "/text", encoding: .utf8) == hostile)
    #expect(try String(contentsOfFile: directory + "/env", encoding: .utf8) == "com.shop|CANCEL|7|ORDER")
    let stdin = try String(contentsOfFile: directory + "/stdin", encoding: .utf8)
    let response = try #require(try JSONSerialization.jsonObject(with: Data(stdin.utf8)) as? [String: Any])
    #expect(response["text"] as? String == hostile)
    #expect(!FileManager.default.fileExists(atPath: pwned))
  }

  @Test func echoPrintsTheArgumentUnchanged() async throws {
    let directory = try scratchDirectory("echo")
    let pwned = directory + "/pwned"
    let text = "$(touch \(pwned)) `touch \(pwned)`"
    let outcome = await ExecHandler(argv: ["/bin/echo", text]).perform(invocation(text: text))
    #expect(outcome == .succeeded(text))
    #expect(!FileManager.default.fileExists(atPath: pwned))
  }

  @Test func aProgramThatHangsIsKilledAtTheTimeout() async throws {
    let directory = try scratchDirectory("hang")
    let script = directory + "/hang.sh"
    // The child sleep holds stdout open; the whole process group goes.
    try writeScript(script, "#!/bin/sh\necho $$ > \"\(directory)/pid\"\nsleep 30\n")
    let start = Date()
    let outcome = await ExecHandler(argv: [script], timeoutSeconds: 0.5).perform(invocation())
    // The outcome says it was killed at the timeout; the time only rules out waiting for ever
    // (this task may wait minutes for a pool thread in a full run).
    #expect(Date().timeIntervalSince(start) < 300)
    #expect(outcome == .failed("hang.sh timed out after 0.5 s and was killed"))
    let pid = try #require(
      Int32(
        try String(contentsOfFile: directory + "/pid", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines))
    )
    #expect(kill(pid, 0) != 0)
  }

  @Test func failuresSayWhatHappened() async throws {
    let directory = try scratchDirectory("fail")
    let script = directory + "/fail.sh"
    try writeScript(script, "#!/bin/sh\necho 'out of stock' >&2\nexit 3\n")
    #expect(
      await ExecHandler(argv: [script]).perform(invocation()) == .failed("fail.sh exited with status 3: out of stock"))
    let missing = await ExecHandler(argv: [directory + "/nope"]).perform(invocation())
    #expect(missing == .failed("cannot run \(directory)/nope: No such file or directory"))
    #expect(await ExecHandler(argv: ["/bin/true"]).perform(invocation()) == .succeeded(nil))
    let killed = directory + "/killed.sh"
    try writeScript(killed, "#!/bin/sh\nkill -9 $$\n")
    #expect(await ExecHandler(argv: [killed]).perform(invocation()) == .failed("killed.sh was killed by signal 9"))
  }

  @Test func outputIsCappedAndTheRestIsDrained() async throws {
    // 200 KiB on each stream: both are read to the end (the program is not blocked on a full
    // pipe) and 64 KiB of each is kept.
    let result = try await ExecHandler.run(
      argv: ["/bin/sh", "-c", "head -c 204800 /dev/zero | tr '\\0' a; head -c 204800 /dev/zero | tr '\\0' b >&2"],
      environment: ["PATH": "/usr/bin:/bin"], input: [], timeoutSeconds: 20)
    #expect(result.status == 0 && !result.timedOut)
    #expect(result.output.utf8.count == 65_536 && result.output.allSatisfy { $0 == "a" })
    #expect(result.errorOutput.utf8.count == 65_536 && result.errorOutput.allSatisfy { $0 == "b" })
  }

  @Test func theEnvironmentIsExactlyWhatWasGivenAndANulEndsAValue() async throws {
    let result = try await ExecHandler.run(
      argv: ["/usr/bin/env"], environment: ["PUSHDECK_TEXT": "before\0after", "ONLY": "this"], input: [],
      timeoutSeconds: 20)
    #expect(result.status == 0)
    #expect(result.output.split(separator: "\n").sorted() == ["ONLY=this", "PUSHDECK_TEXT=before"])
  }

  @Test func childrenLeftRunningGoWithTheProgram() async throws {
    let directory = try scratchDirectory("leftover")
    let script = directory + "/leave.sh"
    // One child holds standard output open, one does not; neither outlives the handler.
    try writeScript(
      script,
      "#!/bin/sh\nsleep 30 &\necho $! > \"\(directory)/held\"\nsleep 30 >/dev/null 2>&1 &\necho $! > \"\(directory)/quiet\"\necho done\n"
    )
    let start = Date()
    #expect(await ExecHandler(argv: [script], timeoutSeconds: 20).perform(invocation()) == .succeeded("done"))
    // Succeeded inside its 20 s, so it did not wait for the children's 30 s; the time only
    // rules out waiting for ever (this task may wait minutes for a pool thread in a full run).
    #expect(Date().timeIntervalSince(start) < 300)
    for name in ["held", "quiet"] {
      let pid = try String(contentsOfFile: directory + "/" + name, encoding: .utf8)
        .trimmingCharacters(in: .whitespacesAndNewlines)
      // Killed: gone, or a zombie until whoever adopted it reaps it.
      var alive = true
      for _ in 0..<200 where alive {
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        alive = !(stat.isEmpty || stat.contains(") Z "))
        if alive { try await Task.sleep(for: .milliseconds(10)) }
      }
      #expect(!alive, "the \(name) child \(pid) is still running")
    }
  }

  @Test func theRegistryPrefixesTheAppName() async throws {
    var profile = DeviceProfile(start: SimInstant(milliseconds: 0))
    profile.apps = [AppProfile(info: AppInfo(bundleID: "com.shop", displayName: "Shop", iconGlyph: "S"))]
    profile.handlers = [
      HandlerBinding(app: "com.shop", kind: .exec(argv: ["/bin/echo", "order 1234 cancelled"], timeoutSeconds: 5))
    ]
    #expect(await HandlerRegistry(profile: profile).perform(invocation()) == .succeeded("Shop: order 1234 cancelled"))
  }
}

@Suite struct OpenHandlerTests {
  @Test func reportsTheTargetContentIDOrDeepLink() async throws {
    let directory = try scratchDirectory("open")
    let handler = OpenHandler(path: directory + "/opened.jsonl", now: fixedTime)
    // The target-content-id the device decoded wins over a deep link in the payload.
    let withID = invocation(
      action: defaultActionIdentifier,
      payload: #"{"aps":{"alert":"x","target-content-id":"orders/1234"},"url":"shop://o/9"}"#,
      targetContentID: "orders/1234")
    #expect(await handler.perform(withID) == .succeeded("opens orders/1234"))
    #expect(
      await handler.perform(invocation(payload: #"{"aps":{},"url":"shop://o/1"}"#)) == .succeeded("opens shop://o/1"))
    #expect(await handler.perform(invocation(payload: #"{"aps":{}}"#)) == .succeeded("opens the app"))
    #expect(handler.opened == ["orders/1234", "shop://o/1", "the app"])
    let lines = try String(contentsOfFile: directory + "/opened.jsonl", encoding: .utf8).split(separator: "\n")
    #expect(lines.count == 3)
    #expect(lines[0].hasSuffix(#","opens":"orders/1234"}"#))
  }
}

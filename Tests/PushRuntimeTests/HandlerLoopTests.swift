import Foundation
import PushCore
import PushHandlers
import PushRender
import PushRuntime
import PushTestSupport
import PushUI
import Testing

/// The front end with the real handler registry: a typed reply reaches the `log` handler.
@Suite("Handlers in the loop")
@MainActor
struct HandlerLoopTests {
  @Test func aTypedReplyIsLoggedAndTheAnswerShowsAsAToast() async throws {
    let directory = NSTemporaryDirectory() + "pushdeck-loop-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let log = directory + "/responses.jsonl"
    var state = AppState.demo()
    var profile = state.device.profile
    profile.handlers = [HandlerBinding(app: "com.example.messages", action: "REPLY", kind: .log(file: log))]
    let registry = HandlerRegistry(profile: profile)
    let terminal = FakeTerminal(size: Size(columns: 80, rows: 24), script: [])
    let loop = AppLoop(
      state: state, screen: terminal, input: terminal,
      clock: SimulationClock(start: state.now, mode: .manual), theme: .builtInDefault, handler: registry)
    loop.run(maxTurns: 0)
    state = loop.state
    var center = state
    _ = reduce(into: &center, .command(.openCenter))
    let row = center.centerRows().firstIndex { $0.groupKey.bundleID == "com.example.messages" } ?? 0
    let typed = "ok $(touch \(directory)/pwned) `id` \"q\""
    terminal.script =
      [.key(.character("l")), .key(.character("n"))]
      + Array(repeating: .key(.down), count: row)
      + [.key(.character("a")), .key(.enter)]
      + typed.map { .key(.character($0)) }
      + [.key(.enter)]
    loop.run(maxTurns: terminal.script.count)
    await loop.finishActions()
    loop.run(maxTurns: 1)
    let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
    #expect(lines.count == 1)
    let response = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
    #expect(response["action"] as? String == "REPLY")
    #expect(response["text"] as? String == typed)
    #expect(response["app"] as? String == "com.example.messages")
    #expect(!FileManager.default.fileExists(atPath: directory + "/pwned"))
    #expect(terminal.frames.last?.textDump().contains("Reply logged") == true)
  }
}

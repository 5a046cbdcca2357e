import Foundation
import PushTestSupport
import Testing

/// Storage faults as a user meets them (issue 7 §4): through `pushdeck replay --state`, a clear
/// message on standard error, exit status 2, and the file left as it was. The store's own tests
/// (Tests/PushStoreTests) cover each `StoreError` in depth, with a full disk and a read-only
/// directory simulated; docs/RELIABILITY.md lists them.
@Suite(.requires(PushdeckProcess.binary != nil, "the pushdeck binary was not built"))
struct StateFaultCLITests {
  let directory: URL
  let capture: URL

  init() async throws {
    directory = try PushdeckProcess.temporaryDirectory()
    capture = directory.appendingPathComponent("one.jsonl")
    try (#"{"at": 1795000000, "bundle": "com.example.app", "payload": {"aps": {"alert": "hi"}}}"# + "\n")
      .write(to: capture, atomically: true, encoding: .utf8)
  }

  @Test func aDamagedStateIsReportedAndLeftUntouched() async throws {
    let state = directory.appendingPathComponent("damaged.sqlite")
    let garbage = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
    try garbage.write(to: state)
    let output = try await runPushdeck(["replay", "--state", state.path, capture.path])
    #expect(output.status == 2)
    #expect(output.standardError.contains("is damaged") || output.standardError.contains("did not create"))
    #expect(output.standardError.contains("--ephemeral"))
    #expect(try Data(contentsOf: state) == garbage, "the file is left as it was")
  }

  @Test func aSecondPushdeckOnTheSameStateIsRefused() async throws {
    let state = directory.appendingPathComponent("shared.sqlite").path
    let first = try await runPushdeck(["replay", "--state", state, capture.path])
    #expect(first.status == 0)
    // A serve holds the state while it runs.
    let binary = try #require(PushdeckProcess.binary)
    let server = Process()
    server.executableURL = URL(fileURLWithPath: binary)
    server.arguments = ["serve", "--port", "0", "--state", state]
    let pipe = Pipe()
    server.standardOutput = pipe
    server.standardError = FileHandle.nullDevice
    try server.run()
    defer {
      server.terminate()
      server.waitUntilExit()
    }
    // Wait for its "listening" line: the state is open by then.
    let output = pipe.fileHandleForReading
    let seen = try await offThePool {
      var seen = Data()
      let deadline = Date().addingTimeInterval(60)
      while !String(decoding: seen, as: UTF8.self).contains("listening"), Date() < deadline {
        let chunk = output.availableData
        if chunk.isEmpty { break }
        seen.append(chunk)
      }
      return String(decoding: seen, as: UTF8.self)
    }
    try #require(seen.contains("listening"))
    let second = try await runPushdeck(["replay", "--state", state, capture.path])
    #expect(second.status == 2)
    #expect(
      second.standardError.contains("is in use by process \(server.processIdentifier)"), "\(second.standardError)")
  }
}

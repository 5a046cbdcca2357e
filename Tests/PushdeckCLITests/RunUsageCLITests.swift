import Foundation
import PushTestSupport
import Testing

/// `run`'s flags that configure nothing without the flag they belong to are usage errors, not
/// silently dropped (`run --tls --jwt-key K` opened the UI with nothing listening).
@Suite(.requires(PushdeckProcess.binary != nil, "the pushdeck binary was not built"))
struct RunUsageCLITests {
  @Test(arguments: [
    (["--tls", "--bind", "127.0.0.1"], "--tls, --bind configure the endpoint that --listen runs"),
    (["--jwt-key", "AuthKey_ABC123DEFG.p8"], "--jwt-key configures the endpoint that --listen runs"),
    (["--accept-any-token", "--auth", "none"], "--auth, --accept-any-token configure"),
  ])
  func endpointFlagsWithoutListenAreAUsageError(_ flags: [String], _ message: String) throws {
    let output = try PushdeckProcess.run(["run", "--ephemeral"] + flags)
    #expect(output.status == 2)
    #expect(output.standardError.contains(message), "\(output.standardError)")
    #expect(output.standardError.contains("add --listen [PORT]"))
  }
}

/// `replay --progress` says each saved count once (the last batch, which holds only the input's
/// progress, said the total a second time).
@Suite(.requires(PushdeckProcess.binary != nil, "the pushdeck binary was not built"))
struct ReplayProgressCLITests {
  @Test func eachSavedCountIsSaidOnce() throws {
    let directory = try PushdeckProcess.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let capture = directory.appendingPathComponent("c.jsonl")
    let lines = (0..<20).map {
      #"{"at": \#(1_795_000_000 + $0), "bundle": "com.example.a", "payload": {"aps": {"alert": "n\#($0)"}}}"#
    }
    try (lines.joined(separator: "\n") + "\n").write(to: capture, atomically: true, encoding: .utf8)
    let state = directory.appendingPathComponent("s.sqlite").path
    let output = try PushdeckProcess.run(["replay", "--progress", "--batch", "5", capture.path, "--state", state])
    #expect(output.status == 0, "\(output.standardError)")
    let saved = output.standardError.split(separator: "\n").filter { $0.hasPrefix("saved ") }
    #expect(saved == ["saved 5 pushes", "saved 10 pushes", "saved 15 pushes", "saved 20 pushes"])
  }
}

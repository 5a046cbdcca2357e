import Foundation
import PushTestSupport
import Testing

/// Every input's size limit, met head-on (issue 7 §6): a clear error naming the file and the
/// limit, the right exit status, and no attempt to read on. docs/RELIABILITY.md lists them all.
@Suite(.requires(PushdeckProcess.binary != nil, "the pushdeck binary was not built"))
struct InputLimitsCLITests {
  let directory: URL

  init() async throws { directory = try PushdeckProcess.temporaryDirectory() }

  func file(_ name: String, _ data: Data) throws -> String {
    let url = directory.appendingPathComponent(name)
    try data.write(to: url)
    return url.path
  }

  @Test func aPayloadFileOver16MiBIsRefusedUnread() async throws {
    let path = try file("huge.json", Data(repeating: UInt8(ascii: " "), count: (16 << 20) + 1))
    let output = try await runPushdeck(["validate", path])
    #expect(output.status == 2)
    #expect(output.standardError.contains("the file is over 16 MiB"), "\(output.standardError)")
  }

  @Test func aCaptureLineOver1MiBIsRejectedAndTheNextLineRead() async throws {
    var capture = Data(#"{"at": 1, "bundle": "com.a.b", "payload": {"aps": {"alert": ""#.utf8)
    capture.append(Data(repeating: UInt8(ascii: "x"), count: 1 << 20))
    capture.append(Data((#""}}}"# + "\n").utf8))
    capture.append(Data((#"{"at": 2, "bundle": "com.a.b", "payload": {"aps": {"alert": "ok"}}}"# + "\n").utf8))
    let path = try file("long.jsonl", capture)
    let output = try await runPushdeck(["validate", "--format", "json", path])
    #expect(output.status == 1)
    let lines = output.standardOutput.split(separator: "\n")
    #expect(lines.count == 2)
    #expect(lines.first?.contains(#""code":"LineTooLong""#) == true)
    #expect(lines.first?.contains("the limit is 1048576") == true)
    #expect(lines.last?.contains(#""valid":true"#) == true)
  }

  @Test func aScenarioOver16MiBIsRefused() async throws {
    var text = Data("title: big\ndescription: \"".utf8)
    text.append(Data(repeating: UInt8(ascii: "x"), count: 16 << 20))
    text.append(Data("\"\n".utf8))
    let path = try file("big.yaml", text)
    let output = try await runPushdeck(["explain", path])
    #expect(output.status == 2)
    #expect(output.standardError.contains("over 16 MiB"), "\(output.standardError)")
  }

  @Test func aThemeOver1MiBIsRefusedAndAnEndlessOneIsNotReadForever() async throws {
    var text = Data("name: big\n".utf8)
    text.append(Data(repeating: UInt8(ascii: "#"), count: 1 << 20))
    let path = try file("big-theme.yaml", text)
    let output = try await runPushdeck(["render", "--theme", path, "--format", "ansi", "--size", "40x12"])
    // A theme that cannot be used is a usage error, exit 2, like every bad option value.
    #expect(output.status == 2)
    #expect(output.standardError.contains("is over 1 MiB"), "\(output.standardError)")
    let endless = try await runPushdeck(["render", "--theme", "/dev/zero", "--format", "ansi", "--size", "40x12"])
    #expect(endless.status == 2)
    #expect(endless.standardError.contains("/dev/zero is over 1 MiB"), "\(endless.standardError)")
  }
}

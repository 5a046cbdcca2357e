import Foundation
import PushTestSupport
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// Payload text that tries to talk to the terminal (issue 7 §3), through every command and
/// format that shows it: `render` (text, ansi, svg, json), `validate` and `explain` (text and
/// json). No ESC, C1, BEL or NUL from a payload reaches the output, nor a bidi control; ANSI
/// output holds only Pushdeck's own SGR sequences; the SVG is well-formed XML.
@Suite(.requires(PushdeckProcess.binary != nil, "the pushdeck binary was not built"))
struct HostileTextCLITests {
  /// Each attack, written as JSON string escapes.
  static let attacks = [
    #"\u001b[2J\u001b[H\u001b[31mCSI"#,
    #"\u001b]52;c;ZXZpbA==\u0007OSC52"#,
    #"\u001b]8;;https://evil.example\u001b\\link\u001b]8;;\u001b\\"#,
    #"\u001b]0;pwned\u0007\u001b]2;pwned\u001b\\title"#,
    #"\u009b31m\u009d0;c1\u009cC1"#,
    #"invoice\u202efdp.exe\u2066iso\u2069\u200f"#,
    #"nul\u0000byte\u0007bell\u007f"#,
    #"\u001bP+q544e\u001b\\DCS"#,
  ]

  let directory: URL

  init() throws {
    directory = try PushdeckProcess.temporaryDirectory()
    let text = Self.attacks.joined(separator: " ")
    let hostile = """
      {"Simulator Target Bundle": "com.evil.app", "aps": {"alert": {"title": "T \(Self.attacks[0]) \(Self.attacks[3])", "subtitle": "\(Self.attacks[4])",
      "body": "\(text)"}, "thread-id": "\(Self.attacks[2])", "category": "\(Self.attacks[1])",
      "sound": "\(Self.attacks[6])", "badge": 3}, "custom \(Self.attacks[0])": "\(Self.attacks[5])"}
      """
    try write("hostile.json", hostile)
    // Lone surrogates written as escapes: not valid JSON text for APNs, reported, never drawn raw.
    try write("surrogate.json", #"{"aps": {"alert": {"title": "x\ud800y", "body": "\udfff\ud83d"}}}"#)
    // Lone surrogates as raw (CESU-style) bytes: invalid UTF-8.
    var raw = Data(#"{"aps": {"alert": "a"#.utf8)
    raw.append(contentsOf: [0xED, 0xA0, 0x80, 0x1B, 0x5B, 0x32, 0x4A])
    raw.append(contentsOf: Data(#""}}"#.utf8))
    try raw.write(to: directory.appendingPathComponent("raw-surrogate.json"))
    // A 100 kB line: a payload far over the limit, full of escapes.
    let long = String(repeating: #"\u001b]52;c;QUFB\u0007\u202e"#, count: 4_000)
    try write(
      "long.jsonl", #"{"at": 1, "bundle": "com.evil.app", "payload": {"aps": {"alert": ""# + long + #""}}}"# + "\n")
    try write("long.apns", "{\"aps\": {\"alert\": \"" + String(repeating: "\u{1B}[2J\u{7}", count: 25_000) + "\"}}")
  }

  func write(_ name: String, _ text: String) throws {
    try text.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
  }

  func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

  /// The scalars in `text` that could change the terminal's state or the text's direction.
  static func leaks(in text: String, allowingSGR: Bool = false) -> [String] {
    // Without the tool's own SGR sequences, when they are allowed.
    let scalars = allowingSGR ? SGR.stripped(text) : Array(text.unicodeScalars)
    return scalars.compactMap { scalar in
      switch scalar.value {
      case 0x0A: nil
      case 0x00...0x1F, 0x7F...0x9F, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0x061C:
        "U+" + String(scalar.value, radix: 16, uppercase: true)
      default: nil
      }
    }
  }

  func check(_ arguments: [String], allowingSGR: Bool = false, sourceLocation: SourceLocation = #_sourceLocation)
    async throws -> PushdeckProcess.Output
  {
    let output = try await runPushdeck(arguments, directory: Corpus.repositoryRoot())
    #expect(output.status >= 0 && output.status <= 2, "\(arguments)", sourceLocation: sourceLocation)
    let leaked = Self.leaks(in: output.standardOutput, allowingSGR: allowingSGR)
    #expect(leaked.isEmpty, "stdout of \(arguments): \(Set(leaked).sorted())", sourceLocation: sourceLocation)
    let leakedErrors = Self.leaks(in: output.standardError)
    #expect(
      leakedErrors.isEmpty, "stderr of \(arguments): \(Set(leakedErrors).sorted())", sourceLocation: sourceLocation)
    return output
  }

  static let inputs = ["hostile.json", "surrogate.json", "raw-surrogate.json", "long.jsonl", "long.apns"]

  @Test(arguments: inputs) func validateTextAndJSON(_ input: String) async throws {
    _ = try await check(["validate", path(input)])
    let json = try await check(["validate", "--format", "json", path(input)])
    for line in json.standardOutput.split(separator: "\n") {
      #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "\(line.prefix(200))")
    }
  }

  @Test(arguments: inputs) func explainTextAndJSON(_ input: String) async throws {
    _ = try await check(["explain", path(input)])
    let json = try await check(["explain", "--format", "json", path(input)])
    for line in json.standardOutput.split(separator: "\n") {
      #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "\(line.prefix(200))")
    }
  }

  @Test(arguments: ["lock", "center"]) func renderEveryFormat(_ screen: String) async throws {
    let base = [
      "render", path("hostile.json"), "--bundle", "com.evil.app", "--profile", "unlocked", "--screen", screen,
      "--size", "100x40",
    ]
    let text = try await check(base + ["--format", "text"])
    #expect(text.status == 0, "\(text.standardError)")
    #expect(text.standardOutput.contains("CSI"), "the visible text around the escapes is kept")
    let ansi = try await check(base + ["--format", "ansi"], allowingSGR: true)
    #expect(ansi.standardOutput.contains("\u{1B}["), "ANSI output has its own colours")
    _ = try await check(base + ["--format", "json"])
    let svg = try await check(base + ["--format", "svg"])
    #expect(svg.standardOutput.hasPrefix("<svg"))
    #expect(XMLParser(data: Data(svg.standardOutput.utf8)).parse(), "the SVG parses as XML")
  }
}

import Foundation
import PushTestSupport
import Testing

/// Service extensions change what `explain` reports and what `render` draws.
@Suite(.requires(PushdeckProcess.binary != nil, "the pushdeck binary was not built"))
struct ServiceExtensionCLITests {
  static let root = Corpus.repositoryRoot()
  static let scenario = "Examples/service-extensions/scenario.yaml"

  @Test func explainReportsEachExtensionsOutcomeAndTheContentItChose() async throws {
    let output = try await PushdeckProcess.runOffPool(
      ["explain", "--format", "json", Self.scenario], directory: Self.root)
    #expect(output.status == 0, "\(output.standardError)")
    let objects = try output.standardOutput.split(separator: "\n").map {
      try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
    #expect(objects.count == 4)
    func codes(_ index: Int) -> [String] {
      (objects[index]["reasons"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
    }
    func texts(_ index: Int) -> [String] {
      (objects[index]["reasons"] as? [[String: Any]] ?? []).compactMap { $0["text"] as? String }
    }
    #expect(objects.map { $0["title"] as? String } == ["Ana Sousa", "Whisper", "Shared album", "News"])
    #expect(codes(0).starts(with: ["serviceExtensionRuns", "serviceExtensionModified"]))
    #expect(texts(1).contains { $0.hasPrefix("decrypt failed: the key does not open it") })
    #expect(texts(2).contains(#"Attached "photo": a png image of 165 bytes."#))
    #expect(codes(3).contains("serviceExtensionExpired"))
    #expect(texts(3).contains { $0.contains("serviceExtensionTimeWillExpire delivered its best attempt") })
    #expect(texts(1).contains { $0.contains("in under a second of its 30 s budget") })
    // The same scenario explains the same way twice: a real process's milliseconds were in the
    // text ("after 2 ms" one run, "after 6 ms" the next), so CI could not diff it.
    let again = try await PushdeckProcess.runOffPool(
      ["explain", "--format", "json", Self.scenario], directory: Self.root)
    #expect(again.standardOutput == output.standardOutput)
  }

  @Test func renderDrawsTheModifiedContent() async throws {
    let output = try await PushdeckProcess.runOffPool(
      ["render", "--screen", "center", "--size", "80x40", Self.scenario], directory: Self.root)
    #expect(output.status == 0, "\(output.standardError)")
    #expect(output.standardOutput.contains("🔒 Encrypted message"))
    #expect(output.standardOutput.contains("Jonas Weber"))
    #expect(output.standardOutput.contains("Breaking story (summary still loading)"))
    #expect(!output.standardOutput.contains("New message"))
  }

  /// A profile with the example's decrypt extension and one capture line sealed with its key.
  func captureAndProfile() throws -> (directory: String, profile: String, capture: String) {
    let directory = NSTemporaryDirectory() + "pushdeck-nse-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    try """
    apps:
      - bundle: com.example.signal
        serviceExtension: {type: decrypt, key: "XhUiBTQ1y5k74Ov9O3IRQ8DIGpSROF58V9IzgcZR5gI="}
    """.write(toFile: directory + "/profile.yaml", atomically: true, encoding: .utf8)
    let sealed =
      "AAECAwQFBgcICQoLDnPax4ZSpVo0xDLTEI8edqUTOZw/wB7EW+LKIVEsJ/GdVypuAQpvShKZ8mO9zo2suVfpEUpGCaHRqdBMnZDyG1VU9jUgkKZBgQ=="
    try """
    {"at": 1795426860, "bundle": "com.example.signal", "payload": {"aps": {"alert": {"title": "Whisper", "body": "New message"}, "mutable-content": 1}, "encrypted": "\(sealed)"}}

    """.write(toFile: directory + "/capture.jsonl", atomically: true, encoding: .utf8)
    return (directory, directory + "/profile.yaml", directory + "/capture.jsonl")
  }

  @Test func capturesPlayedOnAProfileGoThroughTheExtension() async throws {
    let files = try captureAndProfile()
    let output = try await PushdeckProcess.runOffPool([
      "explain", "--format", "json", "--profile", files.profile, files.capture,
    ])
    #expect(output.status == 0, "\(output.standardError)")
    #expect(output.standardOutput.contains(#""title":"Ana Sousa""#))
    #expect(output.standardOutput.contains("serviceExtensionModified"))
  }

  @Test func replayJournalsTheModifiedContent() async throws {
    let files = try captureAndProfile()
    let state = files.directory + "/state.sqlite"
    let output = try await PushdeckProcess.runOffPool([
      "replay", "--profile", files.profile, "--state", state, files.capture,
    ])
    #expect(output.status == 0, "\(output.standardError)")
    let query = try runSubprocess(
      "/usr/bin/env",
      [
        "python3", "-c",
        "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('select title, body from delivery').fetchall())",
        state,
      ],
      captureOutput: true)
    #expect(query.output.contains("Ana Sousa") && query.output.contains("The door code is 4711"), "\(query.output)")
  }
}

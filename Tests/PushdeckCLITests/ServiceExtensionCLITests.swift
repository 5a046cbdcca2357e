import Foundation
import PushTestSupport
import Testing

/// Service extensions change what `explain` reports and what `render` draws.
@Suite(.enabled(if: PushdeckProcess.binary != nil, "the pushdeck binary was not built"))
struct ServiceExtensionCLITests {
  static let root = Corpus.repositoryRoot()
  static let scenario = "Examples/service-extensions/scenario.yaml"

  @Test func explainReportsEachExtensionsOutcomeAndTheContentItChose() throws {
    let output = try PushdeckProcess.run(["explain", "--format", "json", Self.scenario], directory: Self.root)
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
    #expect(texts(1).contains { $0.contains("of its 30 s budget") })
  }

  @Test func renderDrawsTheModifiedContent() throws {
    let output = try PushdeckProcess.run(
      ["render", "--screen", "center", "--size", "80x40", Self.scenario], directory: Self.root)
    #expect(output.status == 0, "\(output.standardError)")
    #expect(output.standardOutput.contains("🔒 Encrypted message"))
    #expect(output.standardOutput.contains("Jonas Weber"))
    #expect(output.standardOutput.contains("Breaking story (summary still loading)"))
    #expect(!output.standardOutput.contains("New message"))
  }
}

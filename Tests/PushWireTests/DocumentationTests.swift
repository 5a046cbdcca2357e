import Foundation
import PushTestSupport
import Testing

@testable import PushWire

/// Keeps the documentation honest about the code.
struct DocumentationTests {
  @Test func everyDiagnosticCodeIsDocumented() throws {
    let url = Corpus.repositoryRoot().appendingPathComponent("docs/DIAGNOSTICS.md")
    let text = try String(contentsOf: url, encoding: .utf8)
    let missing = DiagnosticCode.allCases.filter { !text.contains("`\($0.rawValue)`") }
    #expect(missing.isEmpty, "undocumented codes: \(missing.map(\.rawValue))")
  }
}

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

  /// Every code's row in docs/DIAGNOSTICS.md shows the table's two outcomes, once, in the section
  /// of its severity ((E), (W) or (N) in the heading).
  @Test func diagnosticsDocumentShowsTheVerdictTable() throws {
    let url = Corpus.repositoryRoot().appendingPathComponent("docs/DIAGNOSTICS.md")
    let text = try String(contentsOf: url, encoding: .utf8)
    var rows: [DiagnosticCode: [(apns: String, device: String, severity: Severity?)]] = [:]
    var section: Severity?
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("## ") {
        section =
          line.hasSuffix("(E)") ? .error : line.hasSuffix("(W)") ? .warning : line.hasSuffix("(N)") ? .info : nil
        continue
      }
      let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
        $0.trimmingCharacters(in: .whitespaces)
      }
      guard cells.count >= 6, cells[1].hasPrefix("`"), cells[1].hasSuffix("`"),
        let code = DiagnosticCode(rawValue: String(cells[1].dropFirst().dropLast()))
      else { continue }
      rows[code, default: []].append((cells[cells.count - 3], cells[cells.count - 2], section))
    }
    for code in DiagnosticCode.allCases {
      let verdict = code.verdict
      guard let found = rows[code] else {
        Issue.record("\(code.rawValue) has no row with APNs and Device columns")
        continue
      }
      #expect(found.count == 1, "\(code.rawValue) has \(found.count) rows")
      let row = found[0]
      #expect(row.apns == verdict.apns.words, "\(code.rawValue): the doc says APNs \(row.apns)")
      #expect(row.device == verdict.device.words, "\(code.rawValue): the doc says the device \(row.device)")
      #expect(row.severity == verdict.severity, "\(code.rawValue) is listed under the wrong severity")
    }
  }
}

import Foundation
import PushRender

/// The outcome of comparing text with a golden file.
public enum GoldenResult: Equatable, CustomStringConvertible {
  /// The text equals the golden.
  case matched
  /// The text differs; the message shows where.
  case mismatch(String)
  /// The golden was (re)written because recording is on. Recording always fails the test, so
  /// a run that records can never pass by accident.
  case recorded(path: String)
  /// No golden exists and recording is off.
  case missing(path: String)

  /// A message for the test log.
  public var description: String {
    switch self {
    case .matched: "matched"
    case .mismatch(let message): message
    case .recorded(let path):
      "recorded \(path); run again without \(Golden.recordVariable) to check it"
    case .missing(let path):
      "no golden at \(path); run with \(Golden.recordVariable)=1 to record it"
    }
  }
}

/// Golden-file comparison with opt-in recording (`PUSHDECK_RECORD=1`).
public enum Golden {
  /// The environment variable that switches recording on.
  public static let recordVariable = "PUSHDECK_RECORD"

  /// The `Goldens` folder next to the test file that calls this (pass `#filePath`).
  public static func directory(besides filePath: String) -> URL {
    URL(fileURLWithPath: filePath).deletingLastPathComponent().appendingPathComponent("Goldens")
  }

  /// Compares `actual` with the golden file `name` in `directory`, or records it.
  public static func check(
    _ actual: String, named name: String, in directory: URL,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> GoldenResult {
    let url = directory.appendingPathComponent(name)
    if environment[recordVariable] == "1" {
      try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      do {
        try actual.write(to: url, atomically: true, encoding: .utf8)
      } catch {
        return .mismatch("could not record \(url.path): \(error)")
      }
      return .recorded(path: url.path)
    }
    guard let data = FileManager.default.contents(atPath: url.path),
      let expected = String(data: data, encoding: .utf8)
    else { return .missing(path: url.path) }
    if expected == actual { return .matched }
    let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
    let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
    let firstDifference =
      zip(expectedLines, actualLines).enumerated().first { $0.element.0 != $0.element.1 }?.offset
      ?? min(expectedLines.count, actualLines.count)
    func line(_ lines: [Substring], _ index: Int) -> String {
      index < lines.count ? String(lines[index]) : "<end of text>"
    }
    return .mismatch(
      """
      \(name) differs from the golden at line \(firstDifference + 1):
        expected: \(line(expectedLines, firstDifference))
        actual:   \(line(actualLines, firstDifference))
      full actual text:
      \(actual)
      """)
  }
}

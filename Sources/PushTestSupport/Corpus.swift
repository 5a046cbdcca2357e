import Foundation

/// Finds the shared payload corpus (`../shared/corpus` beside the repository) for tests.
///
/// Tests that read it use `.requires(Corpus.isAvailable, …)` so they skip where the corpus is
/// absent, and fail under `PUSHDECK_REQUIRE_ALL=1` (TestGate). `PUSHDECK_CORPUS` overrides the location.
public enum Corpus {
  /// One row of `index.tsv`.
  public struct Entry: Sendable, CustomStringConvertible {
    public var fileName: String
    public var isValidJSON: Bool
    public var kinds: Set<String>
    public var notes: String
    public var path: String

    public var description: String { fileName }
  }

  /// The repository root, found from this source file's location.
  public static func repositoryRoot(filePath: String = #filePath) -> URL {
    URL(fileURLWithPath: filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
  }

  /// The corpus directory, if it exists.
  public static let directory: URL? = {
    if let override = ProcessInfo.processInfo.environment["PUSHDECK_CORPUS"] {
      return URL(fileURLWithPath: override)
    }
    let candidate = repositoryRoot().deletingLastPathComponent().appendingPathComponent("shared/corpus")
    return FileManager.default.fileExists(atPath: candidate.appendingPathComponent("index.tsv").path)
      ? candidate : nil
  }()

  /// Whether the corpus is present.
  public static var isAvailable: Bool { directory != nil }

  /// Every row of `index.tsv`; empty when the corpus is absent.
  public static let entries: [Entry] = {
    guard let directory,
      let text = try? String(contentsOf: directory.appendingPathComponent("index.tsv"), encoding: .utf8)
    else { return [] }
    var rows = text.split(whereSeparator: \.isNewline).map {
      $0.split(separator: "\t", omittingEmptySubsequences: false)
    }
    guard !rows.isEmpty else { return [] }
    let header = rows.removeFirst().map(String.init)
    func column(_ name: String, _ row: [Substring]) -> String {
      guard let index = header.firstIndex(of: name), index < row.count else { return "" }
      return String(row[index])
    }
    return rows.map { row in
      let fileName = column("filename", row)
      return Entry(
        fileName: fileName, isValidJSON: column("valid_json", row) == "yes",
        kinds: Set(column("kinds", row).split(separator: ",").map(String.init)),
        notes: column("notes", row),
        path: directory.appendingPathComponent("files").appendingPathComponent(fileName).path)
    }
  }()

  /// The bytes of a corpus file.
  public static func bytes(of entry: Entry) -> [UInt8] {
    (try? [UInt8](Data(contentsOf: URL(fileURLWithPath: entry.path)))) ?? []
  }
}

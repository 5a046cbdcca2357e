import ArgumentParser

/// The format an `-o FILE` name implies by its extension, for the commands that write pictures
/// and frames: `render -o lock.png` writes a PNG, not an SVG under a `.png` name (it did, with
/// exit status 0; found by an exploratory test).
enum OutputFormat {
  /// The formats `table` allows for the file's extension (lower-cased), the first one chosen
  /// when `--format` is not given; nil for no file, no extension or one the table does not know
  /// (such as `.out`, left to `--format`).
  static func implied<Format>(by path: String?, _ table: [String: [Format]]) -> [Format]? {
    guard let path, let name = path.split(separator: "/").last, let dot = name.lastIndex(of: ".") else { return nil }
    return table[name[name.index(after: dot)...].lowercased()]
  }

  /// The format to write: `--format` when given, else what the file's name implies, else
  /// `fallback`.
  static func chosen<Format>(given: Format?, output: String?, table: [String: [Format]], fallback: Format) -> Format {
    given ?? implied(by: output, table)?.first ?? fallback
  }

  /// Refuses a `--format` the file's extension does not allow, naming both (`.txt` takes text
  /// or ansi; `.png` only png).
  static func check<Format: RawRepresentable & Equatable>(
    given: Format?, output: String?, table: [String: [Format]]
  ) throws where Format.RawValue == String {
    guard let given, let output, let implied = implied(by: output, table), !implied.contains(given),
      let first = implied.first
    else { return }
    throw ValidationError(
      "-o \(output) names a \(first.rawValue) file, but --format is \(given.rawValue): "
        + "drop --format (the name chooses it) or give a name that matches")
  }
}

import Foundation
import PushRender

/// Finds and loads themes for the command line.
///
/// A `--theme` value that names an existing file is loaded from there. Otherwise it is a theme
/// name looked up as `NAME.yaml` in the first `themes/` folder found: `$PUSHDECK_THEMES`, then
/// the folders above the executable, then the folders above the current directory (a folder
/// counts when it holds `themes/default.yaml`). `default` always works: without a folder it is
/// the theme compiled into the binary.
struct ThemeLocator {
  /// The largest theme file read (the built-in themes are about 2 KB).
  static let maximumThemeBytes = 1 << 20

  /// Environment variables (passed in, so tests can supply their own).
  var environment: [String: String]
  /// The running executable's path.
  var executablePath: String
  /// The current directory.
  var currentDirectory: String

  /// A locator for this process.
  static func forCurrentProcess() -> ThemeLocator {
    let executable =
      (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
      ?? CommandLine.arguments.first ?? ""
    return ThemeLocator(
      environment: ProcessInfo.processInfo.environment, executablePath: executable,
      currentDirectory: FileManager.default.currentDirectoryPath)
  }

  /// The `themes` folder in use, if any.
  func themesDirectory() -> URL? {
    let fileManager = FileManager.default
    if let explicit = environment["PUSHDECK_THEMES"], !explicit.isEmpty {
      return URL(fileURLWithPath: explicit, isDirectory: true)
    }
    let starts = [
      URL(fileURLWithPath: executablePath).deletingLastPathComponent(),
      URL(fileURLWithPath: currentDirectory, isDirectory: true),
    ]
    for start in starts {
      var directory = start.standardizedFileURL
      while true {
        let candidate = directory.appendingPathComponent("themes", isDirectory: true)
        if fileManager.fileExists(atPath: candidate.appendingPathComponent("default.yaml").path) {
          return candidate
        }
        let parent = directory.deletingLastPathComponent()
        if parent.path == directory.path { break }
        directory = parent
      }
    }
    return nil
  }

  /// The theme names available in the themes folder.
  func availableNames() -> [String] {
    guard let directory = themesDirectory(),
      let files = try? FileManager.default.contentsOfDirectory(atPath: directory.path)
    else { return ["default"] }
    return files.filter { $0.hasSuffix(".yaml") }.map { String($0.dropLast(5)) }.sorted()
  }

  /// Loads the theme a `--theme` value names.
  ///
  /// - Throws: ``ThemeError`` when the file is broken, or a lookup error for unknown names.
  func load(_ value: String) throws -> Theme {
    let fileManager = FileManager.default
    var path: String?
    if value.contains("/") || value.hasSuffix(".yaml") || value.hasSuffix(".yml")
      || value.hasSuffix(".json")
    {
      path = value
    } else if let directory = themesDirectory() {
      let candidate = directory.appendingPathComponent("\(value).yaml").path
      if fileManager.fileExists(atPath: candidate) { path = candidate }
    }
    guard let path else {
      if value == "default" { return .builtInDefault }
      throw ThemeLookupError(
        message:
          "unknown theme \"\(value)\" (available: \(availableNames().joined(separator: ", ")))")
    }
    // Read at most one byte past the limit, so `--theme /dev/zero` cannot exhaust memory.
    let handle = FileHandle(forReadingAtPath: path)
    defer { try? handle?.close() }
    guard let data = try? handle?.read(upToCount: Self.maximumThemeBytes + 1) ?? Data(),
      let text = String(data: data, encoding: .utf8)
    else {
      throw ThemeLookupError(message: "cannot read theme file \(path)")
    }
    guard data.count <= Self.maximumThemeBytes else {
      throw ThemeLookupError(message: "theme file \(path) is over \(Self.maximumThemeBytes >> 20) MiB")
    }
    return try Theme.load(yaml: text, file: path)
  }
}

/// A theme that could not be found or read.
struct ThemeLookupError: Error, CustomStringConvertible {
  var message: String
  var description: String { message }
}

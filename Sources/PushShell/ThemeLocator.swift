import Foundation
import PushRender

/// Finds and loads themes for the command line.
///
/// A `--theme` value that names a file (it contains `/` or ends in `.yaml`, `.yml` or `.json`)
/// is loaded from there. Otherwise it is a theme name: `NAME.yaml` in `$PUSHDECK_THEMES` when
/// that folder has one (your own themes, or edited copies of the built-in ones), else one of the
/// themes compiled into the binary (`themes/*.yaml` at build time: default, light,
/// high-contrast, sleep). Nothing is read from the checkout, so the binary works anywhere.
package struct ThemeLocator {
  /// The largest theme file read (the built-in themes are about 2 KB).
  package static let maximumThemeBytes = 1 << 20

  /// Environment variables (passed in, so tests can supply their own).
  package var environment: [String: String]

  /// A locator for this process.
  package static func forCurrentProcess() -> ThemeLocator {
    ThemeLocator(environment: ProcessInfo.processInfo.environment)
  }

  /// The user's themes folder (`$PUSHDECK_THEMES`), if set.
  package func themesDirectory() -> URL? {
    guard let explicit = environment["PUSHDECK_THEMES"], !explicit.isEmpty else { return nil }
    return URL(fileURLWithPath: explicit, isDirectory: true)
  }

  /// The theme names available: the built-in ones, then the user's folder's others, sorted.
  package func availableNames() -> [String] {
    var names = Theme.builtInNames
    if let directory = themesDirectory(),
      let files = try? FileManager.default.contentsOfDirectory(atPath: directory.path)
    {
      let own = files.filter { $0.hasSuffix(".yaml") }.map { String($0.dropLast(5)) }
      names += own.filter { !names.contains($0) }.sorted()
    }
    return names
  }

  /// The theme a `--theme` value names, with a problem as a usage error (exit status 2), so
  /// `run` refuses it before the screen opens.
  package func commandLineTheme(_ value: String) throws -> Theme {
    do {
      return try load(value)
    } catch {
      throw UsageError("--theme \(value): \(error)")
    }
  }

  /// The themes `run` cycles through with `c` after the chosen one: the other available ones
  /// (a theme in `$PUSHDECK_THEMES` that does not load is left out).
  package func others(than first: Theme) -> [Theme] {
    availableNames().filter { $0 != first.name }.compactMap { try? load($0) }
  }

  /// Loads the theme a `--theme` value names.
  ///
  /// - Throws: ``ThemeError`` when the file is broken, or ``ThemeLookupError`` for unknown
  ///   names and unreadable files.
  package func load(_ value: String) throws -> Theme {
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
      if let theme = try Theme.builtIn(named: value) { return theme }
      throw ThemeLookupError(
        message:
          "unknown theme \"\(value)\" (available: \(availableNames().joined(separator: ", "))); "
          + "give a built-in name, a theme file's path, or put NAME.yaml in $PUSHDECK_THEMES")
    }
    // A file that cannot be opened is said to be missing (or unreadable), not read as empty
    // (it was reported as "the file is empty; expected a mapping").
    guard let handle = FileHandle(forReadingAtPath: path) else {
      let why =
        fileManager.fileExists(atPath: path)
        ? "it cannot be read (check its permissions)" : "there is no such file"
      throw ThemeLookupError(
        message:
          "cannot read theme file \(path): \(why); give a theme file's path or a built-in name "
          + "(\(availableNames().joined(separator: ", ")))")
    }
    defer { try? handle.close() }
    // Read at most one byte past the limit, so `--theme /dev/zero` cannot exhaust memory.
    guard let data = try? handle.read(upToCount: Self.maximumThemeBytes + 1) ?? Data(),
      let text = String(data: data, encoding: .utf8)
    else {
      throw ThemeLookupError(message: "cannot read theme file \(path): it is not UTF-8 text (or not a file)")
    }
    guard data.count <= Self.maximumThemeBytes else {
      throw ThemeLookupError(message: "theme file \(path) is over \(Self.maximumThemeBytes >> 20) MiB")
    }
    return try Theme.load(yaml: text, file: path)
  }
}

/// A theme that could not be found or read.
package struct ThemeLookupError: Error, CustomStringConvertible {
  package var message: String
  package var description: String { message }
}

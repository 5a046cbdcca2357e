import Foundation

/// The few file-system operations `pushdeck test` needs: walking directories for scenarios and
/// reading and writing snapshot files.
enum FileTree {
  enum Kind { case file, directory, missing }

  /// The path with `.`, `..` and symbolic links resolved, to tell one file named two ways.
  static func canonical(_ path: String) -> String {
    URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
  }

  static func kind(_ path: String) -> Kind {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return .missing }
    return isDirectory.boolValue ? .directory : .file
  }

  /// The regular files under a directory, sorted, skipping hidden entries; and the
  /// directories (the one named included) that could not be listed, each as a problem to say:
  /// what they hold was never played (found by an exploratory test: a folder without read
  /// permission was "no scenarios").
  static func walk(_ directory: String) -> (files: [String], problems: [String]) {
    var files: [String] = []
    var problems: [String] = []
    func visit(_ folder: String) {
      let names: [String]
      do {
        names = try FileManager.default.contentsOfDirectory(atPath: folder)
      } catch {
        problems.append("\(folder): cannot list the directory; check its permissions")
        return
      }
      let base = folder.hasSuffix("/") ? folder : folder + "/"
      for name in names.sorted() where !name.hasPrefix(".") {
        let path = base + name
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
        // Symbolic links to folders are not followed (a loop of them would never end).
        if isDirectory.boolValue {
          let isLink = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) != nil
          if !isLink { visit(path) }
        } else {
          files.append(path)
        }
      }
    }
    visit(directory)
    return (files.sorted(), problems)
  }

  /// The file's text, or nil when it cannot be read as UTF-8.
  static func read(_ path: String) -> String? {
    guard let data = FileManager.default.contents(atPath: path) else { return nil }
    return String(data: data, encoding: .utf8)
  }

  /// The text with each "\r\n" as "\n": a snapshot checked out with Windows line endings
  /// (`core.autocrlf`, an editor's choice) holds the same screen. Before, it never matched and its
  /// diff showed the whole file as one removed line (a Character takes "\r\n" for one).
  static func unixLineEndings(_ text: String) -> String {
    guard text.utf8.contains(UInt8(ascii: "\r")) else { return text }
    var scalars = String.UnicodeScalarView()
    var pendingReturn = false
    for scalar in text.unicodeScalars {
      if pendingReturn && scalar != "\n" { scalars.append("\r") }
      pendingReturn = scalar == "\r"
      if !pendingReturn { scalars.append(scalar) }
    }
    if pendingReturn { scalars.append("\r") }
    return String(scalars)
  }

  /// Writes text to a file (creating its directory), atomically; a problem's description, or nil.
  static func write(_ text: String, to path: String) -> String? {
    let url = URL(fileURLWithPath: path)
    do {
      try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(text.utf8).write(to: url, options: .atomic)
      return nil
    } catch {
      return error.localizedDescription
    }
  }
}

/// A line diff in the unified style: `-` recorded, `+` now, two lines of context, `@@` hunks.
public enum LineDiff {
  public static func unified(_ old: String, _ new: String, context: Int = 2) -> [String] {
    let a = old.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let b = new.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    // Longest common subsequence table (screens are at most a few hundred lines).
    let n = a.count
    let m = b.count
    var table = [[Int]](repeating: [Int](repeating: 0, count: m + 1), count: n + 1)
    if n > 0 && m > 0 {
      for i in stride(from: n - 1, through: 0, by: -1) {
        for j in stride(from: m - 1, through: 0, by: -1) {
          table[i][j] = a[i] == b[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
        }
      }
    }
    enum Op { case same(String), removed(String), added(String) }
    var ops: [(op: Op, oldLine: Int, newLine: Int)] = []
    var i = 0
    var j = 0
    while i < n || j < m {
      if i < n, j < m, a[i] == b[j] {
        ops.append((.same(a[i]), i, j))
        i += 1
        j += 1
      } else if i < n, j == m || table[i + 1][j] >= table[i][j + 1] {
        ops.append((.removed(a[i]), i, j))
        i += 1
      } else {
        ops.append((.added(b[j]), i, j))
        j += 1
      }
    }
    let changed = ops.indices.filter { if case .same = ops[$0].op { false } else { true } }
    guard !changed.isEmpty else { return [] }
    var lines: [String] = []
    var start = 0
    while start < changed.count {
      var end = start
      while end + 1 < changed.count, changed[end + 1] - changed[end] <= 2 * context + 1 { end += 1 }
      let from = max(0, changed[start] - context)
      let to = min(ops.count - 1, changed[end] + context)
      lines.append("@@ -\(ops[from].oldLine + 1) +\(ops[from].newLine + 1) @@")
      for index in from...to {
        switch ops[index].op {
        case .same(let line): lines.append(" " + line)
        case .removed(let line): lines.append("-" + line)
        case .added(let line): lines.append("+" + line)
        }
      }
      start = end + 1
    }
    return lines
  }
}

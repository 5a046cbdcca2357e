import Foundation

/// How the loader reads the files a scenario names; the one place it touches the file system.
///
/// Tests and the built-in demo pass ``ScenarioFiles/none`` or an in-memory table.
public struct ScenarioFiles: Sendable {
  /// Why a file could not be read.
  public struct Problem: Error, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
  }

  /// Reads a whole file's bytes.
  public var read: @Sendable (String) throws(Problem) -> [UInt8]

  /// Creates a reader from a function.
  public init(read: @escaping @Sendable (String) throws(Problem) -> [UInt8]) { self.read = read }

  /// The local file system, refusing files over 16 MiB.
  public static let local = ScenarioFiles { (path: String) throws(Problem) -> [UInt8] in
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw Problem("no such file")
    }
    guard !isDirectory.boolValue else { throw Problem("it is a directory") }
    guard let handle = FileHandle(forReadingAtPath: path) else { throw Problem("cannot open the file") }
    defer { try? handle.close() }
    let limit = 16 << 20
    let data: Data
    do {
      data = try handle.read(upToCount: limit + 1) ?? Data()
    } catch {
      throw Problem("cannot read the file: \(error.localizedDescription)")
    }
    guard data.count <= limit else { throw Problem("the file is over 16 MiB") }
    return [UInt8](data)
  }

  /// No file system: every path is missing (for scenarios held in memory).
  public static let none = ScenarioFiles { (_: String) throws(Problem) -> [UInt8] in
    throw Problem("files cannot be read here")
  }

  /// Files held in memory, by path.
  public static func memory(_ files: [String: String]) -> ScenarioFiles {
    ScenarioFiles { (path: String) throws(Problem) -> [UInt8] in
      guard let text = files[path] else { throw Problem("no such file") }
      return Array(text.utf8)
    }
  }

  /// Reads a file as UTF-8 text.
  func text(_ path: String) throws(Problem) -> String {
    let bytes = try read(path)
    guard let text = String(validating: bytes, as: UTF8.self) else { throw Problem("the file is not UTF-8 text") }
    return text
  }

  /// The directory part of a path (`.` when there is none).
  static func directory(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }

  /// A path relative to a directory; absolute paths stay as they are.
  static func join(_ directory: String, _ path: String) -> String {
    if path.hasPrefix("/") || directory == "." { return path }
    return directory.hasSuffix("/") ? directory + path : directory + "/" + path
  }
}

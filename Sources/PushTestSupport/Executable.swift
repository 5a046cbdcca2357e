import Foundation

/// Executable files made by tests, written so that running them cannot fail with "Text file busy".
///
/// Tests run in parallel threads of one process. A file this process opens for writing can be
/// inherited, still open, by a child another thread forks at that moment (Foundation does not
/// open it close-on-exec), and Linux refuses to `exec` a file that any process holds open for
/// writing (ETXTBSY). So the bytes go to a side file, and `/usr/bin/install` — a process of its
/// own — writes the executable: no descriptor for it ever exists in the test process.
public enum Executable {
  /// Writes `text` as an executable file at `path`.
  public static func write(_ text: String, to path: String) throws {
    let staged = path + ".staged-\(UUID().uuidString)"
    try text.write(toFile: staged, atomically: false, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: staged) }
    try install(staged, to: path)
  }

  /// Copies the executable at `source` to `destination`, mode 0755.
  public static func install(_ source: String, to destination: String) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/install")
    process.arguments = ["-m", "0755", source, destination]
    let error = Pipe()
    process.standardError = error
    process.standardOutput = FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let message = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw InstallFailure(message: String(decoding: message, as: UTF8.self))
    }
  }

  struct InstallFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { "install failed: \(message)" }
  }
}

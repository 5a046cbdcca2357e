import Foundation

/// Runs the built `pushdeck` binary the way a user does, for CLI tests.
public enum PushdeckProcess {
  /// The result of one run.
  public struct Output: Sendable {
    public var status: Int32
    public var standardOutput: String
    public var standardError: String
  }

  /// The built binary: beside the test bundle (SwiftPM puts executables in the same build
  /// directory), or under `.build/debug`.
  public static let binary: String? = {
    let fileManager = FileManager.default
    var candidates: [String] = []
    let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    var directory = testBinary.deletingLastPathComponent()
    for _ in 0..<4 {
      candidates.append(directory.appendingPathComponent("pushdeck").path)
      directory = directory.deletingLastPathComponent()
    }
    candidates.append(Corpus.repositoryRoot().appendingPathComponent(".build/debug/pushdeck").path)
    return candidates.first { fileManager.isExecutableFile(atPath: $0) }
  }()

  /// Runs `pushdeck` with arguments, optional standard input and extra environment.
  public static func run(
    _ arguments: [String], input: Data? = nil, environment: [String: String] = [:],
    directory: URL? = nil
  ) throws -> Output {
    guard let binary else { throw CocoaError(.fileNoSuchFile) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: binary)
    process.arguments = arguments
    var env = ProcessInfo.processInfo.environment
    env.removeValue(forKey: "NO_COLOR")
    for (key, value) in environment { env[key] = value }
    process.environment = env
    if let directory { process.currentDirectoryURL = directory }
    let stdout = Pipe()
    let stderr = Pipe()
    let stdin = Pipe()
    process.standardOutput = stdout
    process.standardError = stderr
    process.standardInput = input == nil ? FileHandle.nullDevice : stdin
    try process.run()
    if let input {
      stdin.fileHandleForWriting.write(input)
      try stdin.fileHandleForWriting.close()
    }
    // Read both pipes to the end before waiting, so a large output cannot block the child.
    let group = DispatchGroup()
    nonisolated(unsafe) var errorData = Data()
    group.enter()
    DispatchQueue.global().async {
      errorData = stderr.fileHandleForReading.readDataToEndOfFile()
      group.leave()
    }
    let outputData = stdout.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    return Output(
      status: process.terminationStatus, standardOutput: String(decoding: outputData, as: UTF8.self),
      standardError: String(decoding: errorData, as: UTF8.self))
  }

  /// A fresh temporary directory.
  public static func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("pushdeck-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }
}

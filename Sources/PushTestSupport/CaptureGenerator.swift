import Foundation
import PushWire

/// Runs `../shared/tools/gen_capture.py` to make realistic JSON Lines captures for tests.
///
/// Tests that use it are enabled only where Python and the generator are present.
public enum CaptureGenerator {
  /// The generator script, if present.
  public static let script: URL? = {
    let candidate = Corpus.repositoryRoot().deletingLastPathComponent()
      .appendingPathComponent("shared/tools/gen_capture.py")
    return FileManager.default.fileExists(atPath: candidate.path) ? candidate : nil
  }()

  /// Whether captures can be generated here.
  public static var isAvailable: Bool { script != nil && python != nil }

  static let python: String? = ["/usr/bin/python3", "/usr/local/bin/python3", "/opt/homebrew/bin/python3"]
    .first { FileManager.default.isExecutableFile(atPath: $0) }

  /// What the generator says a correct reader must find.
  public struct Expected: Sendable {
    public var lines: Int
    public var accepted: Int
    public var groups: Int
    public var checksumScalars: Int

    /// Reads the generator's `.expected.json` with the project's one JSON reader.
    init(json: [UInt8], path: String) throws {
      let document = try JSONDocument(bytes: json)
      func count(_ key: String) throws -> Int {
        guard let index = document.member(key, of: document.root), let value = document.integer(index) else {
          throw CocoaError(.fileReadCorruptFile, userInfo: [NSFilePathErrorKey: path, "key": key])
        }
        return value
      }
      lines = try count("lines")
      accepted = try count("accepted")
      groups = try count("groups")
      checksumScalars = try count("checksum_scalars")
    }
  }

  /// Generates `lines` lines into a temporary file and returns its path and expectations.
  public static func generate(lines: Int, seed: Int = 7, badRate: Double = 0.01) throws -> (URL, Expected) {
    guard let script, let python else { throw CocoaError(.fileNoSuchFile) }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pushdeck-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let output = directory.appendingPathComponent("capture.jsonl")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: python)
    process.arguments = [
      script.path, String(lines), output.path, "--seed", String(seed), "--bad-rate", String(badRate),
    ]
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    let expectedPath = output.path + ".expected.json"
    let data = try Data(contentsOf: URL(fileURLWithPath: expectedPath))
    return (output, try Expected(json: Array(data), path: expectedPath))
  }
}

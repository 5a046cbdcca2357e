import Foundation

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
  public struct Expected: Decodable, Sendable {
    public var lines: Int
    public var accepted: Int
    public var groups: Int
    public var checksumScalars: Int

    enum CodingKeys: String, CodingKey {
      case lines, accepted, groups
      case checksumScalars = "checksum_scalars"
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
    let data = try Data(contentsOf: URL(fileURLWithPath: output.path + ".expected.json"))
    return (output, try JSONDecoder().decode(Expected.self, from: data))
  }
}

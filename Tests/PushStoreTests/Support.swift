import Foundation
import PushCore
import PushStore

/// Builds a capture-style push record from a payload text.
func push(
  _ payload: String, bundle: String = "com.example.chat", headers: [(String, String)] = [],
  line: Int = 1
) -> PushRecord {
  let headerJSON = headers.map { "\"\($0.0)\": \"\($0.1)\"" }.joined(separator: ", ")
  let text =
    #"{"at": 0, "bundle": "\#(bundle)", "headers": {\#(headerJSON)}, "payload": \#(payload)}"#
  return PushReader.readCaptureLine(Array(text.utf8), lineNumber: line, source: "t.jsonl")
}

let start = SimInstant(milliseconds: 1_800_000_000_000)
func at(_ seconds: Int64) -> SimInstant { start + .seconds(seconds) }

/// A fresh directory under the system's temporary directory, removed by `remove()`.
struct TemporaryDirectory {
  let path: String

  init() throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "pushstore-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    path = url.path
  }

  func file(_ name: String) -> String { path + "/" + name }

  func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// Runs a command and returns its exit status (for chattr and friends).
@discardableResult
func run(_ executable: String, _ arguments: [String]) throws -> Int32 {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: executable)
  process.arguments = arguments
  process.standardOutput = FileHandle.nullDevice
  process.standardError = FileHandle.nullDevice
  try process.run()
  process.waitUntilExit()
  return process.terminationStatus
}

/// The built `PushStoreJournalChild`, beside the test bundle (SwiftPM builds it for this target).
let journalChild: String? = {
  var directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    .deletingLastPathComponent()
  for _ in 0..<4 {
    let candidate = directory.appendingPathComponent("PushStoreJournalChild").path
    if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    directory = directory.deletingLastPathComponent()
  }
  return nil
}()

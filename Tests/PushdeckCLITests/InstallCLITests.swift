import Foundation
import PushRender
import PushTestSupport
import Testing

/// The binary as an installed tool: copied out of the build directory, run from elsewhere,
/// asked its version, completing in a shell.
@Suite(.requires(PushdeckProcess.binary != nil, "needs the built pushdeck binary (swift build)"))
struct InstallCLITests {
  /// The binary copied alone into a fresh directory outside the checkout, and another fresh
  /// directory to run it from.
  static func installedCopy() throws -> (binary: String, workingDirectory: URL) {
    let root = try PushdeckProcess.temporaryDirectory()
    let bin = root.appendingPathComponent("bin")
    let elsewhere = root.appendingPathComponent("elsewhere")
    try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
    let copy = bin.appendingPathComponent("pushdeck")
    try Executable.install(try #require(PushdeckProcess.binary), to: copy.path)
    #expect(!root.path.hasPrefix(Corpus.repositoryRoot().path))
    return (copy.path, elsewhere)
  }

  static func run(_ binary: String, _ arguments: [String], in directory: URL) throws -> (
    status: Int32, standardOutput: String, standardError: String
  ) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: binary)
    process.arguments = arguments
    process.currentDirectoryURL = directory
    var environment = ProcessInfo.processInfo.environment
    environment.removeValue(forKey: "PUSHDECK_THEMES")
    environment.removeValue(forKey: "NO_COLOR")
    process.environment = environment
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let errorData = error.fileHandleForReading.readDataToEndOfFile()
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (
      status: process.terminationStatus, standardOutput: String(decoding: outputData, as: UTF8.self),
      standardError: String(decoding: errorData, as: UTF8.self)
    )
  }

  @Test func theCopiedBinaryRendersTheDemoWithEveryBuiltInThemeFromAnotherDirectory() throws {
    let (binary, directory) = try Self.installedCopy()
    defer { try? FileManager.default.removeItem(at: directory.deletingLastPathComponent()) }
    #expect(Theme.builtInNames.count == 4)
    for name in Theme.builtInNames {
      let theme = try #require(try Theme.builtIn(named: name))
      let cardFill = try #require(theme[.card].background?.hexString)
      let result = try Self.run(binary, ["render", "--theme", name, "--format", "svg"], in: directory)
      #expect(result.status == 0, "\(name): \(result.standardError)")
      #expect(result.standardError.isEmpty, "\(name): \(result.standardError)")
      // The cards are filled with this theme's colour, and the demo comes from inside the binary.
      #expect(result.standardOutput.contains("fill=\"\(cardFill)\""), "\(name): no \(cardFill) card fill in the SVG")
      let text = try Self.run(binary, ["render", "--theme", name], in: directory)
      #expect(text.status == 0 && text.standardOutput.contains("Order 5822"), "\(name): the demo is missing")
    }
  }

  @Test func anUnknownThemeIsAUsageErrorListingTheBuiltInOnes() throws {
    let (binary, directory) = try Self.installedCopy()
    defer { try? FileManager.default.removeItem(at: directory.deletingLastPathComponent()) }
    for command in ["render", "run"] {
      let result = try Self.run(binary, [command, "--theme", "blurple"], in: directory)
      #expect(result.status == 2, "\(command): \(result.standardError)")
      #expect(
        result.standardError.contains("unknown theme \"blurple\" (available: default, high-contrast, light, sleep)"),
        "\(command): \(result.standardError)")
    }
  }

  @Test func versionIsPrinted() throws {
    let result = try PushdeckProcess.run(["--version"])
    #expect(result.status == 0)
    let version = result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(version.split(separator: ".").count == 3 && version.allSatisfy { $0.isNumber || $0 == "." })
  }

  @Test(.requires(FileManager.default.isExecutableFile(atPath: "/bin/bash"), "needs bash"))
  func theBashCompletionLoadsAndCompletesSubcommandsAndOptions() throws {
    let generated = try PushdeckProcess.run(["--generate-completion-script", "bash"])
    #expect(generated.status == 0)
    let directory = try PushdeckProcess.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let script = directory.appendingPathComponent("pushdeck.bash")
    try generated.standardOutput.write(to: script, atomically: true, encoding: .utf8)
    // Loads the script as a user's shell does, then asks it to complete two command lines.
    let probe = """
      source "$1" || exit 9
      complete -p pushdeck
      ask() {
        COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}; read -ra COMP_WORDS <<< "$COMP_LINE"
        [[ "$COMP_LINE" == *" " ]] && COMP_WORDS+=("")
        COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 )); COMPREPLY=()
        "$(complete -p pushdeck | sed -E 's/.*-F ([^ ]+) .*/\\1/')" pushdeck "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
        printf '%s: %s\\n' "$*" "${COMPREPLY[*]}"
      }
      ask pushdeck ren
      ask pushdeck render --the
      """
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = ["-c", probe, "probe", script.path]
    var environment = ProcessInfo.processInfo.environment
    // The script may call pushdeck back for dynamic completions: the built one, first on PATH.
    let binDirectory = URL(fileURLWithPath: try #require(PushdeckProcess.binary)).deletingLastPathComponent().path
    environment["PATH"] = binDirectory + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
    process.environment = environment
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "\(text)")
    #expect(text.contains("-F _pushdeck pushdeck"), "\(text)")
    #expect(text.contains("pushdeck ren: render"), "\(text)")
    #expect(text.contains("pushdeck render --the: --theme"), "\(text)")
  }

  /// `docs/pushdeck.1` is generated (README, Install); this fails when a command or option was
  /// added or renamed since, saying to regenerate it.
  @Test func theCommittedManualPageNamesEveryCommandAndOption() throws {
    let dump = try PushdeckProcess.run(["--experimental-dump-help"])
    #expect(dump.status == 0)
    let root = try #require(
      try JSONSerialization.jsonObject(with: Data(dump.standardOutput.utf8)) as? [String: Any])
    let manual = try String(
      contentsOf: Corpus.repositoryRoot().appendingPathComponent("docs/pushdeck.1"), encoding: .utf8)
    var missing: [String] = []
    func visit(_ command: [String: Any], path: String) {
      let shown = command["shouldDisplay"] as? Bool ?? true
      guard shown else { return }
      if !path.isEmpty, !manual.contains(command["commandName"] as? String ?? "?") { missing.append(path) }
      for argument in command["arguments"] as? [[String: Any]] ?? [] where argument["shouldDisplay"] as? Bool ?? true {
        let names = argument["names"] as? [[String: Any]] ?? []
        // mdoc writes --theme as "Fl -theme" (Fl adds one dash), after a short name "Fl q , -quiet".
        for name in names where name["kind"] as? String == "long" {
          let long = name["name"] as? String ?? "?"
          if !manual.contains("Fl -\(long)"), !manual.contains(", -\(long)") { missing.append("\(path) --\(long)") }
        }
      }
      for sub in command["subcommands"] as? [[String: Any]] ?? [] where sub["commandName"] as? String != "help" {
        visit(sub, path: "\(path) \(sub["commandName"] as? String ?? "?")")
      }
    }
    visit(try #require(root["command"] as? [String: Any]), path: "")
    #expect(
      missing.isEmpty,
      "docs/pushdeck.1 lacks \(missing); regenerate it: swift package plugin generate-manual --configuration debug")
  }

  @Test(arguments: ["zsh", "fish"])
  func theOtherShellsGetAScript(_ shell: String) throws {
    let generated = try PushdeckProcess.run(["--generate-completion-script", shell])
    #expect(generated.status == 0)
    for command in ["render", "explain", "serve"] {
      #expect(generated.standardOutput.contains(command), "\(shell) script lacks \(command)")
    }
  }
}

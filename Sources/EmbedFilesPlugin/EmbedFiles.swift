import Foundation
import PackagePlugin

/// Compiles the project's data files into the targets that use them, so one `pushdeck` binary
/// needs nothing from the checkout (docs/DECISIONS.md, "Self-contained binary").
///
/// - `PushRender` gets `EmbeddedThemes.files`: every `themes/*.yaml`, by name.
/// - `PushScenario` gets `EmbeddedScenarios.files`: `Examples/demo.yaml`.
///
/// Each becomes a Swift raw string literal in a generated file. The files stay the only
/// source: the build command re-runs when one changes. The work is done by `/bin/sh` (no tool
/// target to build), so the fuzz build's `-Xswiftc -sanitize=fuzzer`, which SwiftPM also
/// applies to tool targets, cannot break it.
@main
struct EmbedFiles: BuildToolPlugin {
  /// Writes `$1` (a Swift file) declaring `enum $2` with each (name, file) pair after them as a
  /// raw string. A file holding the closing delimiter is refused rather than miscompiled.
  static let script = #######"""
    set -eu
    out=$1; type=$2; shift 2
    tmp="$out.tmp"
    {
      printf '// Generated at build time by Sources/EmbedFilesPlugin. Do not edit.\n'
      printf 'enum %s {\n  /// (name, text) of each embedded file.\n' "$type"
      printf '  static let files: [(name: String, text: String)] = [\n'
      while [ $# -ge 2 ]; do
        if grep -q '"""######' "$2"; then
          echo "$2: contains the delimiter \"\"\"######; cannot embed it" >&2
          exit 1
        fi
        printf '    (\n      "%s",\n      ######"""\n' "$1"
        cat "$2"
        printf '\n"""######\n    ),\n'
        shift 2
      done
      printf '  ]\n}\n'
    } > "$tmp"
    mv "$tmp" "$out"
    """#######

  func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
    let root = context.package.directoryURL
    let type: String
    var files: [(name: String, url: URL)] = []
    switch target.name {
    case "PushRender":
      type = "EmbeddedThemes"
      let folder = root.appending(path: "themes")
      let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
      for name in names.sorted() where name.hasSuffix(".yaml") {
        files.append((String(name.dropLast(5)), folder.appending(path: name)))
      }
    case "PushScenario":
      type = "EmbeddedScenarios"
      files = [("demo", root.appending(path: "Examples/demo.yaml"))]
    default:
      return []
    }
    let output = context.pluginWorkDirectoryURL.appending(path: "\(type).swift")
    var arguments = ["-c", Self.script, "embed-files", output.path, type]
    for file in files { arguments += [file.name, file.url.path] }
    return [
      .buildCommand(
        displayName: "Embedding \(files.count) file(s) in \(target.name)",
        executable: URL(fileURLWithPath: "/bin/sh"), arguments: arguments,
        inputFiles: files.map(\.url), outputFiles: [output])
    ]
  }
}

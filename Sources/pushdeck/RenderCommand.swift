import ArgumentParser
import PushCore
import PushRender
import PushUI

/// `pushdeck render`: one frame of the demo lock screen as text, for pipes, docs and tests.
struct RenderCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "render",
    abstract: "Print one frame of the demo lock screen as text (no terminal needed)."
  )

  @Option(name: .long, help: "The frame size as COLUMNSxROWS.")
  var size: String = "80x24"

  @Option(name: .long, help: "A theme name or a YAML file (only matters with --styles).")
  var theme: String = "default"

  @Option(name: .long, help: "Minutes to advance the simulated clock before rendering.")
  var advance: Int = 0

  @Flag(name: .long, help: "Wrap rows in | delimiters so trailing spaces show.")
  var frame = false

  @Flag(name: .long, help: "Append the style runs (role and colours per cell range).")
  var styles = false

  func run() throws {
    let parts = size.lowercased().split(whereSeparator: { $0 == "x" || $0 == "×" })
    guard parts.count == 2, let columns = Int(parts[0]), let rows = Int(parts[1]), columns > 0,
      rows > 0, columns <= 1000, rows <= 1000
    else {
      throw ValidationError("--size must look like 80x24")
    }
    let selectedTheme = try ThemeLocator.forCurrentProcess().load(theme)
    var state = AppState.demo()
    _ = reduce(into: &state, .tick(state.now + .minutes(Int64(advance))))
    let grid = render(state, size: Size(columns: columns, rows: rows), theme: selectedTheme)
    var text = grid.textDump()
    if !frame {
      text = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
        var row = line.dropFirst().dropLast()
        while row.last == " " { row = row.dropLast() }
        return String(row)
      }.joined(separator: "\n")
      text = String(text.dropLast())
    }
    print(text, terminator: text.hasSuffix("\n") ? "" : "\n")
    if styles { print(grid.styleDump(), terminator: "") }
  }
}

import ArgumentParser
import Foundation
import PushCore
import PushMockup
import PushRender
import PushShell
import PushUI

/// `pushdeck render`: one frame at a simulated time, without a terminal.
struct RenderCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "render",
    abstract: "Print one frame at a simulated time: text, ANSI, SVG or the screen's state as JSON.",
    discussion: """
      INPUT is the same as for `run`: scenarios (.yaml), payload files, captures; none renders the \
      built-in demo. --at takes a time of day in the device's time zone (09:45, 08:00:30), an \
      ISO 8601 time (2026-11-23T09:45:00Z) or an offset from the start (+0s, +5m, +1h30m, \
      +250ms). --advance takes a duration (90s, 5m, 1h30m, 250ms; a bare number is minutes).
      """
  )

  enum Format: String, ExpressibleByArgument, CaseIterable {
    case text, json, ansi, svg, png
  }

  /// What is drawn: the terminal's cells, or what an iPhone shows.
  enum Style: String, ExpressibleByArgument, CaseIterable {
    case terminal, phone
  }

  typealias ScreenName = PushShell.ScreenName

  @Argument(help: "Scenarios (.yaml), payload files (.json, .apns), captures (.jsonl) or directories.")
  var inputs: [String] = []

  // Unconditional: `--at -30s` is a value (before the device starts, and said so), not an
  // unknown option followed by a missing value.
  @Option(
    name: .long, parsing: .unconditional,
    help:
      "The simulated time of the frame: 09:45, 2026-11-23T09:45:00Z, or +1h30m from the device's start (default: after the last event)."
  )
  var at: String?

  @Option(name: .long, help: "The screen: lock or center.")
  var screen: ScreenName = .lock

  @Option(
    name: .customLong("size"),
    help: "The terminal frame's size as COLUMNSxROWS, 40x12 to 1000x1000 (not with --style phone).")
  var sizeOption: String?

  /// The terminal frame's size as given, else 80x24.
  var size: String { sizeOption ?? "80x24" }

  @Option(
    name: .customLong("format"),
    help: "text, ansi (with colour), svg (a picture), png (with --style phone) or json (the screen's state).")
  var formatOption: Format?

  /// The format asked for, else the one `-o FILE`'s extension names, else text (svg with
  /// --style phone).
  var format: Format {
    OutputFormat.chosen(
      given: formatOption, output: output, table: Self.formats, fallback: style == .phone ? .svg : .text)
  }

  /// What an `-o FILE` extension asks for (``OutputFormat``).
  static let formats: [String: [Format]] = [
    "png": [.png], "svg": [.svg], "json": [.json], "txt": [.text, .ansi], "text": [.text, .ansi],
    "ansi": [.ansi], "ans": [.ansi],
  ]

  @Option(name: .long, help: "terminal (the cells, the default) or phone (an iPhone mockup: svg or png).")
  var style: Style = .terminal

  @Option(
    name: .long,
    help:
      "With --style phone: devices side by side, separated by commas (\(DeviceVariant.presetNames.joined(separator: ", ")) or profile files)."
  )
  var compare: String?

  @Option(
    name: [.short, .long],
    help:
      "Write to FILE instead of standard output (any format; without --format, a .png, .svg, .json, .txt or .ansi name chooses it)."
  )
  var output: String?

  @Option(name: .customLong("scale"), help: "Pixels per point for png (0.1 to 4; 2 is a Retina-like picture).")
  var scaleOption: Double?

  /// The PNG's pixels per point as given, else 2.
  var scale: Double { scaleOption ?? 2 }

  @Option(name: .long, help: "A theme name or a YAML file (for ansi, svg and --styles).")
  var theme: String = "default"

  @Option(name: .long, help: "A device profile: a YAML file, or unlocked, locked, dnd or sleep.")
  var profile: String?

  @Option(
    name: .long,
    help:
      "The app for payload files (over a file's Simulator Target Bundle, as xcrun simctl push does; capture lines name their own).",
    transform: BundleOption.parse)
  var bundle: String?

  @Option(
    name: .long,
    help: "How far to advance the simulated clock before rendering: 90s, 5m, 1h30m (a bare number is minutes).")
  var advance: String = "0"

  @Flag(name: .long, help: "Wrap text rows in | delimiters so trailing spaces show.")
  var frame = false

  @Flag(name: .long, help: "Append the style runs (role and colours per cell range) to text output.")
  var styles = false

  @Option(name: .long, help: .hidden)
  var bench: String?

  func run() throws {
    if let bench {
      let counts = bench.split(separator: ",").compactMap { Int($0) }
      let parts = size.lowercased().split(separator: "x").compactMap { Int($0) }
      // A developer's flag, but its numbers are still checked where they are read.
      guard counts.allSatisfy({ (1...10_000_000).contains($0) }), parts.allSatisfy({ (1...1000).contains($0) })
      else {
        throw ValidationError("--bench takes notification counts from 1 to 10,000,000, --size from 1x1 to 1000x1000")
      }
      let benchSize = parts.count == 2 ? Size(columns: parts[0], rows: parts[1]) : Size(columns: 200, rows: 60)
      let report = MainActor.assumeIsolated {
        FrameBenchmark.run(counts: counts.isEmpty ? [10_000, 1_000_000] : counts, size: benchSize)
      }
      print(report)
      return
    }
    let parts = size.lowercased().split(whereSeparator: { $0 == "x" || $0 == "×" })
    // The smallest screen the front end draws: anything smaller is only its "too small" note.
    let least = LockScreenView.minimumSize
    guard parts.count == 2, let columns = Int(parts[0]), let rows = Int(parts[1]),
      (least.columns...1000).contains(columns),
      (least.rows...1000).contains(rows)
    else {
      throw ValidationError(
        "--size must look like 80x24, with \(least.columns) to 1000 columns and \(least.rows) to 1000 rows (the smallest screen Pushdeck draws), not \(size)"
      )
    }
    try OutputFormat.check(given: formatOption, output: output, table: Self.formats)
    try checkOptionsApply()
    let selectedTheme = try ThemeLocator.forCurrentProcess().commandLineTheme(theme)
    if style == .phone {
      try renderPhone(theme: selectedTheme)
      return
    }
    if format == .png || compare != nil {
      // Said of what the user gave: a `.png` name asks for a PNG as --format png does.
      let asked = compare != nil ? "--compare" : formatOption == .png ? "--format png" : "-o \(output ?? "")"
      throw UsageError("\(asked) draws a phone mockup, which the terminal style does not: add --style phone")
    }
    var state: AppState
    let target: SimInstant
    if !inputs.isEmpty, !inputs.contains(where: Session.isScenario) {
      // Payloads and captures alone are streamed: a capture of any size in bounded memory.
      (state, target) = try Session.streamFrame(inputs: inputs, profile: profile, bundle: bundle) { begun in
        at == nil ? nil : try renderTime(for: begun)
      }
    } else {
      state = try Session.load(
        inputs: inputs, profile: profile, bundle: bundle, leanFrom: Session.leanTimelineEvents
      ).state
      target = try renderTime(for: state)
    }
    guard let advanced = try advanceSpan().flatMap(target.adding) else {
      throw ValidationError(
        "--advance \(advance) moves the clock outside the simulated time \(EpochRange.text)")
    }
    _ = reduce(into: &state, .tick(advanced))
    _ = reduce(into: &state, .resize(columns: columns, rows: rows))
    if screen == .center { _ = reduce(into: &state, .command(.openCenter)) }
    // To `-o FILE` or standard output, whatever the format (it was svg and png only, and the
    // others went to standard output with the file never written).
    if format == .json {
      return try MockupOutput.write(Array((ScreenJSON.render(state, screen: screen) + "\n").utf8), to: output)
    }
    let grid = PushRender.render(state, size: Size(columns: columns, rows: rows), theme: selectedTheme)
    var out = ""
    switch format {
    case .text:
      var text = grid.textDump()
      if !frame {
        text = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
          var row = line.dropFirst().dropLast()
          while row.last == " " { row = row.dropLast() }
          return String(row)
        }.joined(separator: "\n")
        text = String(text.dropLast())
      }
      out = text.hasSuffix("\n") ? text : text + "\n"
      if styles { out += grid.styleDump() }
    case .ansi:
      out = grid.ansiText()
    case .svg:
      let page = selectedTheme[.background].background ?? .rgb(0, 0, 0)
      let ink = selectedTheme[.background].foreground ?? .rgb(255, 255, 255)
      out = grid.svg(defaultForeground: ink, defaultBackground: page, title: "Pushdeck \(screen.rawValue) screen")
    case .json, .png:
      break
    }
    try MockupOutput.write(Array(out.utf8), to: output)
  }

  /// Options that do nothing in the combination given are refused, as `--compare` without
  /// `--style phone` is, instead of being dropped without a word.
  func checkOptionsApply() throws {
    if style == .phone {
      let terminalOnly = [
        sizeOption.map { _ in "--size" }, frame ? "--frame" : nil, styles ? "--styles" : nil,
      ].compactMap { $0 }
      if let first = terminalOnly.first {
        throw UsageError(
          "\(first) applies to the terminal style's frame; --style phone draws an iPhone at its own size (--scale sets a PNG's pixels per point)"
        )
      }
    } else if format != .text, frame || styles {
      throw UsageError("\(frame ? "--frame" : "--styles") applies to --format text, not \(format.rawValue)")
    }
    if scaleOption != nil, format != .png {
      throw UsageError("--scale sets a PNG's pixels per point; it does nothing for \(format.rawValue)")
    }
  }

  /// `--style phone`: the state at the frame's time as an iPhone draws it, on one device or
  /// several side by side.
  func renderPhone(theme: Theme) throws {
    guard format == .svg || format == .png else {
      throw ValidationError("--style phone draws svg or png, not \(format.rawValue)")
    }
    guard scale.isFinite, scale >= 0.1, scale <= 4 else {
      throw ValidationError("--scale must be 0.1 to 4, not \(scale)")
    }
    let session = try Session.load(inputs: inputs, profile: profile, bundle: bundle).state
    let target = try renderTime(for: session)
    guard let advanced = try advanceSpan().flatMap(target.adding) else {
      throw ValidationError(
        "--advance \(advance) moves the clock outside the simulated time \(EpochRange.text)")
    }
    func frame(_ start: AppState) -> AppState {
      var state = start
      _ = reduce(into: &state, .tick(advanced))
      if screen == .center { _ = reduce(into: &state, .command(.openCenter)) }
      return state
    }
    let svg: String
    if let compare {
      let variants = try DeviceVariant.parse(compare)
      let clock = CivilTime(advanced, utcOffsetSeconds: session.device.profile.utcOffsetSeconds).clock
      // One column per device: each device is a moment of its own on a one-device sheet.
      let moments = variants.map { variant in
        let state = frame(variant.state(from: session))
        let focus = state.device.activeFocus.map { " · \($0.name) Focus" } ?? ""
        let stored = state.device.store.centerCount
        let caption =
          (state.device.isLocked ? "Locked" : "Unlocked") + focus
          + " · \(stored) in Notification Center" + (state.summary.isEmpty ? "" : " · summary delivered")
        return Sheet.Moment(
          heading: "\(variant.label) · \(clock)",
          cells: [Sheet.Cell(phone: PhoneMockup(state: state, theme: theme), caption: caption)])
      }
      var sheet = Sheet(title: Storyboard.title(inputs: inputs), devices: ["Device"], moments: moments)
      sheet.momentsPerRow = moments.count
      svg = sheet.svg()
    } else {
      svg = PhoneMockup(state: frame(session), theme: theme).svgDocument(title: "Pushdeck \(screen.rawValue) screen")
    }
    if format == .png {
      try MockupOutput.writePNG(svg: svg, scale: scale, to: output)
    } else {
      try MockupOutput.write(Array(svg.utf8), to: output)
    }
  }

  /// The instant `--at` names (``TimeGrammar``, from the device's start), or the moment after
  /// the timeline's last event.
  func renderTime(for state: AppState) throws -> SimInstant {
    let start = state.device.now
    guard let at else { return max(state.timeline.last?.at ?? start, start) }
    let instant: SimInstant
    do {
      instant = try TimeGrammar.instant(at, now: start, utcOffsetSeconds: state.device.profile.utcOffsetSeconds)
    } catch .outOfRange {
      guard at.hasPrefix("+") else {
        throw ValidationError("--at \(at) is outside \(EpochRange.text), the time Pushdeck simulates")
      }
      throw ValidationError(
        "--at \(at) goes past \(CivilTime.iso8601(SimInstant.latest)), the last instant Pushdeck simulates")
    } catch {
      // Not the seek prompt's list: a frame cannot come before the device starts, so `-30s`
      // is no form to offer here.
      throw ValidationError(
        "--at takes 09:45, 08:00:30, 2026-11-23T09:45:00Z, 2026-11-23 09:45, or +0s, +1h30m, +250ms from the device's start, not \(at)"
      )
    }
    guard instant >= start else {
      let offset = state.device.profile.utcOffsetSeconds
      throw ValidationError(
        "--at \(at) is before the device starts (\(CivilTime.iso8601(start, utcOffsetSeconds: offset))): "
          + "a frame shows the device at or after its start")
    }
    return instant
  }

  /// The span `--advance` names: a duration (``TimeGrammar``), or a bare number of minutes as
  /// before; nil when it is too long to compute.
  func advanceSpan() throws -> SimDuration? {
    if let minutes = Int64(advance) {
      // The clock only moves forward (a negative number was read and then did nothing).
      guard minutes >= 0 else {
        throw ValidationError(
          "--advance moves the clock forward: give 0 or more minutes, or a span such as 5m, not \(advance)")
      }
      return SimDuration(exactly: minutes, unitMilliseconds: 60_000)
    }
    do {
      return try TimeGrammar.duration(advance)
    } catch .outOfRange {
      return nil
    } catch {
      throw ValidationError(
        "--advance takes \(TimeGrammar.durationForms) (a bare number is minutes), not \(advance)")
    }
  }

}

extension ScreenName: ExpressibleByArgument {}

import ArgumentParser
import Foundation
import PushCore
import PushMockup
import PushRaster
import PushRender
import PushScenario
import PushShell
import PushUI

/// `pushdeck storyboard`: a phone mockup per key moment of a scenario, captioned with explain's
/// outcome, on one sheet (SVG or PNG) or in one offline HTML file stepped with the arrow keys.
struct StoryboardCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "storyboard",
    abstract: "Draw a scenario as iPhone mockups: a frame per push, Focus, lock or setting change and summary.",
    discussion: """
      INPUT is the same as for `render`: scenarios (.yaml), payload files, captures. A frame is \
      drawn at each moment something happens: each push (captioned with explain's one-line \
      outcome), each Focus, lock or setting change and tap, and each Scheduled Summary release. \
      --compare plays the same timeline on several devices: a row of frames per device.
      """
  )

  enum Format: String, ExpressibleByArgument, CaseIterable {
    case svg, png, html
  }

  @Argument(help: "Scenarios (.yaml), payload files (.json, .apns), captures (.jsonl) or directories.")
  var inputs: [String] = []

  @Option(
    name: .customLong("format"),
    help: "svg (one sheet), png (the sheet as a picture) or html (one offline file, ← → to step).")
  var formatOption: Format?

  @Option(
    name: [.short, .long],
    help: "Write to FILE instead of standard output (without --format, a .svg, .png or .html name chooses it).")
  var output: String?

  /// The format asked for, else the one `-o FILE`'s extension names, else svg.
  var format: Format { OutputFormat.chosen(given: formatOption, output: output, table: Self.formats, fallback: .svg) }

  static let formats: [String: [Format]] = ["svg": [.svg], "png": [.png], "html": [.html], "htm": [.html]]

  @Option(
    name: .long,
    help:
      "Devices side by side, separated by commas: \(DeviceVariant.presetNames.joined(separator: ", ")) or profile files."
  )
  var compare: String?

  @Option(name: .long, help: "A device profile: a YAML file, or unlocked, locked, dnd or sleep.")
  var profile: String?

  @Option(
    name: .long,
    help:
      "The app for payload files (over a file's Simulator Target Bundle, as xcrun simctl push does; capture lines name their own).",
    transform: BundleOption.parse)
  var bundle: String?

  @Option(name: .long, help: "A theme name or a YAML file (its wallpaper and accents).")
  var theme: String = "default"

  @Option(name: .customLong("scale"), help: "Pixels per point for png (0.1 to 4).")
  var scaleOption: Double?

  /// The PNG's pixels per point as given, else 1.
  var scale: Double { scaleOption ?? 1 }

  @Option(name: .long, help: "The most moments drawn (the first ones), 1 to 200.")
  var limit: Int = 60

  func validate() throws {
    guard (1...200).contains(limit) else { throw ValidationError("--limit must be 1 to 200, not \(limit)") }
    guard scale.isFinite, scale >= 0.1, scale <= 4 else {
      throw ValidationError("--scale must be 0.1 to 4, not \(scale)")
    }
    try OutputFormat.check(given: formatOption, output: output, table: Self.formats)
    if scaleOption != nil, format != .png {
      throw ValidationError("--scale sets a PNG's pixels per point; it does nothing for \(format.rawValue)")
    }
  }

  func run() throws {
    let selectedTheme = try ThemeLocator.forCurrentProcess().commandLineTheme(theme)
    let session = try Session.load(inputs: inputs, profile: profile, bundle: bundle).state
    let variants =
      try compare.map(DeviceVariant.parse) ?? [
        DeviceVariant(name: "device", label: "Device") { $0 }
      ]
    // One more than the limit, to know whether the sheet leaves any out and say so.
    var moments = Storyboard.moments(session: session, variants: variants, theme: selectedTheme, limit: limit + 1)
    guard !moments.isEmpty else { throw ValidationError("nothing happens in the inputs: no moment to draw") }
    if moments.count > limit {
      moments.removeLast()
      let more = limit < 200 ? "--limit draws up to 200" : "200 is the most one sheet draws"
      let err = OutputStream.standardError()
      err.line("pushdeck: storyboard: drew the first \(limit) moments; the inputs have more (\(more))")
      err.flush()
    }
    let sheet = Sheet(
      title: Storyboard.title(inputs: inputs), devices: variants.map(\.label), moments: moments)
    switch format {
    case .svg: try MockupOutput.write(Array(sheet.svg().utf8), to: output)
    case .html: try MockupOutput.write(Array(sheet.html().utf8), to: output)
    case .png: try MockupOutput.writePNG(svg: sheet.svg(), scale: scale, to: output)
    }
  }
}

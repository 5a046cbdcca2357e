import ArgumentParser
import Foundation
import PushCore
import PushMockup
import PushRaster
import PushRender
import PushScenario
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

  @Option(name: .long, help: "svg (one sheet), png (the sheet as a picture) or html (one offline file, ← → to step).")
  var format: Format = .svg

  @Option(name: [.short, .long], help: "Write to FILE instead of standard output.")
  var output: String?

  @Option(
    name: .long,
    help:
      "Devices side by side, separated by commas: \(DeviceVariant.presetNames.joined(separator: ", ")) or profile files."
  )
  var compare: String?

  @Option(name: .long, help: "A device profile: a YAML file, or unlocked, locked, dnd or sleep.")
  var profile: String?

  @Option(name: .long, help: "The app for payload files that name none.")
  var bundle: String?

  @Option(name: .long, help: "A theme name or a YAML file (its wallpaper and accents).")
  var theme: String = "default"

  @Option(name: .long, help: "Pixels per point for png (0.1 to 4).")
  var scale: Double = 1

  @Option(name: .long, help: "The most moments drawn (the first ones), 1 to 200.")
  var limit: Int = 60

  func validate() throws {
    guard (1...200).contains(limit) else { throw ValidationError("--limit must be 1 to 200, not \(limit)") }
    guard scale.isFinite, scale >= 0.1, scale <= 4 else {
      throw ValidationError("--scale must be 0.1 to 4, not \(scale)")
    }
  }

  func run() throws {
    let selectedTheme = try ThemeLocator.forCurrentProcess().load(theme)
    let session = try Session.load(inputs: inputs, profile: profile, bundle: bundle).state
    let variants =
      try compare.map(DeviceVariant.parse) ?? [
        DeviceVariant(name: "device", label: "Device") { $0 }
      ]
    let moments = Storyboard.moments(session: session, variants: variants, theme: selectedTheme, limit: limit)
    guard !moments.isEmpty else { throw ValidationError("nothing happens in the inputs: no moment to draw") }
    let sheet = Sheet(
      title: Storyboard.title(inputs: inputs), devices: variants.map(\.label), moments: moments)
    switch format {
    case .svg: try MockupOutput.write(Array(sheet.svg().utf8), to: output)
    case .html: try MockupOutput.write(Array(sheet.html().utf8), to: output)
    case .png: try MockupOutput.writePNG(svg: sheet.svg(), scale: scale, to: output)
    }
  }
}

/// The key moments of a session on each device, drawn as phone mockups.
enum Storyboard {
  /// The sheet's title: the first scenario's title, else the inputs' names.
  static func title(inputs: [String]) -> String {
    if let scenario = inputs.first(where: Session.isScenario),
      let loaded = try? ScenarioLoader().loadScenario(path: scenario), let title = loaded.title
    {
      return title
    }
    if inputs.isEmpty { return "Pushdeck demo" }
    return inputs.map { $0.split(separator: "/").last.map(String.init) ?? $0 }.joined(separator: ", ")
  }

  /// The instants worth a frame: each timeline entry's, and each Scheduled Summary time from
  /// the start until a day after the last entry (kept only where a summary was released).
  static func candidateTimes(session: AppState, profiles: [DeviceProfile]) -> (
    times: [SimInstant], summaryTimes: Set<SimInstant>
  ) {
    let start = session.initialDevice.now
    var times = session.timeline.map(\.at)
    let end = max(times.last ?? start, start)
    var summaryTimes: Set<SimInstant> = []
    for profile in profiles where profile.apps.contains(where: { $0.settings.delivery == .scheduledSummary }) {
      let offset = Int64(profile.utcOffsetSeconds) * 1000
      let local = start.milliseconds + offset
      let dayStart = local - ((local % 86_400_000) + 86_400_000) % 86_400_000
      for day in 0..<8 {
        for time in profile.summaryTimes {
          let instant = SimInstant(
            milliseconds: dayStart + Int64(day) * 86_400_000 + Int64(time.minutes) * 60_000 - offset)
          if instant > start, instant <= end + .hours(24) { summaryTimes.insert(instant) }
        }
      }
    }
    times += summaryTimes
    return (Array(Set(times)).sorted(), summaryTimes)
  }

  static func moments(session: AppState, variants: [DeviceVariant], theme: Theme, limit: Int) -> [Sheet.Moment] {
    var states = variants.map { $0.state(from: session) }
    let profiles = states.map(\.device.profile)
    let printers = profiles.map { ExplainPrinter(color: false, profile: $0) }
    let (times, summaryTimes) = candidateTimes(session: session, profiles: profiles)
    var moments: [Sheet.Moment] = []
    var cursor = 0
    let timeline = session.timeline
    for time in times {
      guard moments.count < limit else { break }
      var entries: [TimelineEntry] = []
      while cursor < timeline.count, timeline[cursor].at <= time {
        entries.append(timeline[cursor])
        cursor += 1
      }
      var cells: [Sheet.Cell] = []
      var headingRecords: [DeliveryRecord] = []
      var released = false
      var anyRecords = false
      for index in states.indices {
        let recordsBefore = states[index].device.records.count
        let releasesBefore = states[index].device.store.releaseCount
        _ = reduce(into: &states[index], .tick(time))
        let records = Array(states[index].device.records.dropFirst(recordsBefore))
        if index == 0 { headingRecords = records }
        anyRecords = anyRecords || !records.isEmpty
        var captions = records.map { printers[index].outcome($0) }
        if states[index].device.store.releaseCount > releasesBefore {
          released = true
          let count = states[index].summary.count
          captions.append("Scheduled Summary delivered: \(count) notification\(count == 1 ? "" : "s")")
        }
        captions += entries.compactMap { describe($0.event, state: states[index]) }
        cells.append(
          Sheet.Cell(phone: PhoneMockup(state: states[index], theme: theme), caption: captions.joined(separator: " — "))
        )
      }
      // Nothing to show: a summary time with nothing released, or time merely passing.
      let onlyTime = entries.allSatisfy { if case .advance = $0.event { true } else { false } }
      if onlyTime, !released, !anyRecords { continue }
      let clock = CivilTime(time, utcOffsetSeconds: profiles[0].utcOffsetSeconds).clock
      var what = headingRecords.map { record in
        let app = states[0].appInfo(record.bundleID).displayName
        return "#\(record.index + 1) \(app)" + (record.notification?.title.map { ": " + $0 } ?? "")
      }
      what += entries.compactMap { entry in
        if case .device(.push) = entry.event { return nil }
        return describe(entry.event, state: states[0])
      }
      if released && what.isEmpty { what = ["Scheduled Summary"] }
      moments.append(Sheet.Moment(heading: ([clock] + what).joined(separator: " · "), cells: cells))
    }
    return moments
  }

  /// What a non-push event did, in a few words.
  static func describe(_ event: TimelineEvent, state: AppState) -> String? {
    switch event {
    case .device(let device):
      switch device {
      case .push: return nil
      case .focus(let id?):
        let name = state.device.profile.focusModes.first { $0.id == id }?.name ?? id
        return "\(name) Focus on"
      case .focus(nil): return "Focus off"
      case .lock: return "Locked"
      case .unlock: return "Unlocked"
      case .setting(let bundleID, let change): return "\(state.appInfo(bundleID).displayName): \(change)"
      case .open: return "Opened"
      case .clear, .clearGroup: return "Cleared"
      case .clearAll: return "Cleared all"
      case .action(_, let actionID, _): return "Action \(actionID)"
      }
    case .open: return "Tapped"
    case .clear, .clearGroup: return "Cleared"
    case .action(_, let actionID): return "Action \(actionID)"
    case .reply(_, let actionID, _): return "Replied" + (actionID.map { " (\($0))" } ?? "")
    case .advance: return nil
    }
  }
}

/// Writing mockups: to a file or standard output; PNG through librsvg.
enum MockupOutput {
  static func write(_ bytes: [UInt8], to path: String?) throws {
    guard let path, path != "-" else {
      FileHandle.standardOutput.write(Data(bytes))
      return
    }
    do {
      try Data(bytes).write(to: URL(fileURLWithPath: path))
    } catch {
      throw ValidationError("\(path): cannot write (\(error.localizedDescription))")
    }
  }

  static func writePNG(svg: String, scale: Double, to path: String?) throws {
    if path == nil || path == "-", isatty(1) != 0 {
      throw ValidationError("a PNG is binary: give -o FILE, or redirect standard output")
    }
    let png: [UInt8]
    do throws(PNGRasterizer.Failure) {
      png = try PNGRasterizer.png(svg: svg, scale: scale)
    } catch {
      throw ValidationError("could not draw the PNG: \(error.description)")
    }
    try write(png, to: path)
  }
}

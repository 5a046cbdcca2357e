import Foundation
import PushCore
import PushMockup
import PushRaster
import PushRender
import PushScenario
import PushUI

/// The key moments of a session on each device, drawn as phone mockups.
package enum Storyboard {
  /// The sheet's title: the first scenario's title, else the inputs' names.
  package static func title(inputs: [String]) -> String {
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
  package static func candidateTimes(session: AppState, profiles: [DeviceProfile]) -> (
    times: [SimInstant], summaryTimes: Set<SimInstant>
  ) {
    let start = session.initialDevice.now
    var times = session.timeline.map(\.at)
    let end = max(times.last ?? start, start)
    var summaryTimes: Set<SimInstant> = []
    for profile in profiles where profile.apps.contains(where: { $0.settings.delivery == .scheduledSummary }) {
      let dayStart = start.startOfLocalDay(utcOffsetSeconds: profile.utcOffsetSeconds).milliseconds
      for day in 0..<8 {
        for time in profile.summaryTimes {
          let instant = SimInstant(milliseconds: dayStart + Int64(day) * 86_400_000 + Int64(time.minutes) * 60_000)
          if instant > start, instant <= end + .hours(24) { summaryTimes.insert(instant) }
        }
      }
    }
    times += summaryTimes
    return (Array(Set(times)).sorted(), summaryTimes)
  }

  package static func moments(session: AppState, variants: [DeviceVariant], theme: Theme, limit: Int) -> [Sheet.Moment]
  {
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
  package static func describe(_ event: TimelineEvent, state: AppState) -> String? {
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
package enum MockupOutput {
  package static func write(_ bytes: [UInt8], to path: String?) throws {
    guard let path, path != "-" else {
      FileHandle.standardOutput.write(Data(bytes))
      return
    }
    do {
      try Data(bytes).write(to: URL(fileURLWithPath: path))
    } catch {
      throw UsageError("\(path): cannot write (\(error.localizedDescription))")
    }
  }

  package static func writePNG(svg: String, scale: Double, to path: String?) throws {
    if path == nil || path == "-", isatty(1) != 0 {
      throw UsageError("a PNG is binary: give -o FILE, or redirect standard output")
    }
    let png: [UInt8]
    do throws(PNGRasterizer.Failure) {
      png = try PNGRasterizer.png(svg: svg, scale: scale)
    } catch {
      throw UsageError("could not draw the PNG: \(error.description)")
    }
    try write(png, to: path)
  }
}

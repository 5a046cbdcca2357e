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
  package static func candidateTimes(session: AppState, profiles: [DeviceProfile]) -> [SimInstant] {
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
    return Array(Set(times)).sorted()
  }

  package static func moments(session: AppState, variants: [DeviceVariant], theme: Theme, limit: Int) -> [Sheet.Moment]
  {
    var states = variants.map { $0.state(from: session) }
    let profiles = states.map(\.device.profile)
    let printers = profiles.map { ExplainPrinter(color: false, profile: $0) }
    let times = candidateTimes(session: session, profiles: profiles)
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
      var headingEvents: [String] = []
      var acted = false
      for index in states.indices {
        let recordsBefore = states[index].device.records.count
        let releasesBefore = states[index].device.store.releaseCount
        let responsesBefore = states[index].device.responses.count
        let refusalsBefore = states[index].device.refusedResponses.count
        _ = reduce(into: &states[index], .tick(time))
        // What each entry did on this device: a tap, action or reply that reached nothing, or
        // that the notification does not offer, is not captioned as done.
        let described = describe(
          entries, state: states[index], responsesSince: responsesBefore, refusalsSince: refusalsBefore)
        if index == 0 { headingEvents = described.compactMap(\.self) }
        acted = acted || described.contains { $0 != nil }
        let records = Array(states[index].device.records.dropFirst(recordsBefore))
        if index == 0 { headingRecords = records }
        anyRecords = anyRecords || !records.isEmpty
        var captions = records.map { printers[index].outcome($0) }
        if states[index].device.store.releaseCount > releasesBefore {
          released = true
          let count = states[index].summary.count
          captions.append("Scheduled Summary delivered: \(count) notification\(count == 1 ? "" : "s")")
        }
        captions += described.compactMap(\.self)
        cells.append(
          Sheet.Cell(phone: PhoneMockup(state: states[index], theme: theme), caption: captions.joined(separator: " — "))
        )
      }
      // Nothing to show: a summary time with nothing released, time merely passing, or
      // responses that did nothing on any device.
      if !acted, !released, !anyRecords { continue }
      let clock = CivilTime(time, utcOffsetSeconds: profiles[0].utcOffsetSeconds).clock
      var what = headingRecords.map { record in
        let app = states[0].appInfo(record.bundleID).displayName
        // A title of only spaces is no title: the heading ends at the app, not at a colon.
        let title = record.notification?.title?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        return "#\(record.index + 1) \(app)" + (title.isEmpty ? "" : ": " + title)
      }
      what += headingEvents
      if released && what.isEmpty { what = ["Scheduled Summary"] }
      moments.append(Sheet.Moment(heading: ([clock] + what).joined(separator: " · "), cells: cells))
    }
    return moments
  }

  /// What each of the entries just played did on a device, in a few words; nil for a push (its
  /// record says it), for time passing, and for a tap, action or reply that did nothing: its
  /// notification was gone (no response since `responsesSince`), or it is not offered (a refusal
  /// since `refusalsSince`, captioned "… not possible: reason", as explain says it).
  package static func describe(
    _ entries: [TimelineEntry], state: AppState, responsesSince: Int, refusalsSince: Int
  ) -> [String?] {
    var responses = Array(state.device.responses.dropFirst(responsesSince))
    var refusals = Array(state.device.refusedResponses.dropFirst(refusalsSince))
    return entries.map { entry in
      switch entry.event {
      case .open:
        guard let found = responses.firstIndex(where: { $0.actionID == defaultActionIdentifier && $0.text == nil })
        else { return nil }
        responses.remove(at: found)
      case .action(_, let actionID):
        if let found = refusals.firstIndex(where: { $0.actionID == actionID && $0.text == nil }) {
          return "Action \(actionID) not possible: \(refusals.remove(at: found).reason)"
        }
        guard let found = responses.firstIndex(where: { $0.actionID == actionID && $0.text == nil }) else { return nil }
        responses.remove(at: found)
      case .reply(_, let actionID, let text):
        func matches(_ id: String, _ typed: String?) -> Bool { typed == text && (actionID == nil || id == actionID) }
        if let found = refusals.firstIndex(where: { matches($0.actionID, $0.text) }) {
          return "Reply not possible: \(refusals.remove(at: found).reason)"
        }
        guard let found = responses.firstIndex(where: { matches($0.actionID, $0.text) }) else { return nil }
        responses.remove(at: found)
      default:
        break
      }
      return describe(entry.event, state: state)
    }
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
      throw UsageError("could not draw the PNG: \(error.description); lower --scale, or write an SVG (-o FILE.svg)")
    }
    try write(png, to: path)
  }
}

import Foundation
import PushCore
import PushScenario
import PushUI

/// One device of `--compare`: a built-in preset or a profile file, applied to the inputs'
/// profile so every device plays the same timeline on the same clock.
package struct DeviceVariant {
  package init(name: String, label: String, apply: @escaping (DeviceProfile) -> DeviceProfile) {
    self.name = name
    self.label = label
    self.apply = apply
  }

  /// What `--compare` named.
  package var name: String
  /// The name shown over its column or row.
  package var label: String
  /// The profile from the inputs' profile.
  package var apply: (DeviceProfile) -> DeviceProfile

  /// The built-in presets, in the order `--help` lists them.
  package static let presetNames = ["unlocked", "locked", "dnd", "sleep", "work", "summary", "provisional"]

  /// Parses `--compare`: names separated by commas, each a preset or a YAML profile file.
  ///
  /// - Throws: `UsageError` naming the entry that is neither, or a profile file's error.
  package static func parse(_ list: String) throws -> [DeviceVariant] {
    let names = list.split(separator: ",", omittingEmptySubsequences: false).map {
      String($0).trimmingCharacters(in: .whitespaces)
    }
    guard names.count >= 1, names.count <= 8, !names.contains(where: \.isEmpty) else {
      throw UsageError(
        "--compare takes 1 to 8 devices separated by commas (\(presetNames.joined(separator: ", ")) or profile files), not \"\(list)\""
      )
    }
    return try names.map(variant)
  }

  package static func variant(_ name: String) throws -> DeviceVariant {
    func preset(_ label: String, _ change: @escaping (inout DeviceProfile) -> Void) -> DeviceVariant {
      DeviceVariant(name: name, label: label) { profile in
        var profile = profile
        change(&profile)
        return profile
      }
    }
    switch name {
    case "unlocked":
      return preset("Unlocked") {
        $0.isLocked = false; $0.activeFocusID = nil
      }
    case "locked":
      return preset("Locked") {
        $0.isLocked = true; $0.activeFocusID = nil
      }
    case "dnd":
      return preset("Do Not Disturb") { profile in
        profile.isLocked = true
        profile.activeFocusID = focus(.doNotDisturb, in: &profile, fallback: .doNotDisturb)
      }
    case "sleep":
      return preset("Sleep") { profile in
        profile.isLocked = true
        profile.activeFocusID = focus(.sleep, in: &profile, fallback: .sleep)
      }
    case "work":
      return preset("Work Focus") { profile in
        profile.isLocked = true
        profile.activeFocusID = focus(.work, in: &profile, fallback: FocusMode(id: "work", name: "Work", kind: .work))
      }
    case "summary":
      return preset("Scheduled Summary") { profile in
        profile.isLocked = true
        profile.activeFocusID = nil
        for index in profile.apps.indices { profile.apps[index].settings.delivery = .scheduledSummary }
        // And every app a capture or payload installs on first sight.
        profile.unknownAppDelivery = .scheduledSummary
        if profile.summaryTimes.isEmpty {
          profile.summaryTimes = [TimeOfDay(hour: 8, minute: 0), TimeOfDay(hour: 18, minute: 0)]
        }
      }
    case "provisional":
      return preset("Provisional") { profile in
        profile.isLocked = true
        profile.activeFocusID = nil
        for index in profile.apps.indices { profile.apps[index].authorization = .provisional }
        profile.unknownAppAuthorization = .provisional
      }
    default:
      guard Session.isScenario(name) else {
        throw UsageError(
          "--compare: \(name) is neither a preset (\(presetNames.joined(separator: ", "))) nor a profile file (.yaml)")
      }
      let loaded: DeviceProfile
      do throws(ScenarioError) {
        loaded = try ScenarioLoader().loadProfile(path: name)
      } catch {
        throw UsageError(error.description)
      }
      let base = name.split(separator: "/").last.map(String.init) ?? name
      return DeviceVariant(name: name, label: base) { inputs in
        // The file's device on the inputs' clock, so every column shows the same moment.
        var profile = loaded
        profile.start = inputs.start
        return profile
      }
    }
  }

  /// The id of the profile's Focus of a kind, adding the fallback when it has none.
  private static func focus(_ kind: FocusKind, in profile: inout DeviceProfile, fallback: FocusMode) -> String {
    if let existing = profile.focusModes.first(where: { $0.kind == kind }) { return existing.id }
    var mode = fallback
    while profile.focusModes.contains(where: { $0.id == mode.id }) { mode.id += "-compare" }
    profile.focusModes.append(mode)
    return mode.id
  }

  /// The state of this device for a session: its profile, the session's timeline.
  package func state(from session: AppState) -> AppState {
    AppState(device: DeviceSimulator(profile: apply(session.initialDevice.profile)), timeline: Array(session.timeline))
  }
}

import Foundation
import PushCore
import PushMockup
import PushRender
import PushUI

/// The screens `render` draws: the lock screen or Notification Center.
package enum ScreenName: String, CaseIterable, Sendable {
  case lock, center
}

/// The structured state of a screen, as `render --format json` prints it.
package enum ScreenJSON {
  package static func render(_ state: AppState, screen: ScreenName) -> String {
    let device = state.device
    let offset = device.profile.utcOffsetSeconds
    func iso(_ instant: SimInstant) -> String { JSONValue.quoted(CivilTime.iso8601(instant, utcOffsetSeconds: offset)) }
    func text(_ value: String?) -> String { value.map(JSONValue.quoted) ?? "null" }
    /// What the activity's card shows (its layout applied to the latest content-state).
    func faceJSON(_ face: LiveActivityFace) -> String {
      "\"face\":{\"title\":\(JSONValue.quoted(face.title)),\"detail\":\(text(face.detail)),"
        + "\"progress\":\(face.progress.map { String($0) } ?? "null"),\"time\":\(face.time.map(iso) ?? "null")}"
    }
    let groups = screen == .lock ? state.lockScreenGroups() : device.store.rankedGroups()
    var json = "{\"screen\":\"\(screen.rawValue)\",\"at\":\(iso(device.now)),\"locked\":\(device.isLocked)"
    json +=
      ",\"focus\":\(text(device.activeFocus?.name)),\"notifications\":\(groups.reduce(0) { $0 + $1.notifications.count })"
    json +=
      ",\"badges\":{"
      + device.badges.sorted { $0.key < $1.key }.map { "\(JSONValue.quoted($0.key)):\($0.value)" }
      .joined(separator: ",") + "}"
    json +=
      ",\"liveActivities\":["
      + device.liveActivities.map { activity in
        "{\"bundle\":\(JSONValue.quoted(activity.bundleID)),\"type\":\(JSONValue.quoted(activity.attributesType)),"
          + "\"title\":\(text(activity.title)),\"body\":\(text(activity.body)),\"stale\":\(activity.isStale(at: device.now)),"
          + "\"ended\":\(activity.endedAt != nil),\"contentState\":\(activity.contentState?.compactText ?? "null"),"
          + "\"channel\":\(text(activity.channelID)),\"pushToken\":\(text(activity.pushToken)),"
          + faceJSON(activity.face(layout: device.app(activity.bundleID)?.liveActivityLayouts[activity.attributesType]))
          + "}"
      }.joined(separator: ",") + "]"
    json += ",\"displayAs\":\"\(device.profile.lockScreenDisplay.rawValue)\""
    json += ",\"groups\":["
    for (index, group) in groups.enumerated() {
      if index > 0 { json += "," }
      let app = device.app(group.key.bundleID)?.info ?? AppInfo.inferred(from: group.key.bundleID)
      json +=
        "{\"rank\":\(index + 1),\"group\":\(JSONValue.quoted(group.key.description)),\"bundle\":\(JSONValue.quoted(app.bundleID))"
      json +=
        ",\"app\":\(JSONValue.quoted(app.displayName)),\"thread\":\(text(group.key.thread)),\"count\":\(group.notifications.count)"
      json += ",\"notifications\":["
      json += group.notifications.map { stored in
        let shown = state.displayed(stored)
        return "{\"id\":\"\(stored.id)\",\"at\":\(iso(stored.notification.receivedAt)),\"title\":\(text(shown.title))"
          + ",\"subtitle\":\(text(shown.subtitle)),\"body\":\(text(shown.body)),\"level\":\"\(stored.decision.effectiveLevel.rawValue)\""
          + ",\"disposition\":\"\(stored.decision.disposition.rawValue)\",\"previewsHidden\":\(state.previewsHidden(stored))"
          + ",\"score\":\(stored.rank.score)}"
      }.joined(separator: ",")
      json += "]}"
    }
    return json + "]}"
  }
}

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
    func iso(_ instant: SimInstant) -> String { CivilTime.iso8601(instant, utcOffsetSeconds: offset) }
    let groups = screen == .lock ? state.lockScreenGroups() : device.store.rankedGroups()
    var json = JSONWriter(capacity: 4096)
    json.beginObject()
    json.member("screen", screen.rawValue)
    json.member("at", iso(device.now))
    json.member("locked", device.isLocked)
    json.member("focus", device.activeFocus?.name)
    json.member("notifications", groups.reduce(0) { $0 + $1.notifications.count })
    json.key("badges")
    json.beginObject()
    for (bundleID, count) in device.badges.sorted(by: { $0.key < $1.key }) { json.member(bundleID, count) }
    json.endObject()
    json.key("liveActivities")
    json.beginArray()
    for activity in device.liveActivities {
      json.beginObject()
      json.member("bundle", activity.bundleID)
      json.member("type", activity.attributesType)
      json.member("title", activity.title)
      json.member("body", activity.body)
      json.member("stale", activity.isStale(at: device.now))
      json.member("ended", activity.endedAt != nil)
      json.member("contentState", activity.contentState)
      json.member("channel", activity.channelID)
      json.member("pushToken", activity.pushToken)
      // What the activity's card shows (its layout applied to the latest content-state).
      let face = activity.face(layout: device.app(activity.bundleID)?.liveActivityLayouts[activity.attributesType])
      json.key("face")
      json.beginObject()
      json.member("title", face.title)
      json.member("detail", face.detail)
      json.member("progress", face.progress)
      json.member("time", face.time.map(iso))
      json.endObject()
      json.endObject()
    }
    json.endArray()
    json.member("displayAs", device.profile.lockScreenDisplay.rawValue)
    json.key("groups")
    json.beginArray()
    for (index, group) in groups.enumerated() {
      let app = device.app(group.key.bundleID)?.info ?? AppInfo.inferred(from: group.key.bundleID)
      json.beginObject()
      json.member("rank", index + 1)
      json.member("group", group.key.description)
      json.member("bundle", app.bundleID)
      json.member("app", app.displayName)
      json.member("thread", group.key.thread)
      json.member("count", group.notifications.count)
      json.key("notifications")
      json.beginArray()
      for stored in group.notifications {
        let shown = state.displayed(stored)
        json.beginObject()
        json.member("id", stored.id.description)
        json.member("at", iso(stored.notification.receivedAt))
        json.member("title", shown.title)
        json.member("subtitle", shown.subtitle)
        json.member("body", shown.body)
        json.member("level", stored.decision.effectiveLevel.rawValue)
        json.member("disposition", stored.decision.disposition.rawValue)
        json.member("previewsHidden", state.previewsHidden(stored))
        json.member("score", stored.rank.score)
        json.endObject()
      }
      json.endArray()
      json.endObject()
    }
    json.endArray()
    json.endObject()
    return json.text
  }
}

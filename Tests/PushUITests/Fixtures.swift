import PushCore
import PushTestSupport
import PushUI

/// The demo device as it opens, without the pushes still to come.
func demoState() -> AppState { AppState.demo(upcoming: false) }

/// A push read from payload text, as a file would be.
func push(_ json: String, bundle: String = "com.example.app") -> DeviceEvent {
  .push(PushReader.readPayloadFile(Array(json.utf8), source: "test.json", format: .payload, bundleID: bundle))
}

/// The scale tests' timeline: one push every 3 seconds from `start` over a chat, a mail and a
/// news app, spread over days so that summaries are released, a collapse id on every fifth push
/// so notifications are replaced, and (with `badges`) a badge on each.
func scaleTimeline(pushes count: Int, from start: SimInstant, badges: Bool) -> [TimelineEntry] {
  let apps = ["com.example.chat", "com.example.mail", "com.example.news"]
  var entries: [TimelineEntry] = []
  entries.reserveCapacity(count)
  for index in 0..<count {
    let collapse = index % 5 == 0 ? #","headers":{"apns-collapse-id":"c\#(index % 50)"}"# : ""
    let badge = badges ? #","badge":\#(index % 4)"# : ""
    let line =
      #"{"at":\#(start.epochSeconds + Double(index * 3)),"bundle":"\#(apps[index % 3])"\#(collapse),"payload":{"aps":{"alert":{"title":"T\#(index)","body":"B"},"thread-id":"t\#(index % 7)"\#(badge)}}}"#
    let record = PushReader.readCaptureLine(Array(line.utf8), lineNumber: index + 1, source: "scale.jsonl")
    entries.append(TimelineEntry(at: start + .seconds(Int64(index * 3)), event: .push(record)))
  }
  return entries
}

/// The scale tests' phone, unlocked: a chat app with temporary banners, a mail app with
/// persistent ones (which never leave on their own), a news app on Scheduled Summary at
/// `summaryTimes`, and room for `maxStored` notifications.
func scaleProfile(start: SimInstant, summaryTimes: [TimeOfDay], maxStored: Int) -> DeviceProfile {
  var profile = DeviceProfile(start: start, isLocked: false)
  profile.summaryTimes = summaryTimes
  var mail = AppProfile(info: .inferred(from: "com.example.mail"))
  mail.settings.bannerStyle = .persistent
  var news = AppProfile(info: .inferred(from: "com.example.news"))
  news.settings.delivery = .scheduledSummary
  profile.apps = [AppProfile(info: .inferred(from: "com.example.chat")), mail, news]
  profile.maxStoredNotifications = maxStored
  return profile
}

/// A state that journals what it plays (`run --state`: ``AppState/journalsChanges``) over the
/// scale timeline with badges, on a phone with room for every push.
func journallingScaleState(pushes count: Int) -> AppState {
  let start = DemoScenario.start
  var profile = DeviceProfile(start: start, isLocked: false)
  profile.maxStoredNotifications = 1_000_000
  var state = AppState(
    device: DeviceSimulator(profile: profile), timeline: scaleTimeline(pushes: count, from: start, badges: true))
  state.journalsChanges = true
  return state
}

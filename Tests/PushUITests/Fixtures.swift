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

import PushCore
import PushTestSupport
import PushUI

/// The demo device as it opens, without the pushes still to come.
func demoState() -> AppState { AppState.demo(upcoming: false) }

/// A push read from payload text, as a file would be.
func push(_ json: String, bundle: String = "com.example.app") -> DeviceEvent {
  .push(PushReader.readPayloadFile(Array(json.utf8), source: "test.json", format: .payload, bundleID: bundle))
}

import PushCore
import Testing

@testable import PushUI

/// A push that `run --listen`'s endpoint refuses never reaches the device, but it is not hidden:
/// a toast names the status and reason, and the status line's count keeps it after the toast
/// has gone.
@Suite("Endpoint refusals")
struct EndpointRefusalTests {
  @Test func aRefusalIsToastedAndCounted() {
    var state = AppState(device: DeviceSimulator(profile: .standard(start: DemoScenario.start)))
    #expect(state.rejectedCount == 0)
    state.noteEndpointRefusal(status: 400, reason: "BadDeviceToken", app: "com.example.chat")
    #expect(state.toast?.text == "✗ Refused on the endpoint: 400 BadDeviceToken (com.example.chat)")
    state.noteEndpointRefusal(status: 413, reason: "PayloadTooLarge", app: nil)
    #expect(state.toast?.text == "✗ Refused on the endpoint: 413 PayloadTooLarge")
    #expect(state.rejectedCount == 2)
    // Nothing reached the device.
    #expect(state.device.store.count == 0)
  }
}

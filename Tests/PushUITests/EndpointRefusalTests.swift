import PushCore
import Testing

@testable import PushUI

/// A push that `run --listen`'s endpoint refuses never reaches the device, but it is not hidden:
/// a toast names the status and reason, the status line's count keeps it after the toast has
/// gone, and `r` shows it with what was sent, among the device's own rejections.
@Suite("Endpoint refusals")
struct EndpointRefusalTests {
  static func refusal(_ status: Int, _ reason: String, app: String? = nil, body: String = "{}") -> EndpointRefusal {
    EndpointRefusal(
      status: status, reason: reason, app: app, path: "/3/device/ab",
      headers: [.init(name: "apns-topic", value: app ?? "")], body: body, bodyByteCount: body.utf8.count)
  }

  @Test func aRefusalIsToastedCountedAndKept() {
    var state = AppState(device: DeviceSimulator(profile: .standard(start: DemoScenario.start)))
    #expect(state.rejectedCount + state.refusedCount == 0)
    state.noteEndpointRefusal(Self.refusal(400, "BadDeviceToken", app: "com.example.chat"))
    #expect(state.toast?.text == "✗ Refused on the endpoint: 400 BadDeviceToken (com.example.chat) · r inspects")
    state.noteEndpointRefusal(Self.refusal(413, "PayloadTooLarge"))
    #expect(state.toast?.text == "✗ Refused on the endpoint: 413 PayloadTooLarge · r inspects")
    #expect(state.refusedCount == 2)
    #expect(state.endpointRefusal(1)?.reason == "PayloadTooLarge")
    #expect(state.endpointRefusal(1)?.at == state.now)
    // Nothing reached the device.
    #expect(state.device.store.count == 0)
    #expect(state.rejectedCount == 0)
  }

  /// `r` walks back through the device's rejections and the endpoint's refusals in the order
  /// they happened, and wraps to the newest.
  @Test func rWalksBackThroughRejectionsAndRefusalsInTheirOrder() throws {
    var state = AppState(device: DeviceSimulator(profile: .standard(start: DemoScenario.start)))
    state.noteEndpointRefusal(Self.refusal(400, "MissingTopic"))
    state.applyNow(push("not json"))
    state.noteEndpointRefusal(Self.refusal(400, "BadDeviceToken"))
    let rejectedIndex = try #require(state.rejections.last)
    #expect(state.rejectedPushes == [.refusal(0), .record(rejectedIndex), .refusal(1)])
    _ = reduce(into: &state, .command(.inspectRejected))
    #expect(state.inspectedRejection == .refusal(1))
    _ = reduce(into: &state, .command(.inspectRejected))
    #expect(state.inspectedRejection == .record(rejectedIndex))
    _ = reduce(into: &state, .command(.inspectRejected))
    #expect(state.inspectedRejection == .refusal(0))
    _ = reduce(into: &state, .command(.inspectRejected))
    #expect(state.inspectedRejection == .refusal(1))
  }

  /// A seek back replays the device; a refusal never reached it and stays.
  @Test func aSeekBackKeepsTheRefusals() {
    var state = AppState(device: DeviceSimulator(profile: .standard(start: DemoScenario.start)))
    state.noteEndpointRefusal(Self.refusal(403, "InvalidProviderToken"))
    state.rebuild(upTo: state.now)
    #expect(state.refusedCount == 1)
    #expect(state.rejectedPushes == [.refusal(0)])
  }

  /// A flood keeps the newest refusals, numbered as they came, and counts every one.
  @Test func aFloodKeepsTheNewest() {
    var state = AppState(device: DeviceSimulator(profile: .standard(start: DemoScenario.start)))
    let total = AppState.refusalLimit + 10
    for n in 0..<total { state.noteEndpointRefusal(Self.refusal(400, "BadRequest", body: "\(n)")) }
    #expect(state.refusedCount == total)
    // The 501st trims to the newest 250 (numbers 251 to 500); nine more follow.
    #expect(state.endpointRefusals.count == 259)
    #expect(state.endpointRefusal(250) == nil)
    #expect(state.endpointRefusal(251)?.body == "251")
    #expect(state.endpointRefusal(total - 1)?.body == "\(total - 1)")
    #expect(state.rejectedPushes.count == 259)
    #expect(state.rejectedPushes.last == .refusal(total - 1))
    // Those the inbox could not keep in a flood are counted too.
    state.countEndpointRefusals(notKept: 40)
    #expect(state.refusedCount == total + 40)
  }
}

import PushCore
import Testing

/// A Live Activity drawn from its content-state, with and without the app's layout.
@Suite("Live Activity faces")
struct LiveActivityFaceTests {
  func number(_ value: Int) -> JSONValue { .number(JSONNumber(value)) }

  func activity(status: String, eta: Int, courier: String?) -> LiveActivity {
    LiveActivity(
      bundleID: "com.example.food", attributesType: "DeliveryAttributes",
      attributes: .object([JSONMember(key: "orderNumber", value: .string("5821"))]),
      contentState: .object([
        JSONMember(key: "status", value: .string(status)), JSONMember(key: "etaMinutes", value: number(eta)),
        JSONMember(key: "courier", value: courier.map(JSONValue.string) ?? .null),
      ]),
      title: "Order 5821", body: "Preparing · arriving around 7:15 PM", startedAt: SimInstant(milliseconds: 0),
      lastTimestamp: 1_795_477_925)
  }

  let layout = LiveActivityLayout(
    title: LiveActivityText("{status} · Order {orderNumber}"), detail: LiveActivityText("Courier: {courier} · {eta}"),
    progress: LiveActivityProgress(key: "etaMinutes", from: 35, to: 0),
    time: LiveActivityTime(key: "etaMinutes", unit: .minutes))

  @Test func theLayoutDrawsTheLatestContentStateNotTheStartAlert() {
    let face = activity(status: "pickedUp", eta: 18, courier: "Kenji").face(layout: layout)
    #expect(face.title == "Picked up · Order 5821")
    #expect(face.detail == "Courier: Kenji")  // {eta} is not a key: its part is left out
    #expect(face.progress.map { abs($0 - 17.0 / 35.0) < 1e-9 } == true)
    #expect(face.time == SimInstant(epochSeconds: 1_795_477_925 + 18 * 60))
  }

  @Test func aNullValueDropsItsPart() {
    let face = activity(status: "preparing", eta: 35, courier: nil).face(layout: layout)
    #expect(face.title == "Preparing · Order 5821")
    #expect(face.detail == nil)
    #expect(face.progress == 0)
  }

  @Test func withoutALayoutTheStateReadsAsHumanisedPairs() {
    let face = activity(status: "pickedUp", eta: 18, courier: "Kenji").face(layout: nil)
    #expect(face.title == "Delivery")
    #expect(face.detail == "Status: Picked up · Eta minutes: 18 · Courier: Kenji")
    #expect(face.progress == nil && face.time == nil)
  }

  @Test func datesAreReadAsActivityKitDecodesThem() {
    let date = LiveActivityTime(key: "at", unit: .date)
    #expect(date.instant(0, timestamp: 5) == SimInstant(epochSeconds: 978_307_200))
    #expect(
      LiveActivityTime(key: "at", unit: .unixSeconds).instant(1_795_477_925, timestamp: 0)
        == SimInstant(epochSeconds: 1_795_477_925))
    #expect(LiveActivityTime(key: "at", unit: .seconds).instant(30, timestamp: 100) == SimInstant(epochSeconds: 130))
    #expect(date.instant(.infinity, timestamp: 0) == nil)
  }

  @Test func valuesAndKeysReadAsWords() {
    #expect(LiveActivityValues.humanise("etaMinutes") == "Eta minutes")
    #expect(LiveActivityValues.humanise("picked_up") == "Picked up")
    #expect(LiveActivityValues.humanise("ETA") == "ETA")
    #expect(LiveActivityValues.text(.string("McDonald's")) == "McDonald's")
    #expect(LiveActivityValues.text(.string("outForDelivery")) == "Out for delivery")
    #expect(LiveActivityValues.text(.bool(true)) == "Yes")
    #expect(LiveActivityValues.text(.null) == nil)
    #expect(LiveActivityValues.typeTitle("RideActivityAttributes") == "Ride")
    #expect(LiveActivityValues.typeTitle("Attributes") == "Attributes")
  }
}

@Suite("Plural formats")
struct PluralFormatTests {
  @Test func oneAndOtherFormsFollowTheCount() {
    let format = PluralFormat(one: "%u new message", other: "%u new messages")
    #expect(format.format(1) == "1 new message")
    #expect(format.format(0) == "0 new messages")
    #expect(format.format(12) == "12 new messages")
    let plain: PluralFormat = "%u more · 100%%"
    #expect(plain.format(1) == "1 more · 100%")
    #expect(PluralFormat.counted(1, "more notification") == "1 more notification")
    #expect(PluralFormat.counted(2, "more notification") == "2 more notifications")
    #expect(PluralFormat.counted(1, "story", plural: "stories") == "1 story")
  }

  /// The count in the forms iOS formats accept (`%lu`, `%ld`, `%i`, `%1$u` were printed as
  /// written), `%%` as `%`, and what has no argument (`%@`, `%2$u`) kept as written.
  @Test func placeholdersAreReadAsIOSReadsThem() {
    func format(_ text: String, _ count: Int = 3) -> String { PluralFormat(other: text).format(count) }
    #expect(format("%u more") == "3 more")
    #expect(format("%lu more, %ld, %i, %d, %llu, %zu, %hu") == "3 more, 3, 3, 3, 3, 3, 3")
    #expect(format("%1$u more · %1$lu") == "3 more · 3")
    #expect(format("%%u is 100%%") == "%u is 100%")
    #expect(format("%u more from %@") == "3 more from %@")
    #expect(format("%1$@: %2$u more") == "%1$@: %2$u more")
    #expect(format("%99999999999999999999$u and %01$u") == "%99999999999999999999$u and 3")
    #expect(format("50% off, %x, %s, %") == "50% off, %x, %s, %")
    #expect(format("%\u{301}u é%u", 1) == "%\u{301}u é1")
  }
}

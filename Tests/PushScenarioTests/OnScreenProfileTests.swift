import PushCore
import PushTestSupport
import Testing

@testable import PushScenario

/// The profile keys behind what the lock screen draws: Display As, Live Activity layouts,
/// plural formats and Focus kinds, each read and each mistake located.
@Suite("On-screen profile keys")
struct OnScreenProfileTests {
  let files = ScenarioFiles.memory([:])

  func load(_ text: String) throws -> DeviceProfile {
    try ScenarioLoader(files: files).loadProfile(text: text, file: "p.yaml")
  }

  func error(_ text: String) -> String {
    do {
      _ = try load(text)
      return "no error"
    } catch {
      return (error as? ScenarioError)?.description ?? "\(error)"
    }
  }

  @Test func displayAsIsReadAndDefaultsToList() throws {
    #expect(try load("locked: true").lockScreenDisplay == .list)
    #expect(try load("displayAs: count").lockScreenDisplay == .count)
    #expect(try load("displayAs: stack").lockScreenDisplay == .stack)
    #expect(
      error("displayAs: pile")
        == #"p.yaml:1:12: displayAs: expected one of count, stack, list, got "pile""#)
  }

  @Test func liveActivityLayoutsAreReadByAttributesType() throws {
    let profile = try load(
      """
      apps:
        - bundle: com.example.food
          liveActivities:
            DeliveryAttributes:
              title: "{status} · Order {orderNumber}"
              detail: courier
              progress: {key: etaMinutes, from: 35, to: 0}
              time: {key: etaMinutes, as: minutes}
            RideAttributes:
              progress: fraction
              time: arrival
      """)
    let layouts = try #require(profile.apps.first).liveActivityLayouts
    let delivery = try #require(layouts["DeliveryAttributes"])
    #expect(delivery.title?.keys == ["status", "orderNumber"])
    #expect(delivery.detail == LiveActivityText("courier"))
    #expect(delivery.progress == LiveActivityProgress(key: "etaMinutes", from: 35, to: 0))
    #expect(delivery.time == LiveActivityTime(key: "etaMinutes", unit: .minutes))
    let ride = try #require(layouts["RideAttributes"])
    #expect(ride.progress == LiveActivityProgress(key: "fraction", from: 0, to: 1))
    #expect(ride.time == LiveActivityTime(key: "arrival", unit: .date))
  }

  @Test func badLiveActivityKeysAreLocated() {
    let head = "apps:\n  - bundle: a.b\n    liveActivities:\n      T:\n"
    #expect(
      error(head + "        titel: status").hasPrefix(
        #"p.yaml:5:9: apps[0].liveActivities.T.titel: unknown key "titel" (did you mean "title"?)"#))
    #expect(
      error(head + "        title: \"{status\"").hasPrefix("p.yaml:5:16: apps[0].liveActivities.T.title: unbalanced"))
    #expect(
      error(head + "        progress: {key: eta, from: 5, to: 5}").hasPrefix(
        "p.yaml:5:19: apps[0].liveActivities.T.progress: from and to are both 5.0"))
    #expect(
      error(head + "        progress: {key: eta, to: lots}")
        == #"p.yaml:5:34: apps[0].liveActivities.T.progress.to: expected a number from -1e12 to 1e12, got "lots""#)
    #expect(
      error(head + "        time: {key: eta, as: hours}").hasPrefix(
        #"p.yaml:5:30: apps[0].liveActivities.T.time.as: expected one of date, unixSeconds, minutes, seconds"#))
  }

  @Test func pluralFormatsAreReadAsOneAndOther() throws {
    let profile = try load(
      """
      apps:
        - bundle: a.b
          categories:
            - id: M
              hiddenPreviewsPlaceholder: {one: "%u new message", other: "%u new messages"}
              summaryFormat: "%u more"
      """)
    let category = try #require(profile.apps.first?.categories.first)
    #expect(category.hiddenPreviewsBodyPlaceholder?.format(1) == "1 new message")
    #expect(category.hiddenPreviewsBodyPlaceholder?.format(3) == "3 new messages")
    #expect(category.summaryFormat?.format(1) == "1 more")
    #expect(
      error("apps:\n  - bundle: a.b\n    categories:\n      - id: M\n        summaryFormat: {one: x}").hasPrefix(
        #"p.yaml:5:24: apps[0].categories[0].summaryFormat: missing "other""#))
  }

  @Test func everyFocusKindHasItsNameAndIcon() throws {
    let profile = try load(
      """
      focusModes:
        - {id: gym, kind: fitness}
        - {id: play, kind: gaming}
        - {id: calm, kind: mindfulness}
        - {id: book, kind: reading}
      """)
    let names = profile.focusModes.map(\.name)
    #expect(names.suffix(4) == ["Fitness", "Gaming", "Mindfulness", "Reading"])
    #expect(Set(FocusKind.allCases.map(\.glyph)).count == FocusKind.allCases.count)
    #expect(FocusKind.allCases.allSatisfy { !$0.glyph.isEmpty && $0.glyph != "☾" })
  }
}

import Foundation
import PushTestSupport
import Testing

/// The examples as a user renders them: what the lock screen shows from each example's profile.
@Suite(.requires(PushdeckProcess.binary != nil, "the pushdeck binary was not built"))
struct OnScreenCLITests {
  static let root = Corpus.repositoryRoot()

  func render(_ example: String, at time: String, extra: [String] = []) throws -> String {
    let result = try PushdeckProcess.run(
      ["render", "Examples/\(example)", "--at", time, "--size", "80x30"] + extra, directory: Self.root)
    #expect(result.status == 0, "\(result.standardError)")
    return result.standardOutput
  }

  @Test func theFoodDeliveryActivityShowsItsLatestStateAsItsLayoutSays() throws {
    let early = try render("food-delivery.yaml", at: "+1m")
    #expect(early.contains("Preparing · Order 5821") && early.contains("Ramen Ichiban"))
    // At +13m only an update without an alert has come: the card follows it.
    let picked = try render("food-delivery.yaml", at: "+13m")
    #expect(picked.contains("Picked up · Order 5821"))
    #expect(picked.contains("Courier: Kenji · Ramen Ichiban"))
    #expect(picked.contains("in 17 min"))
    #expect(!picked.contains("Preparing"))
    let ended = try render("food-delivery.yaml", at: "+31m")
    #expect(ended.contains("Ended") && ended.contains("Delivered · Order 5821"))
  }

  @Test func renderJSONCarriesWhatTheActivityCardShows() throws {
    let json = try render("food-delivery.yaml", at: "+13m", extra: ["--format", "json"])
    #expect(json.contains(#""face":{"title":"Picked up · Order 5821","detail":"Courier: Kenji · Ramen Ichiban""#))
    #expect(json.contains(#""displayAs":"list""#))
  }

  @Test func aCriticalAlertUnderDoNotDisturbIsLabelledCritical() throws {
    let screen = try render("health-critical-dnd.yaml", at: "+17m")
    #expect(screen.contains("🌙 Do Not Disturb"))
    #expect(screen.contains("Critical Alert"))
    #expect(screen.contains("Urgent low glucose"))
  }

  @Test func theMessagingStacksUseTheirSummaryFormat() throws {
    let screen = try render("messaging.yaml", at: "+10m")
    #expect(screen.contains("2 more messages"))
    #expect(screen.contains(" AS  Ana Sousa"))
  }
}

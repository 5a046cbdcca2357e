import Foundation
import PushTestSupport
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// `pushdeck render`: frames at a simulated time, in every format, without a terminal.
@Suite(.requires(PushdeckProcess.binary != nil, "the pushdeck binary was not built"))
struct RenderCLITests {
  let examples = Corpus.repositoryRoot().appendingPathComponent("Examples")

  func render(_ arguments: [String], input: Data? = nil) throws -> PushdeckProcess.Output {
    try PushdeckProcess.run(["render"] + arguments, input: input, directory: Corpus.repositoryRoot())
  }

  @Test func jsonGivesTheLockScreenStacksInRankOrder() throws {
    let output = try render(["Examples/messaging.yaml", "--at", "+3m", "--format", "json"])
    #expect(output.status == 0, "\(output.standardError)")
    let state = try #require(try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any])
    #expect(state["screen"] as? String == "lock")
    #expect(state["at"] as? String == "2026-11-23T12:05:00Z")
    let groups = try #require(state["groups"] as? [[String: Any]])
    #expect(
      groups.map { $0["group"] as? String } == ["com.example.chatter#group-family", "com.example.chatter#dm-ana"])
    #expect(groups.first?["count"] as? Int == 2)
    let newest = (groups.first?["notifications"] as? [[String: Any]])?.first
    #expect(newest?["body"] as? String == "Marta: I'll bring the pastéis de nata")
  }

  /// `-o FILE` writes every format to the file, byte for byte what standard output would get.
  @Test(arguments: ["text", "json", "svg", "ansi"])
  func outputGoesToTheFileInEveryFormat(_ format: String) throws {
    let file = NSTemporaryDirectory() + "pushdeck-render-\(UUID().uuidString).\(format)"
    defer { try? FileManager.default.removeItem(atPath: file) }
    let arguments = ["Examples/messaging.yaml", "--at", "+3m", "--format", format]
    let written = try render(arguments + ["-o", file])
    #expect(written.status == 0, "\(written.standardError)")
    #expect(written.standardOutput.isEmpty)
    let printed = try render(arguments)
    #expect(try String(contentsOfFile: file, encoding: .utf8) == printed.standardOutput)
    #expect(!printed.standardOutput.isEmpty)
  }

  /// Activities subscribed to a broadcast channel say so on their card, and the JSON names the
  /// channel (and the activity's own push token) for each.
  @Test func liveActivitiesShowTheChannelTheirUpdatesComeThrough() throws {
    let text = try render(["Examples/broadcast-scores.yaml", "--at", "+25m"])
    #expect(text.status == 0, "\(text.standardError)")
    #expect(text.standardOutput.components(separatedBy: "Live · channel").count - 1 == 2)
    let json = try render(["Examples/broadcast-scores.yaml", "--at", "+25m", "--format", "json"])
    #expect(json.status == 0, "\(json.standardError)")
    #expect(json.standardOutput.components(separatedBy: "\"channel\":\"bWF0Y2gtNDItbGl2ZQ==\"").count - 1 == 2)
    #expect(json.standardOutput.contains("\"pushToken\":\""))
  }

  @Test func atTakesTimesOfDayAndIsoTimes() throws {
    let early = try render(["Examples/messaging.yaml", "--at", "12:03:30", "--format", "json"])
    #expect(early.status == 0, "a time of day with seconds is in the one time grammar")
    #expect(early.standardOutput.contains("12:03:30"))
    let ofDay = try render(["Examples/messaging.yaml", "--at", "12:04", "--format", "json"])
    let iso = try render(["Examples/messaging.yaml", "--at", "2026-11-23T12:04:00Z", "--format", "json"])
    #expect(ofDay.status == 0)
    #expect(ofDay.standardOutput == iso.standardOutput)
    #expect(ofDay.standardOutput.contains(#""notifications":3"#))
  }

  @Test func centerScreenListsEveryStoredGroup() throws {
    let output = try render(["Examples/news-summary.yaml", "--screen", "center", "--format", "json"])
    #expect(output.status == 0)
    #expect(output.standardOutput.hasPrefix(#"{"screen":"center""#))
  }

  @Test func svgIsWellFormedAndEscapesPayloadText() throws {
    let directory = try PushdeckProcess.temporaryDirectory()
    let payload = directory.appendingPathComponent("evil.json")
    try
      #"{"aps": {"alert": {"title": "<script>alert(1)</script> & \u001b]52;c;eA==\u0007", "body": "Tom & Jerry's \"show\""}}}"#
      .write(to: payload, atomically: true, encoding: .utf8)
    let output = try render([
      payload.path, "--bundle", "com.evil.app", "--profile", "unlocked", "--format", "svg", "--size", "80x24",
    ])
    #expect(output.status == 0, "\(output.standardError)")
    let svg = output.standardOutput
    #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
    #expect(!svg.contains("<script"))
    #expect(!svg.contains("\u{1B}") && !svg.contains("\u{07}"))
    #expect(svg.contains("&lt;"))
    let parser = XMLParser(data: Data(svg.utf8))
    #expect(parser.parse(), "the SVG parses as XML")
  }

  @Test func ansiHasColourAndNoPayloadEscapes() throws {
    let output = try render(["--format", "ansi", "--size", "60x20"])
    #expect(output.status == 0)
    #expect(output.standardOutput.contains("\u{1B}[0;"))
    #expect(output.standardOutput.contains("Messages"))
  }

  @Test func badTimesAndProfilesAreUsageErrors() throws {
    #expect(try render(["--at", "tomorrowish"]).status == 2)
    #expect(try render(["Examples/messaging.yaml", "--profile", "nope"]).status == 2)
  }

  /// A usage error that a subcommand's run() finds names that subcommand's usage and help, as
  /// one ArgumentParser finds does: it printed "Usage: pushdeck <subcommand>" and "See 'pushdeck
  /// --help'", neither of which tells what --size or --at take.
  @Test func aUsageErrorFoundWhileRunningNamesTheSubcommandsUsage() throws {
    for arguments in [["--size", "0x0"], ["--at", "25:00"]] {
      let output = try render(arguments)
      #expect(output.status == 2)
      let lines = output.standardError.split(separator: "\n").map(String.init)
      #expect(lines.first?.hasPrefix("Error: --\(arguments[0].dropFirst(2)) ") == true, "\(output.standardError)")
      #expect(lines.contains("Usage: pushdeck render [<options>] [<inputs> ...]"), "\(output.standardError)")
      #expect(lines.contains("  See 'pushdeck render --help' for more information."), "\(output.standardError)")
    }
  }

  /// A size below the smallest screen the front end draws (40×12) is refused, not answered
  /// with a frame that holds only "Terminal too small" and exit 0.
  @Test func aSizeBelowTheSmallestScreenIsAUsageError() throws {
    for size in ["39x24", "80x11", "1x1"] {
      let output = try render(["--size", size])
      #expect(output.status == 2, "\(size): \(output.standardOutput)")
      #expect(output.standardError.contains("40 to 1000 columns and 12 to 1000 rows"), "\(output.standardError)")
      #expect(!output.standardOutput.contains("Terminal too small"))
    }
    let backwards = try render(["--advance=-1"])
    #expect(backwards.status == 2 && backwards.standardError.contains("--advance moves the clock forward"))
    let least = try render(["--size", "40x12"])
    #expect(
      least.status == 0 && least.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).count >= 12)
  }

  /// `--at -30s` reaches the time check, which says why it cannot be (the frame would come before
  /// the device starts), instead of ArgumentParser's "Missing value for '--at <at>'"; and a time
  /// `--at` cannot read is not answered with a list that offers `-30s`.
  @Test func aNegativeAtIsReadAsATimeAndNoFormListOffersOne() throws {
    let negative = try render(["--at", "-30s"])
    #expect(negative.status == 2)
    #expect(negative.standardError.contains("--at -30s is before the device starts"), "\(negative.standardError)")
    #expect(!negative.standardError.contains("Missing value"), "\(negative.standardError)")
    let unreadable = try render(["--at", "25:00"])
    #expect(unreadable.status == 2)
    #expect(unreadable.standardError.contains("from the device's start, not 25:00"), "\(unreadable.standardError)")
    #expect(!unreadable.standardError.contains("-30s"), "\(unreadable.standardError)")
  }

  /// At the smallest size, with a Focus line, a Live Activity and a summary above the stacks,
  /// the selected stack's card is drawn: no card at all was.
  @Test func theSmallestLockScreenDrawsACard() throws {
    let output = try PushdeckProcess.run(["render", "--size", "40x12", "--at", "10:47:30"])
    #expect(output.status == 0, "\(output.standardError)")
    #expect(output.standardOutput.contains("╭─") && output.standardOutput.contains("╰─"), "\(output.standardOutput)")
    #expect(output.standardOutput.contains("Low glucose"))
  }
}

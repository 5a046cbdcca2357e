import Foundation
import PushTestSupport
import Testing

/// `render --style phone`, `storyboard` and `--compare`: the designer's pictures, as a user
/// makes them.
@Suite(.requires(PushdeckProcess.binary != nil, "the pushdeck binary was not built"))
struct MockupCLITests {
  func pushdeck(_ arguments: [String]) throws -> PushdeckProcess.Output {
    try PushdeckProcess.run(arguments, directory: Corpus.repositoryRoot())
  }

  func count(_ needle: String, in text: String) -> Int { text.components(separatedBy: needle).count - 1 }

  /// The bank example's timeline happens at 11 distinct moments.
  let bankMoments = 11

  @Test func renderStylePhoneDrawsThePhoneAsSVG() throws {
    let output = try pushdeck(["render", "Examples/bank-work-focus.yaml", "--style", "phone", "--format", "svg"])
    #expect(output.status == 0, "\(output.standardError)")
    #expect(output.standardOutput.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"393\" height=\"852\""))
    // At the end the phone is unlocked with the Work Focus off: the Home Screen.
    #expect(output.standardOutput.contains("data-surface=\"home-screen\""))
    #expect(output.standardOutput.contains(">Nordbank</text>"))
  }

  /// The mockup's Live Activity is the face the terminal draws: the profile's layout applied to
  /// the latest content-state (picked up by Kenji at +13m), not the start alert's text.
  @Test func thePhonesLiveActivityFollowsItsContentState() throws {
    let output = try pushdeck([
      "render", "Examples/food-delivery.yaml", "--at", "+13m", "--style", "phone", "--format", "svg",
    ])
    #expect(output.status == 0, "\(output.standardError)")
    #expect(output.standardOutput.contains(">Picked up · Order 5821</text>"))
    #expect(output.standardOutput.contains(">Courier: Kenji · Ramen Ichiban</text>"))
    #expect(output.standardOutput.contains("data-role=\"live-progress\""))
    #expect(output.standardOutput.contains(">in 17 min</text>"))
    #expect(!output.standardOutput.contains("Preparing"))
  }

  @Test func renderStylePhoneWritesAPNG() throws {
    let directory = try PushdeckProcess.temporaryDirectory()
    let file = directory.appendingPathComponent("lock.png")
    let output = try pushdeck([
      "render", "Examples/bank-work-focus.yaml", "--style", "phone", "--format", "png", "--profile", "locked",
      "--at", "+16m", "--scale", "1", "-o", file.path,
    ])
    #expect(output.status == 0, "\(output.standardError)")
    let png = try [UInt8](Data(contentsOf: file))
    #expect(Array(png.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
    func be(_ offset: Int) -> Int { png[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
    #expect(be(16) == 393 && be(20) == 852)
  }

  @Test func pngNeedsThePhoneStyleAndTerminalFormatsNeedTheTerminalStyle() throws {
    let png = try pushdeck(["render", "Examples/messaging.yaml", "--format", "png"])
    #expect(png.status != 0)
    #expect(png.standardError.contains("--style phone"))
    let text = try pushdeck(["render", "Examples/messaging.yaml", "--style", "phone", "--format", "text"])
    #expect(text.status != 0)
    let compare = try pushdeck(["render", "Examples/messaging.yaml", "--style", "phone", "--compare", "locked,nowhere"])
    #expect(compare.status != 0)
    #expect(compare.standardError.contains("nowhere is neither a preset"))
  }

  @Test func renderCompareDrawsAColumnPerDevice() throws {
    let output = try pushdeck([
      "render", "Examples/bank-work-focus.yaml", "--style", "phone", "--at", "+16m", "--compare",
      "unlocked,locked,work,sleep,summary",
    ])
    #expect(output.status == 0, "\(output.standardError)")
    let svg = output.standardOutput
    #expect(svg.contains("data-frames=\"5\""))
    #expect(count("data-frame=\"", in: svg) == 5)
    for label in ["Unlocked", "Locked", "Work Focus", "Sleep", "Scheduled Summary"] {
      #expect(svg.contains(">\(label) · "), "\(label)")
    }
  }

  @Test func aStoryboardHasAFramePerMomentCaptionedWithExplainsOutcome() throws {
    let output = try pushdeck(["storyboard", "Examples/bank-work-focus.yaml"])
    #expect(output.status == 0, "\(output.standardError)")
    let svg = output.standardOutput
    #expect(svg.contains("data-frames=\"\(bankMoments)\""))
    #expect(count("data-frame=\"", in: svg) == bankMoments)
    #expect(svg.contains("<title>Bank alerts under a Work Focus</title>"))
    #expect(svg.contains(">12:30 · Focus off</text>"))
    // The captions are explain's: the compare table prints the same words.
    let board = try pushdeck(["storyboard", "Examples/bank-work-focus.yaml", "--compare", "work"])
    let explain = try pushdeck(["explain", "Examples/bank-work-focus.yaml", "--compare", "work"])
    let outcomes = explain.standardOutput.split(separator: "\n").filter { $0.hasPrefix("  Work Focus  ") }
    #expect(outcomes.count == 9)
    for outcome in outcomes {
      // The caption's first line: the words up to where the sheet wraps them.
      let start = outcome.dropFirst("  Work Focus  ".count).prefix(24)
      #expect(board.standardOutput.contains("data-role=\"caption\">\(start)"), "\(start)")
    }
  }

  @Test func aComparedStoryboardHasARowPerDevice() throws {
    let output = try pushdeck(["storyboard", "Examples/bank-work-focus.yaml", "--compare", "locked,dnd,provisional"])
    #expect(output.status == 0, "\(output.standardError)")
    #expect(output.standardOutput.contains("data-frames=\"\(bankMoments * 3)\""))
    #expect(count("data-role=\"device\"", in: output.standardOutput) == 3)
  }

  @Test func theHTMLStoryboardStepsThroughTheMomentsOffline() throws {
    let output = try pushdeck(["storyboard", "Examples/bank-work-focus.yaml", "--format", "html"])
    #expect(output.status == 0, "\(output.standardError)")
    let html = output.standardOutput
    #expect(html.hasPrefix("<!doctype html>"))
    #expect(count("<section class=\"moment", in: html) == bankMoments)
    #expect(html.contains("ArrowLeft") && html.contains("ArrowRight"))
    #expect(!html.contains("http://") || !html.contains("src=\"http"))
  }

  @Test func storyboardsOfEveryExample() throws {
    let examples = try FileManager.default.contentsOfDirectory(
      atPath: Corpus.repositoryRoot().appendingPathComponent("Examples").path
    ).filter { $0.hasSuffix(".yaml") }
    #expect(examples.count >= 5)
    for example in examples {
      let output = try pushdeck(["storyboard", "Examples/\(example)"])
      #expect(output.status == 0, "\(example): \(output.standardError)")
      #expect(count("data-frame=\"", in: output.standardOutput) >= 1, "\(example)")
    }
  }

  @Test func explainCompareIsATableOfPushesByDevice() throws {
    let output = try pushdeck([
      "explain", "Examples/bank-work-focus.yaml", "--compare", "unlocked,work,summary", "--format", "json",
    ])
    #expect(output.status == 0, "\(output.standardError)")
    let lines = output.standardOutput.split(separator: "\n")
    #expect(lines.count == 9)
    let rows = try lines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
    let fraud = try #require(rows.first { $0["title"] as? String == "Was this you?" })
    let devices = try #require(fraud["devices"] as? [[String: Any]])
    #expect(devices.map { $0["device"] as? String } == ["unlocked", "work", "summary"])
    // Time-sensitive: through the Work Focus and past the summary.
    #expect(devices.allSatisfy { $0["disposition"] as? String == "delivered" })
    let marketing = try #require(rows.first { $0["title"] as? String == "Save 2% on your next holiday" })
    let held = try #require(marketing["devices"] as? [[String: Any]])
    #expect(held[2]["disposition"] as? String == "heldForSummary")
    let text = try pushdeck(["explain", "Examples/bank-work-focus.yaml", "--compare", "unlocked,work,summary"])
    #expect(text.standardOutput.contains("  Scheduled Summary  Held for the Scheduled Summary"))
  }

  @Test(
    .requires(
      FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium"),
      "chromium is not installed (apt-get install chromium)"))
  func chromiumShootsTheSVGAndEveryMomentOfTheHTML() throws {
    let directory = try PushdeckProcess.temporaryDirectory()
    let svg = directory.appendingPathComponent("lock.svg").path
    let html = directory.appendingPathComponent("board.html").path
    #expect(try pushdeck(["render", "Examples/messaging.yaml", "--style", "phone", "-o", svg]).status == 0)
    #expect(try pushdeck(["storyboard", "Examples/messaging.yaml", "--format", "html", "-o", html]).status == 0)
    let moments = count("data-moment=\"", in: try String(contentsOfFile: html, encoding: .utf8))
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    let script = Corpus.repositoryRoot().appendingPathComponent("docs/tools/look-in-chromium.sh").path
    let shots = directory.appendingPathComponent("shots").path
    process.arguments = [script, shots, svg, html]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    let lock = try [UInt8](Data(contentsOf: URL(fileURLWithPath: shots + "/lock.png")))
    func be(_ offset: Int) -> Int { lock[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
    #expect(Array(lock.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
    #expect(be(16) == 393 && be(20) == 852)
    let boards = try FileManager.default.contentsOfDirectory(atPath: shots).filter { $0.hasPrefix("board-") }
    #expect(moments >= 2)
    #expect(boards.count == moments)
  }
}

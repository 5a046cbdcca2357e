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

  /// Without `--format`, `-o FILE`'s extension chooses the format (a `.png` name got an SVG,
  /// a `.svg` name plain text, with status 0); a `--format` the name contradicts is refused.
  @Test func theOutputFilesExtensionChoosesTheFormat() throws {
    let directory = try PushdeckProcess.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    func written(_ name: String, _ arguments: [String]) throws -> [UInt8] {
      let file = directory.appendingPathComponent(name).path
      let output = try pushdeck(arguments + ["-o", file])
      #expect(output.status == 0, "\(arguments) -o \(name): \(output.standardError)")
      return try [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))
    }
    let phone = ["render", "Examples/messaging.yaml", "--style", "phone", "--scale", "0.5"]
    #expect(Array(try written("phone.png", phone).prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
    #expect(
      String(decoding: try written("frame.svg", ["render", "Examples/messaging.yaml"]), as: UTF8.self).hasPrefix("<svg")
    )
    let json = try written("frame.JSON", ["render", "Examples/messaging.yaml"])
    #expect((try? JSONSerialization.jsonObject(with: Data(json))) != nil)
    let board = ["storyboard", "Examples/messaging.yaml", "--scale", "0.5"]
    #expect(Array(try written("board.png", board).prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
    let page = ["storyboard", "Examples/messaging.yaml"]
    #expect(String(decoding: try written("board.html", page), as: UTF8.self).lowercased().hasPrefix("<!doctype html"))
    // --scale is a PNG's: asked of an HTML page it does nothing, and says so.
    let scaledPage = try pushdeck(board + ["-o", directory.appendingPathComponent("s.html").path])
    #expect(scaledPage.status == 2 && scaledPage.standardError.contains("--scale sets a PNG's pixels per point"))
    // No extension it knows: --format, or the default, as before.
    #expect(
      String(decoding: try written("frame.out", ["render", "Examples/messaging.yaml"]), as: UTF8.self).contains(
        "Chatter"))
    for (command, format) in [(["render", "Examples/messaging.yaml", "--style", "phone"], "svg"), (board, "svg")] {
      let clash = try pushdeck(command + ["--format", format, "-o", directory.appendingPathComponent("x.png").path])
      #expect(clash.status == 2)
      #expect(clash.standardError.contains("names a png file, but --format is svg"), "\(clash.standardError)")
    }
    // A terminal frame has no PNG: the name asks for one, and the answer says how to get it.
    let png = directory.appendingPathComponent("t.png").path
    let terminalPNG = try pushdeck(["render", "Examples/messaging.yaml", "-o", png])
    #expect(terminalPNG.status == 2)
    #expect(
      terminalPNG.standardError.hasPrefix(
        "pushdeck: -o \(png) draws a phone mockup, which the terminal style does not: add --style phone"),
      "\(terminalPNG.standardError)")
    // A .txt name takes plain text or ANSI colour.
    let ansi = try written("frame.txt", ["render", "Examples/messaging.yaml", "--format", "ansi"])
    #expect(ansi.contains(0x1B), "ANSI escapes written to the .txt file")
  }

  /// Options that do nothing where they are given are refused, naming what they apply to:
  /// the terminal frame's --size, --frame and --styles on a phone, --frame on ANSI, --scale on
  /// an SVG (each was dropped without a word).
  @Test func optionsThatDoNothingThereAreUsageErrors() throws {
    let cases: [([String], String)] = [
      (["--style", "phone", "--size", "40x12"], "--size applies to the terminal style's frame"),
      (["--style", "phone", "--frame"], "--frame applies to the terminal style's frame"),
      (["--format", "ansi", "--frame"], "--frame applies to --format text, not ansi"),
      (["--format", "json", "--styles"], "--styles applies to --format text, not json"),
      (["--format", "svg", "--scale", "3"], "--scale sets a PNG's pixels per point; it does nothing for svg"),
      (["--style", "phone", "--scale", "3"], "--scale sets a PNG's pixels per point; it does nothing for svg"),
    ]
    for (options, message) in cases {
      let output = try pushdeck(["render", "Examples/messaging.yaml"] + options)
      #expect(output.status == 2, "\(options)")
      #expect(output.standardError.contains(message), "\(options): \(output.standardError)")
    }
    #expect(try pushdeck(["render", "Examples/messaging.yaml", "--frame", "--styles"]).status == 0)
  }

  /// A sheet that leaves moments out past --limit says so on standard error; a PNG too large
  /// to draw says which scale fits.
  @Test func aStoryboardSaysWhatItLeftOutAndWhatScaleFits() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pushdeck-board-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let pushes = (1...60).map {
      "  - after: 10s\n    push: {bundle: a.b, payload: {aps: {alert: {title: Push \($0)}}}}"
    }
    let scenario = directory.appendingPathComponent("many.yaml")
    try Data(("timeline:\n" + pushes.joined(separator: "\n") + "\n").utf8).write(to: scenario)
    let limited = try pushdeck(["storyboard", scenario.path, "--limit", "5"])
    #expect(limited.status == 0)
    #expect(limited.standardOutput.contains("data-frames=\"5\""))
    #expect(
      limited.standardError.contains("drew the first 5 moments; the inputs have more (--limit draws up to 200)"),
      "\(limited.standardError)")
    let whole = try pushdeck(["storyboard", scenario.path, "--limit", "60"])
    #expect(whole.status == 0 && whole.standardError.isEmpty, "\(whole.standardError)")
    let huge = try pushdeck([
      "storyboard", scenario.path, "--limit", "60", "--scale", "4", "-o",
      directory.appendingPathComponent("b.png").path,
    ])
    #expect(huge.status == 2)
    #expect(
      huge.standardError.contains("pixels; each side must be 1 to 32000 (a scale of at most"), "\(huge.standardError)")
    #expect(huge.standardError.contains("lower --scale") && !huge.standardError.contains(".0×"))
  }

  /// A moment's heading names the push's title after a colon, and a blank title leaves no
  /// colon hanging ("#1 B: ").
  @Test func aBlankTitleLeavesNoColonInTheHeading() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pushdeck-blank-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let scenario = directory.appendingPathComponent("blank.yaml")
    try Data(
      """
      timeline:
        - push: {bundle: a.b, payload: {aps: {alert: {title: "  ", body: x}}}}
        - after: 10s
          push: {bundle: a.b, payload: {aps: {alert: {title: Hi, body: x}}}}

      """.utf8
    ).write(to: scenario)
    let board = try pushdeck(["storyboard", scenario.path])
    #expect(board.status == 0)
    #expect(board.standardOutput.contains("#1 B<") && board.standardOutput.contains("#2 B: Hi<"))
  }

  /// A mistake in a scenario or a theme reads the same from every command: `pushdeck:` and the
  /// located message, status 2, no usage text (render and storyboard printed "Error:" and the
  /// usage; storyboard's unknown theme exited 1).
  @Test func aMistakeInTheInputsReadsTheSameFromEveryCommand() throws {
    let directory = try PushdeckProcess.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let scenario = directory.appendingPathComponent("bad.yaml").path
    try "profile:\n  lockd: true\ntimeline:\n  - push: {bundle: com.example.app, payload: {aps: {alert: hi}}}\n"
      .write(toFile: scenario, atomically: true, encoding: .utf8)
    for command in [["render"], ["explain"], ["storyboard"], ["render", "--style", "phone"]] {
      let result = try pushdeck(command + [scenario])
      #expect(result.status == 2, "\(command)")
      #expect(
        result.standardError.hasPrefix("pushdeck: \(scenario):2:3: profile.lockd: unknown key"),
        "\(command): \(result.standardError)")
      #expect(!result.standardError.contains("Usage:"), "\(command)")
    }
    for command in ["render", "storyboard"] {
      let result = try pushdeck([command, "Examples/messaging.yaml", "--theme", "nope"])
      #expect(result.status == 2, "\(command)")
      #expect(
        result.standardError.hasPrefix("pushdeck: --theme nope: unknown theme \"nope\""),
        "\(command): \(result.standardError)")
    }
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

import Foundation
import PushCore
import PushMedia
import PushMockup
import PushRaster
import PushRender
import PushTestSupport
import PushUI
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

let goldens = Golden.directory(besides: #filePath)

/// A push read from payload text, as a file would be.
func push(_ json: String, bundle: String) -> DeviceEvent {
  .push(PushReader.readPayloadFile(Array(json.utf8), source: "test.json", format: .payload, bundleID: bundle))
}

/// A device with a bank and a chat app, locked or not, with a Focus or not.
func device(locked: Bool = true, focus: String? = nil) -> DeviceSimulator {
  let start = SimInstant(epochSeconds: 1_795_000_000)
  var bank = AppProfile(info: AppInfo(bundleID: "com.example.bank", displayName: "Nordbank", iconGlyph: "🏦"))
  bank.settings.showPreviews = .always
  bank.timeSensitiveEntitled = true
  var chat = AppProfile(info: AppInfo(bundleID: "com.example.chat", displayName: "Chatter", iconGlyph: "🔔"))
  chat.settings.showPreviews = .always
  var profile = DeviceProfile(start: start, isLocked: locked, apps: [bank, chat])
  profile.timeZoneName = "UTC"
  profile.activeFocusID = focus
  return DeviceSimulator(profile: profile)
}

/// The state after the pushes, one second apart, rendered at the last one.
func state(_ pushes: [DeviceEvent], locked: Bool = true, focus: String? = nil) -> AppState {
  let device = device(locked: locked, focus: focus)
  let start = device.now
  let timeline = pushes.enumerated().map {
    TimelineEntry(at: start + .seconds(Int64($0.offset + 1)), event: $0.element)
  }
  var state = AppState(device: device, timeline: timeline)
  _ = reduce(into: &state, .tick(start + .seconds(Int64(pushes.count))))
  return state
}

/// What an SVG holds, read by an XML parser: the root's attributes and each text element's
/// whole content.
final class SVGReading: NSObject, XMLParserDelegate {
  var rootAttributes: [String: String]?
  var texts: [(role: String?, text: String)] = []
  var elementCount = 0
  private var current: String?
  private var currentRole: String?

  init(_ svg: String) throws {
    super.init()
    let parser = XMLParser(data: Data(svg.utf8))
    parser.delegate = self
    guard parser.parse() else {
      throw CocoaError(
        .coderReadCorrupt, userInfo: [NSDebugDescriptionErrorKey: "\(parser.parserError.map { "\($0)" } ?? "?")"])
    }
  }

  func parser(
    _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
    attributes: [String: String] = [:]
  ) {
    elementCount += 1
    if rootAttributes == nil { rootAttributes = attributes }
    if name == "text" {
      current = ""
      currentRole = attributes["data-role"]
    }
  }

  func parser(_ parser: XMLParser, foundCharacters string: String) { current? += string }

  func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
    if name == "text", let current {
      texts.append((currentRole, current))
      self.current = nil
    }
  }

  func texts(_ role: String) -> [String] { texts.filter { $0.role == role }.map(\.text) }
}

@Suite("Phone mockups")
struct PhoneMockupTests {
  let bankAlert = push(
    #"{"aps":{"alert":{"title":"Was this you?","body":"€849.00 at ELECTRO-MARKT ONLINE, Hamburg — card •••• 4417"},"interruption-level":"time-sensitive","sound":"default"}}"#,
    bundle: "com.example.bank")
  let chat = push(
    #"{"aps":{"alert":{"title":"Ana","body":"Dinner at 8?"},"thread-id":"ana"}}"#, bundle: "com.example.chat")

  @Test func theRootIsThePhoneAndTextElementsCarryWholeStrings() throws {
    let svg = PhoneMockup(state: state([bankAlert, chat]), theme: .builtInDefault).svgDocument()
    let reading = try SVGReading(svg)
    #expect(reading.rootAttributes?["width"] == "393")
    #expect(reading.rootAttributes?["height"] == "852")
    #expect(reading.rootAttributes?["viewBox"] == "0 0 393 852")
    #expect(reading.rootAttributes?["data-surface"] == "lock-screen")
    #expect(reading.texts("title").contains("Was this you?"))
    #expect(reading.texts("title").contains("Ana"))
    #expect(reading.texts("body").contains("Dinner at 8?"))
    #expect(reading.texts("label") == ["TIME SENSITIVE"])
    #expect(reading.texts("clock").count == 1)
    #expect(reading.texts("date").first?.contains("2026") == false)
    // No text element holds a single character of a longer string (the terminal SVG's way).
    #expect(!reading.texts.contains { $0.text == "W" })
  }

  @Test func untrustedTextIsEscapedAndStrippedOfControlCharacters() throws {
    let hostile = push(
      #"{"aps":{"alert":{"title":"<script>alert('x')</script> & \"q\"","body":"bell\u0007 esc\u001b[31m red\u009b c1 \u202eevil\u0000"}}}"#,
      bundle: "com.example.chat")
    let svg = PhoneMockup(state: state([hostile]), theme: .builtInDefault).svgDocument()
    let reading = try SVGReading(svg)
    #expect(reading.texts("title").contains("<script>alert('x')</script> & \"q\""))
    #expect(!svg.contains("<script>"))
    #expect(svg.unicodeScalars.allSatisfy { $0.value >= 0x20 && !(0x7F...0x9F).contains($0.value) || $0 == "\n" })
    #expect(!svg.unicodeScalars.contains("\u{202E}"))
    #expect(reading.texts("body").first?.hasPrefix("bell esc[31m red c1 evil") == true)
  }

  @Test func longBodiesWrapToFourLinesAndEndInAnEllipsis() throws {
    let words = Array(repeating: "Supercalifragilistic expialidocious notification text", count: 12).joined(
      separator: " ")
    let long = push(#"{"aps":{"alert":{"title":"Long","body":"\#(words)"}}}"#, bundle: "com.example.chat")
    let reading = try SVGReading(PhoneMockup(state: state([long]), theme: .builtInDefault).svgDocument())
    let body = reading.texts("body")
    #expect(body.count == 4)
    #expect(body.last?.hasSuffix("…") == true)
    let textWidth: Double = 393 - 28 - 28 - 38 - 10
    for line in body { #expect(TextMetrics.width(line, size: 15) <= textWidth + 0.001, "\(line)") }
  }

  @Test func stacksShowTheCountBehindTheFrontCard() throws {
    let more = (1...3).map {
      push(#"{"aps":{"alert":{"title":"Ana","body":"message \#($0)"},"thread-id":"ana"}}"#, bundle: "com.example.chat")
    }
    let reading = try SVGReading(PhoneMockup(state: state(more), theme: .builtInDefault).svgDocument())
    #expect(reading.texts("stack-count") == ["2 more notifications"])
    #expect(reading.texts("body") == ["message 3"])
  }

  @Test func anUnlockedPhoneShowsTheHomeScreenWithTheBannerAndBadges() throws {
    let badged = push(#"{"aps":{"alert":{"title":"Ana","body":"Hi"},"badge":3}}"#, bundle: "com.example.chat")
    let svg = PhoneMockup(state: state([badged], locked: false), theme: .builtInDefault).svgDocument()
    let reading = try SVGReading(svg)
    #expect(reading.rootAttributes?["data-surface"] == "home-screen")
    #expect(svg.contains("data-role=\"banner\""))
    #expect(reading.texts("badge") == ["3"])
    #expect(reading.texts("app-name") == ["Nordbank", "Chatter"])
    // The chat app has no emoji of its own: a monogram tile.
    #expect(reading.texts("icon").contains("C"))
    #expect(reading.texts("icon").contains("🏦"))
  }

  @Test func aFocusShowsItsPillUnderTheClockAndSleepDims() throws {
    let dnd = try SVGReading(PhoneMockup(state: state([chat], focus: "dnd"), theme: .builtInDefault).svgDocument())
    #expect(dnd.texts("focus") == ["🌙 Do Not Disturb"])
    let sleep = PhoneMockup(state: state([chat], focus: "sleep"), theme: .builtInDefault).svgDocument()
    #expect(try SVGReading(sleep).texts("focus") == ["💤 Sleep"])
    #expect(sleep.contains("fill=\"#000000\" fill-opacity=\"0.55\""))
  }

  @Test func notificationCenterListsEveryStack() throws {
    var center = state([bankAlert, chat])
    _ = reduce(into: &center, .command(.openCenter))
    let reading = try SVGReading(PhoneMockup(state: center, theme: .builtInDefault).svgDocument())
    #expect(reading.rootAttributes?["data-surface"] == "notification-center")
    #expect(reading.texts("heading") == ["Notification Center"])
    #expect(Set(reading.texts("title")) == ["Was this you?", "Ana"])
  }

  /// A communication notification shows its sender's initials in place of the app's icon,
  /// with the icon small at its corner, as the terminal's card and iOS do (the mockup drew the
  /// app's icon only).
  @Test func aCommunicationNotificationShowsTheSendersAvatar() throws {
    let record = PushReader.readPayloadFile(
      Array(#"{"aps":{"alert":{"title":"Ana Sousa","body":"On my way"}}}"#.utf8), source: "m.json", format: .payload,
      bundleID: "com.example.chat")
    var center = state([.push(record, sender: "Ana Sousa")], locked: false)
    _ = reduce(into: &center, .command(.openCenter))
    let reading = try SVGReading(PhoneMockup(state: center, theme: .builtInDefault).svgDocument())
    #expect(reading.texts("avatar") == ["AS"])
    let plain = try SVGReading(PhoneMockup(state: state([chat], locked: false), theme: .builtInDefault).svgDocument())
    #expect(plain.texts("avatar").isEmpty)
  }

  /// What Notification Center leaves out is counted in notifications, as the lock screen counts
  /// (it said "N more" of stacks): 30 threads of two chats each, most of them below the fold.
  @Test func notificationCenterCountsWhatItLeavesOutInNotifications() throws {
    let pushes = (0..<60).map { index in
      push(
        #"{"aps":{"alert":{"title":"T\#(index)","body":"x"},"thread-id":"t\#(index % 30)"}}"#,
        bundle: "com.example.chat")
    }
    var center = state(pushes)
    _ = reduce(into: &center, .command(.openCenter))
    let reading = try SVGReading(PhoneMockup(state: center, theme: .builtInDefault).svgDocument())
    let overflow = try #require(reading.texts("overflow").first)
    let shown = reading.texts("title").count
    #expect(overflow == "\(60 - 2 * shown) more notifications", "\(shown) stacks shown")
  }

  /// A notification held for the Scheduled Summary is dated at the summary's delivery, on the
  /// phone as in the terminal (docs/DECISIONS.md, "Relative times"): it said "16m ago" from its
  /// arrival where the terminal said "7m ago".
  @Test func aSummaryDeliveredNotificationIsDatedAtTheSummary() throws {
    var base = device()
    var profile = base.profile
    profile.summaryTimes = [TimeOfDay(hour: 0, minute: 0)]  // 1_795_000_000 is 09:46:40 UTC
    profile.apps[1].settings.delivery = .scheduledSummary
    base = DeviceSimulator(profile: profile)
    let start = base.now
    var held = AppState(device: base, timeline: [TimelineEntry(at: start + .minutes(1), event: chat)])
    let midnight = SimInstant(epochSeconds: 1_795_046_400)  // the next 00:00 UTC
    _ = reduce(into: &held, .tick(midnight + .minutes(7)))
    #expect(held.device.store.heldCount == 0, "released at midnight")
    _ = reduce(into: &held, .command(.openCenter))
    let reading = try SVGReading(PhoneMockup(state: held, theme: .builtInDefault).svgDocument())
    #expect(reading.texts("title").contains("Ana"))
    #expect(reading.texts("time").contains("7m ago"), "\(reading.texts("time"))")
    #expect(!reading.texts("time").contains { $0.hasSuffix("h ago") }, "not dated at its arrival, 14 h before")
  }

  /// The Dynamic Island's compact trailing side shows a Live Activity's time whole, in its
  /// shortest form: "in 18 min" did not fit its 28 pt and always read "in…".
  @Test func theDynamicIslandShowsALiveActivitysTimeWhole() throws {
    var base = device(locked: false)
    var profile = base.profile
    profile.apps[1].liveActivityLayouts["DeliveryAttributes"] = LiveActivityLayout(
      title: LiveActivityText("{status}"), time: LiveActivityTime(key: "etaMinutes", unit: .minutes))
    base = DeviceSimulator(profile: profile)
    let start = base.now
    let seconds = Int(start.milliseconds / 1000)
    let live = DeviceEvent.push(
      PushReader.readPayloadFile(
        Array(
          #"{"aps":{"timestamp":\#(seconds),"event":"start","attributes-type":"DeliveryAttributes","attributes":{"orderNumber":"5821"},"content-state":{"status":"pickedUp","etaMinutes":18},"alert":{"title":"Order","body":"Picked up"}}}"#
            .utf8), source: "live.json", format: .payload, bundleID: "com.example.chat",
        headers: [("apns-push-type", "liveactivity"), ("apns-topic", "com.example.chat.push-type.liveactivity")]))
    var state = AppState(device: base, timeline: [TimelineEntry(at: start, event: live)])
    _ = reduce(into: &state, .tick(start + .seconds(1)))
    _ = reduce(into: &state, .command(.openCenter))
    let reading = try SVGReading(PhoneMockup(state: state, theme: .builtInDefault).svgDocument())
    #expect(state.device.liveActivities.count == 1, "\(state.device.store.count)")
    #expect(reading.texts("island-trailing") == ["17m"], "\(reading.texts("island-trailing"))")
    // Past its time, it counts the other way, as SwiftUI's relative text does.
    _ = reduce(into: &state, .tick(start + .minutes(54)))
    let later = try SVGReading(PhoneMockup(state: state, theme: .builtInDefault).svgDocument())
    #expect(later.texts("island-trailing") == ["36m"], "\(later.texts("island-trailing"))")
  }

  /// The lock screen's Display As reaches the picture as it does the terminal: Count draws no
  /// notification, only how many; Stack piles every stack behind one front card.
  @Test func displayAsCountAndStackShowInThePicture() throws {
    func svg(_ display: LockScreenDisplay) throws -> SVGReading {
      var base = device()
      var profile = base.profile
      profile.lockScreenDisplay = display
      base = DeviceSimulator(profile: profile)
      let start = base.now
      let timeline = [bankAlert, chat].enumerated().map {
        TimelineEntry(at: start + .seconds(Int64($0.offset + 1)), event: $0.element)
      }
      var state = AppState(device: base, timeline: timeline)
      _ = reduce(into: &state, .tick(start + .seconds(2)))
      return try SVGReading(PhoneMockup(state: state, theme: .builtInDefault).svgDocument())
    }
    let count = try svg(.count)
    #expect(count.texts("title").isEmpty, "\(count.texts("title"))")
    #expect(count.texts("overflow") == ["2 Notifications"])
    let stack = try svg(.stack)
    #expect(stack.texts("title").count == 1, "one front card: \(stack.texts("title"))")
    #expect(stack.texts.contains { $0.text == "1 more notification" })
    let list = try svg(.list)
    #expect(Set(list.texts("title")) == ["Was this you?", "Ana"])
  }

  /// A theme whose Focus and Time Sensitive roles are chips (high-contrast: black on magenta,
  /// black on yellow) gives the picture their background colour: their black foreground was
  /// drawn on the black Focus pill and the dark platter, invisible.
  @Test func aChipStyledRoleLendsThePictureItsBackground() throws {
    let theme = try #require(try Theme.builtIn(named: "high-contrast"))
    let svg = PhoneMockup(state: state([bankAlert, chat], focus: "dnd"), theme: theme).svgDocument()
    let focus = try #require(svg.range(of: #"<text[^>]*data-role="focus""#, options: .regularExpression))
    let label = try #require(svg.range(of: #"<text[^>]*data-role="label""#, options: .regularExpression))
    #expect(!svg[focus].contains(##"fill="#000000""##), "\(svg[focus])")
    #expect(!svg[label].contains(##"fill="#000000""##), "\(svg[label])")
    #expect(svg[focus].contains("fill=\"\(theme[.focusIndicator].background?.hexString ?? "?")\""))
    // A plain foreground is used as it is.
    let light = try #require(try Theme.builtIn(named: "light"))
    let lightSVG = PhoneMockup(state: state([bankAlert], focus: "dnd"), theme: light).svgDocument()
    #expect(lightSVG.contains(##"fill="#6b2fd6" text-anchor="middle" data-role="focus""##))
  }

  /// A stack's platter words its pile as the terminal's card does, with the category's summary
  /// format, on the lock screen and in Notification Center (its hidden preview's placeholder
  /// counts the thread on both).
  @Test func aStackUsesTheCategorysSummaryFormatAndThreadCountAsTheTerminalDoes() throws {
    var base = device()
    var profile = base.profile
    profile.apps[1].settings.showPreviews = .whenUnlocked
    profile.apps[1].categories = [
      NotificationCategory(
        identifier: "MSG", options: [.hiddenPreviewsShowTitle],
        hiddenPreviewsBodyPlaceholder: PluralFormat(one: "%u new message", other: "%u new messages"),
        summaryFormat: PluralFormat(one: "%u more message", other: "%u more messages"))
    ]
    base = DeviceSimulator(profile: profile)
    let start = base.now
    let pushes = ["Lunch?", "12:30?", "ok"].map {
      push(
        #"{"aps":{"alert":{"title":"Ana","body":"\#($0)"},"thread-id":"ana","category":"MSG"}}"#,
        bundle: "com.example.chat")
    }
    var state = AppState(
      device: base,
      timeline: pushes.enumerated().map { TimelineEntry(at: start + .seconds(Int64($0.offset + 1)), event: $0.element) }
    )
    _ = reduce(into: &state, .tick(start + .seconds(4)))
    let terminal = render(state, size: Size(columns: 80, rows: 24), theme: .builtInDefault).textDump()
    #expect(terminal.contains("3 new messages") && terminal.contains("2 more messages"), "\(terminal)")
    let lock = try SVGReading(PhoneMockup(state: state, theme: .builtInDefault).svgDocument())
    #expect(lock.texts("stack-count") == ["2 more messages"])
    #expect(lock.texts("body") == ["3 new messages"])
    _ = reduce(into: &state, .command(.openCenter))
    let center = try SVGReading(PhoneMockup(state: state, theme: .builtInDefault).svgDocument())
    #expect(center.texts("stack-count") == ["2 more messages"])
    #expect(center.texts("body") == ["3 new messages"], "\(center.texts("body"))")
  }

  @Test func aSimpleLockScreenMatchesItsGolden() {
    let svg = PhoneMockup(state: state([bankAlert, chat]), theme: .builtInDefault).svgDocument(title: "golden")
    let result = Golden.check(svg, named: "phone_lock_two_pushes.svg", in: goldens)
    #expect(result == .matched, "\(result)")
  }
}

@Suite("Mockup sheets")
struct SheetTests {
  func phone() -> PhoneMockup { PhoneMockup(state: state([]), theme: .builtInDefault) }

  @Test func aStoryboardHasAFramePerMomentAndDevice() throws {
    let moments = (1...3).map { index in
      Sheet.Moment(
        heading: "09:0\(index)",
        cells: [Sheet.Cell(phone: phone(), caption: "a"), Sheet.Cell(phone: phone(), caption: "b")])
    }
    let sheet = Sheet(title: "Three moments", devices: ["Locked", "Sleep"], moments: moments)
    let svg = sheet.svg()
    let reading = try SVGReading(svg)
    #expect(reading.rootAttributes?["data-frames"] == "6")
    #expect(svg.components(separatedBy: "data-frame=\"").count - 1 == 6)
    #expect(reading.texts("device") == ["Locked", "Sleep"])
    #expect(reading.texts("caption") == ["a", "a", "a", "b", "b", "b"])
    // Each phone is a nested 393 × 852 picture, its ids its own.
    #expect(svg.components(separatedBy: "width=\"393\" height=\"852\" viewBox=\"0 0 393 852\"").count - 1 == 6)
    #expect(svg.contains("id=\"f6-wall\""))
    let html = sheet.html()
    #expect(html.components(separatedBy: "<section class=\"moment").count - 1 == 3)
    #expect(html.components(separatedBy: "<svg ").count - 1 == 6)
    #expect(html.contains("ArrowRight"))
    #expect(!html.contains("src=\"http") && !html.contains("href=\"http"))
  }

  @Test func aOneDeviceStoryboardWrapsAfterSixMoments() throws {
    let moments = (1...8).map { Sheet.Moment(heading: "m\($0)", cells: [Sheet.Cell(phone: phone(), caption: "")]) }
    let reading = try SVGReading(Sheet(title: "Eight", devices: ["Device"], moments: moments).svg())
    let width = try #require(reading.rootAttributes?["width"].flatMap(Double.init))
    #expect(width == 32 + 6 * (393 + 32))
    #expect(reading.texts("heading").count == 8)
  }
}

/// Whether fontconfig knows a colour emoji font (Debian's fonts-noto-color-emoji).
let hasColorEmojiFont: Bool = {
  FileManager.default.fileExists(atPath: "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf")
}()

@Suite("PNG through librsvg")
struct RasterTests {
  @Test func thePhoneBecomesAPNGOfTwiceItsSize() throws {
    let svg = PhoneMockup(state: state([]), theme: .builtInDefault).svgDocument()
    let png = try PNGRasterizer.png(svg: svg, scale: 2)
    #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    // IHDR: width and height, big-endian, at bytes 16…23.
    func be(_ offset: Int) -> Int { png[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
    #expect(be(16) == 786)
    #expect(be(20) == 1704)
  }

  @Test func badInputIsAnErrorNotACrash() {
    #expect(throws: PNGRasterizer.Failure.self) { try PNGRasterizer.png(svg: "<svg", scale: 1) }
    #expect(throws: PNGRasterizer.Failure.self) {
      try PNGRasterizer.png(svg: "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"100000\" height=\"10\"/>", scale: 1)
    }
    #expect(throws: PNGRasterizer.Failure.self) { try PNGRasterizer.png(svg: "<svg/>", scale: .nan) }
  }

  @Test(.requires(hasColorEmojiFont, "fonts-noto-color-emoji is not installed"))
  func emojiAreDrawnInColour() throws {
    let svg =
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"80\" height=\"80\"><rect width=\"80\" height=\"80\" fill=\"#ffffff\"/>"
      + "<text x=\"8\" y=\"62\" font-size=\"56\" font-family=\"\(SVGText.fontStack)\">🍎</text></svg>"
    let png = try PNGRasterizer.png(svg: svg, scale: 1)
    let image = try ImageDecoder.decode(png).get()
    // A red apple: some pixels are strongly red, which a monochrome glyph never is.
    let red = stride(from: 0, to: image.rgb.count - 2, by: 3).filter {
      image.rgb[$0] > 180 && image.rgb[$0 + 1] < 90 && image.rgb[$0 + 2] < 90
    }.count
    #expect(red > 200, "\(red) red pixels")
  }
}

/// The texts and rectangles of an SVG in drawing order, each with the `data-role` of the
/// groups around it, for checks on where things are drawn.
final class SVGGeometry: NSObject, XMLParserDelegate {
  struct Box: Equatable, CustomStringConvertible {
    var left, top, right, bottom: Double
    func intersects(_ other: Box) -> Bool {
      left < other.right && other.left < right && top < other.bottom && other.top < bottom
    }
    func contains(_ other: Box) -> Bool {
      left <= other.left && other.right <= right && top <= other.top && other.bottom <= bottom
    }
    var description: String { "(\(left), \(top))–(\(right), \(bottom))" }
  }

  struct Element {
    var name: String
    var attributes: [String: String]
    var groups: [String]
    var text = ""
    var order: Int
    func number(_ key: String) -> Double { Double(attributes[key] ?? "") ?? 0 }
    var role: String? { attributes["data-role"] }

    /// A text's box: its advance from `TextMetrics` placed by its anchor, from the ascender
    /// (0.8 em above the baseline) to the descender (0.25 em below).
    var textBox: Box {
      let size = number("font-size")
      let width = TextMetrics.width(text, size: size, bold: (Int(attributes["font-weight"] ?? "") ?? 400) >= 600)
      let x = number("x")
      let left =
        switch attributes["text-anchor"] {
        case "middle": x - width / 2
        case "end": x - width
        default: x
        }
      return Box(left: left, top: number("y") - 0.8 * size, right: left + width, bottom: number("y") + 0.25 * size)
    }

    var rectBox: Box {
      Box(
        left: number("x"), top: number("y"), right: number("x") + number("width"),
        bottom: number("y") + number("height"))
    }
  }

  private(set) var elements: [Element] = []
  private var groups: [String] = []
  private var open: Int?

  init(_ svg: String) throws {
    super.init()
    let parser = XMLParser(data: Data(svg.utf8))
    parser.delegate = self
    guard parser.parse() else { throw CocoaError(.coderReadCorrupt) }
  }

  func parser(
    _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
    attributes: [String: String] = [:]
  ) {
    if name == "g" { groups.append(attributes["data-role"] ?? "") }
    guard name == "text" || name == "rect" else { return }
    elements.append(Element(name: name, attributes: attributes, groups: groups, order: elements.count))
    if name == "text" { open = elements.count - 1 }
  }

  func parser(_ parser: XMLParser, foundCharacters string: String) {
    if let open { elements[open].text += string }
  }

  func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
    if name == "g" { groups.removeLast() }
    if name == "text" { open = nil }
  }

  var texts: [Element] { elements.filter { $0.name == "text" } }
}

@Suite("Phone mockup geometry")
struct PhoneMockupGeometryTests {
  /// Four pushes a second apart on an unlocked phone: the first one's banner shows, three wait.
  func queued(behind front: String) -> AppState {
    let waiting = (1...3).map {
      push(#"{"aps":{"alert":{"title":"Ana","body":"Message \#($0)"}}}"#, bundle: "com.example.chat")
    }
    return state([push(front, bundle: "com.example.bank")] + waiting, locked: false)
  }

  /// Found by an exploratory test: "N more queued" was drawn under the banner, on the Home
  /// Screen's first row of icons and their names. It is drawn on the banner, at its foot: inside
  /// the banner's platter, clear of the banner's own text and of every text that shows (a text
  /// the banner covers, drawn before it wholly inside it, does not show), whatever the banner's
  /// height.
  @Test(arguments: [
    #"{"aps":{"alert":{"title":"Was this you?"}}}"#,
    #"{"aps":{"alert":{"title":"Was this you?","body":"€849.00 at ELECTRO-MARKT"}}}"#,
    #"{"aps":{"alert":{"title":"Was this you?","body":"€849.00 at ELECTRO-MARKT ONLINE, Hamburg — card •••• 4417, approved"}}}"#,
    #"{"aps":{"alert":{"title":"Was this you?","subtitle":"Card 4417","body":"\#(String(repeating: "A long line of text that wraps. ", count: 12))"}}}"#,
  ])
  func theQueuedCountIsOnTheBannerAndOverlapsNoText(front: String) throws {
    let svg = PhoneMockup(state: queued(behind: front), theme: .builtInDefault).svgDocument()
    let geometry = try SVGGeometry(svg)
    let count = try #require(geometry.texts.first { $0.role == "banner-queue" })
    #expect(count.text == "3 more queued")
    let platter = try #require(
      geometry.elements.filter { $0.name == "rect" && $0.groups.contains("banner") && $0.attributes["rx"] == "23" }
        .min { $0.number("y") < $1.number("y") })
    let bannerBox = platter.rectBox
    #expect(bannerBox.contains(count.textBox), "\(count.textBox) is not on the banner \(bannerBox)")
    for text in geometry.texts where text.order != count.order {
      let hidden = text.order < platter.order && bannerBox.contains(text.textBox)
      guard !hidden else { continue }
      #expect(
        !text.textBox.intersects(count.textBox),
        "\(text.role ?? "text") “\(text.text)” at \(text.textBox) overlaps “\(count.text)” at \(count.textBox)")
    }
    // The Home Screen's names are all drawn (none is hidden to make room).
    #expect(geometry.texts.filter { $0.role == "app-name" }.map(\.text) == ["Nordbank", "Chatter"])
  }
}

import Testing

@testable import PushCore

/// The content a service extension reads and hands back, the attachments it may add, decoded
/// thumbnails and the result a record carries to the device: core types, tested beside the core.
@Suite struct NotificationContentTests {
  /// Parses JSON text with the project's scanner.
  func json(_ text: String) throws -> JSONValue {
    try JSONDocument(bytes: Array(text.utf8)).value(0)
  }

  /// Reads content JSON over `original`, returning the error it threw, if any.
  func formatError(_ text: String, over original: NotificationContent = NotificationContent()) throws
    -> NotificationContent.FormatError?
  {
    do {
      _ = try NotificationContent(json: json(text), over: original)
      return nil
    } catch let error as NotificationContent.FormatError {
      return error
    }
  }

  @Test func contentJSONReadsBackToTheSameContent() throws {
    let content = NotificationContent(
      title: "Chat", subtitle: "Ana", body: "Lunch?", badge: 3, sound: "default", threadIdentifier: "t-1",
      categoryIdentifier: "MESSAGE", interruptionLevel: .timeSensitive, relevanceScore: 0.5,
      targetContentIdentifier: "room-9", userInfo: .object([JSONMember(key: "id", value: .string("42"))]))
    let text = content.json.compactText
    #expect(text.contains(#""interruptionLevel":"time-sensitive""#))
    #expect(text.contains(#""attachments":[]"#))
    let read = try NotificationContent(json: json(text), over: NotificationContent())
    #expect(read == content)
  }

  @Test func absentContentIsWrittenAsNull() {
    let text = NotificationContent(body: "Hi").json.compactText
    #expect(text.contains(#""title":null"#))
    #expect(text.contains(#""badge":null"#))
    #expect(text.contains(#""body":"Hi""#))
  }

  @Test func aPresentKeyReplacesNullClearsAndAnAbsentKeyKeeps() throws {
    let original = NotificationContent(title: "Chat", subtitle: "Ana", body: "You have a new message", badge: 2)
    let read = try NotificationContent(json: json(#"{"body": "Lunch at 1?", "subtitle": null}"#), over: original)
    #expect(read.title == "Chat")
    #expect(read.subtitle == nil)
    #expect(read.body == "Lunch at 1?")
    #expect(read.badge == 2)
  }

  @Test func anUnknownKeyIsNamedWithTheKeysThatExist() throws {
    let error = try #require(try formatError(#"{"tittle": "x"}"#))
    #expect(error.path == "tittle")
    #expect(error.message.contains("title, subtitle, body"))
    #expect(error.description.hasPrefix("tittle: unknown key"))
  }

  @Test func contentThatIsNotAnObjectIsRefused() throws {
    let error = try #require(try formatError(#"["title"]"#))
    #expect(error.path == "content")
  }

  @Test func wrongTypesNameTheKeyAndWhatCameInstead() throws {
    #expect(try formatError(#"{"title": 5}"#)?.path == "title")
    #expect(try formatError(#"{"title": 5}"#)?.message == "expected a string or null, got 5")
    #expect(try formatError(#"{"userInfo": "x"}"#)?.path == "userInfo")
    #expect(try formatError(#"{"attachments": {}}"#)?.path == "attachments")
  }

  @Test func theBadgeIsAWholeNumberInRange() throws {
    #expect(try formatError(#"{"badge": -1}"#)?.path == "badge")
    #expect(try formatError(#"{"badge": 1.5}"#)?.path == "badge")
    #expect(try formatError(#"{"badge": 1e12}"#)?.path == "badge")
    #expect(try NotificationContent(json: json(#"{"badge": 7}"#), over: NotificationContent()).badge == 7)
    let cleared = try NotificationContent(json: json(#"{"badge": null}"#), over: NotificationContent(badge: 4))
    #expect(cleared.badge == nil)
  }

  @Test func theRelevanceScoreIsClampedToZeroThroughOne() throws {
    #expect(try NotificationContent(json: json(#"{"relevanceScore": 7}"#), over: .init()).relevanceScore == 1)
    #expect(try NotificationContent(json: json(#"{"relevanceScore": -2}"#), over: .init()).relevanceScore == 0)
    #expect(try formatError(#"{"relevanceScore": "high"}"#)?.path == "relevanceScore")
  }

  @Test func anUnknownInterruptionLevelListsTheLevels() throws {
    let error = try #require(try formatError(#"{"interruptionLevel": "loud"}"#))
    #expect(error.path == "interruptionLevel")
    #expect(error.message == #"expected one of passive, active, time-sensitive, critical, got "loud""#)
    #expect(
      try NotificationContent(json: json(#"{"interruptionLevel": "critical"}"#), over: .init()).interruptionLevel
        == .critical)
  }

  @Test func requestedAttachmentsNeedAURLAndGetIdentifiersInOrder() throws {
    let read = try NotificationContent(
      json: json(#"{"attachments": [{"url": "file:///tmp/a.png"}, {"identifier": "cover", "url": "/tmp/b.jpg"}]}"#),
      over: NotificationContent())
    #expect(read.attachments.map(\.identifier) == ["attachment-1", "cover"])
    #expect(read.attachments.map(\.path) == ["file:///tmp/a.png", "/tmp/b.jpg"])
    #expect(read.attachments.allSatisfy { $0.byteCount == 0 && $0.thumbnail == nil })
    let error = try #require(try formatError(#"{"attachments": [{"url": "/a.png"}, {"identifier": "x"}]}"#))
    #expect(error.path == "attachments[1].url")
  }

  @Test func anAttachmentsJSONNamesItsFileAsAURL() {
    let attachment = NotificationAttachment(
      identifier: "cover", path: "/var/att/cover.png", kind: .image, type: "png", byteCount: 2048)
    #expect(
      attachment.json.compactText
        == #"{"identifier":"cover","url":"file:///var/att/cover.png","type":"png","kind":"image","size":2048}"#)
  }

  @Test func eachAttachmentKindHasItsOwnSizeLimit() {
    #expect(NotificationAttachment.Kind.audio.maxBytes == 5 * 1024 * 1024)
    #expect(NotificationAttachment.Kind.image.maxBytes == 10 * 1024 * 1024)
    #expect(NotificationAttachment.Kind.movie.maxBytes == 50 * 1024 * 1024)
  }

  @Test func aThumbnailsPixelsAreClampedToTheImage() {
    // 2×1: red, then blue.
    let image = ImageThumbnail(width: 2, height: 1, rgb: [255, 0, 0, 0, 0, 255])
    #expect(image.pixel(0, 0) == (255, 0, 0))
    #expect(image.pixel(1, 0) == (0, 0, 255))
    #expect(image.pixel(-5, 3) == (255, 0, 0))
    #expect(image.pixel(9, -1) == (0, 0, 255))
  }

  @Test func aRecordCarriesItsExtensionResultAndACopyIsIndependent() {
    var record = PushReader.readPayloadFile(
      Array(#"{"aps": {"alert": "hi", "mutable-content": 1}}"#.utf8), source: "p.json", format: .payload)
    #expect(record.serviceExtension == nil)
    let result = ServiceExtensionResult(
      name: "decrypt", outcome: .failed("bad key"), content: nil, elapsedSeconds: 0.2, budgetSeconds: 30,
      notes: ["placeholder shown"])
    record.serviceExtension = result
    var copy = record
    copy.serviceExtension = nil
    #expect(record.serviceExtension == result)
    #expect(copy.serviceExtension == nil)
  }
}

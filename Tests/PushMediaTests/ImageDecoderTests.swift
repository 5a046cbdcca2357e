import Foundation
import PushCore
import PushMedia
import PushRender
import PushUI
import Testing

/// The fixtures beside this file: halves.png (4×4, top red, bottom blue), alpha.png (2×2, left
/// opaque green, right transparent white) and halves.jpg (16×16, left red, right blue), made
/// with Python's zlib and libjpeg.
func fixture(_ name: String) -> String {
  URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/\(name)").path
}

func bytes(_ name: String) throws -> [UInt8] {
  [UInt8](try Data(contentsOf: URL(fileURLWithPath: fixture(name))))
}

func scratch(_ name: String) throws -> String {
  let path = NSTemporaryDirectory() + "pushdeck-media-\(name)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
  try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  return path
}

@Suite struct ImageDecoderTests {
  @Test func decodesPNG() throws {
    let image = try ImageDecoder.decode(try bytes("halves.png")).get()
    #expect(image.width == 4 && image.height == 4)
    #expect(image.pixel(0, 0) == (255, 0, 0))
    #expect(image.pixel(3, 1) == (255, 0, 0))
    #expect(image.pixel(0, 2) == (0, 0, 255))
  }

  @Test func transparencyIsCompositedOverBlack() throws {
    let image = try ImageDecoder.decode(try bytes("alpha.png")).get()
    #expect(image.pixel(0, 0) == (0, 255, 0))
    #expect(image.pixel(1, 0) == (0, 0, 0))
  }

  @Test func decodesJPEG() throws {
    let image = try ImageDecoder.decode(try bytes("halves.jpg")).get()
    #expect(image.width == 16 && image.height == 16)
    let left = image.pixel(2, 8)
    let right = image.pixel(13, 8)
    #expect(left.red > 180 && left.green < 80 && left.blue < 80)
    #expect(right.blue > 180 && right.red < 80)
  }

  @Test func badFilesAreMessagesNotCrashes() throws {
    let png = try bytes("halves.png")
    let jpeg = try bytes("halves.jpg")
    func message(_ data: [UInt8]) -> String? {
      if case .failure(let error) = ImageDecoder.decode(data) { return error.message }
      return nil
    }
    // Truncated in the header, truncated in the pixel data, damaged pixel data.
    #expect(message(Array(png.prefix(20)))?.hasPrefix("PNG: ") == true)
    #expect(message(Array(png.prefix(png.count - 20)))?.hasPrefix("PNG: ") == true)
    var damaged = png
    damaged[45] ^= 0xFF
    #expect(message(damaged)?.hasPrefix("PNG: ") == true)
    // A PNG that claims to be 100000 pixels wide is refused before its pixels are allocated.
    var huge = png
    huge.replaceSubrange(16..<20, with: [0x00, 0x01, 0x86, 0xA0])
    #expect(message(huge)?.hasPrefix("PNG: ") == true)
    #expect(message(Array(jpeg.prefix(10)))?.hasPrefix("JPEG: ") == true)
    #expect(message([0xFF, 0xD8, 0xFF] + Array(repeating: 0x42, count: 200))?.hasPrefix("JPEG: ") == true)
    #expect(message(Array("GIF89a".utf8)) == "not a PNG or JPEG file")
    #expect(message([]) == "not a PNG or JPEG file")
  }

  @Test func shrinkAveragesBoxes() {
    let image = ImageThumbnail(
      width: 4, height: 2,
      rgb: [
        200, 0, 0, 100, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 40, 0, 0, 40, 0,
      ])
    let small = ImageDecoder.shrink(image, maxSide: 2)
    #expect(small.width == 2 && small.height == 1)
    #expect(small.pixel(0, 0) == (75, 0, 0))
    #expect(small.pixel(1, 0) == (0, 20, 0))
    #expect(ImageDecoder.shrink(image, maxSide: 8) == image)
  }

  @Test func attachmentsGetAThumbnailOrAReason() throws {
    let directory = try scratch("thumbs")
    let broken = directory + "/broken.png"
    try Data(try bytes("halves.png").prefix(30)).write(to: URL(fileURLWithPath: broken))
    func attachment(_ path: String, type: String, kind: NotificationAttachment.Kind = .image) -> NotificationAttachment
    {
      NotificationAttachment(identifier: "a", path: path, kind: kind, type: type, byteCount: 1)
    }
    let good = ImageDecoder.withThumbnail(attachment(fixture("halves.jpg"), type: "jpeg"), maxSide: 8)
    #expect(good.thumbnail?.width == 8 && good.thumbnail?.height == 8 && good.thumbnailProblem == nil)
    let bad = ImageDecoder.withThumbnail(attachment(broken, type: "png"))
    #expect(bad.thumbnail == nil && bad.thumbnailProblem?.hasPrefix("PNG: ") == true)
    #expect(
      ImageDecoder.withThumbnail(attachment(fixture("x.gif"), type: "gif")).thumbnailProblem
        == "GIF images are not drawn; PNG and JPEG are")
    let audio = attachment(fixture("halves.png"), type: "wav", kind: .audio)
    #expect(ImageDecoder.withThumbnail(audio) == audio)
  }
}

@Suite struct ThumbnailDrawingTests {
  @Test func eachCellIsTwoPixelsInHalfBlocks() {
    // 2×4: rows red, green, blue, white.
    let image = ImageThumbnail(
      width: 2, height: 4,
      rgb: [255, 0, 0, 255, 0, 0, 0, 255, 0, 0, 255, 0, 0, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255, 255])
    let size = ThumbnailView.size(of: image, maxColumns: 10, maxRows: 10)
    #expect(size == Size(columns: 2, rows: 2))
    var grid = CellGrid(width: 4, height: 3)
    ThumbnailView.draw(image, into: &grid, at: Point(column: 1, row: 1), size: size)
    let top = grid[1, 1]
    #expect(top.content == .glyph("▀", columns: 1))
    #expect(top.style.foreground == .indexed256(196) && top.style.background == .indexed256(46))
    let bottom = grid[2, 2]
    #expect(bottom.style.foreground == .indexed256(21) && bottom.style.background == .indexed256(231))
    #expect(grid[0, 0].content == .blank)
  }

  @Test func sizesKeepTheShapeAndNeverEnlarge() {
    let wide = ImageThumbnail(width: 64, height: 32, rgb: Array(repeating: 0, count: 64 * 32 * 3))
    #expect(ThumbnailView.size(of: wide, maxColumns: 32, maxRows: 10) == Size(columns: 32, rows: 8))
    #expect(ThumbnailView.size(of: wide, maxColumns: 64, maxRows: 4) == Size(columns: 16, rows: 4))
    let tiny = ImageThumbnail(width: 2, height: 2, rgb: Array(repeating: 0, count: 12))
    #expect(ThumbnailView.size(of: tiny, maxColumns: 32, maxRows: 10) == Size(columns: 2, rows: 1))
  }

  @Test func theOpenedNotificationDrawsItsImageAndChips() throws {
    let start = DemoScenario.start
    var app = AppProfile(info: AppInfo(bundleID: "com.example.photos", displayName: "Photos", iconGlyph: "📷"))
    app.hasServiceExtension = true
    let profile = DeviceProfile(start: start, isLocked: false, apps: [app])
    let payload = #"{"aps":{"alert":{"title":"Album","body":"New photo"},"mutable-content":1}}"#
    var record = PushReader.readPayloadFile(
      Array(payload.utf8), source: "p.json", format: .payload, bundleID: "com.example.photos")
    let image = try ImageDecoder.decode(try bytes("halves.png")).get()
    var content = NotificationContent(title: "Album", body: "New photo")
    content.attachments = [
      NotificationAttachment(
        identifier: "photo", path: fixture("halves.png"), kind: .image, type: "png", byteCount: 77, thumbnail: image),
      NotificationAttachment(identifier: "voice", path: "/tmp/v.wav", kind: .audio, type: "wav", byteCount: 4096),
      NotificationAttachment(
        identifier: "clip", path: "/tmp/c.mp4", kind: .movie, type: "mp4", byteCount: 3 * 1024 * 1024 + 1),
      NotificationAttachment(
        identifier: "broken", path: "/tmp/b.png", kind: .image, type: "png", byteCount: 30,
        thumbnailProblem: "PNG: the file ends early (truncated)"),
    ]
    record.serviceExtension = ServiceExtensionResult(
      name: "test", outcome: .modified, content: content, elapsedSeconds: 0, budgetSeconds: 30)
    var state = AppState(
      device: DeviceSimulator(profile: profile),
      timeline: [TimelineEntry(at: start + .seconds(1), event: .push(record))])
    // Past the banner's five seconds: the banner's card would show the thumbnail too.
    _ = reduce(into: &state, .tick(start + .seconds(10)))
    _ = reduce(into: &state, .command(.openCenter))
    _ = reduce(into: &state, .command(.activate))
    let grid = render(state, size: Size(columns: 80, rows: 30), theme: .builtInDefault)
    let text = grid.textDump()
    #expect(text.contains("📷 photo · PNG image · 77 bytes"))
    #expect(text.contains("🔊 voice · WAV audio · 4 KB"))
    #expect(text.contains("🎬 clip · MP4 movie · 3.0 MB"))
    #expect(text.contains("Cannot show the image: PNG: the file ends early (truncated)"))
    var blocks: [Cell] = []
    for row in 0..<grid.height {
      for column in 0..<grid.width where grid[column, row].content == .glyph("▀", columns: 1) {
        blocks.append(grid[column, row])
      }
    }
    // 4×4 pixels: 4 columns by 2 rows; the upper row red on red, the lower blue on blue.
    #expect(blocks.count == 8)
    #expect(
      blocks.prefix(4).allSatisfy { $0.style.foreground == .indexed256(196) && $0.style.background == .indexed256(196) }
    )
    #expect(
      blocks.suffix(4).allSatisfy { $0.style.foreground == .indexed256(21) && $0.style.background == .indexed256(21) })
    _ = reduce(into: &state, .command(.toggleInspector))
    let inspected = render(state, size: Size(columns: 120, rows: 40), theme: .builtInDefault).textDump()
    #expect(inspected.contains("Attachments"))
    #expect(inspected.contains("thumbnail 4×4 px"))
    #expect(inspected.contains("cannot show the image: PNG: the file ends early"))
  }
}

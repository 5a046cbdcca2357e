import CPangoCairo
import CRsvg

/// Text elements that hold emoji, drawn by Pango in colour and put back as images.
///
/// librsvg 2.54 (Debian 12's) fills text as outlines, and a colour emoji font's glyphs are
/// bitmaps: they come out as flat silhouettes. Pango with cairo draws them as the font's colour
/// bitmaps, so before librsvg sees the SVG each `<text>` holding an emoji becomes an `<image>`
/// of that run drawn by Pango (a PNG data URI) at the same place, size, weight, colour and
/// anchor, in the same place in the document, so what is drawn over it still covers it
/// (docs/DECISIONS.md, Phone mockups). Only the picture handed to librsvg changes; the SVG
/// output keeps its text.
///
/// The scanner reads the SVG pushdeck writes (one `<text>` per string, escaped content);
/// anything else passes through untouched.
struct EmojiText {
  var x: Double
  var y: Double
  var size: Double
  var weight: Int
  var fill: (Double, Double, Double)
  var opacity: Double
  var anchor: String
  var text: String

  /// Whether a string holds a character that is drawn as an emoji.
  static func hasEmoji(_ text: String) -> Bool {
    var previous: Unicode.Scalar?
    for scalar in text.unicodeScalars {
      if scalar.properties.isEmojiPresentation { return true }
      if scalar == "\u{FE0F}", let previous, previous.properties.isEmoji { return true }
      previous = scalar
    }
    return false
  }

  /// The SVG with each text element holding an emoji replaced by an image of it.
  ///
  /// - Parameter scale: pixels per SVG unit of the final picture, so the images are sharp.
  static func replacingWithImages(_ svg: String, scale: Double) -> String {
    guard hasEmoji(svg) else { return svg }
    var output = ""
    output.reserveCapacity(svg.utf8.count)
    var rest = Substring(svg)
    while let open = rest.firstRange(of: "<text") {
      output += rest[..<open.lowerBound]
      rest = rest[open.lowerBound...]
      guard let close = rest.firstIndex(of: ">"), let end = rest.firstRange(of: "</text>") else { break }
      let tag = rest[...close]
      let content = unescape(rest[rest.index(after: close)..<end.lowerBound])
      if hasEmoji(content) {
        let text = EmojiText(
          x: attribute("x", in: tag).flatMap(Double.init) ?? 0,
          y: attribute("y", in: tag).flatMap(Double.init) ?? 0,
          size: attribute("font-size", in: tag).flatMap(Double.init) ?? 16,
          weight: attribute("font-weight", in: tag).flatMap(Int.init) ?? 400,
          fill: color(attribute("fill", in: tag) ?? "#000000"),
          opacity: attribute("fill-opacity", in: tag).flatMap(Double.init) ?? 1,
          anchor: attribute("text-anchor", in: tag) ?? "start", text: content)
        if let image = text.image(scale: scale) {
          output += image
          rest = rest[end.upperBound...]
          continue
        }
      }
      output += rest[..<end.upperBound]
      rest = rest[end.upperBound...]
    }
    output += rest
    return output
  }

  /// The value of `name="…"` in a tag.
  static func attribute(_ name: String, in tag: Substring) -> String? {
    guard let range = tag.firstRange(of: " " + name + "=\"") else { return nil }
    let value = tag[range.upperBound...]
    guard let end = value.firstIndex(of: "\"") else { return nil }
    return String(value[..<end])
  }

  static func unescape(_ text: Substring) -> String {
    guard text.contains("&") else { return String(text) }
    return String(
      text.replacingOccurrences("&lt;", "<").replacingOccurrences("&gt;", ">")
        .replacingOccurrences("&quot;", "\"").replacingOccurrences("&#39;", "'").replacingOccurrences("&amp;", "&"))
  }

  /// `#rrggbb` as 0…1 components (black for anything else).
  static func color(_ text: String) -> (Double, Double, Double) {
    let digits = Array(text.utf8.dropFirst())
    guard text.hasPrefix("#"), digits.count == 6, let value = UInt32(String(decoding: digits, as: UTF8.self), radix: 16)
    else { return (0, 0, 0) }
    return (Double(value >> 16 & 0xFF) / 255, Double(value >> 8 & 0xFF) / 255, Double(value & 0xFF) / 255)
  }

  static let family = "Inter, Helvetica Neue, sans-serif"

  /// The layout of the text on a context, with its width and baseline in SVG units.
  private func layout(on context: OpaquePointer) -> (OpaquePointer, width: Double, height: Double, baseline: Double)? {
    guard let layout = pango_cairo_create_layout(context) else { return nil }
    guard let description = pango_font_description_new() else {
      g_object_unref(UnsafeMutableRawPointer(layout))
      return nil
    }
    defer { pango_font_description_free(description) }
    pango_font_description_set_family(description, Self.family)
    pango_font_description_set_weight(description, PangoWeight(rawValue: UInt32(min(max(weight, 100), 1000))))
    pango_font_description_set_absolute_size(description, min(max(size, 1), 1000) * 1024)
    pango_layout_set_font_description(layout, description)
    pango_layout_set_text(layout, text, -1)
    var ink = PangoRectangle()
    var logical = PangoRectangle()
    pango_layout_get_extents(layout, &ink, &logical)
    return (
      layout, Double(logical.width) / 1024, Double(logical.height) / 1024,
      Double(pango_layout_get_baseline(layout)) / 1024
    )
  }

  /// An `<image>` of the text drawn by Pango, placed where the text element would be drawn.
  func image(scale: Double) -> String? {
    // Measure on a scratch context, then draw on a surface of the run's size.
    guard let scratch = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1) else { return nil }
    defer { cairo_surface_destroy(scratch) }
    guard let measure = cairo_create(scratch) else { return nil }
    defer { cairo_destroy(measure) }
    // Measured at the scale it is drawn at: hinted metrics differ between sizes.
    cairo_scale(measure, scale, scale)
    guard let (measured, width, height, baseline) = layout(on: measure) else { return nil }
    g_object_unref(UnsafeMutableRawPointer(measured))
    let pixelWidth = Int32((width * scale).rounded(.up))
    let pixelHeight = Int32((height * scale).rounded(.up))
    guard pixelWidth > 0, pixelHeight > 0, pixelWidth <= 8192, pixelHeight <= 8192 else { return nil }
    guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, pixelWidth, pixelHeight) else { return nil }
    defer { cairo_surface_destroy(surface) }
    guard let context = cairo_create(surface) else { return nil }
    defer { cairo_destroy(context) }
    cairo_scale(context, scale, scale)
    guard let (layout, _, _, _) = layout(on: context) else { return nil }
    defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
    cairo_set_source_rgba(context, fill.0, fill.1, fill.2, min(max(opacity, 0), 1))
    cairo_move_to(context, 0, 0)
    pango_cairo_show_layout(context, layout)
    cairo_surface_flush(surface)
    guard let png = PNGRasterizer.pngBytes(of: surface) else { return nil }
    let shift = anchor == "middle" ? width / 2 : (anchor == "end" ? width : 0)
    func n(_ value: Double) -> String { String((value * 100).rounded() / 100) }
    return "<image x=\"\(n(x - shift))\" y=\"\(n(y - baseline))\" width=\"\(n(width))\" height=\"\(n(height))\""
      + " preserveAspectRatio=\"none\" href=\"data:image/png;base64,\(Base64.encode(png))\"/>"
  }
}

/// Base64 (RFC 4648), for the PNG data URIs.
enum Base64 {
  private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

  static func encode(_ bytes: [UInt8]) -> String {
    var out: [UInt8] = []
    out.reserveCapacity((bytes.count + 2) / 3 * 4)
    var index = 0
    while index + 2 < bytes.count {
      let value = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
      for shift in [18, 12, 6, 0] { out.append(alphabet[Int(value >> UInt32(shift) & 63)]) }
      index += 3
    }
    let left = bytes.count - index
    if left > 0 {
      var value = UInt32(bytes[index]) << 16
      if left == 2 { value |= UInt32(bytes[index + 1]) << 8 }
      out.append(alphabet[Int(value >> 18 & 63)])
      out.append(alphabet[Int(value >> 12 & 63)])
      out.append(left == 2 ? alphabet[Int(value >> 6 & 63)] : UInt8(ascii: "="))
      out.append(UInt8(ascii: "="))
    }
    return String(decoding: out, as: UTF8.self)
  }
}

extension Substring {
  fileprivate func replacingOccurrences(_ target: String, _ replacement: String) -> Substring {
    var result = ""
    var rest = self
    while let range = rest.firstRange(of: target) {
      result += rest[..<range.lowerBound]
      result += replacement
      rest = rest[range.upperBound...]
    }
    result += rest
    return Substring(result)
  }
}

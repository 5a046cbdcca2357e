import CPangoCairo
import CRsvg

/// Rasterizes SVG to PNG in-process with librsvg and cairo (docs/DECISIONS.md, Phone mockups):
/// text is laid out by Pango with fontconfig, so colour emoji come from Noto Color Emoji and
/// text from Inter where Debian's packages are installed.
public enum PNGRasterizer {
  /// Why an SVG could not be rasterized.
  public struct Failure: Error, CustomStringConvertible {
    public var description: String
  }

  /// The largest side of a PNG, in pixels (a storyboard of many frames at scale 2 stays under it).
  public static let maxSide = 32_000

  /// Renders an SVG document to PNG bytes.
  ///
  /// - Parameters:
  ///   - svg: the document; its root's `width` and `height` give the picture's size in pixels
  ///     at scale 1.
  ///   - scale: pixels per SVG unit (2 for a Retina-like picture); from 0.1 to 4.
  /// - Throws: ``Failure`` when librsvg rejects the document, the size is out of range or
  ///   cairo fails.
  public static func png(svg: String, scale: Double = 2) throws(Failure) -> [UInt8] {
    guard scale.isFinite, scale >= 0.1, scale <= 4 else {
      throw Failure(description: "the scale must be between 0.1 and 4, not \(scale)")
    }
    var error: UnsafeMutablePointer<GError>?
    // Runs with emoji become images Pango draws in colour (EmojiText).
    let bytes = Array(EmojiText.replacingWithImages(svg, scale: scale).utf8)
    let handle = bytes.withUnsafeBufferPointer { buffer in
      rsvg_handle_new_from_data(buffer.baseAddress, gsize(buffer.count), &error)
    }
    guard let handle else { throw Failure(description: "librsvg: " + take(error)) }
    defer { g_object_unref(UnsafeMutableRawPointer(handle)) }
    var hasWidth: gboolean = 0
    var hasHeight: gboolean = 0
    var hasViewBox: gboolean = 0
    var width = RsvgLength()
    var height = RsvgLength()
    var viewBox = RsvgRectangle()
    rsvg_handle_get_intrinsic_dimensions(handle, &hasWidth, &width, &hasHeight, &height, &hasViewBox, &viewBox)
    var size = (width: hasWidth != 0 ? width.length : 0, height: hasHeight != 0 ? height.length : 0)
    if (size.width <= 0 || size.height <= 0), hasViewBox != 0 { size = (viewBox.width, viewBox.height) }
    let pixelWidth = (size.width * scale).rounded(.up)
    let pixelHeight = (size.height * scale).rounded(.up)
    guard pixelWidth >= 1, pixelHeight >= 1, pixelWidth <= Double(maxSide), pixelHeight <= Double(maxSide) else {
      // Whole pixels, written without a conversion that could trap on a huge size.
      let shown = [pixelWidth, pixelHeight].map { abs($0) < 1e15 ? "\(Int64($0))" : "\($0)" }
      let largest = max(size.width, size.height)
      let fits = largest > 0 ? (Double(maxSide) / largest * 100).rounded(.down) / 100 : 0
      let advice = fits >= 0.01 ? " (a scale of at most \(fits) fits)" : ""
      throw Failure(
        description:
          "the picture would be \(shown[0])×\(shown[1]) pixels; each side must be 1 to \(maxSide)\(advice)")
    }
    guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(pixelWidth), Int32(pixelHeight))
    else { throw Failure(description: "cairo could not make a surface") }
    defer { cairo_surface_destroy(surface) }
    guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let context = cairo_create(surface) else {
      throw Failure(
        description: "cairo could not make a \(Int(pixelWidth))×\(Int(pixelHeight)) surface (out of memory?)")
    }
    defer { cairo_destroy(context) }
    var viewport = RsvgRectangle(x: 0, y: 0, width: pixelWidth, height: pixelHeight)
    guard rsvg_handle_render_document(handle, context, &viewport, &error) != 0 else {
      throw Failure(description: "librsvg: " + take(error))
    }
    cairo_surface_flush(surface)
    guard let png = pngBytes(of: surface) else { throw Failure(description: "cairo could not write the PNG") }
    return png
  }

  /// A cairo image surface as PNG bytes, or nil when cairo fails.
  static func pngBytes(of surface: OpaquePointer) -> [UInt8]? {
    final class Sink { var bytes: [UInt8] = [] }
    let sink = Sink()
    let status = cairo_surface_write_to_png_stream(
      surface,
      { closure, data, length in
        guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
        let sink = Unmanaged<Sink>.fromOpaque(closure).takeUnretainedValue()
        sink.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
        return CAIRO_STATUS_SUCCESS
      }, Unmanaged.passUnretained(sink).toOpaque())
    guard status == CAIRO_STATUS_SUCCESS else { return nil }
    return withExtendedLifetime(sink) { sink.bytes }
  }

  private static func take(_ error: UnsafeMutablePointer<GError>?) -> String {
    guard let error else { return "unknown error" }
    defer { g_error_free(error) }
    return error.pointee.message.map { String(cString: $0) } ?? "unknown error"
  }
}

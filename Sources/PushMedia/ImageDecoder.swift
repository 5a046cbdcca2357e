import CJPEG
import CPNG
import Foundation
import PushCore

/// Why an image could not be decoded, for a person: what the file is and what went wrong.
public struct ImageDecodeError: Error, Equatable, Sendable, CustomStringConvertible {
  public var message: String
  public var description: String { message }
}

/// Decodes PNG and JPEG files through Debian's libpng and libjpeg (the `CPNG` and `CJPEG`
/// system libraries) and makes the small thumbnails the front end draws. A bad file is an
/// error value with libpng's or libjpeg's message, never a crash or an exit.
public enum ImageDecoder {
  /// The largest PNG side decoded, and of a JPEG after libjpeg's scaling (bigger images are
  /// refused before their pixels are allocated).
  public static let maxSide = 4096

  /// Decodes PNG or JPEG bytes, chosen by their signature, to RGB.
  public static func decode(_ bytes: [UInt8]) -> Result<ImageThumbnail, ImageDecodeError> {
    var pixels: UnsafeMutablePointer<UInt8>?
    var width: UInt32 = 0
    var height: UInt32 = 0
    var message = [CChar](repeating: 0, count: 256)
    let isPNG = bytes.starts(with: [0x89, 0x50, 0x4E, 0x47])
    let isJPEG = bytes.starts(with: [0xFF, 0xD8, 0xFF])
    guard isPNG || isJPEG else {
      return .failure(ImageDecodeError(message: "not a PNG or JPEG file"))
    }
    let status = bytes.withUnsafeBufferPointer { buffer in
      message.withUnsafeMutableBufferPointer { text in
        isPNG
          ? pushdeck_png_decode_rgb(
            buffer.baseAddress, buffer.count, UInt32(maxSide), &pixels, &width, &height, text.baseAddress, text.count)
          // libjpeg scales by up to 1/8 while decoding, so a JPEG may be 8 times larger.
          : pushdeck_jpeg_decode_rgb(
            buffer.baseAddress, buffer.count, 64, UInt32(maxSide * 8), &pixels, &width, &height, text.baseAddress,
            text.count)
      }
    }
    defer { free(pixels) }
    guard status == 0, let pixels, width > 0, height > 0 else {
      let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      return .failure(ImageDecodeError(message: (isPNG ? "PNG: " : "JPEG: ") + (text.isEmpty ? "cannot decode" : text)))
    }
    let count = Int(width) * Int(height) * 3
    return .success(
      ImageThumbnail(
        width: Int(width), height: Int(height), rgb: Array(UnsafeBufferPointer(start: pixels, count: count))))
  }

  /// Shrinks an image (box filter) so neither side exceeds `maxSide`, keeping its shape.
  public static func shrink(_ image: ImageThumbnail, maxSide: Int) -> ImageThumbnail {
    let longer = max(image.width, image.height)
    guard longer > maxSide, maxSide > 0 else { return image }
    let width = max(1, image.width * maxSide / longer)
    let height = max(1, image.height * maxSide / longer)
    var rgb = [UInt8](repeating: 0, count: width * height * 3)
    for y in 0..<height {
      let top = y * image.height / height
      let bottom = max(top + 1, (y + 1) * image.height / height)
      for x in 0..<width {
        let left = x * image.width / width
        let right = max(left + 1, (x + 1) * image.width / width)
        var sums = (0, 0, 0)
        for row in top..<bottom {
          for column in left..<right {
            let pixel = image.pixel(column, row)
            sums.0 += Int(pixel.red)
            sums.1 += Int(pixel.green)
            sums.2 += Int(pixel.blue)
          }
        }
        let area = (bottom - top) * (right - left)
        let offset = (y * width + x) * 3
        rgb[offset] = UInt8(sums.0 / area)
        rgb[offset + 1] = UInt8(sums.1 / area)
        rgb[offset + 2] = UInt8(sums.2 / area)
      }
    }
    return ImageThumbnail(width: width, height: height, rgb: rgb)
  }

  /// The attachment with its thumbnail (at most `maxSide` pixels a side) or the reason there is
  /// none; audio and movies are returned as they are.
  public static func withThumbnail(_ attachment: NotificationAttachment, maxSide: Int = 64) -> NotificationAttachment {
    guard attachment.kind == .image else { return attachment }
    var result = attachment
    guard attachment.type == "png" || attachment.type == "jpeg" else {
      result.thumbnailProblem = "\(attachment.type.uppercased()) images are not drawn; PNG and JPEG are"
      return result
    }
    guard let data = FileManager.default.contents(atPath: attachment.path) else {
      result.thumbnailProblem = "cannot read the file"
      return result
    }
    switch decode([UInt8](data)) {
    case .success(let image): result.thumbnail = shrink(image, maxSide: maxSide)
    case .failure(let error): result.thumbnailProblem = error.message
    }
    return result
  }
}

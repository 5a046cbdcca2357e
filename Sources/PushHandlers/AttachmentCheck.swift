import Foundation
import PushCore

/// The device's check of the attachments a service extension hands back, after
/// `UNNotificationAttachment`: a file URL, a recognised type (found from the file's first
/// bytes) and the type's size limit (images 10 MB, audio 5 MB, movies 50 MB). What fails is
/// refused with the `UNErrorDomain` code iOS would give, and the notification shows without it.
public enum AttachmentCheck {
  /// The type of a file from its first bytes: (kind, type name), or nil when unrecognised.
  public static func sniff(_ head: [UInt8]) -> (kind: NotificationAttachment.Kind, type: String)? {
    func starts(_ bytes: [UInt8], at offset: Int = 0) -> Bool {
      head.count >= offset + bytes.count && Array(head[offset..<offset + bytes.count]) == bytes
    }
    func ascii(_ text: String, at offset: Int = 0) -> Bool { starts(Array(text.utf8), at: offset) }
    if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return (.image, "png") }
    if starts([0xFF, 0xD8, 0xFF]) { return (.image, "jpeg") }
    if ascii("GIF87a") || ascii("GIF89a") { return (.image, "gif") }
    if ascii("FORM") && (ascii("AIFF", at: 8) || ascii("AIFC", at: 8)) { return (.audio, "aiff") }
    if ascii("RIFF") && ascii("WAVE", at: 8) { return (.audio, "wav") }
    if ascii("RIFF") && ascii("AVI ", at: 8) { return (.movie, "avi") }
    if ascii("ID3") || (head.count >= 2 && head[0] == 0xFF && head[1] & 0xE0 == 0xE0 && head[1] & 0x06 != 0) {
      return (.audio, "mp3")
    }
    if ascii("ftyp", at: 4) {
      return ascii("M4A ", at: 8) || ascii("M4B ", at: 8) ? (.audio, "m4a") : (.movie, "mp4")
    }
    if starts([0x00, 0x00, 0x01, 0xBA]) || starts([0x00, 0x00, 0x01, 0xB3]) { return (.movie, "mpeg") }
    return nil
  }

  /// `10 MB`, `10.5 MB`, `900 KB`, `12 bytes`.
  static func size(_ bytes: Int) -> String {
    if bytes < 1024 { return "\(bytes) bytes" }
    if bytes < 1024 * 1024 { return "\(bytes / 1024) KB" }
    let tenths = Int((Double(bytes) / 1024 / 1024 * 10).rounded(.down))
    return tenths % 10 == 0 ? "\(tenths / 10) MB" : "\(tenths / 10).\(tenths % 10) MB"
  }

  /// The local path a URL or path names, or nil when it is not a file URL.
  static func localPath(_ url: String) -> String? {
    if url.hasPrefix("/") { return url }
    guard url.lowercased().hasPrefix("file://") else { return nil }
    let rest = String(url.dropFirst("file://".count))
    let path = rest.hasPrefix("/") ? rest : "/" + rest.drop { $0 != "/" }
    return path.removingPercentEncoding ?? path
  }

  /// Checks requested attachments: the accepted ones (with kind, type and size), and a
  /// message for each refused one.
  public static func check(_ requested: [NotificationAttachment]) -> (
    accepted: [NotificationAttachment], refused: [String]
  ) {
    var accepted: [NotificationAttachment] = []
    var refused: [String] = []
    for attachment in requested {
      let name = "Attachment \(JSONValue.quoted(attachment.identifier))"
      guard let path = localPath(attachment.path) else {
        refused.append(
          "\(name) refused (attachmentInvalidURL, 100): \(ToastTextSafe.clip(attachment.path)) is not a file URL; an extension downloads remote media first."
        )
        continue
      }
      guard let handle = FileHandle(forReadingAtPath: path),
        let attributes = try? FileManager.default.attributesOfItem(atPath: path),
        (attributes[.type] as? FileAttributeType) == .typeRegular
      else {
        refused.append("\(name) refused (attachmentInvalidURL, 100): cannot read \(ToastTextSafe.clip(path)).")
        continue
      }
      let head = [UInt8]((try? handle.read(upToCount: 16)) ?? Data())
      try? handle.close()
      let byteCount = (attributes[.size] as? NSNumber)?.intValue ?? 0
      guard let (kind, type) = sniff(head) else {
        refused.append(
          "\(name) refused (attachmentUnrecognizedType, 101): \(ToastTextSafe.clip((path as NSString).lastPathComponent)) is not a JPEG, GIF or PNG image, AIFF, WAV, MP3 or MPEG-4 audio, or MPEG, MPEG-4 or AVI movie."
        )
        continue
      }
      guard byteCount > 0, byteCount <= kind.maxBytes else {
        refused.append(
          "\(name) refused (attachmentInvalidFileSize, 102): the \(type) \(kind.rawValue) is \(size(byteCount)); \(kind.rawValue) attachments may be at most \(size(kind.maxBytes))."
        )
        continue
      }
      accepted.append(
        NotificationAttachment(
          identifier: attachment.identifier, path: path, kind: kind, type: type, byteCount: byteCount))
    }
    return (accepted, refused)
  }
}

/// Untrusted text in messages: control characters dropped, long text cut.
enum ToastTextSafe {
  static func clip(_ text: String, limit: Int = 120) -> String {
    let clean = String(
      String.UnicodeScalarView(text.unicodeScalars.filter { $0.value >= 0x20 && !(0x7F...0x9F).contains($0.value) }))
    return clean.count > limit ? String(clean.prefix(limit)) + "…" : clean
  }
}

import PushCore
import PushUI
import PushWire
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Reads capture lines again for a lean timeline (``TimelineStore``): each regular capture file
/// stays open, and a line is read with `pread` and decoded as the reader first decoded it
/// (same file name, line number, custom keys and default app), so the push played is the same.
package final class CaptureLines: CaptureLineSource {
  private struct File {
    var descriptor: Int32
    var displayPath: String
  }

  private let files: [File?]
  private let keepsCustomValues: Bool
  /// A token tape reused from line to line: a line's tape grew from empty, by doubling, every
  /// time (a tenth of a long seek's allocations).
  private let scratch = Mutex<[JSONToken]>([])
  /// The largest tape kept between lines (a line of some 30 KB).
  static let keptTokenCapacity = 4_096

  /// Opens every input that is a regular capture file (the others are kept whole by the reader).
  package init(_ inputs: [ResolvedInput], keepsCustomValues: Bool) {
    files = inputs.map { input in
      guard let path = input.path, input.format == .capture, fileKind(path) == S_IFREG else { return nil }
      let descriptor = RawPath.openForReading(path)
      return descriptor >= 0 ? File(descriptor: descriptor, displayPath: input.displayPath) : nil
    }
    self.keepsCustomValues = keepsCustomValues
  }

  deinit {
    for file in files { if let file { close(file.descriptor) } }
  }

  /// Whether input `index` is read again from its file (its lines may be kept as references).
  package func rereads(_ index: Int) -> Bool { index < files.count && files[index] != nil }

  /// The bytes from `offset` to the end of a line that ends before `offset + length` (a
  /// reference may start at the previous line's end: blank lines and the newline are cut).
  package static func lastLine(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
    var end = bytes.endIndex
    if end > bytes.startIndex, bytes[end - 1] == UInt8(ascii: "\n") { end -= 1 }
    if end > bytes.startIndex, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
    // Over the raw bytes, not `lastIndex(of:)`: the line is scanned whole, and byte by byte
    // through the slice's index that took a thirtieth of a long seek.
    let newline = bytes[bytes.startIndex..<end].withUnsafeBufferPointer { buffer -> Int? in
      var index = buffer.count
      while index > 0 {
        index -= 1
        if buffer[index] == UInt8(ascii: "\n") { return index }
      }
      return nil
    }
    let start = newline.map { bytes.startIndex + $0 + 1 } ?? bytes.startIndex
    return bytes[start..<end]
  }

  package func event(of line: CaptureLineRef) -> TimelineEvent {
    guard line.input < files.count, let file = files[line.input] else { return .advance }
    var bytes = [UInt8](repeating: 0, count: line.length)
    var done = 0
    while done < line.length {
      let count = bytes.withUnsafeMutableBytes { buffer in
        pread(file.descriptor, buffer.baseAddress! + done, line.length - done, off_t(line.offset + done))
      }
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { break }
      done += count
    }
    // The token tape is taken out while the line is decoded, so a second thread decoding at the
    // same moment starts a tape of its own instead of waiting.
    var tokens = scratch.withLock { kept in
      var taken: [JSONToken] = []
      swap(&taken, &kept)
      return taken
    }
    // A capture line is never given the payload files' default app (``PushRecord/takesDefaultApp``).
    var names = NameCache()
    let record = PushReader.readCaptureLine(
      Self.lastLine(bytes[0..<done]), lineNumber: line.line, source: file.displayPath,
      keepsCustomValues: keepsCustomValues, scratch: &tokens, names: &names)
    // A pathological line's tape (up to a million tokens) is not kept for the session.
    if tokens.capacity <= Self.keptTokenCapacity {
      scratch.withLock { kept in if kept.capacity < tokens.capacity { swap(&kept, &tokens) } }
    }
    return .device(.push(record))
  }
}

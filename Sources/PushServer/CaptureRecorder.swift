import PushWire
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Appends accepted pushes to a JSON Lines capture (`--record`), one envelope per line, so a
/// live session can be replayed exactly.
///
/// Each line is one `write(2)` to a descriptor opened with `O_APPEND`, under a lock: lines from
/// the event loop threads never interleave, and a line is on disk when the push is answered.
public final class CaptureRecorder: Sendable {
  private let descriptor: Mutex<Int32>

  /// Opens (creating if needed) the capture for appending.
  public init(path: String) throws(RecorderError) {
    let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw RecorderError(path: path, message: String(cString: strerror(errno))) }
    descriptor = Mutex(fd)
  }

  deinit { descriptor.withLock { _ = close($0) } }

  /// Appends one accepted push.
  public func append(_ record: PushRecord) {
    var line = APNsRequest.captureLine(record) + "\n"
    descriptor.withLock { fd in
      line.withUTF8 { bytes in
        var offset = 0
        while offset < bytes.count {
          let written = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
          if written < 0 {
            if errno == EINTR { continue }
            return
          }
          offset += written
        }
      }
    }
  }
}

/// A capture that could not be opened.
public struct RecorderError: Error, CustomStringConvertible {
  public var path: String
  public var message: String
  public var description: String { "\(path): \(message)" }
}

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
/// `serve` writes a group of lines (the pushes of one commit) with ``append(lines:)``: written
/// whole and synced with `fdatasync` before the pushes are answered, or cut back to where the
/// group started and reported. A capture therefore never holds a push that was answered with an
/// error, and ends in a torn line only after the process was killed in the middle of a write
/// (the next `serve --record` ends that line before it appends).
public final class CaptureRecorder: Sendable {
  private let descriptor: Mutex<Int32>
  /// The capture's path, for messages.
  public let path: String

  /// Opens (creating if needed) the capture for appending. A regular file that does not end in
  /// a newline (a line torn by a `kill -9` in the middle of a write) gets one first: its torn
  /// line stays, as a line of its own, and the next push starts a line of its own too. (It was
  /// appended to the torn line, so a push answered 200 was lost in a line no reader could read;
  /// found by an exploratory test.) The capture is opened for writing only: a pipe or FIFO
  /// still reports a reader that went away, and a file that cannot be read is still written.
  public init(path: String) throws(RecorderError) {
    self.path = path
    let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw RecorderError(path: path, message: String(cString: strerror(errno))) }
    var info = stat()
    if fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size > 0 {
      let reader = open(path, O_RDONLY | O_CLOEXEC)
      var last: UInt8 = UInt8(ascii: "\n")
      if reader >= 0 {
        _ = pread(reader, &last, 1, info.st_size - 1)
        close(reader)
      }
      if last != UInt8(ascii: "\n") {
        var newline = UInt8(ascii: "\n")
        guard write(fd, &newline, 1) == 1, fdatasync(fd) == 0 else {
          let message = String(cString: strerror(errno))
          close(fd)
          throw RecorderError(path: path, message: "cannot end its torn last line: " + message)
        }
      }
    }
    descriptor = Mutex(fd)
  }

  deinit { descriptor.withLock { _ = close($0) } }

  /// Appends one accepted push (one line), synced.
  public func append(_ record: PushRecord) throws(RecorderError) {
    try append(lines: Array((APNsRequest.captureLine(record) + "\n").utf8))
  }

  /// Appends whole lines and syncs them to disk.
  ///
  /// - Returns: the file's length before the lines, for ``cut(to:)``.
  /// - Throws: ``RecorderError`` when a write or the sync fails (a full disk, an I/O error): the
  ///   file is cut back to its length before the call, so no part of `lines` stays.
  @discardableResult
  public func append(lines: [UInt8]) throws(RecorderError) -> Int64 {
    var start: Int64 = 0
    let failure: Int32? = descriptor.withLock { fd in
      start = Int64(lseek(fd, 0, SEEK_END))
      guard !lines.isEmpty else { return nil }
      let code: Int32? = lines.withUnsafeBytes { bytes in
        var offset = 0
        while offset < bytes.count {
          let written = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
          if written < 0 {
            if errno == EINTR { continue }
            return errno
          }
          if written == 0 { return EIO }
          offset += written
        }
        return fdatasync(fd) == 0 ? nil : errno
      }
      if code != nil, start >= 0 {
        // Back to the line start: a short write leaves no torn line behind.
        _ = ftruncate(fd, off_t(start))
      }
      return code
    }
    if let failure { throw RecorderError(path: path, message: String(cString: strerror(failure))) }
    return start
  }

  /// Cuts the capture back to `length` (lines whose pushes could not be saved elsewhere).
  public func cut(to length: Int64) {
    descriptor.withLock { fd in
      _ = ftruncate(fd, off_t(length))
      _ = fdatasync(fd)
    }
  }
}

/// A capture that could not be opened or written.
public struct RecorderError: Error, CustomStringConvertible {
  public var path: String
  public var message: String
  public var description: String { "\(path): \(message)" }
}

import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An exclusive `flock` on a sidecar file (`device.sqlite.lock`), held while a journal is open.
///
/// The kernel drops the lock when the process dies, even by `kill -9`, so a stale lock never
/// blocks the next start. The holder writes its process id into the file, so a second Pushdeck
/// can say who holds it.
final class StateLock: Sendable {
  private let descriptor: Mutex<Int32>
  /// The lock file's path.
  let path: String

  /// Takes the lock, creating the file if needed.
  ///
  /// - Throws: ``StoreError/locked(path:holderPID:holder:)`` when another open journal holds it,
  ///   ``StoreError/unwritable(path:detail:)`` when the file cannot be created.
  init(path: String, databasePath: String, holder: String) throws(StoreError) {
    self.path = path
    let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
    guard fd >= 0 else {
      let code = errno
      throw .unwritable(path: directory(of: path), detail: errorText(code))
    }
    if flock(fd, LOCK_EX | LOCK_NB) != 0 {
      let code = errno
      let contents = readAll(fd)
      close(fd)
      if code == EWOULDBLOCK {
        let fields = contents.split(separator: " ", maxSplits: 1)
        let pid = fields.first.flatMap { Int32($0.trimmingSpaces) }
        let name = fields.count > 1 ? String(fields[1].trimmingSpaces) : nil
        throw .locked(path: databasePath, holderPID: pid, holder: name)
      }
      throw .unwritable(path: path, detail: errorText(code))
    }
    let text = "\(getpid()) \(holder)\n"
    _ = ftruncate(fd, 0)
    _ = text.withCString { pwrite(fd, $0, strlen($0), 0) }
    descriptor = Mutex(fd)
  }

  /// Releases the lock (idempotent).
  func release() {
    descriptor.withLock { fd in
      guard fd >= 0 else { return }
      // Leave the file in place: removing it would let a third process lock a new file while a
      // second one still waits on the old one.
      _ = flock(fd, LOCK_UN)
      close(fd)
      fd = -1
    }
  }

  deinit { release() }
}

/// The directory part of a path ("." for a bare name).
func directory(of path: String) -> String {
  guard let slash = path.lastIndex(of: "/") else { return "." }
  return slash == path.startIndex ? "/" : String(path[..<slash])
}

/// The C library's message for an `errno` value.
func errorText(_ code: Int32) -> String {
  String(cString: strerror(code))
}

private func readAll(_ fd: Int32) -> String {
  var buffer = [UInt8](repeating: 0, count: 256)
  let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
  return count > 0 ? String(decoding: buffer[..<count], as: UTF8.self) : ""
}

extension Substring {
  fileprivate var trimmingSpaces: Substring {
    var text = self
    while let last = text.last, last.isWhitespace { text = text.dropLast() }
    while let first = text.first, first.isWhitespace { text = text.dropFirst() }
    return text
  }
}

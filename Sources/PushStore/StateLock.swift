import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The state's exclusive lock, held while a journal is open: one per database *file*, whatever
/// the path it is opened by.
///
/// Two `flock`s: one on the database file itself, which is per inode, so a second Pushdeck
/// reaching the same file through a symlink or a hard link is refused too (a lock on a file named
/// after the path was walked around both ways: two `serve`s on one database, and through a hard
/// link SQLite kept two WALs and lost pushes); and one on `REALPATH.lock`, a sidecar beside the
/// resolved path, which holds the holder's process id and name for the message, and which
/// Pushdecks before this one lock. `flock` does not touch SQLite's own (POSIX) locks on Linux; the
/// descriptor on the database stays open until SQLite has closed it (closing it earlier would
/// drop SQLite's locks).
///
/// The kernel drops the locks when the process dies, even by `kill -9`, so a stale lock never
/// blocks the next start.
final class StateLock: Sendable {
  private let descriptors: Mutex<(database: Int32, sidecar: Int32)>
  /// The sidecar lock file's path (beside the database's resolved path).
  let path: String

  /// Takes the lock, creating the database file (empty: SQLite makes a new database of it) and
  /// the sidecar if needed.
  ///
  /// - Throws: ``StoreError/locked(path:holderPID:holder:)`` when another open journal holds it,
  ///   ``StoreError/unwritable(path:detail:)`` when the files cannot be created.
  init(databasePath: String, holder: String) throws(StoreError) {
    var database = open(databasePath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
    if database < 0, errno == EACCES || errno == EROFS {
      // A read-only file can still be locked; SQLite reports what it cannot write.
      database = open(databasePath, O_RDONLY | O_CLOEXEC)
    }
    guard database >= 0 else {
      let code = errno
      throw .unwritable(path: code == EISDIR ? databasePath : directory(of: databasePath), detail: errorText(code))
    }
    let resolved = realPath(databasePath) ?? databasePath
    path = resolved + ".lock"
    if flock(database, LOCK_EX | LOCK_NB) != 0 {
      let code = errno
      var status = stat()
      let identity = fstat(database, &status) == 0 ? status : nil
      close(database)
      guard code == EWOULDBLOCK else { throw .unwritable(path: databasePath, detail: errorText(code)) }
      let recorded = Self.readHolder(path)
      // The holder may have come by another name (a hard link): the kernel knows its process.
      let pid = identity.flatMap { flockHolder(device: $0.st_dev, inode: $0.st_ino) } ?? recorded.pid
      throw .locked(path: databasePath, holderPID: pid, holder: recorded.pid == pid ? recorded.name : nil)
    }
    let sidecar = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
    guard sidecar >= 0 else {
      let code = errno
      close(database)
      throw .unwritable(path: directory(of: path), detail: errorText(code))
    }
    if flock(sidecar, LOCK_EX | LOCK_NB) != 0 {
      // Held by an older Pushdeck, which locks only this file.
      let code = errno
      let recorded = Self.readHolder(path)
      close(sidecar)
      close(database)
      if code == EWOULDBLOCK { throw .locked(path: databasePath, holderPID: recorded.pid, holder: recorded.name) }
      throw .unwritable(path: path, detail: errorText(code))
    }
    let text = "\(getpid()) \(holder)\n"
    _ = ftruncate(sidecar, 0)
    _ = text.withCString { pwrite(sidecar, $0, strlen($0), 0) }
    descriptors = Mutex((database, sidecar))
  }

  /// The process id and name a lock file records.
  private static func readHolder(_ path: String) -> (pid: Int32?, name: String?) {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return (nil, nil) }
    defer { close(fd) }
    let fields = readAll(fd).split(separator: " ", maxSplits: 1)
    let pid = fields.first.flatMap { Int32($0.trimmingSpaces) }
    let name = fields.count > 1 ? String(fields[1].trimmingSpaces) : nil
    return (pid, name)
  }

  /// Releases the lock (idempotent). Call after SQLite has closed the database.
  func release() {
    descriptors.withLock { fds in
      guard fds.database >= 0 else { return }
      // Leave the files in place: removing the sidecar would let a third process lock a new file
      // while a second one still waits on the old one.
      _ = flock(fds.sidecar, LOCK_UN)
      close(fds.sidecar)
      _ = flock(fds.database, LOCK_UN)
      close(fds.database)
      fds = (-1, -1)
    }
  }

  deinit { release() }
}

/// The canonical absolute path of an existing file (symlinks resolved), nil when it cannot be.
func realPath(_ path: String) -> String? {
  guard let resolved = realpath(path, nil) else { return nil }
  defer { free(resolved) }
  return String(cString: resolved)
}

/// The process holding a `flock` on the file with this device and inode, from `/proc/locks`
/// (Linux); nil elsewhere or when none is listed.
func flockHolder(device: dev_t, inode: ino_t) -> Int32? {
  #if os(Linux)
    let fd = open("/proc/locks", O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var text: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    // Bounded: the table is small; 4 MiB is far beyond any real one.
    while text.count < 4 << 20 {
      let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if count <= 0 { break }
      text.append(contentsOf: buffer[..<count])
    }
    // "1: FLOCK  ADVISORY  WRITE 29212 fe:00:16220270 0 EOF": major and minor in hex.
    // glibc's `major()` and `minor()` (macros Swift does not import).
    let dev = UInt64(device)
    let major = (dev >> 8) & 0xFFF | (dev >> 32) & ~0xFFF
    let minor = dev & 0xFF | (dev >> 12) & ~0xFF
    for line in String(decoding: text, as: UTF8.self).split(separator: "\n") {
      let fields = line.split(separator: " ", omittingEmptySubsequences: true)
      guard fields.count >= 6, fields[1] == "FLOCK", fields[3] == "WRITE" else { continue }
      let id = fields[5].split(separator: ":")
      guard id.count == 3, UInt64(id[2]) == UInt64(inode), UInt64(id[0], radix: 16) == major,
        UInt64(id[1], radix: 16) == minor
      else { continue }
      return Int32(fields[4])
    }
    return nil
  #else
    return nil
  #endif
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

import Foundation

/// File names as the file system has them: bytes, not always UTF-8.
///
/// Swift's `String` replaces bytes that are not UTF-8 with U+FFFD, so a name such as `caf\xE9.json`
/// (Latin-1) could not be opened again once it was a `String`. Pushdeck keeps such a byte in its
/// path strings as one code point of Unicode's last private use plane, U+10FF80 + (byte - 0x80), and
/// turns it back into the byte whenever it calls the file system; people see it as `\xE9`.
package enum RawPath {
  /// The first of the 128 code points that stand for the bytes 0x80…0xFF.
  package static let escapeBase: UInt32 = 0x10_FF00

  /// A path string for file-system bytes: UTF-8 where they are, escapes for the other bytes.
  package static func string<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String where Bytes.Index == Int {
    if let text = String(validating: bytes, as: UTF8.self), !text.unicodeScalars.contains(where: isEscape) {
      return text
    }
    var scalars = String.UnicodeScalarView()
    var index = bytes.startIndex
    while index < bytes.endIndex {
      if let (scalar, length) = decode(bytes, at: index), !isEscape(scalar) {
        scalars.append(scalar)
        index += length
      } else {
        scalars.append(Unicode.Scalar(escapeBase + UInt32(bytes[index]))!)
        index += 1
      }
    }
    return String(scalars)
  }

  /// The file-system bytes of a path string (escapes back to their bytes), without a NUL.
  package static func bytes(_ path: String) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(path.utf8.count)
    for scalar in path.unicodeScalars {
      if isEscape(scalar) {
        bytes.append(UInt8(scalar.value - escapeBase))
      } else {
        bytes.append(contentsOf: String(scalar).utf8)
      }
    }
    return bytes
  }

  /// Calls `body` with the path as a NUL-terminated C string of its file-system bytes.
  package static func withCString<Result>(_ path: String, _ body: (UnsafePointer<CChar>) throws -> Result) rethrows
    -> Result
  {
    let bytes = self.bytes(path).map { CChar(bitPattern: $0) } + [0]
    return try bytes.withUnsafeBufferPointer { try body($0.baseAddress!) }
  }

  /// The path as people see it: each byte that is not UTF-8 as `\xE9`.
  package static func display(_ path: String) -> String {
    guard path.unicodeScalars.contains(where: isEscape) else { return path }
    var text = ""
    for scalar in path.unicodeScalars {
      if isEscape(scalar) {
        text += "\\x" + String(scalar.value - escapeBase, radix: 16, uppercase: true)
      } else {
        text.unicodeScalars.append(scalar)
      }
    }
    return text
  }

  /// The command line, with every argument's bytes kept (see the type's comment).
  package static func arguments() -> [String] {
    (0..<Int(CommandLine.argc)).map { index in
      guard let argument = CommandLine.unsafeArgv[index] else { return "" }
      return string(
        UnsafeBufferPointer(
          start: UnsafeRawPointer(argument).assumingMemoryBound(to: UInt8.self), count: strlen(argument)))
    }
  }

  /// Opens a file for reading; -1 (and `errno`) on failure.
  package static func openForReading(_ path: String) -> Int32 {
    withCString(path) { open($0, O_RDONLY) }
  }

  /// Whether the path itself is a symbolic link (not followed).
  package static func isSymbolicLink(_ path: String) -> Bool {
    var info = stat()
    return withCString(path, { lstat($0, &info) }) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
  }

  /// What a directory walk found: the names below it, relative to it (directories themselves
  /// left out, symbolic links to directories not followed), and the directories below it that
  /// could not be listed, with why.
  package struct Listing {
    package var files: [String] = []
    package var unlisted: [(path: String, reason: String)] = []
  }

  /// The names in a directory and below it (``Listing``), or nil when the directory itself
  /// cannot be listed.
  package static func files(under directory: String) -> Listing? {
    guard let stream = withCString(directory, { opendir($0) }) else { return nil }
    var names: [(name: String, isDirectory: Bool)] = []
    while let entry = readdir(stream) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw -> String in
        let bytes = raw.bindMemory(to: UInt8.self)
        return string(UnsafeBufferPointer(rebasing: bytes[0..<(bytes.firstIndex(of: 0) ?? bytes.count)]))
      }
      if name == "." || name == ".." { continue }
      var isDirectory = entry.pointee.d_type == UInt8(DT_DIR)
      if entry.pointee.d_type == UInt8(DT_UNKNOWN) {
        var info = stat()
        isDirectory =
          withCString(directory + "/" + name, { lstat($0, &info) }) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
      }
      names.append((name, isDirectory))
    }
    closedir(stream)
    var listing = Listing()
    for entry in names {
      if entry.isDirectory {
        // A folder below that cannot be listed is said, not passed over: what it holds was
        // never checked (found by an exploratory test: `validate .` exited 0).
        guard let inner = Self.files(under: directory + "/" + entry.name) else {
          listing.unlisted.append((entry.name, String(cString: strerror(errno))))
          continue
        }
        for file in inner.files { listing.files.append(entry.name + "/" + file) }
        for problem in inner.unlisted { listing.unlisted.append((entry.name + "/" + problem.path, problem.reason)) }
      } else {
        listing.files.append(entry.name)
      }
    }
    return listing
  }

  private static func isEscape(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value >= escapeBase + 0x80 && scalar.value <= escapeBase + 0xFF
  }

  /// One well-formed UTF-8 scalar at `index` and its length, or nil.
  private static func decode<Bytes: Collection<UInt8>>(_ bytes: Bytes, at index: Int) -> (Unicode.Scalar, Int)?
  where Bytes.Index == Int {
    let end = min(bytes.endIndex, index + 4)
    let slice = Array(bytes[index..<end])
    for length in 1...slice.count {
      if let text = String(validating: slice[0..<length], as: UTF8.self), let scalar = text.unicodeScalars.first,
        text.unicodeScalars.count == 1
      {
        return (scalar, length)
      }
    }
    return nil
  }
}

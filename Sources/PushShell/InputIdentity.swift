import PushStore

#if canImport(Glibc)
  import Glibc
#endif

/// What identifies a replayed file whatever it is called: its resolved path, its size, and its
/// first bytes (up to ``headLimit``), whose hash the state keeps with the replay's progress.
///
/// A capture that grew (lines appended) keeps its first bytes, so it is still the same capture;
/// one rewritten in place is not. See `docs/DECISIONS.md`, "Replay resumes".
package struct InputIdentity {
  /// How many of a file's first bytes identify it.
  package static let headLimit = 64 << 10

  /// The resolved path (`realpath`).
  package let path: String
  /// The file's size when it was looked at.
  package let size: Int64
  /// Its first `min(size, headLimit)` bytes.
  private let head: [UInt8]
  private let descriptor: Int32

  /// Looks at a regular file; nil for anything else (a FIFO, a device) or when it cannot be read.
  package init?(path given: String) {
    let descriptor = open(given, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard descriptor >= 0 else { return nil }
    var info = stat()
    guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
      Glibc.close(descriptor)
      return nil
    }
    let wanted = Int(min(Int64(info.st_size), Int64(Self.headLimit)))
    var head = [UInt8](repeating: 0, count: wanted)
    let count = head.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, wanted, 0) }
    guard count == wanted else {
      Glibc.close(descriptor)
      return nil
    }
    self.descriptor = descriptor
    self.head = head
    size = Int64(info.st_size)
    path = given.withCString { pointer in
      guard let resolved = realpath(pointer, nil) else { return given }
      defer { free(resolved) }
      return String(cString: resolved)
    }
  }

  /// Closes the file (the identity is not used afterwards).
  package func close() { _ = Glibc.close(descriptor) }

  /// How many first bytes a new progress row hashes.
  package var headBytes: Int { head.count }

  /// The hash of the file's first `count` bytes, or nil when it is shorter.
  package func hash(ofFirst count: Int) -> String? {
    guard count >= 0, count <= head.count else { return nil }
    // FNV-1a, 64 bits: inputs are told apart, not defended against.
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in head[..<count] {
      hash ^= UInt64(byte)
      hash = hash &* 0x0000_0100_0000_01b3
    }
    let hex = String(hash, radix: 16)
    return "fnv1a64:" + String(repeating: "0", count: 16 - hex.count) + hex
  }

  /// Whether `offset` is where a line of the file starts: its start, its end, or just after a
  /// newline.
  package func startsALine(at offset: Int64) -> Bool {
    if offset == 0 || offset == size { return true }
    guard offset > 0, offset < size else { return false }
    var byte: UInt8 = 0
    return pread(descriptor, &byte, 1, off_t(offset - 1)) == 1 && byte == UInt8(ascii: "\n")
  }

  /// Whether a saved progress row is this file as it was then: the same first bytes, no
  /// shorter than what was saved, and the saved offset at a line's start or at the end of a last
  /// line that had no newline yet (see ``resumePosition(after:)``).
  package func matches(_ progress: JournalBatch.SourceProgress) -> Bool {
    hash(ofFirst: progress.headBytes) == progress.headHash && progress.offset <= size
      && resumePosition(after: progress) != nil
  }

  /// Where reading goes on after a saved row: at its offset when that is a line's start.
  ///
  /// A row saved at the end of a file whose last line had no newline (a capture still being
  /// written, or one written without a final newline) ends inside a line once the file grows.
  /// When the next byte is that line's newline, the line was whole: reading goes on after it.
  /// Otherwise the line was cut short and has been written on since: it is read again from its
  /// start (it was rejected as cut short, so nothing of it was delivered). Before, such a row
  /// matched nothing and the whole capture was replayed again, delivering every push twice.
  package func resumePosition(after progress: JournalBatch.SourceProgress) -> CapturePosition? {
    let offset = progress.offset
    guard offset >= 0, offset <= size else { return nil }
    if startsALine(at: offset) { return CapturePosition(line: progress.line, offset: offset) }
    guard progress.line > 0 else { return nil }
    var byte: UInt8 = 0
    guard pread(descriptor, &byte, 1, off_t(offset)) == 1 else { return nil }
    if byte == UInt8(ascii: "\n") { return CapturePosition(line: progress.line, offset: offset + 1) }
    guard let start = lineStart(before: offset) else { return nil }
    return CapturePosition(line: progress.line - 1, offset: start)
  }

  /// The offset of the start of the line that holds the byte before `offset`: just after the
  /// newline before it, or 0.
  private func lineStart(before offset: Int64) -> Int64? {
    var end = offset
    var chunk = [UInt8](repeating: 0, count: 64 << 10)
    while end > 0 {
      let begin = max(0, end - Int64(chunk.count))
      let wanted = Int(end - begin)
      let count = chunk.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, wanted, off_t(begin)) }
      guard count == wanted else { return nil }
      if let newline = chunk[..<wanted].lastIndex(of: UInt8(ascii: "\n")) { return begin + Int64(newline) + 1 }
      end = begin
    }
    return 0
  }

  /// A progress row for this file, nothing of it read yet.
  package func newProgress(id: Int64) -> JournalBatch.SourceProgress {
    JournalBatch.SourceProgress(
      id: id, path: path, headBytes: headBytes, headHash: hash(ofFirst: headBytes) ?? "", line: 0, offset: 0)
  }
}

/// The inputs a state has replayed and how far, as loaded at the start of a replay and updated
/// as it goes (so an input named twice in one command is replayed once).
package struct ReplayedInputs {
  private(set) var known: [JournalBatch.SourceProgress]
  private var nextID: Int64

  package init(_ known: [JournalBatch.SourceProgress]) {
    self.known = known
    nextID = (known.map(\.id).max() ?? 0) + 1
  }

  /// The saved progress of the file, or a new row for it: a row of the same path first, then
  /// any row (the same capture moved or copied), newest first.
  package mutating func progress(of identity: InputIdentity) -> (progress: JournalBatch.SourceProgress, isKnown: Bool) {
    let byPath = known.reversed().first { $0.path == identity.path && identity.matches($0) }
    if let found = byPath ?? known.reversed().first(where: identity.matches) { return (found, true) }
    defer { nextID += 1 }
    return (identity.newProgress(id: nextID), false)
  }

  /// What the state holds of an earlier file at this path that this one does not match, when
  /// the file looks cut back rather than replaced: its first bytes are the saved ones and it
  /// ends before the saved position, or it is shorter than the bytes that were hashed (so
  /// whether it is a prefix cannot be told). Replayed as new, such a file delivered every push
  /// it still holds a second time. Nil when the path is new or now holds another capture (its
  /// first bytes differ), which is replayed as new.
  package func cutBack(_ identity: InputIdentity) -> JournalBatch.SourceProgress? {
    // The newest row of the path: what the state last read there.
    guard let row = known.last(where: { $0.path == identity.path && $0.offset > 0 }), !identity.matches(row) else {
      return nil
    }
    if identity.size < Int64(row.headBytes) { return row }
    return identity.hash(ofFirst: row.headBytes) == row.headHash && row.offset > identity.size ? row : nil
  }

  /// Whether the state read an earlier file at this path.
  package func knowsPath(_ path: String) -> Bool { known.contains { $0.path == path && $0.offset > 0 } }

  /// Records progress made in this replay.
  package mutating func update(_ progress: JournalBatch.SourceProgress) {
    if let index = known.firstIndex(where: { $0.id == progress.id }) {
      known[index] = progress
    } else {
      known.append(progress)
    }
  }
}

/// `65001` as `65,001`, for messages.
package func grouped(_ number: some BinaryInteger) -> String {
  let digits = String(number.magnitude)
  var out = ""
  for (index, character) in digits.enumerated() {
    if index > 0 && (digits.count - index) % 3 == 0 { out.append(",") }
    out.append(character)
  }
  return (number < 0 ? "-" : "") + out
}

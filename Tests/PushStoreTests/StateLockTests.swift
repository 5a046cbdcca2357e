import Foundation
import Testing

@testable import PushStore

#if canImport(Glibc)
  import Glibc
#endif

/// Issue 16 §4: the state lock is one per database file, whatever path reaches it. It was a
/// file named after the path (`PATH.lock`), so a symlink or a hard link to the database walked
/// around it: two `serve`s on one database, and through a hard link two WALs and lost pushes.
@Suite struct StateLockTests {
  @Test func aSymlinkToAHeldStateIsRefused() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.file("device.sqlite")
    let link = directory.file("link.sqlite")
    let first = try DeviceJournal.open(at: path, options: .init(writer: "Pushdeck test"))
    #expect(symlink(path, link) == 0)
    #expect(throws: StoreError.locked(path: link, holderPID: getpid(), holder: "Pushdeck test")) {
      try DeviceJournal.open(at: link)
    }
    try first.close()
    try DeviceJournal.open(at: link).close()
  }

  @Test func aSymlinkMadeBeforeTheStateExistsIsRefusedToo() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.file("device.sqlite")
    let link = directory.file("link.sqlite")
    #expect(symlink(path, link) == 0)  // dangling until the first open creates the database
    let first = try DeviceJournal.open(at: link, options: .init(writer: "Pushdeck test"))
    #expect(throws: StoreError.locked(path: path, holderPID: getpid(), holder: "Pushdeck test")) {
      try DeviceJournal.open(at: path)
    }
    try first.close()
  }

  @Test func aHardLinkToAHeldStateIsRefused() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try FileManager.default.createDirectory(atPath: directory.file("other"), withIntermediateDirectories: true)
    let path = directory.file("device.sqlite")
    let other = directory.file("other/same.sqlite")
    try DeviceJournal.open(at: path).close()
    #expect(link(path, other) == 0)
    let first = try DeviceJournal.open(at: path, options: .init(writer: "Pushdeck test"))
    do {
      _ = try DeviceJournal.open(at: other)
      Issue.record("a second journal opened the same file through a hard link")
    } catch {
      guard case .locked(let lockedPath, let pid, _) = error else {
        Issue.record("not a lock error: \(error)")
        return
      }
      #expect(lockedPath == other)
      #expect(pid == getpid(), "the holder is named")
      #expect(error.description.contains("in use by process \(getpid())"))
    }
    try first.close()
    try DeviceJournal.open(at: other).close()
  }
}

import GRDB
import GRDBSQLite
import Synchronization

#if canImport(Dispatch)
  import Dispatch
#endif

/// Runs a bulk writer's WAL checkpoints on a connection and a thread of their own.
///
/// A checkpoint copies the WAL into the database file and syncs it. SQLite's auto-checkpoint
/// does that on the writing connection, right after the commit that crossed the threshold, so a
/// replay's journal thread waited for a sync of tens of MiB every 64 MiB of WAL: a quarter of
/// its time at a million pushes. Here the writer's WAL hook only asks this checkpointer to run;
/// a `PASSIVE` checkpoint on a second connection copies and syncs while the writer goes on
/// appending (SQLite allows one checkpointer beside one writer in WAL mode), and the writer
/// starts the WAL over once a checkpoint has caught up.
///
/// Durability is unchanged: every commit is in the WAL before `commit` returns, as before, and a
/// checkpoint syncs what it copies. The WAL grows to three or four thresholds before it starts
/// over (about 250 MiB with replay's 64 MiB), never more: should the checkpoints fall behind (a
/// slow disk), the writer checkpoints by itself at four thresholds, as SQLite's auto-checkpoint
/// would have.
final class BackgroundCheckpointer: Sendable {
  private let connection: DatabaseQueue
  private let queue = DispatchQueue(label: "pushdeck.journal.checkpoint")
  /// The WAL size, in frames, that asks for a checkpoint.
  private let frames: Int
  private let running = Atomic<Bool>(false)
  /// The WAL's size when a checkpoint was last asked for (used by the writer's thread only).
  private let requestedAt = Atomic<Int>(0)
  /// How many frames of the WAL the last background checkpoint copied (0 after a restart).
  private let copiedTo = Atomic<Int>(0)

  /// Opens the second connection to a WAL database.
  init(path: String, frames: Int, synchronous: String) throws {
    var configuration = Configuration()
    configuration.label = "PushStore.checkpoint"
    configuration.prepareDatabase { db in
      // The writer's level: at NORMAL and FULL a checkpoint syncs the WAL, then the database file.
      try db.execute(sql: "PRAGMA synchronous = \(synchronous)")
    }
    connection = try DatabaseQueue(path: path, configuration: configuration)
    self.frames = max(frames, 1)
  }

  /// Makes this checkpointer the writer's WAL hook, in place of SQLite's auto-checkpoint.
  func install(on db: Database) {
    sqlite3_wal_hook(
      db.sqliteConnection,
      { context, handle, _, frames in
        guard let context else { return SQLITE_OK }
        Unmanaged<BackgroundCheckpointer>.fromOpaque(context).takeUnretainedValue()
          .committed(walFrames: Int(frames), writer: handle)
        return SQLITE_OK
      }, Unmanaged.passUnretained(self).toOpaque())
  }

  /// Removes the hook from the writer (before the writer closes; the hook does not retain this).
  func uninstall(from db: Database) {
    sqlite3_wal_hook(db.sqliteConnection, nil, nil)
  }

  /// Waits for a running checkpoint and closes the connection.
  func close() throws {
    queue.sync {}
    try connection.close()
  }

  /// Called on the writer's thread after each commit, with the WAL's size in frames.
  ///
  /// A checkpoint is asked for each time the WAL has grown by the threshold since the last
  /// request. The WAL starts over only when a writer begins with every frame copied, which a
  /// checkpoint beside a busy writer seldom leaves it: so once the WAL holds three thresholds
  /// and the last checkpoint asked for is done, the writer copies the few frames written
  /// meanwhile itself, and the WAL starts over at its next commit. Four thresholds is the hard
  /// limit: the writer then checkpoints whatever the background ones have done.
  private func committed(walFrames: Int, writer: OpaquePointer?) {
    var requested = requestedAt.load(ordering: .relaxed)
    if walFrames < requested {
      // The WAL started over.
      requested = 0
      requestedAt.store(0, ordering: .relaxed)
      copiedTo.store(0, ordering: .relaxed)
    }
    let idle = !running.load(ordering: .acquiring)
    let copied = copiedTo.load(ordering: .relaxed)
    if walFrames >= 4 * frames || (requested >= 3 * frames && idle && copied >= requested) {
      // Behind (or a checkpoint just finished): wait for a running one, which would make this
      // one busy, then copy the rest here.
      if !idle { queue.sync {} }
      sqlite3_wal_checkpoint_v2(writer, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
      return
    }
    guard walFrames - requested >= frames,
      running.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
    else { return }
    requestedAt.store(walFrames, ordering: .relaxed)
    queue.async {
      let result = try? self.connection.writeWithoutTransaction { db in try db.checkpoint(.passive) }
      if let result { self.copiedTo.store(result.checkpointedFrameCount, ordering: .relaxed) }
      self.running.store(false, ordering: .releasing)
    }
  }
}

import Dispatch
import Foundation
import PushCore
import PushHandlers
import PushStore
import PushWire
import Synchronization

/// Commits journal batches on a background queue while the device goes on with the next pushes,
/// with at most two batches waiting, so the database's work overlaps the simulation's.
///
/// A batch is durable once its commit returns; a replay killed mid-way keeps every batch
/// committed before (at most two batches, 2,000 pushes by default, are still pending).
package final class BackgroundCommitter: Sendable {
  /// Used from the queue only.
  private let journal: DeviceJournal
  private let queue = DispatchQueue(label: "pushdeck.replay.journal")
  private let slots = DispatchSemaphore(value: 2)
  private let firstError = Mutex<String?>(nil)
  /// Whether each commit is reported on standard error, and how many pushes are saved so far
  /// (counted on the queue only).
  private let reportsProgress: Bool
  private let saved = Atomic<Int>(0)

  /// The reason lists the journal's batches share (new ones numbered after the journal's).
  package let reasonLists: ReasonLists

  package init(journal: DeviceJournal, reportsProgress: Bool = false) throws(StoreError) {
    self.journal = journal
    self.reportsProgress = reportsProgress
    reasonLists = ReasonLists(firstID: try journal.nextReasonListID())
  }

  /// The first commit that failed, if any; later batches are not written.
  package var failure: String? { firstError.withLock { $0 } }

  /// Committed batches whose deliveries were packed on commit (``JournalBatch/packsOnCommit``),
  /// handed back so that their records are freed by the thread that made them (``releaseCommitted()``):
  /// freed on the journal's thread, their memory went back across threads, which cost more
  /// than packing them.
  private let committed = Mutex<[JournalBatch]>([])

  /// Frees, on the calling thread, the batches committed since the last call (see ``committed``).
  package func releaseCommitted() {
    let done = committed.withLock { batches in
      defer { batches = [] }
      return batches
    }
    _ = consume done
  }

  /// Holds a submitted batch, so the commit can move it on (to ``committed``) instead of
  /// releasing it on its own thread.
  private final class Pending: Sendable {
    let batch: Mutex<JournalBatch?>
    init(_ batch: consuming JournalBatch) { self.batch = Mutex(batch) }
  }

  /// Queues a batch, waiting while two are already pending.
  package func submit(_ submitted: consuming JournalBatch) {
    slots.wait()
    let pending = Pending(submitted)
    queue.async {
      defer { self.slots.signal() }
      var held = pending.batch.withLock { $0.take() }
      defer {
        // Moved (not copied) on, so the submitting thread holds the last reference and frees it.
        if held?.packsOnCommit == true { self.committed.withLock { $0.append(held.take()!) } }
      }
      guard self.failure == nil, let count = held?.deliveryCount else { return }
      do throws(StoreError) {
        try self.journal.commit(held!)
        let saved = self.saved.add(count, ordering: .relaxed).newValue
        if self.reportsProgress {
          // Written after the commit returns: every push counted here is durable.
          let stream = OutputStream.standardError()
          stream.line("saved \(saved) pushes")
          stream.flush()
        }
      } catch {
        self.firstError.withLock { if $0 == nil { $0 = error.description } }
      }
    }
  }

  /// Waits until every queued batch is committed (or failed).
  package func drain() { queue.sync {} }
}

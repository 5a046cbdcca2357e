import Dispatch
import Foundation
import PushCore
import PushHandlers
import PushStore
import PushWire

/// Commits journal batches on a background queue while the device goes on with the next pushes,
/// with at most two batches waiting, so the database's work overlaps the simulation's.
///
/// A batch is durable once its commit returns; a replay killed mid-way keeps every batch
/// committed before (at most two batches, 2,000 pushes by default, are still pending).
package final class BackgroundCommitter: @unchecked Sendable {
  // `firstError` is guarded by `lock`; the journal is used from the queue only.
  private let journal: DeviceJournal
  private let queue = DispatchQueue(label: "pushdeck.replay.journal")
  private let slots = DispatchSemaphore(value: 2)
  private let lock = NSLock()
  private var firstError: String?
  /// Whether each commit is reported on standard error, and how many pushes are saved so far
  /// (used on the queue only).
  private let reportsProgress: Bool
  private var saved = 0

  /// The reason lists the journal's batches share (new ones numbered after the journal's).
  package let reasonLists: ReasonLists

  package init(journal: DeviceJournal, reportsProgress: Bool = false) throws(StoreError) {
    self.journal = journal
    self.reportsProgress = reportsProgress
    reasonLists = ReasonLists(firstID: try journal.nextReasonListID())
  }

  /// The first commit that failed, if any; later batches are not written.
  package var failure: String? { lock.withLock { firstError } }

  /// Queues a batch, waiting while two are already pending.
  package func submit(_ batch: JournalBatch) {
    slots.wait()
    queue.async {
      defer { self.slots.signal() }
      guard self.failure == nil else { return }
      do throws(StoreError) {
        try self.journal.commit(batch)
        self.saved += batch.deliveryCount
        if self.reportsProgress {
          // Written after the commit returns: every push counted here is durable.
          let stream = OutputStream.standardError()
          stream.line("saved \(self.saved) pushes")
          stream.flush()
        }
      } catch {
        self.lock.withLock { if self.firstError == nil { self.firstError = error.description } }
      }
    }
  }

  /// Waits until every queued batch is committed (or failed).
  package func drain() { queue.sync {} }
}

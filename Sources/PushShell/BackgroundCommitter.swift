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
  private let jobs = OrderedWorkQueue(label: "pushdeck.replay.journal")
  private let firstError = Mutex<String?>(nil)
  /// Whether each commit is reported on standard error, and how many pushes are saved so far
  /// (counted on the queue only).
  private let reportsProgress: Bool
  private let saved = Atomic<Int>(0)

  /// The reason lists and source paths the journal's batches share (new ones numbered after the
  /// journal's).
  package let reasonLists: ReasonLists

  package init(journal: DeviceJournal, reportsProgress: Bool = false) throws(StoreError) {
    self.journal = journal
    self.reportsProgress = reportsProgress
    reasonLists = try ReasonLists(continuing: journal)
  }

  /// The first commit that failed, if any; later batches are not written.
  package var failure: String? { firstError.withLock { $0 } }

  /// Queues a batch, waiting while two are already pending.
  package func submit(_ batch: JournalBatch) {
    jobs.async {
      guard self.failure == nil else { return }
      do throws(StoreError) {
        try self.journal.commit(batch)
        let saved = self.saved.add(batch.deliveryCount, ordering: .relaxed).newValue
        // A batch of no pushes (the inputs' progress at the end) saved none: said once only.
        if self.reportsProgress, batch.deliveryCount > 0 {
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
  package func drain() { jobs.drain() }
}

import Dispatch

/// Work done in order on a queue of its own while the caller goes on, with at most `pending`
/// jobs waiting: a caller that gets further ahead waits. Both journal writers commit through
/// one (``BackgroundCommitter`` for `replay` and `serve`, `JournalWriter` for `run`).
package final class OrderedWorkQueue: Sendable {
  private let queue: DispatchQueue
  private let slots: DispatchSemaphore

  package init(label: String, pending: Int = 2) {
    queue = DispatchQueue(label: label)
    slots = DispatchSemaphore(value: pending)
  }

  /// Queues `work` after everything queued before, waiting while `pending` jobs are waiting.
  package func async(_ work: @escaping @Sendable () -> Void) {
    slots.wait()
    queue.async {
      defer { self.slots.signal() }
      work()
    }
  }

  /// Does `work` after everything queued before, and returns its result.
  package func sync<T>(_ work: () throws -> T) rethrows -> T { try queue.sync(execute: work) }

  /// Waits until everything queued is done.
  package func drain() { queue.sync {} }
}

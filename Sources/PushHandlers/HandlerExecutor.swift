import Dispatch

/// Where handlers and service extensions run (``withDeadline(seconds:fallback:_:)``'s worker and
/// every task it starts): Dispatch threads outside Swift's cooperative pool, which has one thread
/// per core. A caller that blocks pool threads (a synchronous wait in a library, or in a test
/// that runs a program) cannot starve a handler until its deadline passes: on two cores, two
/// such waits held it back long enough for a 120-second budget to expire.
final class HandlerExecutor: TaskExecutor {
  static let shared = HandlerExecutor()

  private let queue = DispatchQueue(label: "pushdeck.handlers", attributes: .concurrent)

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let executor = asUnownedTaskExecutor()
    queue.async { job.runSynchronously(on: executor) }
  }
}

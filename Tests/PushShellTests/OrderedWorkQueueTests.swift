import Dispatch
import PushShell
import Synchronization
import Testing

/// The journal writers' queue: jobs run in the order given, and a caller that gets more than
/// `pending` jobs ahead waits for the queue instead of piling batches up in memory.
@Suite struct OrderedWorkQueueTests {
  @Test func jobsRunInOrderAndTheCallerWaitsPastTwoPending() {
    let jobs = OrderedWorkQueue(label: "test.ordered", pending: 2)
    let done = Mutex<[Int]>([])
    let gate = DispatchSemaphore(value: 0)
    // The first job holds the queue; the second waits behind it: two pending.
    jobs.async {
      gate.wait()
      done.withLock { $0.append(0) }
    }
    jobs.async { done.withLock { $0.append(1) } }
    // A third must wait until one of them is done.
    let queued = Atomic<Bool>(false)
    let caller = DispatchQueue(label: "test.caller")
    caller.async {
      jobs.async { done.withLock { $0.append(2) } }
      queued.store(true, ordering: .sequentiallyConsistent)
    }
    // Give the caller time to reach the third submission (it must be blocked there).
    _ = DispatchSemaphore(value: 0).wait(timeout: .now() + .milliseconds(200))
    let queuedEarly = queued.load(ordering: .sequentiallyConsistent)
    #expect(!queuedEarly, "a third job was queued past two pending")
    gate.signal()
    caller.sync {}
    let queuedAfter = queued.load(ordering: .sequentiallyConsistent)
    #expect(queuedAfter)
    for index in 3..<50 { jobs.async { done.withLock { $0.append(index) } } }
    let last = jobs.sync { done.withLock { $0.count } }
    #expect(last == 50)
    jobs.drain()
    #expect(done.withLock { $0 } == Array(0..<50))
  }
}

import Dispatch
import Synchronization

/// The one continuation a deadline race resumes: whoever takes it first.
private final class Gate<Value: Sendable>: Sendable {
  private let continuation = Mutex<CheckedContinuation<Value, Never>?>(nil)

  func set(_ value: CheckedContinuation<Value, Never>) { continuation.withLock { $0 = value } }
  func take() -> CheckedContinuation<Value, Never>? { continuation.withLock { $0.take() } }
}

/// Runs `work` and returns its result, or `fallback` when it has not finished after `seconds`.
///
/// The caller is never held past the deadline, even by work that ignores cancellation: the
/// work is cancelled and left to finish on its own.
func withDeadline<Value: Sendable>(
  seconds: Double, fallback: @escaping @Sendable () -> Value, _ work: @escaping @Sendable () async -> Value
) async -> Value {
  let gate = Gate<Value>()
  return await withCheckedContinuation { (continuation: CheckedContinuation<Value, Never>) in
    gate.set(continuation)
    // Off the cooperative pool (``HandlerExecutor``), with the child tasks the work starts; at
    // high priority, so what it does start on the pool (a library's unstructured task, which
    // keeps the priority but not the executor) is taken before work queued at the default.
    let worker = Task.detached(executorPreference: HandlerExecutor.shared, priority: .high) {
      let value = await work()
      gate.take()?.resume(returning: value)
    }
    // The timer runs on a Dispatch queue, outside the cooperative pool, so it fires on time
    // even when every pool thread is busy.
    DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(Int(seconds * 1000))) {
      if let waiting = gate.take() {
        worker.cancel()
        waiting.resume(returning: fallback())
      }
    }
  }
}

/// `5 s`, `0.5 s`.
func secondsText(_ seconds: Double) -> String {
  seconds == seconds.rounded() ? "\(Int(seconds)) s" : "\(seconds) s"
}

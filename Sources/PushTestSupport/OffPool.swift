import Foundation

/// Runs blocking work (waiting on a child process, a pipe, a file) on a thread of its own and
/// awaits its result, so it holds none of the concurrency pool's threads. On a two-core machine
/// the pool has two: two tests blocking them for a minute stall every async test, and the ones
/// that measure a deadline fail.
public func offPool<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
  try await withCheckedThrowingContinuation { continuation in
    let thread = Thread { continuation.resume(with: Result { try work() }) }
    thread.name = "pushdeck-test-off-pool"
    thread.start()
  }
}

extension PushdeckProcess {
  /// ``run(_:input:environment:directory:)`` off the concurrency pool (see ``offPool(_:)``).
  public static func runOffPool(
    _ arguments: [String], environment: [String: String] = [:], directory: URL? = nil
  ) async throws -> Output {
    try await offPool { try run(arguments, environment: environment, directory: directory) }
  }
}

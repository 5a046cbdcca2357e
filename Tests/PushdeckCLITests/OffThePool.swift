import Dispatch
import Foundation
import PushTestSupport

/// Runs `pushdeck` on a Dispatch thread and awaits it, so a test waiting for the process holds
/// none of Swift concurrency's threads: on 2 cores there are 2, and tests that measure a
/// deadline elsewhere in the suite need one free.
func runPushdeck(_ arguments: [String], directory: URL? = nil) async throws -> PushdeckProcess.Output {
  try await offThePool { try PushdeckProcess.run(arguments, directory: directory) }
}

/// Runs blocking work on a Dispatch thread and awaits its result. No expectations inside: they
/// belong to the test's own task.
func offThePool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
  try await withCheckedThrowingContinuation { continuation in
    DispatchQueue.global().async { continuation.resume(with: Result { try body() }) }
  }
}

import Dispatch
import Glibc
import Synchronization

/// Turns SIGINT, SIGTERM and SIGHUP into a flag the input loop polls, instead of killing the
/// process with the terminal still in raw mode and the device's state unsaved (SIGHUP: the
/// terminal window was closed).
///
/// The default dispositions are set to ignore first (so the signal no longer terminates the
/// process, and ncurses installs no handler of its own), then a dispatch source per signal
/// records the most recent one.
public final class SignalWatcher {
  private let pending = PendingSignal()
  private let sources: [any DispatchSourceSignal]

  /// Starts watching the given signals.
  public init(signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]) {
    var sources: [any DispatchSourceSignal] = []
    for number in signals {
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      sources.append(source)
    }
    self.sources = sources
    for (index, source) in sources.enumerated() {
      let number = signals[index]
      source.setEventHandler { [pending] in
        pending.value.store(number, ordering: .sequentiallyConsistent)
      }
      source.resume()
    }
  }

  /// Returns and clears the signal received since the last call, if any.
  public func takePending() -> Int32? {
    let value = pending.value.exchange(0, ordering: .sequentiallyConsistent)
    return value == 0 ? nil : value
  }

  /// Stops watching; the signals stay ignored until the process exits.
  public func stop() {
    for source in sources { source.cancel() }
  }
}

/// The flag shared with the dispatch handlers.
private final class PendingSignal: Sendable {
  let value = Atomic<Int32>(0)
}

import Dispatch
import Glibc
import Synchronization

/// Turns SIGINT, SIGTERM and SIGHUP into a flag the input loop polls, instead of killing the
/// process with the terminal still in raw mode and the device's state unsaved (SIGHUP: the
/// terminal window was closed).
///
/// The default dispositions are set to ignore first (so the signal no longer terminates the
/// process, and ncurses installs no handler of its own), then a dispatch source per signal
/// records the most recent one. The initializer returns only once every source is registered:
/// a source is armed some time after `resume()` returns, and a signal in between would find only
/// SIG_IGN and be lost (a script that stops `pushdeck run` as soon as it starts would leave it
/// running).
///
/// It also notes SIGCONT (when `watchesContinue`): a process stopped with `kill -STOP` runs no
/// code of its own, and while it is stopped a shell may take the terminal back and reset its mode
/// (canonical, echo) or draw over the screen; on SIGCONT the terminal restores its mode and
/// redraws (``takeContinued()``). Ctrl-Z is ncurses' own SIGTSTP handling and needs none of this.
public final class SignalWatcher {
  private let pending = PendingSignal()
  private let continued = PendingSignal()
  private let sources: [any DispatchSourceSignal]

  /// Starts watching the given signals, and SIGCONT unless `watchesContinue` is false.
  public init(signals: [Int32] = [SIGINT, SIGTERM, SIGHUP], watchesContinue: Bool = true) {
    var sources: [any DispatchSourceSignal] = []
    for number in signals {
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      sources.append(source)
    }
    for (index, source) in sources.enumerated() {
      let number = signals[index]
      source.setEventHandler { [pending] in
        pending.value.store(number, ordering: .sequentiallyConsistent)
      }
      Self.arm(source)
    }
    if watchesContinue {
      // Ignoring SIGCONT does not keep the process stopped: it still continues, and the
      // dispatch source still sees the signal.
      signal(SIGCONT, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: SIGCONT, queue: .global())
      source.setEventHandler { [continued] in
        continued.value.store(1, ordering: .sequentiallyConsistent)
      }
      Self.arm(source)
      sources.append(source)
    }
    self.sources = sources
  }

  /// Resumes `source` and waits until dispatch has registered it with the kernel: its
  /// registration handler runs on the global queue, never on the caller's thread. Every signal
  /// source is armed through here (`serve`'s too): a signal sent before registration finds only
  /// SIG_IGN and is lost.
  public static func arm(_ source: any DispatchSourceSignal) {
    let armed = DispatchSemaphore(value: 0)
    source.setRegistrationHandler { armed.signal() }
    source.resume()
    armed.wait()
  }

  /// Whether the process was continued (SIGCONT) since the last call; clears the note.
  public func takeContinued() -> Bool {
    continued.value.exchange(0, ordering: .sequentiallyConsistent) != 0
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

import Dispatch
import Foundation
import PushCore
import PushServer
import PushStore
import PushWire
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Writes whole lines to standard output from any thread, one `write(2)` each.
package final class LinePrinter: Sendable {
  package init() {}

  private let lock = Mutex(())

  package func line(_ text: String) {
    var text = text + "\n"
    lock.withLock { _ in
      text.withUTF8 { buffer in _ = Glibc.write(1, buffer.baseAddress, buffer.count) }
    }
  }
}

/// A problem that stops `serve` before it listens.
package struct ServeFailure: Error, CustomStringConvertible {
  package var message: String
  package var description: String { message }
}

import Foundation
import PushCore
import PushUI
import Synchronization

/// The `log` handler: appends one JSON line per response to a file (created when missing).
///
/// Lines are written with `O_APPEND` in one `write`, so several processes may share a file.
public final class JSONLogHandler: ActionHandler {
  /// The file appended to.
  public let path: String
  private let now: @Sendable () -> Date
  private let lock = Mutex(())

  /// Creates a handler appending to `path`.
  public init(path: String, now: @escaping @Sendable () -> Date = { Date() }) {
    self.path = path
    self.now = now
  }

  public func perform(_ invocation: ActionInvocation) async -> ActionOutcome {
    let line = ResponseJSON.line(for: invocation, at: now()) + "\n"
    if let problem = append(line) { return .failed("cannot write the log \(path): \(problem)") }
    return .succeeded("\(invocation.actionTitle) logged")
  }

  /// Appends text; returns a problem, or nil.
  func append(_ text: String) -> String? {
    lock.withLock { _ in
      let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
      guard fd >= 0 else { return String(cString: strerror(errno)) }
      defer { close(fd) }
      let bytes = Array(text.utf8)
      var offset = 0
      while offset < bytes.count {
        let written = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        if written < 0 {
          if errno == EINTR { continue }
          return String(cString: strerror(errno))
        }
        offset += written
      }
      return nil
    }
  }
}

/// The `open` handler: records what the app would open — the payload's `target-content-id`,
/// else a deep link in a `url`, `link`, `deeplink` or `deep-link` key — and reports it.
public final class OpenHandler: ActionHandler {
  /// A file each target is appended to as a JSON line, if any.
  public let path: String?
  private let now: @Sendable () -> Date
  private let recorded = Mutex<[String]>([])

  /// Creates a handler; `path` also records targets in a file.
  public init(path: String? = nil, now: @escaping @Sendable () -> Date = { Date() }) {
    self.path = path
    self.now = now
  }

  /// The targets opened so far, in order.
  public var opened: [String] { recorded.withLock { $0 } }

  public func perform(_ invocation: ActionInvocation) async -> ActionOutcome {
    let target = Self.target(of: invocation)
    let shown = target ?? "the app"
    recorded.withLock { $0.append(shown) }
    if let path {
      var json = JSONWriter(capacity: invocation.payload.utf8.count + 256)
      json.object {
        ResponseJSON.write(invocation, at: now(), to: &$0)
        $0.member("opens", target)
      }
      json.newline()
      if let problem = JSONLogHandler(path: path).append(json.text) {
        return .failed("cannot write \(path): \(problem)")
      }
    }
    return .succeeded("opens \(shown)")
  }

  /// What the app opens: the notification's `target-content-id` (as the device decoded it),
  /// else a deep link in one of the payload's custom keys (the device keeps custom keys only
  /// for service extensions, so they are read from the payload, with the one JSON reader).
  static func target(of invocation: ActionInvocation) -> String? {
    if let id = invocation.targetContentID, !id.isEmpty { return id }
    guard let document = try? JSONDocument(text: invocation.payload), document.kind(document.root) == .object else {
      return nil
    }
    for key in ["url", "link", "deeplink", "deep-link", "deepLink"] {
      if let index = document.member(key, of: document.root), let link = document.stringValue(index), !link.isEmpty {
        return link
      }
    }
    return nil
  }
}

import Foundation
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
    let target = Self.target(in: invocation.payload)
    let shown = target ?? "the app"
    recorded.withLock { $0.append(shown) }
    if let path {
      var line = ResponseJSON.line(for: invocation, at: now())
      line.removeLast()
      line += ",\"opens\":\(target.map(ResponseJSON.quote) ?? "null")}\n"
      if let problem = JSONLogHandler(path: path).append(line) {
        return .failed("cannot write \(path): \(problem)")
      }
    }
    return .succeeded("opens \(shown)")
  }

  /// The deep link or `target-content-id` in a payload.
  static func target(in payload: String) -> String? {
    guard let root = try? JSONSerialization.jsonObject(with: Data(payload.utf8)) as? [String: Any] else {
      return nil
    }
    if let aps = root["aps"] as? [String: Any], let id = aps["target-content-id"] as? String, !id.isEmpty {
      return id
    }
    for key in ["url", "link", "deeplink", "deep-link", "deepLink"] {
      if let link = root[key] as? String, !link.isEmpty { return link }
    }
    return nil
  }
}

import Foundation
import PushUI

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The `http` handler: POSTs the response JSON (``ResponseJSON``) to a URL.
///
/// A 2xx status is success, with the status and the first line of the body as the message;
/// anything else, a transport error or the timeout is a failure that says which.
public struct HTTPHandler: ActionHandler {
  /// Where responses are posted.
  public var url: String
  /// Seconds before the request is abandoned.
  public var timeoutSeconds: Double
  private let now: @Sendable () -> Date

  /// Creates a handler.
  public init(url: String, timeoutSeconds: Double = 5, now: @escaping @Sendable () -> Date = { Date() }) {
    self.url = url
    self.timeoutSeconds = timeoutSeconds
    self.now = now
  }

  public func perform(_ invocation: ActionInvocation) async -> ActionOutcome {
    guard let target = URL(string: url), let scheme = target.scheme?.lowercased(), ["http", "https"].contains(scheme)
    else { return .failed("http needs an http:// or https:// URL, not \(url)") }
    var request = URLRequest(url: target, timeoutInterval: timeoutSeconds)
    request.httpMethod = "POST"
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    request.setValue(invocation.actionID, forHTTPHeaderField: "X-Pushdeck-Action")
    request.httpBody = Data((ResponseJSON.line(for: invocation, at: now()) + "\n").utf8)
    let timeout = timeoutSeconds
    let prepared = request
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = timeout
    configuration.timeoutIntervalForResource = timeout
    let session = URLSession(configuration: configuration)
    defer { session.finishTasksAndInvalidate() }
    let answer: (status: Int, body: String)? = await withDeadline(
      seconds: timeout + 0.5, fallback: { nil }
    ) {
      await withCheckedContinuation { (continuation: CheckedContinuation<(status: Int, body: String)?, Never>) in
        session.dataTask(with: prepared) { data, response, error in
          if let error {
            let code = (error as NSError).code
            continuation.resume(returning: code == NSURLErrorTimedOut ? nil : (-1, error.localizedDescription))
          } else {
            let status = (response as? HTTPURLResponse)?.statusCode ?? 0
            continuation.resume(returning: (status, String(decoding: data ?? Data(), as: UTF8.self)))
          }
        }.resume()
      }
    }
    guard let answer else { return .failed("POST \(url) timed out after \(secondsText(timeout))") }
    if answer.status < 0 { return .failed("POST \(url) failed: \(ToastText.clean(answer.body))") }
    let firstLine = ToastText.clean(String(answer.body.split(whereSeparator: \.isNewline).first ?? ""))
    let summary = "HTTP \(answer.status)" + (firstLine.isEmpty ? "" : ": \(firstLine)")
    return (200..<300).contains(answer.status) ? .succeeded(summary) : .failed("POST \(url) answered \(summary)")
  }
}

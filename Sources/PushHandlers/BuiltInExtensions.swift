import Crypto
import Foundation
import PushCore
import Synchronization

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `serviceExtension: true`: hands the content back as it came.
public struct PassThroughExtension: ServiceExtension {
  public init() {}

  public func didReceive(_ request: ServiceExtensionRequest, bestAttempt: BestAttemptContent) async throws
    -> NotificationContent?
  { request.content }
}

/// `attach-media`: attaches the media whose URLs are in the named payload keys (top-level
/// custom keys holding a URL or a list of URLs). `file://` URLs are attached as they are;
/// `http://` and `https://` ones are downloaded first into the attachment directory. The device
/// then checks each file's type and size (``AttachmentCheck``). Each attachment obtained is
/// recorded as the best attempt, so a slow download that outlives the budget still delivers
/// the ones before it.
public struct AttachMediaExtension: ServiceExtension {
  /// The payload keys holding URLs.
  public var keys: [String]
  /// Where downloads are written.
  public var directory: String

  /// The largest download kept: the largest attachment iOS accepts (a 50 MB movie).
  static let maxDownloadBytes = NotificationAttachment.Kind.movie.maxBytes

  /// Creates the extension; downloads go to `$TMPDIR/pushdeck-attachments` unless told otherwise.
  public init(keys: [String], directory: String? = nil) {
    self.keys = keys
    self.directory = directory ?? (NSTemporaryDirectory() as NSString).appendingPathComponent("pushdeck-attachments")
  }

  public func didReceive(_ request: ServiceExtensionRequest, bestAttempt: BestAttemptContent) async throws
    -> NotificationContent?
  {
    var content = request.content
    // One URL under a key is named after the key; several are numbered: media-1, media-2.
    var urls: [(identifier: String, key: String, url: String)] = []
    for key in keys {
      switch request.content.userInfo[key] {
      case .string(let url)?: urls.append((key, key, url))
      case .array(let items)?:
        let found = items.compactMap(\.stringValue)
        urls += found.enumerated().map { (found.count == 1 ? key : "\(key)-\($0.offset + 1)", key, $0.element) }
      default: continue
      }
    }
    if urls.isEmpty {
      bestAttempt.note(
        "attach-media found no URL under \(keys.map { JSONValue.quoted($0) }.joined(separator: ", ")) in the payload.")
    }
    for (identifier, key, url) in urls {
      let lowered = url.lowercased()
      if lowered.hasPrefix("file://") {
        content.attachments.append(
          NotificationAttachment(identifier: identifier, path: url, kind: .image, type: "", byteCount: 0))
      } else if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") {
        try Task.checkCancellation()
        switch await download(url, seconds: request.budgetSeconds) {
        case .success(let path):
          content.attachments.append(
            NotificationAttachment(identifier: identifier, path: "file://" + path, kind: .image, type: "", byteCount: 0)
          )
        case .failure(let problem):
          bestAttempt.note("attach-media could not fetch \(ToastTextSafe.clip(url)): \(problem.message)")
        }
      } else {
        bestAttempt.note(
          "attach-media skipped \(ToastTextSafe.clip(url)) under \(JSONValue.quoted(key)): only file://, http:// and https:// URLs are fetched"
        )
      }
      bestAttempt.update(content)
    }
    return content
  }

  struct DownloadProblem: Error {
    var message: String
  }

  /// Downloads a URL into the attachment directory, named after its last path component's
  /// extension (the type is found from the bytes later).
  func download(_ url: String, seconds: Double) async -> Result<String, DownloadProblem> {
    guard let target = URL(string: url) else { return .failure(DownloadProblem(message: "not a valid URL")) }
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = seconds
    configuration.timeoutIntervalForResource = seconds
    let session = URLSession(configuration: configuration)
    defer { session.finishTasksAndInvalidate() }
    let answer: Result<(Int, Data), DownloadProblem> = await withCheckedContinuation { continuation in
      session.dataTask(with: URLRequest(url: target, timeoutInterval: seconds)) { data, response, error in
        if let error {
          continuation.resume(returning: .failure(DownloadProblem(message: error.localizedDescription)))
        } else {
          let status = (response as? HTTPURLResponse)?.statusCode ?? 0
          continuation.resume(returning: .success((status, data ?? Data())))
        }
      }.resume()
    }
    switch answer {
    case .failure(let problem): return .failure(problem)
    case .success((let status, _)) where !(200..<300).contains(status):
      return .failure(DownloadProblem(message: "HTTP \(status)"))
    case .success((_, let data)) where data.count > Self.maxDownloadBytes:
      return .failure(
        DownloadProblem(
          message:
            "\(AttachmentCheck.size(data.count)) is more than any attachment may be (\(AttachmentCheck.size(Self.maxDownloadBytes)))"
        ))
    case .success((_, let data)):
      do {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let suffix = target.pathExtension.isEmpty ? "" : "." + target.pathExtension.filter(\.isLetter).prefix(5)
        let path = (directory as NSString).appendingPathComponent(UUID().uuidString + suffix)
        try data.write(to: URL(fileURLWithPath: path))
        return .success(path)
      } catch {
        return .failure(DownloadProblem(message: "cannot save it: \(error.localizedDescription)"))
      }
    }
  }
}

/// `decrypt`: AES-GCM over the payload key that holds base64(nonce | ciphertext | tag) — a
/// 12-byte nonce, the ciphertext, and the 16-byte tag (swift-crypto's `combined` form). The
/// plaintext is content JSON (`{"title": …, "body": …}`, applied over the content as sent) or,
/// when it is not a JSON object, the body text. When decryption fails the body becomes the
/// placeholder and a note says why.
public struct DecryptExtension: ServiceExtension {
  public var key: [UInt8]
  public var payloadKey: String
  public var placeholder: String

  /// Creates the extension.
  public init(key: [UInt8], payloadKey: String = "encrypted", placeholder: String = "Encrypted message") {
    self.key = key
    self.payloadKey = payloadKey
    self.placeholder = placeholder
  }

  /// The payload value for `plaintext`: base64(nonce | ciphertext | tag), for tests and tools.
  public static func seal(_ plaintext: String, key: [UInt8], nonce: [UInt8]? = nil) throws -> String {
    let box = try AES.GCM.seal(
      Array(plaintext.utf8), using: SymmetricKey(data: key), nonce: try nonce.map { try AES.GCM.Nonce(data: $0) })
    guard let combined = box.combined else { throw ServiceExtensionError.failed("no combined form") }
    return combined.base64EncodedString()
  }

  public func didReceive(_ request: ServiceExtensionRequest, bestAttempt: BestAttemptContent) async throws
    -> NotificationContent?
  {
    var content = request.content
    guard let sealed = request.content.userInfo[payloadKey] else {
      bestAttempt.note(
        "decrypt found no \(JSONValue.quoted(payloadKey)) key in the payload; the content is shown as sent.")
      return content
    }
    func placeholderBody(_ why: String) -> NotificationContent {
      bestAttempt.note("decrypt failed: \(why); the placeholder body \(JSONValue.quoted(placeholder)) is shown.")
      var shown = content
      shown.body = placeholder
      return shown
    }
    guard let text = sealed.stringValue, let data = Data(base64Encoded: text) else {
      return placeholderBody("\(JSONValue.quoted(payloadKey)) is not a base64 string")
    }
    guard data.count >= 12 + 16 else {
      return placeholderBody("\(data.count) bytes is too short for a 12-byte nonce and a 16-byte tag")
    }
    let plaintext: Data
    do {
      let box = try AES.GCM.SealedBox(combined: data)
      plaintext = try AES.GCM.open(box, using: SymmetricKey(data: key))
    } catch {
      return placeholderBody("the key does not open it (authentication failed)")
    }
    guard let decoded = String(data: plaintext, encoding: .utf8) else {
      return placeholderBody("the plaintext is not UTF-8 text")
    }
    if let document = try? JSONDocument(text: decoded), document.kind(document.root) == .object {
      do throws(NotificationContent.FormatError) {
        content = try NotificationContent(json: document.value(document.root), over: content)
      } catch {
        return placeholderBody("the decrypted content JSON is wrong at \(error.description)")
      }
    } else {
      content.body = decoded
    }
    return content
  }
}

/// `exec`: runs a program (argv, never a shell, through ``ExecHandler/run(argv:environment:input:timeoutSeconds:onOutput:)``) with
/// the content JSON on standard input and `PUSHDECK_APP`, `PUSHDECK_REQUEST_ID` and
/// `PUSHDECK_BUDGET_SECONDS` in its environment. Each line it prints that is a JSON object is
/// an attempt; the last one is the content. Exit 0 hands it back; another status or a signal is
/// a crash (the original content shows). When the budget runs out the program's process group is
/// killed and the last complete attempt is the best attempt.
public struct ExecServiceExtension: ServiceExtension {
  public var argv: [String]

  /// Creates the extension.
  public init(argv: [String]) {
    self.argv = argv
    // A program that exits without reading its input must not take pushdeck down with it.
    signal(SIGPIPE, SIG_IGN)
  }

  public func didReceive(_ request: ServiceExtensionRequest, bestAttempt: BestAttemptContent) async throws
    -> NotificationContent?
  {
    guard let program = argv.first, !program.isEmpty else { throw ServiceExtensionError.failed("exec has no program") }
    var environment = ProcessInfo.processInfo.environment
    for key in environment.keys where key.hasPrefix("PUSHDECK_") { environment[key] = nil }
    environment["PUSHDECK_APP"] = request.bundleID
    environment["PUSHDECK_REQUEST_ID"] = request.identifier
    environment["PUSHDECK_BUDGET_SECONDS"] = String(request.budgetSeconds)
    let input = request.content.json.compactText + "\n"
    // The program is stopped a little before the budget, so its last attempt is read in time.
    let margin = min(0.25, request.budgetSeconds * 0.1)
    // Each complete line that is content JSON becomes the best attempt as soon as it is printed,
    // as the output is read, so the device has it at the deadline.
    let reader = AttemptReader(original: request.content, bestAttempt: bestAttempt)
    let result: ExecHandler.Result
    do throws(ExecHandler.SpawnError) {
      result = try await ExecHandler.run(
        argv: argv, environment: environment, input: Array(input.utf8), timeoutSeconds: request.budgetSeconds - margin,
        onOutput: { reader.take($0) })
    } catch {
      throw ServiceExtensionError.failed("cannot run \(program): \(error.message)")
    }
    let name = (program as NSString).lastPathComponent
    var attempt: NotificationContent?
    var problem: String?
    let lines = result.output.split(separator: "\n", omittingEmptySubsequences: true)
    // A complete line only: the last one may have been cut by the kill.
    let complete = result.timedOut && !result.output.hasSuffix("\n") ? lines.dropLast() : lines[...]
    for line in complete {
      guard let document = try? JSONDocument(text: String(line)), document.kind(document.root) == .object else {
        continue
      }
      do throws(NotificationContent.FormatError) {
        attempt = try NotificationContent(json: document.value(document.root), over: request.content)
      } catch {
        problem = "\(name) printed content JSON that is wrong at \(error.description)"
      }
    }
    if attempt == nil, !result.timedOut, let document = try? JSONDocument(text: result.output),
      document.kind(document.root) == .object
    {
      // One object over several lines (pretty-printed).
      do throws(NotificationContent.FormatError) {
        attempt = try NotificationContent(json: document.value(document.root), over: request.content)
      } catch {
        problem = "\(name) printed content JSON that is wrong at \(error.description)"
      }
    }
    if let attempt { bestAttempt.update(attempt) }
    if result.timedOut { throw ServiceExtensionError.timeWillExpire }
    guard result.status == 0 else {
      let ended = result.signal.map { "was killed by signal \($0)" } ?? "exited with status \(result.status ?? -1)"
      let detail = ToastTextSafe.clip(
        String(result.errorOutput.split(whereSeparator: \.isNewline).first ?? ""))
      throw ServiceExtensionError.failed("\(name) \(ended)" + (detail.isEmpty ? "" : ": \(detail)"))
    }
    if let problem, attempt == nil { throw ServiceExtensionError.failed(problem) }
    guard let attempt else { throw ServiceExtensionError.failed("\(name) printed no content JSON") }
    return attempt
  }
}

/// Splits a program's output into lines and records each content JSON line as the best attempt.
final class AttemptReader: Sendable {
  private let pending = Mutex<[UInt8]>([])
  private let original: NotificationContent
  private let bestAttempt: BestAttemptContent

  init(original: NotificationContent, bestAttempt: BestAttemptContent) {
    self.original = original
    self.bestAttempt = bestAttempt
  }

  func take(_ bytes: [UInt8]) {
    let lines: [[UInt8]] = pending.withLock { buffer in
      buffer += bytes
      guard let last = buffer.lastIndex(of: UInt8(ascii: "\n")) else { return [] }
      let complete = Array(buffer[...last])
      buffer.removeSubrange(...last)
      return complete.split(separator: UInt8(ascii: "\n")).map(Array.init)
    }
    for line in lines {
      guard let document = try? JSONDocument(bytes: line), document.kind(document.root) == .object,
        let content = try? NotificationContent(json: document.value(document.root), over: original)
      else { continue }
      bestAttempt.update(content)
    }
  }
}

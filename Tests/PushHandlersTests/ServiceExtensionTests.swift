import Foundation
import PushCore
import PushHandlers
import Testing

/// A request with a title and body, as the device hands it to an extension.
func extensionRequest(
  body: String = "You have a new message", userInfo: JSONValue = .object([]), budget: Double = 120
) -> ServiceExtensionRequest {
  ServiceExtensionRequest(
    identifier: "request-1", bundleID: "com.example.chat",
    content: NotificationContent(title: "Chat", body: body, userInfo: userInfo), budgetSeconds: budget)
}

/// Records a best attempt, then never answers.
struct SlowExtension: ServiceExtension {
  var attempt: NotificationContent?
  func didReceive(_ request: ServiceExtensionRequest, bestAttempt: BestAttemptContent) async throws
    -> NotificationContent?
  {
    if let attempt { bestAttempt.update(attempt) }
    try? await Task.sleep(for: .seconds(600))
    var late = request.content
    late.body = "too late"
    return late
  }
}

/// Fails the way a crashing extension does.
struct CrashingExtension: ServiceExtension {
  struct Crash: Error {}
  func didReceive(_ request: ServiceExtensionRequest, bestAttempt: BestAttemptContent) async throws
    -> NotificationContent?
  {
    var half = request.content
    half.body = "half done"
    bestAttempt.update(half)
    throw Crash()
  }
}

/// Calls the content handler with nothing.
struct SilentExtension: ServiceExtension {
  func didReceive(_ request: ServiceExtensionRequest, bestAttempt: BestAttemptContent) async throws
    -> NotificationContent?
  { nil }
}

func entry(_ serviceExtension: any ServiceExtension, budget: Double) -> ServiceExtensionRegistry.Entry {
  var registry = ServiceExtensionRegistry()
  registry.register(bundleID: "com.example.chat", name: "test", budgetSeconds: budget, serviceExtension)
  return registry.entries["com.example.chat"]!
}

@Suite struct ServiceExtensionRunTests {
  @Test func theBudgetRunningOutDeliversTheBestAttempt() async {
    var attempt = extensionRequest().content
    attempt.body = "best so far"
    let started = Date()
    let result = await ServiceExtensionRegistry.run(
      entry(SlowExtension(attempt: attempt), budget: 0.3), request: extensionRequest(budget: 0.3))
    // Well before the extension's own 600 s, even on a loaded machine, where this test's task
    // may wait minutes for a pool thread once the deadline has answered (125 s in a CI run).
    #expect(Date().timeIntervalSince(started) < 500)
    #expect(result.outcome == .expired(bestAttempt: true))
    #expect(result.content?.body == "best so far")
    #expect(result.elapsedSeconds == 0.3)
  }

  @Test func theBudgetRunningOutWithNoAttemptShowsTheOriginal() async {
    let result = await ServiceExtensionRegistry.run(
      entry(SlowExtension(attempt: nil), budget: 0.2), request: extensionRequest(budget: 0.2))
    #expect(result.outcome == .expired(bestAttempt: false))
    #expect(result.content == nil)
  }

  @Test func aCrashShowsTheOriginalNotTheBestAttempt() async {
    let result = await ServiceExtensionRegistry.run(
      entry(CrashingExtension(), budget: 120), request: extensionRequest())
    guard case .failed(let message) = result.outcome else {
      Issue.record("expected a failure, got \(result.outcome)")
      return
    }
    #expect(message.contains("Crash"))
    #expect(result.content == nil)
    let nothing = await ServiceExtensionRegistry.run(entry(SilentExtension(), budget: 120), request: extensionRequest())
    #expect(nothing.outcome == .failed("it handed back no content"))
    #expect(nothing.content == nil)
  }

  @Test func theDeviceShowsWhatTheExtensionHandedBackAndTheOriginalAfterACrash() throws {
    var app = AppProfile(info: AppInfo(bundleID: "com.example.chat", displayName: "Chat", iconGlyph: "💬"))
    app.hasServiceExtension = true
    var profile = DeviceProfile.standard(start: SimInstant(milliseconds: 1_795_426_860_000))
    profile.apps = [app]
    let payload = #"{"aps":{"alert":{"title":"Chat","body":"You have a new message"},"mutable-content":1}}"#
    var record = PushReader.readPayloadFile(
      Array(payload.utf8), source: "p.json", format: .payload, bundleID: "com.example.chat")
    var changed = NotificationContent(title: "Ana", body: "See you at 8", interruptionLevel: .timeSensitive)
    changed.userInfo = .object([])
    record.serviceExtension = ServiceExtensionResult(
      name: "test", outcome: .modified, content: changed, elapsedSeconds: 0.5, budgetSeconds: 30)
    var device = DeviceSimulator(profile: profile)
    let delivered = device.apply(.push(record), at: profile.start)
    let shown = try #require(delivered)
    #expect(shown.notification?.title == "Ana")
    #expect(shown.notification?.body == "See you at 8")
    #expect(shown.notification?.level == .timeSensitive)
    #expect(shown.decision.reasonCodes.contains(.serviceExtensionModified))
    #expect(device.store.all.first?.notification.body == "See you at 8")

    record.serviceExtension = ServiceExtensionResult(
      name: "test", outcome: .failed("it crashed"), content: nil, elapsedSeconds: 0.1, budgetSeconds: 30)
    let again = device.apply(.push(record), at: profile.start)
    let original = try #require(again)
    #expect(original.notification?.body == "You have a new message")
    #expect(
      original.decision.reasons.contains {
        $0.code == .serviceExtensionFailed && $0.text.contains("it crashed; the original content is shown")
      })

    // Without an extension in the profile the result is ignored.
    profile.apps[0].hasServiceExtension = false
    var plain = DeviceSimulator(profile: profile)
    record.serviceExtension = ServiceExtensionResult(
      name: "test", outcome: .modified, content: changed, elapsedSeconds: 0.5, budgetSeconds: 30)
    #expect(plain.apply(.push(record), at: profile.start)?.notification?.body == "You have a new message")
  }
}

@Suite struct DecryptExtensionTests {
  static let key: [UInt8] = Array(0..<32)

  @Test func aRoundTripShowsTheDecryptedContent() async throws {
    let sealed = try DecryptExtension.seal(#"{"title":"Ana","body":"The code is 4711"}"#, key: Self.key)
    let request = extensionRequest(userInfo: .object([JSONMember(key: "encrypted", value: .string(sealed))]))
    let result = await ServiceExtensionRegistry.run(
      ServiceExtensionRegistry.Entry(
        name: "decrypt", budgetSeconds: 120, serviceExtension: DecryptExtension(key: Self.key)),
      request: request)
    #expect(result.outcome == .modified)
    #expect(result.content?.title == "Ana")
    #expect(result.content?.body == "The code is 4711")
    #expect(result.notes.isEmpty)

    // Plain text plaintext becomes the body.
    let text = try DecryptExtension.seal("Just text", key: Self.key)
    let textResult = try await DecryptExtension(key: Self.key).didReceive(
      extensionRequest(userInfo: .object([JSONMember(key: "encrypted", value: .string(text))])),
      bestAttempt: BestAttemptContent())
    #expect(textResult?.body == "Just text")
    #expect(textResult?.title == "Chat")
  }

  @Test func aWrongKeyOrDamagedPayloadShowsThePlaceholder() async throws {
    let sealed = try DecryptExtension.seal(#"{"body":"secret"}"#, key: Self.key)
    var wrongKey = Self.key
    wrongKey[0] ^= 1
    for (key, value) in [
      (wrongKey, sealed), (Self.key, "not base64!"), (Self.key, "AAAA"),
      (Self.key, String(sealed.dropLast(4)) + "AAA="),
    ] {
      let attempt = BestAttemptContent()
      let content = try await DecryptExtension(key: key, placeholder: "🔒 Encrypted").didReceive(
        extensionRequest(userInfo: .object([JSONMember(key: "encrypted", value: .string(value))])),
        bestAttempt: attempt)
      #expect(content?.body == "🔒 Encrypted")
      #expect(content?.title == "Chat")
      #expect(attempt.notes.count == 1 && attempt.notes[0].hasPrefix("decrypt failed: "))
    }
  }
}

@Suite(.serialized) struct ExecExtensionTests {
  @Test func theProgramReadsContentJSONAndPrintsTheModifiedContent() async throws {
    let directory = try scratchDirectory("nse")
    // The payload text reaches the program as data: nothing in it runs.
    try writeScript(
      directory + "/nse.sh",
      """
      #!/bin/sh
      cat > "$(dirname "$0")/input.json"
      printf '%s\\n' '{"title":"Rewritten","body":"by exec","badge":3}'
      """)
    let hostile = "$(touch \(directory)/PWNED) `touch \(directory)/PWNED`; \u{1B}[2J"
    let request = extensionRequest(body: hostile)
    let result = await ServiceExtensionRegistry.run(
      ServiceExtensionRegistry.Entry(
        name: "exec", budgetSeconds: 120, serviceExtension: ExecServiceExtension(argv: [directory + "/nse.sh"])),
      request: request)
    #expect(result.outcome == .modified)
    #expect(result.content?.title == "Rewritten")
    #expect(result.content?.badge == 3)
    #expect(!FileManager.default.fileExists(atPath: directory + "/PWNED"))
    let input = try Data(contentsOf: URL(fileURLWithPath: directory + "/input.json"))
    let json = try #require(try JSONSerialization.jsonObject(with: input) as? [String: Any])
    #expect(json["body"] as? String == hostile)
    #expect(json["title"] as? String == "Chat")
  }

  /// A service extension is not starved by work queued on Swift's cooperative pool: behind
  /// 3 s of blocking jobs a core (synchronous waits, as tests that run a program make), a program
  /// that answers at once still finishes inside a 1.5-second budget. Queued behind them it
  /// expired (a 120-second budget expired so in a full `swift test` on two cores).
  @Test func anExtensionIsNotStarvedByBlockedPoolThreads() async throws {
    let directory = try scratchDirectory("nse-pool")
    try writeScript(directory + "/quick.sh", "#!/bin/sh\ncat >/dev/null\nprintf '%s\\n' '{\"body\":\"in time\"}'\n")
    // A queue of blocking jobs, as a test run makes of the tests it has started: 3 s of them
    // for each core, 50 ms at a time (kept short: every test running beside it waits too).
    let blockers = (0..<(60 * ProcessInfo.processInfo.activeProcessorCount)).map { _ in
      Task.detached { usleep(50_000) }
    }
    let result = await ServiceExtensionRegistry.run(
      ServiceExtensionRegistry.Entry(
        name: "exec", budgetSeconds: 1.5, serviceExtension: ExecServiceExtension(argv: [directory + "/quick.sh"])),
      request: extensionRequest(budget: 1.5))
    for blocker in blockers { await blocker.value }
    #expect(result.outcome == .modified)
    #expect(result.content?.body == "in time")
  }

  @Test func aProgramKilledAtTheBudgetDeliversItsLastCompleteAttempt() async throws {
    let directory = try scratchDirectory("nse-slow")
    try writeScript(
      directory + "/slow.sh",
      """
      #!/bin/sh
      printf '%s\\n' '{"body":"first attempt"}'
      printf '%s\\n' '{"body":"second attempt"}'
      printf '%s' '{"body":"cut off'
      exec sleep 600
      """)
    let started = Date()
    let result = await ServiceExtensionRegistry.run(
      ServiceExtensionRegistry.Entry(
        name: "exec", budgetSeconds: 3, serviceExtension: ExecServiceExtension(argv: [directory + "/slow.sh"])),
      request: extensionRequest(budget: 3))
    // Before the program's own 600 s (the test's task may wait minutes for a pool thread).
    #expect(Date().timeIntervalSince(started) < 500)
    #expect(result.outcome == .expired(bestAttempt: true))
    #expect(result.content?.body == "second attempt")
  }

  @Test func aCrashingProgramShowsTheOriginal() async throws {
    let directory = try scratchDirectory("nse-crash")
    try writeScript(
      directory + "/crash.sh",
      """
      #!/bin/sh
      printf '%s\\n' '{"body":"half"}'
      echo "segfault in decoder" >&2
      kill -SEGV $$
      """)
    let result = await ServiceExtensionRegistry.run(
      ServiceExtensionRegistry.Entry(
        name: "exec", budgetSeconds: 120, serviceExtension: ExecServiceExtension(argv: [directory + "/crash.sh"])),
      request: extensionRequest())
    #expect(result.outcome == .failed("crash.sh was killed by signal 11: segfault in decoder"))
    #expect(result.content == nil)

    try writeScript(directory + "/bad.sh", "#!/bin/sh\necho '{\"badge\":\"many\"}'\n")
    let bad = await ServiceExtensionRegistry.run(
      ServiceExtensionRegistry.Entry(
        name: "exec", budgetSeconds: 120, serviceExtension: ExecServiceExtension(argv: [directory + "/bad.sh"])),
      request: extensionRequest())
    #expect(
      bad.outcome
        == .failed(
          #"bad.sh printed content JSON that is wrong at badge: expected a whole number 0 or more, or null, got "many""#
        ))
  }
}

@Suite struct AttachmentLimitTests {
  /// A file of `size` bytes (sparse) starting with `head`.
  func file(_ directory: String, _ name: String, head: [UInt8], size: Int) throws -> String {
    let path = directory + "/" + name
    FileManager.default.createFile(atPath: path, contents: Data(head))
    let handle = try #require(FileHandle(forWritingAtPath: path))
    try handle.truncate(atOffset: UInt64(size))
    try handle.close()
    return path
  }

  static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
  static let wav: [UInt8] = Array("RIFF\0\0\0\0WAVE".utf8)
  static let mp4: [UInt8] = [0, 0, 0, 0x18] + Array("ftypisom".utf8)

  func attachment(_ path: String, id: String = "media") -> NotificationAttachment {
    NotificationAttachment(identifier: id, path: "file://" + path, kind: .image, type: "", byteCount: 0)
  }

  @Test func sizeLimitsFollowTheKind() throws {
    let directory = try scratchDirectory("limits")
    let mib = 1024 * 1024
    let imageAtLimit = try file(directory, "ok.png", head: Self.png, size: 10 * mib)
    let imageOver = try file(directory, "big.png", head: Self.png, size: 10 * mib + 1)
    let audioOver = try file(directory, "big.wav", head: Self.wav, size: 5 * mib + 1)
    let audioOK = try file(directory, "ok.wav", head: Self.wav, size: 5 * mib)
    let movieOK = try file(directory, "ok.mp4", head: Self.mp4, size: 50 * mib)
    let movieOver = try file(directory, "big.mp4", head: Self.mp4, size: 50 * mib + 1)
    let empty = try file(directory, "empty.png", head: [], size: 0)
    let (accepted, refused) = AttachmentCheck.check(
      [imageAtLimit, imageOver, audioOver, audioOK, movieOK, movieOver, empty].map { attachment($0) })
    #expect(accepted.map(\.type) == ["png", "wav", "mp4"])
    #expect(accepted.map(\.kind) == [.image, .audio, .movie])
    #expect(accepted[0].byteCount == 10 * mib && accepted[0].path == imageAtLimit)
    #expect(refused.count == 4)
    #expect(
      refused[0]
        == #"Attachment "media" refused (attachmentInvalidFileSize, 102): the png image is 10 MB; image attachments may be at most 10 MB."#
    )
    #expect(refused[1].contains("the wav audio is 5 MB; audio attachments may be at most 5 MB"))
    #expect(refused[2].contains("movie attachments may be at most 50 MB"))
    #expect(refused[3].contains("(attachmentUnrecognizedType, 101)"))
  }

  @Test func typesAndURLsAreChecked() throws {
    let directory = try scratchDirectory("types")
    let text = try file(directory, "note.png", head: Array("hello".utf8), size: 5)
    let gif = try file(directory, "a.gif", head: Array("GIF89a".utf8), size: 100)
    let jpeg = try file(directory, "a.jpg", head: [0xFF, 0xD8, 0xFF, 0xE0], size: 100)
    let (accepted, refused) = AttachmentCheck.check([
      attachment(text, id: "named-png"), attachment(gif), attachment(jpeg),
      NotificationAttachment(
        identifier: "remote", path: "https://example.com/a.png", kind: .image, type: "", byteCount: 0),
      attachment(directory + "/missing.png", id: "missing"),
    ])
    #expect(accepted.map(\.type) == ["gif", "jpeg"])
    #expect(refused.count == 3)
    #expect(refused[0].hasPrefix(#"Attachment "named-png" refused (attachmentUnrecognizedType, 101): note.png is not"#))
    #expect(refused[1].hasPrefix(#"Attachment "remote" refused (attachmentInvalidURL, 100)"#))
    #expect(refused[2].hasPrefix(#"Attachment "missing" refused (attachmentInvalidURL, 100): cannot read"#))
  }

  @Test func attachMediaFetchesFileURLsFromTheNamedKeysAndTheDeviceChecksThem() async throws {
    let directory = try scratchDirectory("attach")
    let image = try file(directory, "photo.png", head: Self.png, size: 64)
    let notImage = try file(directory, "notes.txt", head: Array("text".utf8), size: 4)
    let userInfo = JSONValue.object([
      JSONMember(key: "aps", value: .object([])),
      JSONMember(key: "image-url", value: .string("file://" + image)),
      JSONMember(key: "more", value: .array([.string("file://" + notImage), .string("ftp://example.com/x.png")])),
    ])
    let result = await ServiceExtensionRegistry.run(
      ServiceExtensionRegistry.Entry(
        name: "attach-media", budgetSeconds: 120,
        serviceExtension: AttachMediaExtension(keys: ["image-url", "more", "absent"], directory: directory)),
      request: extensionRequest(userInfo: userInfo))
    #expect(result.outcome == .modified)
    #expect(result.content?.attachments.map(\.identifier) == ["image-url"])
    #expect(result.content?.attachments.first?.path == image)
    #expect(result.refusedAttachments.count == 1 && result.refusedAttachments[0].contains(#""more-1""#))
    #expect(result.notes.count == 1 && result.notes[0].contains("only file://, http:// and https:// URLs"))
  }
}

/// A loopback server that serves one directory's files over HTTP GET.
final class FileServer {
  let process = Process()
  let port: Int

  init(serving directory: String) throws {
    let script = directory + "/serve.py"
    try """
    import http.server, functools, os, sys
    H = functools.partial(http.server.SimpleHTTPRequestHandler, directory=sys.argv[1])
    H.log_message = lambda *a: None
    s = http.server.HTTPServer(('127.0.0.1', 0), H)
    open(sys.argv[1] + '/port.tmp', 'w').write(str(s.server_port))
    os.rename(sys.argv[1] + '/port.tmp', sys.argv[1] + '/port')
    s.serve_forever()
    """.write(toFile: script, atomically: true, encoding: .utf8)
    port = try launchLoopbackScript(process, script: script, directory: directory)
  }

  deinit {
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
  }
}

@Suite(.serialized) struct AttachMediaDownloadTests {
  @Test func httpURLsAreDownloadedThenChecked() async throws {
    let served = try scratchDirectory("served")
    let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 0, count: 56)
    FileManager.default.createFile(atPath: served + "/photo.png", contents: Data(png))
    FileManager.default.createFile(atPath: served + "/page.html", contents: Data("<html>".utf8))
    let server = try FileServer(serving: served)
    let downloads = try scratchDirectory("downloads")
    let base = "http://127.0.0.1:\(server.port)"
    let userInfo = JSONValue.object([
      JSONMember(
        key: "media",
        value: .array([
          .string(base + "/photo.png"), .string(base + "/page.html"), .string(base + "/missing.png"),
        ]))
    ])
    let result = await ServiceExtensionRegistry.run(
      ServiceExtensionRegistry.Entry(
        name: "attach-media", budgetSeconds: 120,
        serviceExtension: AttachMediaExtension(keys: ["media"], directory: downloads)),
      request: extensionRequest(userInfo: userInfo))
    #expect(result.outcome == .modified)
    let attached = try #require(result.content?.attachments.first)
    #expect(result.content?.attachments.count == 1)
    #expect(attached.identifier == "media-1" && attached.type == "png" && attached.byteCount == 64)
    #expect(attached.path.hasPrefix(downloads + "/") && attached.path.hasSuffix(".png"))
    // Read through `first`: an index past the end would end the whole test run, not this test.
    #expect(result.refusedAttachments.count == 1 && result.refusedAttachments.first?.contains(#""media-2""#) == true)
    #expect(result.refusedAttachments.first?.contains("(attachmentUnrecognizedType, 101)") == true)
    #expect(result.notes.count == 1 && result.notes.first?.contains("missing.png: HTTP 404") == true)
  }
}

import ArgumentParser
import Dispatch
import Foundation
import PushCore
import PushServer
import PushShell
import PushStore
import PushTerminal
import PushWire
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// `pushdeck serve`: the APNs-compatible endpoint, headless.
struct ServeCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "serve",
    abstract: "Run a local APNs-compatible HTTP/2 endpoint (h2c, or TLS with --tls).",
    discussion: """
      Listens for POST /3/device/<token> over cleartext HTTP/2 with prior knowledge (h2c), or \
      over TLS with ALPN h2 (--tls: --cert/--key, or a self-signed certificate kept beside the \
      state and printed at start), and \
      answers exactly as APNs does: 200 with apns-id, or the APNs status and {"reason": …}. One \
      line per request is printed: status, reason or apns-id, and the bundle id.

      The first line, printed once the listener is bound, is machine-readable: \
      "pushdeck serve: listening on h2c://127.0.0.1:PORT" (with --port 0, the port chosen). \
      --ready-file PATH writes the port to PATH once every start-up line is printed: a test \
      script starts serve in the background and waits for the file (Examples/mock-apns).

      Try it: curl --http2-prior-knowledge -H 'apns-topic: com.example.app' \
      -d '{"aps":{"alert":"Hi"}}' http://127.0.0.1:2197/3/device/<64 hex digits>

      Broadcast channels (iOS 18 Live Activities): the channel management API (POST, GET and \
      DELETE /1/apps/<bundle>/channels, GET /1/apps/<bundle>/all-channels) and broadcasts \
      (POST /4/broadcasts/apps/<bundle> with apns-channel-id) are answered on the main port, and \
      the management API also on --channels-port, as Apple's separate host (2195 sandbox, 2196 \
      production). Channels are kept in the state. See docs/ENDPOINT.md.
      """
  )

  @Option(name: .long, help: "The port to listen on (0 picks a free one).")
  var port: Int = 2197

  @Option(name: .long, help: "The address to bind.")
  var bind: String = "127.0.0.1"

  @Option(
    name: .long,
    help:
      "Also answer the channel management API alone on this port, as Apple's api-manage-broadcast host (off by default; 0 picks a free one)."
  )
  var channelsPort: Int?

  @Option(name: .long, help: "Append each accepted push to this JSON Lines capture, for replay.")
  var record: String?

  @Option(
    name: .long,
    help: ArgumentHelp(
      "Once listening, write the port (one line) to this file: a script waits for it to appear.",
      valueName: "path"))
  var readyFile: String?

  @Option(
    name: .long,
    help: "Connections open at once; beyond it new ones wait until one closes (at most the descriptor limit less 64).")
  var maxConnections: Int = 512

  @OptionGroup var endpointOptions: EndpointOptions

  @OptionGroup var deviceOptions: DeviceOptions

  func validate() throws {
    guard (0...65535).contains(port) else { throw ValidationError("--port must be 0 to 65535") }
    if let channelsPort, !(0...65535).contains(channelsPort) {
      throw ValidationError("--channels-port must be 0 to 65535")
    }
    guard maxConnections >= 1 else { throw ValidationError("--max-connections must be at least 1") }
    try endpointOptions.validateTLS()
  }

  func run() async throws {
    // A ready file left by an earlier run must not look like this one's; one that cannot be
    // written is said before anything listens (a script reading "listening on" took it as up).
    if let readyFile {
      if let problem = ReadyFile.clear(readyFile) ?? ReadyFile.problem(readyFile) {
        FileHandleError.write("pushdeck: cannot write the ready file \(terminalSafe(readyFile)): \(problem)\n")
        throw ExitCode(2)
      }
    }
    let (keys, registry, fcmProject) = try endpointOptions.endpoint(profile: deviceOptions.profile)
    let tls = try endpointOptions.serverTLS(statePath: deviceOptions.state)
    let recorder: CaptureRecorder?
    if let record {
      do throws(RecorderError) {
        recorder = try CaptureRecorder(path: record)
      } catch {
        FileHandleError.write("pushdeck: \(terminalSafe(error.description))\n")
        throw ExitCode(2)
      }
    } else {
      recorder = nil
    }
    let device: LiveDevice
    do {
      device = try LiveDevice(options: deviceOptions.setup, recorder: recorder) { cause in
        FileHandleError.write("pushdeck serve: \(terminalSafe(cause))\n")
      }
    } catch let failure as ServeFailure {
      FileHandleError.write("pushdeck: \(terminalSafe(failure.message))\n")
      throw ExitCode(2)
    }
    // Each connection costs a descriptor: stay well under the process's limit, so `accept`
    // never runs out while the journal, the capture and the certificate still need one.
    var limit = rlimit()
    let descriptors =
      getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 ? Int(clamping: limit.rlim_cur) : Int.max
    let connections = min(maxConnections, max(1, descriptors - 64))
    let printer = LinePrinter()
    let log: APNsServer.Log = { exchange in
      let outcome = exchange.reason ?? exchange.apnsID.map { "apns-id=\($0)" } ?? "ok"
      let detail = exchange.detail.map { " (\(terminalSafe($0)))" } ?? ""
      printer.line("\(exchange.status) \(outcome) \(terminalSafe(exchange.bundleID ?? "-"))\(detail)")
    }
    let server: APNsServer
    do {
      server = try await APNsServer(
        configuration: .init(
          host: bind, port: port, providerKeys: keys, registry: registry, tls: tls, maxConnections: connections,
          fcmProject: fcmProject),
        durableSink: { record, _, done in
          // The one pipeline: what replay does with a capture line, the endpoint does here. The
          // push is answered once it is saved (its batch committed, its capture line synced).
          device.push(record, done: done)
        },
        channels: { route, done in device.channel(route, done: done) },
        log: log,
        notice: { text in FileHandleError.write(text + "\n") })
    } catch {
      FileHandleError.write("pushdeck: cannot listen on \(bind):\(port): \(APNsServer.listenFailure(error))\n")
      throw ExitCode(2)
    }
    var channelServer: APNsServer?
    if let channelsPort {
      do {
        channelServer = try await APNsServer(
          configuration: .init(
            host: bind, port: channelsPort, providerKeys: keys, registry: registry, tls: tls,
            maxConnections: connections, routes: .channelManagement),
          durableSink: { _, _, done in done(.failed) },
          channels: { route, done in device.channel(route, done: done) },
          log: log,
          notice: { text in FileHandleError.write(text + "\n") })
      } catch {
        FileHandleError.write(
          "pushdeck: cannot listen on \(bind):\(channelsPort): \(APNsServer.listenFailure(error))\n")
        await server.drain(timeout: .seconds(1))
        device.finish()
        try? await server.shutdown()
        throw ExitCode(2)
      }
    }
    // Ctrl-C and SIGTERM: stop accepting, answer what was sent, commit, exit 0.
    let (stops, stop) = AsyncStream.makeStream(of: Int32.self)
    let isStopping = Atomic<Bool>(false)
    var signals: [any DispatchSourceSignal] = []
    for number in [SIGINT, SIGTERM] {
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler {
        // A signal once the stop has begun (and said so) closes every connection at once, and
        // the drain below returns. One sent twice at the same moment (a runner forwarding
        // Ctrl-C that the terminal also sent) comes before that, and stops gracefully.
        if isStopping.load(ordering: .sequentiallyConsistent) {
          server.closeConnectionsNow()
          channelServer?.closeConnectionsNow()
        }
        stop.yield(number)
      }
      // Armed before anything says the server is up: a script that stopped the server as soon
      // as its ready file appeared could otherwise leave it running for ever.
      SignalWatcher.arm(source)
      signals.append(source)
    }
    let address = bind.contains(":") ? "[\(bind)]" : bind
    printer.line("pushdeck serve: listening on \(tls == nil ? "h2c" : "https")://\(address):\(server.port)")
    if let channelServer {
      printer.line(
        "pushdeck serve: channel management on \(tls == nil ? "h2c" : "https")://\(address):\(channelServer.port)")
    }
    if let tls {
      printer.line(
        "pushdeck serve: TLS certificate \(terminalSafe(tls.certificatePath))"
          + (tls.isNew ? " (self-signed, made now)" : "")
          + "; trust it with curl --cacert \(terminalSafe(tls.certificatePath))")
    }
    printer.line(
      "pushdeck serve: provider tokens "
        + (keys.isEmpty
          ? "not required"
          : "required (keys: " + keys.map { "\($0.keyID) team \($0.teamID)" }.joined(separator: ", ") + ")"))
    printer.line(
      "pushdeck serve: device tokens "
        + (registry.map {
          $0.acceptsUnknownTokens ? "from the profile, and any other token" : "from the profile only"
        } ?? "any"))
    printer.line(
      "pushdeck serve: state "
        + (device.statePath.map(terminalSafe)
          ?? (record.map { "ephemeral (not saved); pushes recorded to " + terminalSafe($0) }
            ?? "ephemeral (nothing saved)"))
    )
    if connections < maxConnections {
      printer.line("pushdeck serve: at most \(connections) connections (the descriptor limit is \(descriptors))")
    }
    if let readyFile {
      // Written last and renamed into place: a script that sees the file sees the whole port.
      if let problem = ReadyFile.write("\(server.port)\n", to: readyFile) {
        FileHandleError.write("pushdeck: cannot write the ready file \(terminalSafe(readyFile)): \(problem)\n")
        await server.drain(timeout: .seconds(1))
        device.finish()
        try? await server.shutdown()
        throw ExitCode(2)
      }
    }
    for await _ in stops { break }
    // The drain waits for every answer, and each answer waits for its commit. A request that
    // never ends held the stop for the whole 10 s, saying nothing, deaf to more signals (found
    // by an exploratory test): it is said, and a second signal closes every connection at once.
    let open = server.openConnections + (channelServer?.openConnections ?? 0)
    if open > 0 {
      printer.line(
        "pushdeck serve: stopping; answering what was sent on \(open) open connection\(open == 1 ? "" : "s") (up to 10 s; Ctrl-C again stops at once)"
      )
    }
    isStopping.store(true, ordering: .sequentiallyConsistent)
    async let channelsDrained: Void? = channelServer?.drain(timeout: .seconds(10))
    await server.drain(timeout: .seconds(10))
    _ = await channelsDrained
    device.finish()
    try? await server.shutdown()
    try? await channelServer?.shutdown()
    withExtendedLifetime(signals) {}
    printer.line("pushdeck serve: stopped; \(device.savedSummary)")
  }
}

/// `serve --ready-file`: written beside itself and renamed into place, so a script that sees
/// the file sees the whole port; problems said in the system's words, with what to do.
enum ReadyFile {
  /// Removes a ready file an earlier run left; a folder at the path is said, never removed (a
  /// recursive removal of `--ready-file /some/dir` would have deleted the folder and all in it).
  static func clear(_ path: String) -> String? {
    var info = stat()
    guard lstat(path, &info) == 0 else { return nil }
    if info.st_mode & S_IFMT == S_IFDIR { return "it is a folder; name a file (such as \(terminalSafe(path))/port)" }
    unlink(path)
    return nil
  }

  /// Why the file cannot be written, found by making (and removing) a file beside it; nil when
  /// it can.
  static func problem(_ path: String) -> String? {
    write(nil, to: path)
  }

  /// Writes `text` to `path` through a file beside it (only tries, with nil); nil on success.
  @discardableResult
  static func write(_ text: String?, to path: String) -> String? {
    let beside = path + ".\(getpid()).tmp"
    let descriptor = open(beside, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { return explain(errno, directory: (path as NSString).deletingLastPathComponent) }
    var failure: Int32?
    if let text {
      let bytes = Array(text.utf8)
      if bytes.withUnsafeBytes({ Glibc.write(descriptor, $0.baseAddress, $0.count) }) != bytes.count { failure = errno }
    }
    close(descriptor)
    if text == nil || failure != nil {
      unlink(beside)
      return failure.map { explain($0, directory: "") }
    }
    guard rename(beside, path) == 0 else {
      let code = errno
      unlink(beside)
      return explain(code, directory: "")
    }
    return nil
  }

  private static func explain(_ code: Int32, directory: String) -> String {
    let reason = String(cString: strerror(code)).lowercased()
    switch code {
    case ENOENT where !directory.isEmpty:
      let folder = terminalSafe(directory)
      return FileManager.default.fileExists(atPath: directory)
        ? "the folder \(folder) takes no new files; name a file in a folder you can write to"
        : "\(reason): the folder \(folder) does not exist; create it or name a file in one that does"
    case EACCES, EPERM, EROFS: return "\(reason); name a file in a folder you can write to"
    default: return reason
    }
  }
}

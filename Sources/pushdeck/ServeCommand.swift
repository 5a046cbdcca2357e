import ArgumentParser
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

      Try it: curl --http2-prior-knowledge -H 'apns-topic: com.example.app' \
      -d '{"aps":{"alert":"Hi"}}' http://127.0.0.1:2197/3/device/<64 hex digits>
      """
  )

  @Option(name: .long, help: "The port to listen on (0 picks a free one).")
  var port: Int = 2197

  @Option(name: .long, help: "The address to bind.")
  var bind: String = "127.0.0.1"

  @Option(name: .long, help: "Append each accepted push to this JSON Lines capture, for replay.")
  var record: String?

  @OptionGroup var endpointOptions: EndpointOptions

  @OptionGroup var deviceOptions: DeviceOptions

  func validate() throws {
    guard (0...65535).contains(port) else { throw ValidationError("--port must be 0 to 65535") }
    try endpointOptions.validateTLS()
  }

  func run() async throws {
    let (keys, registry) = try endpointOptions.endpoint(profile: deviceOptions.profile)
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
      device = try LiveDevice(options: deviceOptions)
    } catch let failure as ServeFailure {
      FileHandleError.write("pushdeck: \(terminalSafe(failure.message))\n")
      throw ExitCode(2)
    }
    let printer = LinePrinter()
    let server: APNsServer
    do {
      server = try await APNsServer(
        configuration: .init(host: bind, port: port, providerKeys: keys, registry: registry, tls: tls),
        sink: { record, _ in
          // The one pipeline: what replay does with a capture line, the endpoint does here.
          recorder?.append(record)
          device.push(record)
        },
        log: { exchange in
          let outcome = exchange.reason ?? "apns-id=\(exchange.apnsID ?? "")"
          let detail = exchange.detail.map { " (\(terminalSafe($0)))" } ?? ""
          printer.line("\(exchange.status) \(outcome) \(terminalSafe(exchange.bundleID ?? "-"))\(detail)")
        })
    } catch {
      FileHandleError.write("pushdeck: cannot listen on \(bind):\(port): \(error)\n")
      throw ExitCode(2)
    }
    // Ctrl-C and SIGTERM commit what is pending before exiting.
    let signals = [SIGINT, SIGTERM].map { number in
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler {
        device.finish()
        Glibc.exit(0)
      }
      source.resume()
      return source
    }
    let address = bind.contains(":") ? "[\(bind)]" : bind
    printer.line("pushdeck serve: listening on \(tls == nil ? "h2c" : "https")://\(address):\(server.port)")
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
    printer.line("pushdeck serve: state " + (device.statePath.map(terminalSafe) ?? "ephemeral (nothing saved)"))
    try await server.wait()
    withExtendedLifetime(signals) {}
    device.finish()
  }
}

/// Writes whole lines to standard output from any thread, one `write(2)` each.
final class LinePrinter: Sendable {
  private let lock = Mutex(())

  func line(_ text: String) {
    var text = text + "\n"
    lock.withLock { _ in
      text.withUTF8 { buffer in _ = Glibc.write(1, buffer.baseAddress, buffer.count) }
    }
  }
}

/// The simulated device behind `serve`: accepted pushes go through ``Replay``, the path
/// `pushdeck replay` takes (policy, Notification Center, journal), one at a time on a serial
/// queue. A batch is committed whenever the queue runs dry, so under load many pushes share a
/// transaction and at rest each push is journalled at once.
final class LiveDevice: @unchecked Sendable {
  // `replay` is used on `queue` only; `pending` counts pushes queued and not yet applied.
  private let queue = DispatchQueue(label: "pushdeck.serve.device")
  private var replay: Replay
  private let pending = Atomic<Int>(0)
  private let journal: DeviceJournal?

  init(options: DeviceOptions) throws {
    let journal: DeviceJournal?
    let holdsDevice: Bool
    let committer: BackgroundCommitter?
    do throws(StoreError) {
      (journal, holdsDevice) = try options.openState(DeviceJournal.Options(writer: "Pushdeck serve"))
      committer = try journal.map { journal throws(StoreError) in try BackgroundCommitter(journal: journal) }
    } catch {
      throw ServeFailure(message: error.description)
    }
    self.journal = journal
    let makeProfile = try Session.profileLoader(options.profile)
    replay = Replay(
      committer: committer, restoring: holdsDevice ? journal : nil, batchSize: 1_000,
      preset: options.profile.flatMap(Session.PresetRequest.init(preset:)),
      makeProfile: { start in try makeProfile(start) })
  }

  /// The state database's path, nil when ephemeral.
  var statePath: String? { journal?.path }

  /// Queues one accepted push.
  func push(_ record: PushRecord) {
    pending.add(1, ordering: .relaxed)
    queue.async {
      self.replay.push(record)
      if self.pending.subtract(1, ordering: .relaxed).newValue == 0 { self.replay.flush() }
      if let failure = self.replay.failure {
        FileHandleError.write("pushdeck: \(terminalSafe(failure))\n")
      }
    }
  }

  /// Commits everything pending and closes the journal.
  func finish() {
    queue.sync {
      replay.finish()
      try? journal?.close()
    }
  }
}

/// A problem that stops `serve` before it listens.
struct ServeFailure: Error, CustomStringConvertible {
  var message: String
  var description: String { message }
}

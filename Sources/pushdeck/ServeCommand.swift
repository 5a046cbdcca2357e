import ArgumentParser
import PushServer
import PushWire
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// `pushdeck serve`: the APNs-compatible endpoint, headless.
struct ServeCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "serve",
    abstract: "Run a local APNs-compatible HTTP/2 endpoint (h2c).",
    discussion: """
      Listens for POST /3/device/<token> over cleartext HTTP/2 with prior knowledge (h2c) and \
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

  @Flag(name: .long, help: "Accept any well-formed device token (without a profile, every token is).")
  var acceptAnyToken = false

  func validate() throws {
    guard (0...65535).contains(port) else { throw ValidationError("--port must be 0 to 65535") }
  }

  func run() async throws {
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
    let printer = LinePrinter()
    let server: APNsServer
    do {
      server = try await APNsServer(
        configuration: .init(host: bind, port: port),
        sink: { record, _ in
          // The one pipeline: what replay does with a capture line, the endpoint does here.
          recorder?.append(record)
        },
        log: { exchange in
          let outcome = exchange.reason ?? "apns-id=\(exchange.apnsID ?? "")"
          printer.line("\(exchange.status) \(outcome) \(terminalSafe(exchange.bundleID ?? "-"))")
        })
    } catch {
      FileHandleError.write("pushdeck: cannot listen on \(bind):\(port): \(error)\n")
      throw ExitCode(2)
    }
    printer.line("pushdeck serve: listening on h2c://\(bind):\(server.port)")
    try await server.wait()
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

import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTP2
import NIOPosix
import NIOSSL
import PushWire
import Synchronization

/// One push to send: the device token, the request headers (`apns-*`, `authorization`) and the body.
public struct APNsClientRequest: Sendable {
  public var token: String
  public var headers: [(name: String, value: String)]
  public var body: [UInt8]
  /// The method: `POST` for pushes; the channel management API also uses `GET` and `DELETE`.
  public var method: String = "POST"
  /// The path, when not `/3/device/<token>` (a broadcast, a channel request).
  public var path: String?

  public init(token: String, headers: [(name: String, value: String)], body: [UInt8]) {
    self.token = token
    self.headers = headers
    self.body = body
  }

  /// A request to another path than `/3/device` (the channel API).
  public init(method: String, path: String, headers: [(name: String, value: String)], body: [UInt8] = []) {
    self.init(token: "", headers: headers, body: body)
    self.method = method
    self.path = path
  }
}

/// APNs's answer to one push.
public struct APNsClientResponse: Sendable {
  /// The HTTP status.
  public var status: Int
  /// The `apns-id` header, if any.
  public var apnsID: String?
  /// The `apns-unique-id` header, if any.
  public var uniqueID: String?
  /// The `apns-channel-id` header, if any (a channel created or read).
  public var channelID: String?
  /// The body's `reason`, on a rejection.
  public var reason: String?
  /// The body's `timestamp` (milliseconds), with 410 `Unregistered`.
  public var timestamp: Int64?
  /// The body as received.
  public var body: String
}

/// A client failure: cannot connect, the connection closed before an answer, and so on.
public struct APNsClientError: Error, CustomStringConvertible, Sendable {
  public var message: String
  public var description: String { message }
}

/// An HTTP/2 client for APNs-compatible endpoints (Pushdeck's own, or any other): one
/// connection, any number of pushes on it, one stream each.
public final class APNsClient: Sendable {
  /// Prepares a new connection's pipeline before HTTP/2 (adds the TLS handler).
  public typealias ConnectionSetup = @Sendable (Channel) throws -> Void

  private let group: MultiThreadedEventLoopGroup
  private let channel: Channel
  private let multiplexer: NIOHTTP2Handler.StreamMultiplexer
  private let authority: String
  private let secure: Bool
  private let connectionError: ConnectionErrorRecorder

  /// Connects with cleartext HTTP/2 and prior knowledge (h2c), or through `tls`.
  ///
  /// - Parameter tls: adds the TLS handler (with ALPN h2) to a new connection's pipeline; nil
  ///   for h2c.
  public init(
    host: String, port: Int, tls: ConnectionSetup? = nil, timeout: TimeAmount = .seconds(20)
  ) async throws {
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    let promise = group.next().makePromise(of: NIOHTTP2Handler.StreamMultiplexer.self)
    let recorder = ConnectionErrorRecorder()
    let bootstrap = ClientBootstrap(group: group)
      .connectTimeout(timeout)
      .channelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
      .channelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
          try tls?(channel)
          try channel.pipeline.syncOperations.addHandler(recorder)
          let multiplexer = try channel.pipeline.syncOperations.configureHTTP2Pipeline(
            mode: .client, connectionConfiguration: .init(), streamConfiguration: .init()
          ) { stream in stream.eventLoop.makeSucceededVoidFuture() }
          promise.succeed(multiplexer)
        }
      }
    do {
      channel = try await bootstrap.connect(host: host, port: port).get()
      multiplexer = try await promise.futureResult.get()
    } catch {
      promise.fail(error)
      try? await group.shutdownGracefully()
      throw APNsClientError(message: "cannot connect to \(host):\(port): \(Self.describe(error))")
    }
    self.group = group
    authority = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    secure = tls != nil
    connectionError = recorder
  }

  /// Sends one push and waits for its answer.
  public func send(_ request: APNsClientRequest, timeout: TimeAmount = .seconds(30)) async throws -> APNsClientResponse
  {
    let responsePromise = channel.eventLoop.makePromise(of: APNsClientResponse.self)
    let secure = secure
    let stream: Channel
    do {
      stream = try await multiplexer.createStreamChannel { stream in
        stream.eventLoop.makeCompletedFuture {
          try stream.pipeline.syncOperations.addHandlers([
            HTTP2FramePayloadToHTTP1ClientCodec(httpProtocol: secure ? .https : .http),
            APNsResponseCollector(promise: responsePromise),
          ])
        }
      }.get()
    } catch {
      responsePromise.fail(error)
      if let failure = connectionError.error { throw connectionFailure(failure) }
      // An h2c client at a TLS endpoint: the server closes the connection at the first bytes,
      // before any stream opens.
      throw APNsClientError(message: "cannot open a stream: \(Self.describe(error))\(h2cHint)")
    }
    var headers = HTTPHeaders()
    headers.add(name: "host", value: authority)
    for (name, value) in request.headers { headers.add(name: name, value: value) }
    if request.method != "GET" || !request.body.isEmpty {
      headers.add(name: "content-length", value: String(request.body.count))
    }
    let head = HTTPRequestHead(
      version: .http1_1, method: HTTPMethod(rawValue: request.method),
      uri: request.path ?? APNsRequest.pathPrefix + request.token, headers: headers)
    stream.write(HTTPClientRequestPart.head(head), promise: nil)
    if !request.body.isEmpty {
      stream.write(HTTPClientRequestPart.body(.byteBuffer(ByteBuffer(bytes: request.body))), promise: nil)
    }
    stream.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
    let deadline = stream.eventLoop.scheduleTask(in: timeout) {
      responsePromise.fail(APNsClientError(message: "no answer within \(timeout.nanoseconds / 1_000_000_000) s"))
      stream.close(promise: nil)
    }
    defer { deadline.cancel() }
    do {
      return try await responsePromise.futureResult.get()
    } catch {
      // A failed TLS handshake closes the connection: say so rather than "the stream closed".
      if let failure = connectionError.error { throw connectionFailure(failure) }
      if let error = error as? APNsClientError {
        guard secure || !error.message.hasPrefix("the stream closed") else {
          throw APNsClientError(message: error.message + h2cHint)
        }
        throw error
      }
      throw APNsClientError(message: "the request failed: \(Self.describe(error))")
    }
  }

  /// What an h2c client adds to a connection or stream the server dropped: a TLS endpoint
  /// closes (or resets) an h2c connection at its first bytes, before or after a stream opens.
  private var h2cHint: String {
    secure ? "" : " (a TLS endpoint closes an h2c connection: give --tls, with --cacert FILE)"
  }

  /// The error for a connection that failed: the TLS handshake's, or the reset or close, with
  /// the h2c hint. Which of a reset and a clean close the client sees depends on timing; both
  /// mean the same to an h2c client (CI saw "connection reset by peer" without the hint).
  private func connectionFailure(_ failure: Error) -> APNsClientError {
    let text = Self.describeConnection(failure)
    return APNsClientError(message: text.hasPrefix("the connection failed") ? text + h2cHint : text)
  }

  /// Closes the connection.
  public func close() async {
    try? await channel.close().get()
    try? await group.shutdownGracefully()
  }

  static func describeConnection(_ error: Error) -> String {
    let text = "\(error)"
    if text.contains("CERTIFICATE_VERIFY_FAILED") {
      return
        "TLS handshake failed: the server's certificate is not trusted (give --cacert with the certificate pushdeck serve printed)"
    }
    // A TLS client at an h2c endpoint reads HTTP/2 bytes where a TLS record should be: said
    // plainly, not as BoringSSL's error with its source path.
    if text.contains("WRONG_VERSION_NUMBER") || text.contains("WRONG_VERSION") || text.contains("HTTP_REQUEST")
      || text.contains("PACKET_LENGTH_TOO_LONG") || text.contains("RECORD_LENGTH_MISMATCH")
    {
      return
        "TLS handshake failed: the server does not speak TLS (an h2c endpoint, such as pushdeck serve without --tls): drop --tls"
    }
    if error is NIOSSLError || text.contains("handshake") {
      return "TLS handshake failed: \(text.split(separator: " at /").first.map(String.init) ?? text)"
    }
    return "the connection failed: \(describe(error))"
  }

  static func describe(_ error: Error) -> String {
    if let error = error as? NIOConnectionError, let first = error.connectionErrors.first {
      return describe(first.error)
    }
    if let error = error as? IOError { return String(cString: strerror(error.errnoCode)).lowercased() }
    if error is ChannelError { return "the connection closed (\(error))" }
    return "\(error)"
  }
}

/// Keeps the first error the connection reports (a failed TLS handshake, say).
final class ConnectionErrorRecorder: ChannelInboundHandler, Sendable {
  typealias InboundIn = Any
  private let firstError = Mutex<(any Error)?>(nil)

  var error: (any Error)? { firstError.withLock { $0 } }

  func errorCaught(context: ChannelHandlerContext, error: Error) {
    firstError.withLock { if $0 == nil { $0 = error } }
    context.fireErrorCaught(error)
  }
}

/// Collects one stream's response.
final class APNsResponseCollector: ChannelInboundHandler {
  typealias InboundIn = HTTPClientResponsePart

  private let promise: EventLoopPromise<APNsClientResponse>
  private var head: HTTPResponseHead?
  private var body: [UInt8] = []

  init(promise: EventLoopPromise<APNsClientResponse>) { self.promise = promise }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    switch unwrapInboundIn(data) {
    case .head(let head): self.head = head
    case .body(let buffer): buffer.withUnsafeReadableBytes { body.append(contentsOf: $0) }
    case .end:
      guard let head else { return }
      let text = String(decoding: body, as: UTF8.self)
      var response = APNsClientResponse(
        status: Int(head.status.code), apnsID: head.headers.first(name: "apns-id"),
        uniqueID: head.headers.first(name: "apns-unique-id"), channelID: head.headers.first(name: "apns-channel-id"),
        body: text)
      if let document = try? JSONDocument(bytes: body), document.kind(document.root) == .object {
        response.reason = document.member("reason", of: document.root).flatMap(document.stringValue)
        response.timestamp = document.member("timestamp", of: document.root).flatMap(document.integer).map(Int64.init)
      }
      promise.succeed(response)
      context.close(promise: nil)
    }
  }

  func errorCaught(context: ChannelHandlerContext, error: Error) {
    promise.fail(error)
    context.close(promise: nil)
  }

  func channelInactive(context: ChannelHandlerContext) {
    promise.fail(APNsClientError(message: "the stream closed before an answer"))
    context.fireChannelInactive()
  }
}

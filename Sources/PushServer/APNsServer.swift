import Foundation
import NIOCore
import NIOHPACK
import NIOHTTP1
import NIOHTTP2
import NIOPosix
import PushWire

/// One answered request, for the log.
public struct APNsExchange: Sendable {
  /// The HTTP status sent.
  public var status: Int
  /// The APNs reason, nil on success.
  public var reason: String?
  /// The `apns-topic` sent, if any.
  public var topic: String?
  /// The app: the accepted push's bundle id, or the one the topic names.
  public var bundleID: String?
  /// The `apns-id` answered with, on success.
  public var apnsID: String?
  /// Why it was rejected, beyond the reason (an unknown `kid`, say), for the log.
  public var detail: String?
}

/// An APNs-compatible HTTP/2 endpoint: `POST /3/device/<token>`, answered as APNs would.
///
/// It speaks HTTP/2 over TLS (ALPN h2) or cleartext with prior knowledge (h2c). Accepted pushes are handed to
/// `sink`, the same path replayed pushes take; every answer is reported to `log`.
public final class APNsServer: Sendable {
  /// Where and how to listen.
  public struct Configuration: Sendable {
    /// The address to bind; loopback unless the user says otherwise.
    public var host: String
    /// The port; 0 picks a free one (see ``APNsServer/port``).
    public var port: Int
    /// Whether `apns-unique-id` is sent (the development environment does).
    public var sendsUniqueID: Bool
    /// The trusted provider-token keys; with at least one, every request needs a valid
    /// `authorization: bearer <JWT>`. Empty: no authentication.
    public var providerKeys: [ProviderTokenKey]
    /// The known device tokens; nil accepts every well-formed token.
    public var registry: TokenRegistry?
    /// TLS with ALPN h2; nil for cleartext HTTP/2 with prior knowledge (h2c).
    public var tls: ServerTLS?
    /// What one client may hold.
    public var limits: Limits

    public init(
      host: String = "127.0.0.1", port: Int = 2197, sendsUniqueID: Bool = true, providerKeys: [ProviderTokenKey] = [],
      registry: TokenRegistry? = nil, tls: ServerTLS? = nil, limits: Limits = .init()
    ) {
      self.host = host
      self.port = port
      self.sendsUniqueID = sendsUniqueID
      self.providerKeys = providerKeys
      self.registry = registry
      self.tls = tls
      self.limits = limits
    }
  }

  /// What one client may hold, so that no client can make the server grow without bound
  /// (docs/RELIABILITY.md lists each limit and what a client sees at it).
  public struct Limits: Sendable {
    /// SETTINGS_MAX_CONCURRENT_STREAMS. NIOHTTP2 answers a stream beyond it with GOAWAY
    /// PROTOCOL_ERROR; the streams already open are still answered, later ones refused.
    public var maxConcurrentStreams: Int
    /// SETTINGS_MAX_HEADER_LIST_SIZE in bytes: a larger header block ends the connection.
    public var maxHeaderListSize: Int
    /// A connection on which nothing arrives for this long is closed.
    public var idleTimeout: TimeAmount
    /// A request whose end has not arrived this long after its headers is reset (RST_STREAM).
    public var requestTimeout: TimeAmount

    public init(
      maxConcurrentStreams: Int = 100, maxHeaderListSize: Int = 16_384, idleTimeout: TimeAmount = .minutes(5),
      requestTimeout: TimeAmount = .seconds(30)
    ) {
      self.maxConcurrentStreams = maxConcurrentStreams
      self.maxHeaderListSize = maxHeaderListSize
      self.idleTimeout = idleTimeout
      self.requestTimeout = requestTimeout
    }
  }

  /// Receives each accepted push and its device token.
  public typealias Sink = @Sendable (PushRecord, String) -> Void
  /// Receives each answer.
  public typealias Log = @Sendable (APNsExchange) -> Void

  private let group: MultiThreadedEventLoopGroup
  private let channel: Channel
  /// The port actually bound.
  public let port: Int

  /// Binds and starts listening.
  public init(
    configuration: Configuration = .init(), threads: Int = System.coreCount, sink: @escaping Sink,
    log: @escaping Log = { _ in }
  ) async throws {
    let group = MultiThreadedEventLoopGroup(numberOfThreads: max(1, threads))
    // One verifier for the server; a session per connection (the refresh rule counts per connection).
    let verifier = configuration.providerKeys.isEmpty ? nil : ProviderTokenVerifier(keys: configuration.providerKeys)
    let bootstrap = ServerBootstrap(group: group)
      .serverChannelOption(ChannelOptions.backlog, value: 256)
      .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
      .childChannelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
      .childChannelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
          try Self.configureConnection(channel, configuration: configuration, verifier: verifier, sink: sink, log: log)
        }
      }
    do {
      channel = try await bootstrap.bind(host: configuration.host, port: configuration.port).get()
    } catch {
      try? await group.shutdownGracefully()
      throw error
    }
    self.group = group
    port = channel.localAddress?.port ?? configuration.port
  }

  /// Sets up one connection's pipeline: TLS when configured, HTTP/2 with the configured limits,
  /// one ``APNsStreamHandler`` per stream, and the idle timeout. Tests and the fuzz target drive it
  /// on an `EmbeddedChannel`.
  static func configureConnection(
    _ channel: Channel, configuration: Configuration, verifier: ProviderTokenVerifier? = nil,
    sink: @escaping Sink, log: @escaping Log
  ) throws {
    let limits = configuration.limits
    let sendsUniqueID = configuration.sendsUniqueID
    let registry = configuration.registry
    let verifier =
      verifier ?? (configuration.providerKeys.isEmpty ? nil : ProviderTokenVerifier(keys: configuration.providerKeys))
    let session = verifier.map(ProviderTokenSession.init)
    var connection = NIOHTTP2Handler.ConnectionConfiguration()
    connection.initialSettings = [
      HTTP2Setting(parameter: .maxConcurrentStreams, value: limits.maxConcurrentStreams),
      HTTP2Setting(parameter: .maxHeaderListSize, value: limits.maxHeaderListSize),
    ]
    try configuration.tls?.addHandler(to: channel)
    try channel.pipeline.syncOperations.addHandler(IdleConnectionCloser(timeout: limits.idleTimeout))
    _ = try channel.pipeline.syncOperations.configureHTTP2Pipeline(
      mode: .server, connectionConfiguration: connection, streamConfiguration: .init()
    ) { stream in
      stream.eventLoop.makeCompletedFuture {
        // HTTP/2 frames straight to the handler: NIO's HTTP/1 translation insists on
        // :authority, which real APNs clients (aioapns) leave out for a host header.
        try stream.pipeline.syncOperations.addHandler(
          APNsStreamHandler(
            sendsUniqueID: sendsUniqueID, requestTimeout: limits.requestTimeout, session: session, registry: registry,
            sink: sink, log: log))
      }
    }
  }

  /// Waits until the server is closed.
  public func wait() async throws {
    try await channel.closeFuture.get()
  }

  /// Stops listening and releases the threads.
  public func shutdown() async throws {
    try? await channel.close().get()
    try await group.shutdownGracefully()
  }
}

/// Answers the one request of an HTTP/2 stream, reading and writing HTTP/2 frames directly.
final class APNsStreamHandler: ChannelInboundHandler {
  typealias InboundIn = HTTP2Frame.FramePayload
  typealias OutboundOut = HTTP2Frame.FramePayload

  private let sendsUniqueID: Bool
  private let session: ProviderTokenSession?
  private let registry: TokenRegistry?
  private let sink: APNsServer.Sink
  private let log: APNsServer.Log
  private var requestHeaders: HPACKHeaders?
  private var body: [UInt8] = []
  private var bodyByteCount = 0
  private var answered = false
  private let requestTimeout: TimeAmount
  private var deadline: Scheduled<Void>?

  init(
    sendsUniqueID: Bool, requestTimeout: TimeAmount = .seconds(30), session: ProviderTokenSession?,
    registry: TokenRegistry?, sink: @escaping APNsServer.Sink, log: @escaping APNsServer.Log
  ) {
    self.sendsUniqueID = sendsUniqueID
    self.requestTimeout = requestTimeout
    self.session = session
    self.registry = registry
    self.sink = sink
    self.log = log
  }

  func handlerAdded(context: ChannelHandlerContext) {
    // A request that does not end in time is reset (RST_STREAM CANCEL), freeing its stream.
    let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
    deadline = context.eventLoop.scheduleTask(in: requestTimeout) { loopBound.value.close(promise: nil) }
  }

  func handlerRemoved(context: ChannelHandlerContext) {
    deadline?.cancel()
    deadline = nil
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    switch unwrapInboundIn(data) {
    case .headers(let frame):
      // The first block is the request's headers; a later one (trailers) only ends the stream.
      if requestHeaders == nil { requestHeaders = frame.headers }
      if frame.endStream { respond(context: context) }
    case .data(let frame):
      if case .byteBuffer(let buffer) = frame.data {
        bodyByteCount += buffer.readableBytes
        // Kept up to one byte past the largest payload: enough to know it is too large.
        let room = APNsRequest.maximumBodyBytes + 1 - body.count
        if room > 0 {
          buffer.withUnsafeReadableBytes { body.append(contentsOf: $0.prefix(room)) }
        }
      }
      if frame.endStream { respond(context: context) }
    default:
      break
    }
  }

  private func respond(context: ChannelHandlerContext) {
    guard let request = requestHeaders, !answered else { return }
    answered = true
    deadline?.cancel()
    deadline = nil
    let now = Date().timeIntervalSince1970
    let session = self.session
    var headers: [(name: String, value: String)] = []
    headers.reserveCapacity(request.count)
    for (name, value, _) in request where !name.hasPrefix(":") { headers.append((name, value)) }
    let outcome = APNsRequest.decide(
      method: request.first(name: ":method") ?? "", path: request.first(name: ":path") ?? "", headers: headers,
      body: body, bodyByteCount: bodyByteCount, receivedAt: now,
      authorize: { authorization in
        guard let refusal = session?.check(authorization: authorization, now: now) else { return nil }
        return .rejected(status: refusal.status, reason: refusal.reason, detail: refusal.detail)
      }, registry: registry)
    var response = HPACKHeaders([(":status", String(outcome.status))])
    var responseBody: ByteBuffer?
    let topic = request.first(name: "apns-topic")
    var exchange = APNsExchange(
      status: outcome.status, reason: outcome.reason, topic: topic,
      bundleID: topic.map {
        APNsRequest.bundle(fromTopic: $0, pushType: request.first(name: "apns-push-type").flatMap(PushType.init))
      })
    exchange.detail = outcome.detail
    switch outcome {
    case .accepted(let record, let token, let apnsID):
      response.add(name: "apns-id", value: apnsID)
      if sendsUniqueID { response.add(name: "apns-unique-id", value: UUID().uuidString.lowercased()) }
      exchange.apnsID = apnsID
      exchange.bundleID = record.bundleID
      sink(record, token)
    case .rejected(_, let reason, let timestamp, _):
      if let id = request.first(name: "apns-id"), APNsHeaders.isCanonicalUUID(id) {
        response.add(name: "apns-id", value: id)
      }
      let text = APNsRequest.errorBody(reason: reason, timestamp: timestamp)
      response.add(name: "content-type", value: "application/json")
      response.add(name: "content-length", value: String(text.utf8.count))
      responseBody = context.channel.allocator.buffer(string: text)
    }
    log(exchange)
    context.write(
      wrapOutboundOut(.headers(.init(headers: response, endStream: responseBody == nil))), promise: nil)
    if let responseBody {
      context.write(wrapOutboundOut(.data(.init(data: .byteBuffer(responseBody), endStream: true))), promise: nil)
    }
    context.flush()
  }
}

/// Closes a connection on which nothing has been read for `timeout`.
///
/// NIO's `IdleStateHandler` measures with the wall clock; this one uses the event loop's clock,
/// so tests can move time on an `EmbeddedEventLoop`.
final class IdleConnectionCloser: ChannelInboundHandler {
  typealias InboundIn = ByteBuffer

  private let timeout: TimeAmount
  private var lastRead = NIODeadline.distantPast
  private var check: Scheduled<Void>?

  init(timeout: TimeAmount) { self.timeout = timeout }

  func handlerAdded(context: ChannelHandlerContext) {
    if context.channel.isActive { start(context) }
  }

  func channelActive(context: ChannelHandlerContext) {
    start(context)
    context.fireChannelActive()
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    lastRead = context.eventLoop.now
    context.fireChannelRead(data)
  }

  func channelInactive(context: ChannelHandlerContext) {
    check?.cancel()
    check = nil
    context.fireChannelInactive()
  }

  func handlerRemoved(context: ChannelHandlerContext) {
    check?.cancel()
    check = nil
  }

  private func start(_ context: ChannelHandlerContext) {
    guard check == nil else { return }
    lastRead = context.eventLoop.now
    schedule(context, at: lastRead + timeout)
  }

  private func schedule(_ context: ChannelHandlerContext, at deadline: NIODeadline) {
    let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
    check = context.eventLoop.scheduleTask(deadline: deadline) {
      let (closer, context) = loopBound.value
      let due = closer.lastRead + closer.timeout
      if context.eventLoop.now >= due {
        closer.check = nil
        context.close(promise: nil)
      } else {
        closer.schedule(context, at: due)
      }
    }
  }
}

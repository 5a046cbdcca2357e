import Foundation
import NIOCore
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
}

/// An APNs-compatible HTTP/2 endpoint: `POST /3/device/<token>`, answered as APNs would.
///
/// This slice speaks cleartext HTTP/2 with prior knowledge (h2c). Accepted pushes are handed to
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
    /// What one client may hold.
    public var limits: Limits

    public init(host: String = "127.0.0.1", port: Int = 2197, sendsUniqueID: Bool = true, limits: Limits = .init()) {
      self.host = host
      self.port = port
      self.sendsUniqueID = sendsUniqueID
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
    let bootstrap = ServerBootstrap(group: group)
      .serverChannelOption(ChannelOptions.backlog, value: 256)
      .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
      .childChannelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
      .childChannelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
          try Self.configureConnection(channel, configuration: configuration, sink: sink, log: log)
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

  /// Sets up one connection's pipeline: HTTP/2 with the configured limits, one
  /// ``APNsStreamHandler`` per stream, and the idle timeout. Tests and the fuzz target drive it
  /// on an `EmbeddedChannel`.
  static func configureConnection(
    _ channel: Channel, configuration: Configuration, sink: @escaping Sink, log: @escaping Log
  ) throws {
    let limits = configuration.limits
    let sendsUniqueID = configuration.sendsUniqueID
    var connection = NIOHTTP2Handler.ConnectionConfiguration()
    connection.initialSettings = [
      HTTP2Setting(parameter: .maxConcurrentStreams, value: limits.maxConcurrentStreams),
      HTTP2Setting(parameter: .maxHeaderListSize, value: limits.maxHeaderListSize),
    ]
    try channel.pipeline.syncOperations.addHandler(IdleConnectionCloser(timeout: limits.idleTimeout))
    _ = try channel.pipeline.syncOperations.configureHTTP2Pipeline(
      mode: .server, connectionConfiguration: connection, streamConfiguration: .init()
    ) { stream in
      stream.eventLoop.makeCompletedFuture {
        try stream.pipeline.syncOperations.addHandlers([
          HTTP2FramePayloadToHTTP1ServerCodec(),
          APNsStreamHandler(
            sendsUniqueID: sendsUniqueID, requestTimeout: limits.requestTimeout, sink: sink, log: log),
        ])
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

/// Answers the one request of an HTTP/2 stream.
final class APNsStreamHandler: ChannelInboundHandler {
  typealias InboundIn = HTTPServerRequestPart
  typealias OutboundOut = HTTPServerResponsePart

  private let sendsUniqueID: Bool
  private let sink: APNsServer.Sink
  private let log: APNsServer.Log
  private let requestTimeout: TimeAmount
  private var head: HTTPRequestHead?
  private var body: [UInt8] = []
  private var bodyByteCount = 0
  private var deadline: Scheduled<Void>?

  init(
    sendsUniqueID: Bool, requestTimeout: TimeAmount = .seconds(30), sink: @escaping APNsServer.Sink,
    log: @escaping APNsServer.Log
  ) {
    self.sendsUniqueID = sendsUniqueID
    self.requestTimeout = requestTimeout
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
    case .head(let head):
      self.head = head
    case .body(let buffer):
      bodyByteCount += buffer.readableBytes
      // Kept up to one byte past the largest payload: enough to know it is too large.
      let room = APNsRequest.maximumBodyBytes + 1 - body.count
      if room > 0 {
        buffer.withUnsafeReadableBytes { body.append(contentsOf: $0.prefix(room)) }
      }
    case .end:
      deadline?.cancel()
      deadline = nil
      guard let head else { return }
      respond(context: context, head: head)
      self.head = nil
    }
  }

  private func respond(context: ChannelHandlerContext, head: HTTPRequestHead) {
    let outcome = APNsRequest.decide(
      method: head.method.rawValue, path: head.uri, headers: head.headers.map { ($0.name, $0.value) }, body: body,
      bodyByteCount: bodyByteCount, receivedAt: Date().timeIntervalSince1970)
    var headers = HTTPHeaders()
    var responseBody: ByteBuffer?
    let topic = head.headers.first(name: "apns-topic")
    var exchange = APNsExchange(
      status: outcome.status, reason: outcome.reason, topic: topic,
      bundleID: topic.map {
        APNsRequest.bundle(fromTopic: $0, pushType: head.headers.first(name: "apns-push-type").flatMap(PushType.init))
      })
    switch outcome {
    case .accepted(let record, let token, let apnsID):
      headers.add(name: "apns-id", value: apnsID)
      if sendsUniqueID { headers.add(name: "apns-unique-id", value: UUID().uuidString.lowercased()) }
      exchange.apnsID = apnsID
      exchange.bundleID = record.bundleID
      sink(record, token)
    case .rejected(_, let reason):
      if let id = head.headers.first(name: "apns-id"), APNsHeaders.isCanonicalUUID(id) {
        headers.add(name: "apns-id", value: id)
      }
      let text = APNsRequest.errorBody(reason: reason)
      headers.add(name: "content-type", value: "application/json")
      headers.add(name: "content-length", value: String(text.utf8.count))
      responseBody = context.channel.allocator.buffer(string: text)
    }
    log(exchange)
    let status = HTTPResponseStatus(statusCode: outcome.status)
    context.write(
      wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: status, headers: headers))), promise: nil)
    if let responseBody { context.write(wrapOutboundOut(.body(.byteBuffer(responseBody))), promise: nil) }
    context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
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

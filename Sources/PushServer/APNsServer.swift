import Foundation
import NIOCore
import NIOHPACK
import NIOHTTP1
import NIOHTTP2
import NIOPosix
import PushWire
import Synchronization

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
  /// What a refused request sent (status 400 and over), so a front end can show it
  /// (`run --listen`'s inspector); nil for an accepted push.
  public var request: SentRequest?
  /// Whether the push was accepted and handed to the device, then could not be saved (answered
  /// 500): not a refusal, the push reached the device.
  public var wasNotSaved = false

  public init(
    status: Int, reason: String?, topic: String?, bundleID: String?, apnsID: String? = nil, detail: String? = nil,
    request: SentRequest? = nil
  ) {
    self.status = status
    self.reason = reason
    self.topic = topic
    self.bundleID = bundleID
    self.apnsID = apnsID
    self.detail = detail
    self.request = request
  }

  /// A request as the endpoint received it.
  public struct SentRequest: Sendable, Equatable {
    public var method: String
    public var path: String
    /// Its headers in the order sent, without the pseudo-headers; a bearer token is replaced
    /// by its length (it is a credential, valid for an hour).
    public var headers: [Header]
    /// The body's first ``keptBodyBytes`` bytes, as sent.
    public var body: [UInt8]
    /// The body's full length.
    public var bodyByteCount: Int

    /// The most of a body kept.
    public static let keptBodyBytes = 4096

    /// Headers that carry credentials: their values are never kept.
    static let credentialHeaders: Set<String> = ["authorization", "proxy-authorization", "cookie"]

    /// A header's value as kept: a credential's replaced by its scheme (a first word of letters
    /// followed by more) and its length, whatever its form (`bearer <JWT>`, ` bearer <JWT>`, a
    /// bare token); any other value as sent.
    public static func shown(name: String, value: String) -> String {
      guard credentialHeaders.contains(name.lowercased()) else { return value }
      let words = value.split(whereSeparator: { $0 == " " || $0 == "\t" })
      if words.count > 1, let scheme = words.first, scheme.allSatisfy({ $0.isASCII && $0.isLetter }) {
        let rest = words.dropFirst().reduce(0) { $0 + $1.utf8.count }
        return "\(scheme) (\(rest) characters, not shown)"
      }
      return "(\(value.utf8.count) characters, not shown)"
    }

    public struct Header: Sendable, Equatable {
      public var name: String
      public var value: String

      public init(name: String, value: String) {
        self.name = name
        self.value = value
      }
    }
  }
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
    /// How many connections may be open at once; at the limit the server stops accepting (new
    /// connections wait in the listen backlog) until one closes.
    public var maxConnections: Int
    /// Which requests the server answers.
    public var routes: Routes = .all
    /// The FCM project the tokens belong to: an FCM send to another is `SENDER_ID_MISMATCH`.
    /// nil: any project.
    public var fcmProject: String?

    public init(
      host: String = "127.0.0.1", port: Int = 2197, sendsUniqueID: Bool = true, providerKeys: [ProviderTokenKey] = [],
      registry: TokenRegistry? = nil, tls: ServerTLS? = nil, limits: Limits = .init(), maxConnections: Int = 512,
      routes: Routes = .all, fcmProject: String? = nil
    ) {
      self.routes = routes
      self.fcmProject = fcmProject
      self.host = host
      self.port = port
      self.sendsUniqueID = sendsUniqueID
      self.providerKeys = providerKeys
      self.registry = registry
      self.tls = tls
      self.limits = limits
      self.maxConnections = maxConnections
    }
  }

  /// Which requests a server answers.
  public enum Routes: Sendable {
    /// Pushes (`/3/device`), FCM HTTP v1 sends (`/v1/projects/<p>/messages:send`), broadcasts
    /// (`/4/broadcasts`) and the channel management API (`/1/apps`), when a channel handler is
    /// given: one local endpoint for everything.
    case all
    /// Only the channel management API, as Apple's `api-manage-broadcast` host (ports 2195/2196).
    case channelManagement
  }

  /// Handles a channel API request the rules let through (``ChannelRequest``): the device
  /// creates, reads, lists or deletes the channel or applies the broadcast, and calls `done` with
  /// the answer once any change is saved. `done` may be called on any thread, once.
  public typealias ChannelHandler =
    @Sendable (ChannelRoute, _ done: @escaping @Sendable (ChannelAnswer) -> Void) -> Void

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

  /// Receives each accepted push and its device token; the push is answered 200 at once.
  public typealias Sink = @Sendable (PushRecord, String) -> Void
  /// Receives each accepted push and its device token, and calls `done` once the push is saved
  /// (or could not be): the answer waits for it, 200 when saved, 500 `InternalServerError` when
  /// not. `done` may be called on any thread, once.
  public typealias DurableSink =
    @Sendable (PushRecord, String, _ done: @escaping @Sendable (SaveOutcome) -> Void) ->
    Void
  /// Receives each answer.
  public typealias Log = @Sendable (APNsExchange) -> Void
  /// Receives the server's own notices (the connection limit reached, `accept` failing), each
  /// at most once a minute.
  public typealias Notice = @Sendable (String) -> Void

  /// Whether an accepted push was saved.
  public enum SaveOutcome: Sendable {
    case saved
    /// Not saved (the journal or the capture cannot be written): answered 500.
    case failed
  }

  private let group: MultiThreadedEventLoopGroup
  private let channel: Channel
  private let connections: ConnectionRegistry
  /// The port actually bound.
  public let port: Int

  /// Binds and starts listening; accepted pushes are answered 200 as soon as `sink` returns.
  public convenience init(
    configuration: Configuration = .init(), threads: Int = System.coreCount, sink: @escaping Sink,
    log: @escaping Log = { _ in }, notice: @escaping Notice = { _ in }
  ) async throws {
    try await self.init(
      configuration: configuration, threads: threads, durableSink: Self.immediate(sink), log: log, notice: notice)
  }

  /// Binds and starts listening; each accepted push is answered when `durableSink` says it is saved.
  public init(
    configuration: Configuration = .init(), threads: Int = System.coreCount, durableSink: @escaping DurableSink,
    channels: ChannelHandler? = nil, log: @escaping Log = { _ in }, notice: @escaping Notice = { _ in }
  ) async throws {
    let group = MultiThreadedEventLoopGroup(numberOfThreads: max(1, threads))
    // One verifier for the server; a session per connection (the refresh rule counts per connection).
    let verifier = configuration.providerKeys.isEmpty ? nil : ProviderTokenVerifier(keys: configuration.providerKeys)
    let connections = ConnectionRegistry()
    let limitNotice = RateLimitedNotice(notice)
    let acceptNotice = RateLimitedNotice(notice)
    let maxConnections = max(1, configuration.maxConnections)
    let bootstrap = ServerBootstrap(group: group)
      .serverChannelOption(ChannelOptions.backlog, value: 256)
      .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
      .serverChannelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
          // NIO's classic `bind` adds no accept back-off: without it a failing `accept` (EMFILE,
          // out of descriptors) is retried at once, for ever, at 100% CPU.
          try channel.pipeline.syncOperations.addHandler(
            AcceptBackoffHandler(shouldForwardIOErrorCaught: false) { error in
              acceptNotice(
                "pushdeck serve: cannot accept connections (\(error.description)); retrying every "
                  + "0.5 s. Raise the descriptor limit (ulimit -n) or lower --max-connections.")
              return .milliseconds(500)
            })
          try channel.pipeline.syncOperations.addHandler(
            ConnectionGate(limit: maxConnections, connections: connections, notice: limitNotice))
        }
      }
      .childChannelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
      .childChannelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
          try Self.configureConnection(
            channel, configuration: configuration, verifier: verifier, durableSink: durableSink, channels: channels,
            log: log)
        }
      }
    do {
      channel = try await bootstrap.bind(host: configuration.host, port: configuration.port).get()
    } catch {
      try? await group.shutdownGracefully()
      throw error
    }
    self.group = group
    self.connections = connections
    port = channel.localAddress?.port ?? configuration.port
  }

  /// A sink that answers at once.
  static func immediate(_ sink: @escaping Sink) -> DurableSink {
    { record, token, done in
      sink(record, token)
      done(.saved)
    }
  }

  /// Sets up one connection's pipeline: TLS when configured, HTTP/2 with the configured limits,
  /// one ``APNsStreamHandler`` per stream, the idle timeout, the close after a connection error's
  /// GOAWAY and the drain on ``drain(timeout:)``. Tests and the fuzz target drive it
  /// on an `EmbeddedChannel`.
  static func configureConnection(
    _ channel: Channel, configuration: Configuration, verifier: ProviderTokenVerifier? = nil,
    sink: @escaping Sink, log: @escaping Log
  ) throws {
    try configureConnection(
      channel, configuration: configuration, verifier: verifier, durableSink: immediate(sink), log: log)
  }

  static func configureConnection(
    _ channel: Channel, configuration: Configuration, verifier: ProviderTokenVerifier? = nil,
    durableSink sink: @escaping DurableSink, channels: ChannelHandler? = nil, log: @escaping Log
  ) throws {
    let routes = configuration.routes
    let limits = configuration.limits
    let sendsUniqueID = configuration.sendsUniqueID
    let registry = configuration.registry
    let fcmProject = configuration.fcmProject
    let verifier =
      verifier ?? (configuration.providerKeys.isEmpty ? nil : ProviderTokenVerifier(keys: configuration.providerKeys))
    let session = verifier.map(ProviderTokenSession.init)
    var connection = NIOHTTP2Handler.ConnectionConfiguration()
    connection.initialSettings = [
      HTTP2Setting(parameter: .maxConcurrentStreams, value: limits.maxConcurrentStreams),
      HTTP2Setting(parameter: .maxHeaderListSize, value: limits.maxHeaderListSize),
    ]
    // Every handler of the connection, its streams' included, runs on this one event loop.
    let state = NIOLoopBound(ConnectionState(), eventLoop: channel.eventLoop)
    try configuration.tls?.addHandler(to: channel)
    try channel.pipeline.syncOperations.addHandler(IdleConnectionCloser(timeout: limits.idleTimeout))
    try channel.pipeline.syncOperations.addHandler(CloseAfterGoAway(state: state.value))
    _ = try channel.pipeline.syncOperations.configureHTTP2Pipeline(
      mode: .server, connectionConfiguration: connection, streamConfiguration: .init()
    ) { stream in
      stream.eventLoop.makeCompletedFuture {
        // HTTP/2 frames straight to the handler: NIO's HTTP/1 translation insists on
        // :authority, which real APNs clients (aioapns) leave out for a host header.
        try stream.pipeline.syncOperations.addHandler(
          APNsStreamHandler(
            sendsUniqueID: sendsUniqueID, requestTimeout: limits.requestTimeout, session: session, registry: registry,
            connection: state.value, sink: sink, channels: channels, routes: routes, fcmProject: fcmProject, log: log))
      }
    }
    try channel.pipeline.syncOperations.addHandler(ConnectionDrainer(state: state.value))
  }

  /// Waits until the server is closed.
  public func wait() async throws {
    try await channel.closeFuture.get()
  }

  /// The connections open now.
  public var openConnections: Int { connections.count }

  /// Stops accepting and lets every connection finish the requests it has sent: each gets GOAWAY
  /// `NO_ERROR` naming its last stream and is closed once those are answered; what is still open
  /// after `timeout` is closed. The threads keep running (answers may still be on their way to
  /// closed connections) until ``shutdown()``.
  public func drain(timeout: Duration = .seconds(10)) async {
    let (seconds, attoseconds) = timeout.components
    let timeout = TimeAmount.nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    try? await channel.close().get()
    let open = connections.all()
    for connection in open {
      connection.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
    }
    let everyClose = EventLoopFuture.andAllComplete(open.map(\.closeFuture), on: group.any())
    let deadline = group.any().scheduleTask(in: timeout) {
      for connection in open { connection.close(promise: nil) }
    }
    try? await everyClose.get()
    deadline.cancel()
  }

  /// Closes every connection now, answered or not: a second Ctrl-C during ``drain(timeout:)``
  /// (which then returns). A push whose answer is cut off was either saved or never answered.
  public func closeConnectionsNow() {
    for connection in connections.all() { connection.close(promise: nil) }
  }

  /// Stops listening and releases the threads.
  public func shutdown() async throws {
    try? await channel.close().get()
    try await group.shutdownGracefully()
  }
}

/// The connections a server has open, for the limit and the graceful shutdown.
final class ConnectionRegistry: Sendable {
  private let channels = Mutex<[ObjectIdentifier: Channel]>([:])

  /// Adds a connection; returns how many are open with it.
  func add(_ channel: Channel) -> Int {
    channels.withLock {
      $0[ObjectIdentifier(channel)] = channel
      return $0.count
    }
  }

  func remove(_ channel: Channel) {
    _ = channels.withLock { $0.removeValue(forKey: ObjectIdentifier(channel)) }
  }

  var count: Int { channels.withLock { $0.count } }

  func all() -> [Channel] { channels.withLock { Array($0.values) } }
}

/// Passes a notice on at most once a minute.
final class RateLimitedNotice: Sendable {
  private let notice: APNsServer.Notice
  private let last = Mutex<NIODeadline?>(nil)

  init(_ notice: @escaping APNsServer.Notice) { self.notice = notice }

  func callAsFunction(_ text: @autoclosure () -> String) {
    let now = NIODeadline.now()
    let due = last.withLock { last -> Bool in
      if let previous = last, now - previous < .minutes(1) { return false }
      last = now
      return true
    }
    if due { notice(text()) }
  }
}

/// On the listening channel: counts the connections and, at the limit, stops accepting (holds
/// the `read`) until one closes; the clients wait in the listen backlog instead of costing a
/// descriptor each.
final class ConnectionGate: ChannelDuplexHandler {
  typealias InboundIn = Channel
  typealias OutboundIn = Channel

  private let limit: Int
  private let connections: ConnectionRegistry
  private let notice: RateLimitedNotice
  private var readHeld = false

  init(limit: Int, connections: ConnectionRegistry, notice: RateLimitedNotice) {
    self.limit = limit
    self.connections = connections
    self.notice = notice
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    let child = unwrapInboundIn(data)
    _ = connections.add(child)
    let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
    let eventLoop = context.eventLoop
    let connections = self.connections
    child.closeFuture.whenComplete { _ in
      connections.remove(child)
      eventLoop.execute {
        let (gate, context) = loopBound.value
        gate.resumeIfBelowLimit(context)
      }
    }
    context.fireChannelRead(data)
  }

  func read(context: ChannelHandlerContext) {
    guard connections.count < limit else {
      if !readHeld {
        notice(
          "pushdeck serve: \(limit) connections open (--max-connections); new connections wait until one closes")
      }
      readHeld = true
      return
    }
    context.read()
  }

  private func resumeIfBelowLimit(_ context: ChannelHandlerContext) {
    guard readHeld, connections.count < limit, context.channel.isActive else { return }
    readHeld = false
    context.read()
  }
}

/// One connection's requests in progress, shared by its streams' handlers, its
/// ``ConnectionDrainer`` and its ``CloseAfterGoAway``; used on the connection's event loop only,
/// so not Sendable: a closure that may run elsewhere reaches it through `NIOLoopBound`, which
/// checks the loop.
final class ConnectionState {
  /// Why the connection is ending.
  enum Ending {
    /// The server is shutting down: GOAWAY `NO_ERROR` was sent, the streams already open are
    /// answered, then a last GOAWAY and the close.
    case draining
    /// NIOHTTP2 sent GOAWAY for a connection error: the streams it lets finish are answered,
    /// then the connection is closed (RFC 9113 §5.4.1).
    case failed
  }

  /// Streams with a handler, not yet removed.
  var openStreams = 0
  /// The highest stream id seen.
  var lastStreamID = HTTP2StreamID(0)
  var ending: Ending?
  /// Closes the connection (set by the drainer).
  var close: ((Ending) -> Void)?

  func streamOpened(_ id: HTTP2StreamID?) {
    openStreams += 1
    if let id, id > lastStreamID { lastStreamID = id }
  }

  func streamRemoved() {
    openStreams -= 1
    if let ending, openStreams == 0 { close?(ending) }
  }

  /// Starts ending the connection: closes it now when no stream is open, else when the last one
  /// is removed. Returns false when it was already ending.
  @discardableResult
  func end(_ why: Ending) -> Bool {
    guard ending == nil else { return false }
    ending = why
    if openStreams == 0 { close?(why) }
    return true
  }
}

/// The last handler of a connection: on ``ChannelShouldQuiesceEvent`` (the server shutting down)
/// it sends GOAWAY `NO_ERROR` with the last stream the client opened, so the client sends no new
/// request, and closes the connection once every open stream is answered. It also closes the
/// connection for ``CloseAfterGoAway``.
final class ConnectionDrainer: ChannelDuplexHandler {
  typealias InboundIn = HTTP2Frame
  typealias InboundOut = HTTP2Frame
  typealias OutboundIn = HTTP2Frame
  typealias OutboundOut = HTTP2Frame

  private let state: ConnectionState

  init(state: ConnectionState) { self.state = state }

  func handlerAdded(context: ChannelHandlerContext) {
    let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
    state.close = { ending in
      let (drainer, context) = loopBound.value
      switch ending {
      case .draining:
        // Written after the last answer, so it goes out after it.
        drainer.goAway(context).whenComplete { _ in loopBound.value.1.close(promise: nil) }
      case .failed:
        // Not from inside a stream's removal.
        context.eventLoop.execute { loopBound.value.1.close(promise: nil) }
      }
    }
  }

  func handlerRemoved(context: ChannelHandlerContext) {
    state.close = nil
  }

  func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
    guard event is ChannelShouldQuiesceEvent else {
      context.fireUserInboundEventTriggered(event)
      return
    }
    if state.end(.draining), state.openStreams > 0 { _ = goAway(context) }
  }

  private func goAway(_ context: ChannelHandlerContext) -> EventLoopFuture<Void> {
    let frame = HTTP2Frame(
      streamID: .rootStream, payload: .goAway(lastStreamID: state.lastStreamID, errorCode: .noError, opaqueData: nil))
    let promise = context.eventLoop.makePromise(of: Void.self)
    context.writeAndFlush(wrapOutboundOut(frame), promise: promise)
    return promise.futureResult
  }
}

/// Closes the connection after a GOAWAY with an error code has been sent: after a connection
/// error (a bad preface, a flood, a compression error) NIOHTTP2 sends GOAWAY but keeps the socket
/// open until the idle timeout, and RFC 9113 §5.4.1 says the endpoint closes it. The streams
/// NIOHTTP2 lets finish are answered first (none, for a bad preface). It reads the frame headers
/// of what NIOHTTP2 writes, between it and the socket (or TLS).
final class CloseAfterGoAway: ChannelOutboundHandler {
  typealias OutboundIn = IOData
  typealias OutboundOut = IOData

  private enum Phase {
    case header, goAwayPrefix, payload
  }

  private var phase = Phase.header
  /// The frame header being read (9 bytes), then a GOAWAY payload's first 8 bytes (the last
  /// stream id and the error code).
  private var header: [UInt8] = []
  private var goAwayPrefix: [UInt8] = []
  /// Bytes of the current frame's payload still to come.
  private var payloadLeft = 0
  private var closing = false
  private let state: ConnectionState

  init(state: ConnectionState) {
    self.state = state
    header.reserveCapacity(9)
    goAwayPrefix.reserveCapacity(8)
  }

  func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
    let sawError: Bool
    switch unwrapOutboundIn(data) {
    case .byteBuffer(let buffer):
      sawError = buffer.withUnsafeReadableBytes { scan($0) }
    case .fileRegion(let region):
      // Never written by NIOHTTP2; counted as payload so the frames after it still parse.
      payloadLeft = max(0, payloadLeft - region.readableBytes)
      if payloadLeft == 0 { phase = .header }
      sawError = false
    }
    guard sawError, !closing else {
      context.write(data, promise: promise)
      return
    }
    closing = true
    let sent = context.eventLoop.makePromise(of: Void.self)
    sent.futureResult.cascade(to: promise)
    let state = self.state
    sent.futureResult.assumeIsolated().whenComplete { _ in state.end(.failed) }
    context.write(data, promise: sent)
    context.flush()
  }

  /// Reads the frame headers in `bytes`; true when a GOAWAY with a nonzero error code is among them.
  private func scan(_ bytes: UnsafeRawBufferPointer) -> Bool {
    var index = 0
    var sawError = false
    while index < bytes.count {
      switch phase {
      case .header:
        header.append(bytes[index])
        index += 1
        guard header.count == 9 else { continue }
        payloadLeft = Int(header[0]) << 16 | Int(header[1]) << 8 | Int(header[2])
        let isGoAway = header[3] == 0x7
        header.removeAll(keepingCapacity: true)
        if isGoAway, payloadLeft >= 8 {
          goAwayPrefix.removeAll(keepingCapacity: true)
          phase = .goAwayPrefix
        } else {
          phase = payloadLeft > 0 ? .payload : .header
        }
      case .goAwayPrefix:
        goAwayPrefix.append(bytes[index])
        index += 1
        payloadLeft -= 1
        guard goAwayPrefix.count == 8 else { continue }
        let code = goAwayPrefix[4...].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        if code != 0 { sawError = true }
        phase = payloadLeft > 0 ? .payload : .header
      case .payload:
        let step = min(payloadLeft, bytes.count - index)
        index += step
        payloadLeft -= step
        if payloadLeft == 0 { phase = .header }
      }
    }
    return sawError
  }
}

/// Answers the one request of an HTTP/2 stream, reading and writing HTTP/2 frames directly.
final class APNsStreamHandler: ChannelInboundHandler {
  typealias InboundIn = HTTP2Frame.FramePayload
  typealias OutboundOut = HTTP2Frame.FramePayload

  private let sendsUniqueID: Bool
  private let session: ProviderTokenSession?
  private let registry: TokenRegistry?
  private let sink: APNsServer.DurableSink
  private let channels: APNsServer.ChannelHandler?
  private let routes: APNsServer.Routes
  private let fcmProject: String?
  private let report: APNsServer.Log
  private let connection: ConnectionState?
  private var removed = false
  private var requestHeaders: HPACKHeaders?
  private var body: [UInt8] = []
  private var bodyByteCount = 0
  private var answered = false
  private let requestTimeout: TimeAmount
  private var deadline: Scheduled<Void>?

  init(
    sendsUniqueID: Bool, requestTimeout: TimeAmount = .seconds(30), session: ProviderTokenSession?,
    registry: TokenRegistry?, connection: ConnectionState? = nil, sink: @escaping APNsServer.DurableSink,
    channels: APNsServer.ChannelHandler? = nil, routes: APNsServer.Routes = .all, fcmProject: String? = nil,
    log: @escaping APNsServer.Log
  ) {
    self.fcmProject = fcmProject
    self.channels = channels
    self.routes = routes
    self.sendsUniqueID = sendsUniqueID
    self.requestTimeout = requestTimeout
    self.session = session
    self.registry = registry
    self.connection = connection
    self.sink = sink
    self.report = log
  }

  /// Reports an answered request; a refused one carries what was sent.
  private func log(_ exchange: APNsExchange) {
    guard exchange.status >= 400, exchange.request == nil, let request = requestHeaders else { return report(exchange) }
    var exchange = exchange
    var headers: [APNsExchange.SentRequest.Header] = []
    for (name, value, _) in request where !name.hasPrefix(":") {
      headers.append(.init(name: name, value: APNsExchange.SentRequest.shown(name: name, value: value)))
    }
    exchange.request = APNsExchange.SentRequest(
      method: request.first(name: ":method") ?? "", path: request.first(name: ":path") ?? "", headers: headers,
      body: Array(body.prefix(APNsExchange.SentRequest.keptBodyBytes)), bodyByteCount: bodyByteCount)
    report(exchange)
  }

  func handlerAdded(context: ChannelHandlerContext) {
    connection?.streamOpened(try? context.channel.syncOptions?.getOption(HTTP2StreamChannelOptions.streamID))
    // A request that does not end in time is reset (RST_STREAM CANCEL), freeing its stream.
    let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
    deadline = context.eventLoop.scheduleTask(in: requestTimeout) { loopBound.value.close(promise: nil) }
  }

  func handlerRemoved(context: ChannelHandlerContext) {
    deadline?.cancel()
    deadline = nil
    removed = true
    connection?.streamRemoved()
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
        // Kept up to one byte past the largest payload: enough to know it is too large. An FCM
        // message wraps its payload, so it may be larger; its limit is on the mapped payload.
        let isFCM = requestHeaders.flatMap { $0.first(name: ":path") }.map(FCMRequest.isFCMPath) ?? false
        let room = (isFCM ? FCMRequest.maximumBodyBytes : APNsRequest.maximumBodyBytes) + 1 - body.count
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
    let path = request.first(name: ":path") ?? ""
    if routes == .all, FCMRequest.isFCMPath(path) {
      respondToFCM(context: context, request: request, path: path, headers: headers, now: now)
      return
    }
    if let channels,
      routes == .channelManagement ? ChannelRequest.isManagementPath(path) : ChannelRequest.isChannelPath(path)
    {
      respondToChannelRequest(context: context, request: request, headers: headers, now: now, handler: channels)
      return
    }
    if routes == .channelManagement {
      let answer = ChannelAnswer.rejected(404, "BadPath", detail: "this port answers the channel management API only")
      log(APNsExchange(status: 404, reason: "BadPath", topic: nil, bundleID: nil, apnsID: nil, detail: answer.detail))
      sendChannelAnswer(context: context, answer: answer, requestID: nil)
      return
    }
    let outcome = APNsRequest.decide(
      method: request.first(name: ":method") ?? "", path: request.first(name: ":path") ?? "", headers: headers,
      body: body, bodyByteCount: bodyByteCount, receivedAt: now,
      authorize: { authorization in
        guard let refusal = session?.check(authorization: authorization, now: now) else { return nil }
        return .rejected(status: refusal.status, reason: refusal.reason, detail: refusal.detail)
      }, registry: registry)
    let topic = request.first(name: "apns-topic")
    var exchange = APNsExchange(
      status: outcome.status, reason: outcome.reason, topic: topic,
      bundleID: topic.map {
        APNsRequest.bundle(fromTopic: $0, pushType: request.first(name: "apns-push-type").flatMap(PushType.init))
      })
    exchange.detail = outcome.detail
    switch outcome {
    case .accepted(let record, let token, let apnsID):
      exchange.apnsID = apnsID
      exchange.bundleID = record.bundleID
      let exchange = exchange
      // Answered once the sink says the push is saved: a 200 is never sent for a push that a
      // crash right after could lose.
      let eventLoop = context.eventLoop
      let loopBound = NIOLoopBound((self, context), eventLoop: eventLoop)
      let finish: @Sendable (APNsServer.SaveOutcome) -> Void = { saved in
        let answer: @Sendable () -> Void = {
          let (handler, context) = loopBound.value
          handler.answer(context: context, exchange: exchange, saved: saved)
        }
        if eventLoop.inEventLoop { answer() } else { eventLoop.execute(answer) }
      }
      sink(record, token, finish)
    case .rejected(_, let reason, let timestamp, _):
      // Every answer names the push by its `apns-id`, the one sent or, when none was (or it was
      // not a UUID), one made here, as APNs does: a provider that logs it on failures had none.
      var response = HPACKHeaders([(":status", String(outcome.status))])
      let sent = request.first(name: "apns-id").flatMap { APNsHeaders.isCanonicalUUID($0) ? $0 : nil }
      response.add(name: "apns-id", value: sent ?? UUID().uuidString.lowercased())
      log(exchange)
      send(context: context, headers: response, body: APNsRequest.errorBody(reason: reason, timestamp: timestamp))
    }
  }

  /// An FCM HTTP v1 send: mapped to the APNs push FCM would make, then the same device path as
  /// `/3/device` (answered once saved); `validate_only` answers without delivering.
  private func respondToFCM(
    context: ChannelHandlerContext, request: HPACKHeaders, path: String, headers: [(name: String, value: String)],
    now: Double
  ) {
    func refuse(_ error: FCMError) {
      log(
        APNsExchange(
          status: error.code, reason: error.errorCode ?? error.status, topic: nil, bundleID: nil, apnsID: nil,
          detail: error.message))
      send(context: context, headers: HPACKHeaders([(":status", String(error.code))]), body: error.body)
    }
    if bodyByteCount > body.count {
      return refuse(.invalid("Message is too big: the request body is over \(FCMRequest.maximumBodyBytes) bytes"))
    }
    // Authentication: FCM wants an OAuth 2 bearer token; Pushdeck checks its provider tokens
    // only for APNs routes (FCM's are Google's, not simulated).
    let decided = FCMRequest.decide(
      method: request.first(name: ":method") ?? "", path: path, body: body, receivedAt: now, project: fcmProject,
      registry: registry)
    switch decided {
    case .failure(let error):
      refuse(error)
    case .success(let route):
      let exchange = APNsExchange(
        status: 200, reason: nil, topic: nil, bundleID: route.record.bundleID, apnsID: route.name,
        detail: route.validateOnly ? "validate_only: not delivered" : nil)
      guard !route.validateOnly else {
        log(exchange)
        send(
          context: context, headers: HPACKHeaders([(":status", "200")]), body: FCMRequest.successBody(name: route.name))
        return
      }
      let eventLoop = context.eventLoop
      let loopBound = NIOLoopBound((self, context), eventLoop: eventLoop)
      let finish: @Sendable (APNsServer.SaveOutcome) -> Void = { saved in
        let answer: @Sendable () -> Void = {
          let (handler, context) = loopBound.value
          switch saved {
          case .saved:
            handler.log(exchange)
            handler.send(
              context: context, headers: HPACKHeaders([(":status", "200")]),
              body: FCMRequest.successBody(name: route.name))
          case .failed:
            let error = FCMError.notSaved
            var unsaved = APNsExchange(
              status: 500, reason: "INTERNAL", topic: nil, bundleID: route.record.bundleID, apnsID: nil,
              detail: error.message)
            unsaved.wasNotSaved = true
            handler.log(unsaved)
            handler.send(context: context, headers: HPACKHeaders([(":status", "500")]), body: error.body)
          }
        }
        if eventLoop.inEventLoop { answer() } else { eventLoop.execute(answer) }
      }
      sink(route.record, route.token, finish)
    }
  }

  /// A channel API request: the rules, then the device by way of the handler.
  private func respondToChannelRequest(
    context: ChannelHandlerContext, request: HPACKHeaders, headers: [(name: String, value: String)], now: Double,
    handler: APNsServer.ChannelHandler
  ) {
    let session = self.session
    let requestID = request.first(name: "apns-request-id").flatMap { APNsHeaders.isCanonicalUUID($0) ? $0 : nil }
    let decided = ChannelRequest.decide(
      method: request.first(name: ":method") ?? "", path: request.first(name: ":path") ?? "", headers: headers,
      body: body, bodyByteCount: bodyByteCount, receivedAt: now,
      authorize: { (authorization: String?) -> APNsOutcome? in
        guard let refusal = session?.check(authorization: authorization, now: now) else { return nil }
        return APNsOutcome.rejected(status: refusal.status, reason: refusal.reason, detail: refusal.detail)
      })
    switch decided {
    case .failure(let answer):
      log(
        APNsExchange(
          status: answer.status, reason: answer.reason, topic: nil, bundleID: nil, apnsID: nil, detail: answer.detail))
      sendChannelAnswer(context: context, answer: answer, requestID: requestID)
    case .success(let route):
      let eventLoop = context.eventLoop
      let loopBound = NIOLoopBound((self, context), eventLoop: eventLoop)
      let bundleID = route.bundleID
      handler(route) { answer in
        let send: @Sendable () -> Void = {
          let (handler, context) = loopBound.value
          var exchange = APNsExchange(
            status: answer.status, reason: answer.reason, topic: nil, bundleID: bundleID, apnsID: nil,
            detail: answer.detail)
          exchange.apnsID = answer.headers.first { $0.name == "apns-id" }?.value
          handler.log(exchange)
          handler.sendChannelAnswer(context: context, answer: answer, requestID: requestID)
        }
        if eventLoop.inEventLoop { send() } else { eventLoop.execute(send) }
      }
    }
  }

  /// Sends a channel API answer, with `apns-request-id` (the request's, or a new one).
  private func sendChannelAnswer(context: ChannelHandlerContext, answer: ChannelAnswer, requestID: String?) {
    var response = HPACKHeaders([(":status", String(answer.status))])
    response.add(name: "apns-request-id", value: requestID ?? UUID().uuidString.lowercased())
    for (name, value) in answer.headers { response.add(name: name, value: value) }
    send(context: context, headers: response, body: answer.body)
  }

  /// Answers an accepted push: 200 with its `apns-id` when saved, 500 `InternalServerError` when not.
  private func answer(context: ChannelHandlerContext, exchange: APNsExchange, saved: APNsServer.SaveOutcome) {
    var exchange = exchange
    let apnsID = exchange.apnsID ?? ""
    switch saved {
    case .saved:
      var response = HPACKHeaders([(":status", "200"), ("apns-id", apnsID)])
      if sendsUniqueID { response.add(name: "apns-unique-id", value: UUID().uuidString.lowercased()) }
      log(exchange)
      send(context: context, headers: response, body: nil)
    case .failed:
      exchange.status = 500
      exchange.reason = "InternalServerError"
      exchange.detail = "the push could not be saved"
      exchange.wasNotSaved = true
      exchange.apnsID = nil
      log(exchange)
      send(
        context: context, headers: HPACKHeaders([(":status", "500"), ("apns-id", apnsID)]),
        body: APNsRequest.errorBody(reason: "InternalServerError", timestamp: nil))
    }
  }

  private func send(context: ChannelHandlerContext, headers: HPACKHeaders, body text: String?) {
    // The client may have reset the stream while the push was being saved.
    guard !removed else { return }
    var headers = headers
    var body: ByteBuffer?
    if let text {
      headers.add(name: "content-type", value: "application/json")
      headers.add(name: "content-length", value: String(text.utf8.count))
      body = context.channel.allocator.buffer(string: text)
    }
    context.write(wrapOutboundOut(.headers(.init(headers: headers, endStream: body == nil))), promise: nil)
    if let body {
      context.write(wrapOutboundOut(.data(.init(data: .byteBuffer(body), endStream: true))), promise: nil)
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

extension APNsServer {
  /// Why listening failed, said for a person: "address already in use: another program listens on
  /// this port; …", not the system call's description (`bind(descriptor:ptr:bytes:): Address
  /// already in use) (errno: 98)`, found by an exploratory test).
  public static func listenFailure(_ error: any Error) -> String {
    guard let failure = error as? IOError else { return "\(error)" }
    let reason = String(cString: strerror(failure.errnoCode)).lowercased()
    switch failure.errnoCode {
    case EADDRINUSE:
      return "\(reason): another program listens on this port; choose another port, or 0 for any free one"
    case EACCES: return "\(reason): ports below 1024 need privileges; choose a port from 1024 up, or 0 for any free one"
    case EADDRNOTAVAIL: return "\(reason): this machine has no such address; bind 127.0.0.1, ::1 or 0.0.0.0"
    default: return reason
    }
  }
}

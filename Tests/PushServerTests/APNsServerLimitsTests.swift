import NIOCore
import NIOEmbedded
import PushWire
import Testing

@testable import PushServer

/// The endpoint's per-client limits (issue 7 §5), driven frame by frame on the server's own
/// pipeline (`configureConnection`) in an `EmbeddedChannel`, with time moved by hand. The
/// live-server abuse run with memory figures is `Benchmarks/server-abuse.py`.
struct APNsServerLimitsTests {
  static let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)
  static let token = String(repeating: "ab", count: 32)

  /// One frame (RFC 9113 §4.1).
  static func frame(_ type: UInt8, flags: UInt8 = 0, stream: UInt32 = 0, _ payload: [UInt8] = []) -> [UInt8] {
    let length = payload.count
    return [UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF), type, flags]
      + withUnsafeBytes(of: stream.bigEndian, Array.init) + payload
  }

  /// An HPACK literal header field without indexing, new name, no Huffman (RFC 7541 §6.2.2).
  static func literal(_ name: String, _ value: String) -> [UInt8] {
    func string(_ text: String) -> [UInt8] {
      let bytes = Array(text.utf8)
      if bytes.count < 127 { return [UInt8(bytes.count)] + bytes }
      var length = bytes.count - 127
      var prefix: [UInt8] = [127]
      while length >= 128 {
        prefix.append(UInt8(length & 0x7F) | 0x80)
        length >>= 7
      }
      return prefix + [UInt8(length)] + bytes
    }
    return [0] + string(name) + string(value)
  }

  static func requestBlock(extra: [(String, String)] = []) -> [UInt8] {
    let fields =
      [
        (":method", "POST"), (":scheme", "http"), (":path", "/3/device/" + token), (":authority", "localhost"),
        ("apns-topic", "com.example.app"),
      ] + extra
    return fields.flatMap { literal($0.0, $0.1) }
  }

  static let headers: UInt8 = 1
  static let data: UInt8 = 0
  static let rstStream: UInt8 = 3
  static let settings: UInt8 = 4
  static let goAway: UInt8 = 7
  static let continuation: UInt8 = 9

  /// A connection on the server's pipeline, after the client's preface and SETTINGS.
  final class Connection {
    let channel = EmbeddedChannel()
    var received: [(type: UInt8, flags: UInt8, stream: UInt32, payload: [UInt8])] = []
    private var pending: [UInt8] = []

    init(
      limits: APNsServer.Limits = .init(), sink: @escaping APNsServer.DurableSink = { _, _, done in done(.saved) }
    ) throws {
      try APNsServer.configureConnection(
        channel, configuration: .init(limits: limits), durableSink: sink, log: { _ in })
      try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 2197)).wait()
      // The client's SETTINGS, and its acknowledgement of the server's (the server's limits
      // apply from then on, RFC 9113 §6.5.3).
      try send(
        APNsServerLimitsTests.preface + APNsServerLimitsTests.frame(APNsServerLimitsTests.settings)
          + APNsServerLimitsTests.frame(APNsServerLimitsTests.settings, flags: 1))
    }

    /// Sends bytes; a connection error closes the channel (and may surface as a thrown error).
    func send(_ bytes: [UInt8]) throws {
      var buffer = channel.allocator.buffer(capacity: bytes.count)
      buffer.writeBytes(bytes)
      do { try channel.writeInbound(buffer) } catch { _ = error }
      collect()
    }

    func collect() {
      while let data = try? channel.readOutbound(as: IOData.self) {
        if case .byteBuffer(let buffer) = data { pending += Array(buffer.readableBytesView) }
      }
      while pending.count >= 9 {
        let length = Int(pending[0]) << 16 | Int(pending[1]) << 8 | Int(pending[2])
        guard pending.count >= 9 + length else { break }
        let stream = UInt32(pending[5]) << 24 | UInt32(pending[6]) << 16 | UInt32(pending[7]) << 8 | UInt32(pending[8])
        received.append((pending[3], pending[4], stream & 0x7FFF_FFFF, Array(pending[9..<(9 + length)])))
        pending.removeFirst(9 + length)
      }
    }

    func advance(by amount: TimeAmount) {
      channel.embeddedEventLoop.advanceTime(by: amount)
      collect()
    }

    /// The error codes of the RST_STREAM frames received, by stream.
    var resets: [UInt32: UInt32] {
      var result: [UInt32: UInt32] = [:]
      for frame in received where frame.type == APNsServerLimitsTests.rstStream {
        result[frame.stream] = frame.payload.prefix(4).reduce(0) { $0 << 8 | UInt32($1) }
      }
      return result
    }

    /// The streams answered with a HEADERS frame whose :status is 200 (HPACK static index 8).
    var okStreams: [UInt32] {
      received.filter { $0.type == APNsServerLimitsTests.headers && $0.payload.first == 0x88 }.map(\.stream)
    }

    var goAwayCode: UInt32? {
      received.last { $0.type == APNsServerLimitsTests.goAway }.map {
        $0.payload[4..<8].reduce(0) { $0 << 8 | UInt32($1) }
      }
    }

    deinit { _ = try? channel.finish() }
  }

  @Test func advertisesItsLimitsInItsFirstSettings() throws {
    let connection = try Connection()
    let settings = try #require(connection.received.first { $0.type == Self.settings && $0.flags & 1 == 0 })
    var values: [UInt16: UInt32] = [:]
    for offset in stride(from: 0, to: settings.payload.count, by: 6) {
      let id = UInt16(settings.payload[offset]) << 8 | UInt16(settings.payload[offset + 1])
      values[id] = settings.payload[(offset + 2)..<(offset + 6)].reduce(0) { $0 << 8 | UInt32($1) }
    }
    #expect(values[3] == 100, "SETTINGS_MAX_CONCURRENT_STREAMS")
    #expect(values[6] == 16_384, "SETTINGS_MAX_HEADER_LIST_SIZE")
  }

  @Test func aValidRequestIsAnswered() throws {
    let connection = try Connection()
    let body = Array(#"{"aps":{"alert":"hi"}}"#.utf8)
    try connection.send(
      Self.frame(Self.headers, flags: 4, stream: 1, Self.requestBlock())
        + Self.frame(Self.data, flags: 1, stream: 1, body))
    #expect(connection.okStreams == [1])
  }

  /// A client that opens more streams than advertised breaks the protocol: NIOHTTP2 answers
  /// GOAWAY PROTOCOL_ERROR (RFC 9113 §5.1.2 allows that or a stream error), streams opened after
  /// the GOAWAY are refused, the streams within the limit are still answered, and then the
  /// connection is closed (§5.4.1).
  @Test func streamsOverTheLimitEndTheConnectionGracefully() throws {
    let connection = try Connection(limits: .init(maxConcurrentStreams: 10))
    var bytes: [UInt8] = []
    for index in 0..<11 {
      bytes += Self.frame(Self.headers, flags: 4, stream: UInt32(2 * index + 1), Self.requestBlock())
    }
    try connection.send(bytes)
    #expect(connection.goAwayCode == 1, "PROTOCOL_ERROR")
    try connection.send(Self.frame(Self.headers, flags: 5, stream: 25, Self.requestBlock()))
    #expect(connection.resets[25] == 7, "REFUSED_STREAM")
    #expect(connection.channel.isActive, "open streams are still answered")
    let body = Array(#"{"aps":{"alert":"hi"}}"#.utf8)
    try connection.send((0..<10).flatMap { Self.frame(Self.data, flags: 1, stream: UInt32(2 * $0 + 1), body) })
    #expect(connection.okStreams.count == 10)
    connection.advance(by: .milliseconds(1))
    #expect(!connection.channel.isActive, "closed once the last one is answered")
  }

  @Test func aHeaderListOverTheLimitEndsTheConnection() throws {
    let connection = try Connection()
    let block = Self.requestBlock(extra: [("x-big", String(repeating: "v", count: 40_000))])
    var bytes = Self.frame(Self.headers, stream: 1, Array(block[0..<16_000]))
    bytes += Self.frame(Self.continuation, stream: 1, Array(block[16_000..<32_000]))
    bytes += Self.frame(Self.continuation, flags: 4, stream: 1, Array(block[32_000...]))
    try connection.send(bytes)
    #expect(connection.okStreams.isEmpty)
    #expect(connection.goAwayCode == 1, "GOAWAY PROTOCOL_ERROR: \(connection.received.map(\.type))")
  }

  /// An HPACK bomb: one 4 KB header put in the dynamic table, then named by its index 4,000
  /// times (one byte each): 16 MB of headers from 8 KB on the wire.
  @Test func anHPACKBombIsRefused() throws {
    let connection = try Connection()
    var value = [UInt8](repeating: UInt8(ascii: "b"), count: 4_000)
    value = [0x7F, UInt8((4_000 - 127) & 0x7F | 0x80), UInt8((4_000 - 127) >> 7)] + value
    let insert: [UInt8] = [0x40, 6] + Array("x-bomb".utf8) + value
    let block = Self.requestBlock() + insert + [UInt8](repeating: 0xBE, count: 4_000)
    try connection.send(Self.frame(Self.headers, flags: 4, stream: 1, block))
    #expect(connection.okStreams.isEmpty)
    #expect(connection.goAwayCode == 9, "GOAWAY COMPRESSION_ERROR")
  }

  @Test func aRequestThatNeverEndsIsResetAtItsDeadline() throws {
    let connection = try Connection(limits: .init(requestTimeout: .seconds(5)))
    try connection.send(
      Self.frame(Self.headers, flags: 4, stream: 1, Self.requestBlock())
        + Self.frame(Self.data, stream: 1, Array(#"{"aps":"#.utf8)))
    connection.advance(by: .seconds(4))
    #expect(connection.resets[1] == nil)
    connection.advance(by: .seconds(2))
    #expect(connection.resets[1] == 8, "CANCEL: \(connection.received.map(\.type))")
    #expect(connection.channel.isActive, "only the stream is reset")
  }

  @Test func anIdleConnectionIsClosed() throws {
    let connection = try Connection(limits: .init(idleTimeout: .seconds(60)))
    connection.advance(by: .seconds(59))
    #expect(connection.channel.isActive)
    try connection.send(Self.frame(6, stream: 0, [UInt8](repeating: 0, count: 8)))  // PING: activity
    connection.advance(by: .seconds(59))
    #expect(connection.channel.isActive)
    connection.advance(by: .seconds(2))
    #expect(!connection.channel.isActive)
  }
}

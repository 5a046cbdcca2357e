import NIOCore
import NIOEmbedded
import PushWire
import Synchronization
import Testing

@testable import PushServer

/// Issue 16 §2 and §5 on the server's own pipeline: an accepted push is answered when the sink
/// says it is saved (200) or cannot be (500 `InternalServerError`); a connection error's GOAWAY
/// closes the connection; a shutting-down server answers what was sent, then closes.
struct APNsServerDurabilityTests {
  typealias Limits = APNsServerLimitsTests

  /// A sink that holds each push's `done` until the test calls it.
  final class HeldSink: Sendable {
    let held = Mutex<[@Sendable (APNsServer.SaveOutcome) -> Void]>([])

    var sink: APNsServer.DurableSink {
      { _, _, done in self.held.withLock { $0.append(done) } }
    }

    func complete(_ outcome: APNsServer.SaveOutcome) {
      for done in held.withLock({ held in
        defer { held = [] }; return held
      }) { done(outcome) }
    }

    var count: Int { held.withLock { $0.count } }
  }

  static let body = Array(#"{"aps":{"alert":"hi"}}"#.utf8)

  static func request(stream: UInt32) -> [UInt8] {
    Limits.frame(Limits.headers, flags: 4, stream: stream, Limits.requestBlock())
      + Limits.frame(Limits.data, flags: 1, stream: stream, body)
  }

  /// The :status of the HEADERS answering `stream`: HPACK static index 8 is 200; a 500 is index
  /// 14 (0x8E).
  static func status(_ connection: Limits.Connection, stream: UInt32) -> UInt8? {
    connection.received.first { $0.type == Limits.headers && $0.stream == stream }?.payload.first
  }

  @Test func anAcceptedPushIsAnsweredOnlyOnceSaved() throws {
    let held = HeldSink()
    let connection = try Limits.Connection(sink: held.sink)
    try connection.send(Self.request(stream: 1))
    #expect(held.count == 1)
    #expect(Self.status(connection, stream: 1) == nil, "no answer before the push is saved")
    held.complete(.saved)
    connection.advance(by: .milliseconds(1))
    #expect(Self.status(connection, stream: 1) == 0x88, "200")
  }

  @Test func aPushThatCannotBeSavedIsAnswered500() throws {
    let held = HeldSink()
    let connection = try Limits.Connection(sink: held.sink)
    try connection.send(Self.request(stream: 1))
    held.complete(.failed)
    connection.advance(by: .milliseconds(1))
    #expect(Self.status(connection, stream: 1) == 0x8E, "500")
    let data = try #require(connection.received.first { $0.type == Limits.data && $0.stream == 1 })
    #expect(String(decoding: data.payload, as: UTF8.self) == #"{"reason":"InternalServerError"}"#)
    #expect(connection.channel.isActive, "the connection goes on")
  }

  /// RFC 9113 §5.4.1: after GOAWAY for a connection error the endpoint closes the connection
  /// (it was kept until the 5-minute idle timeout).
  @Test func anInvalidPrefaceIsAnsweredWithGoAwayAndClosed() throws {
    let channel = EmbeddedChannel()
    try APNsServer.configureConnection(channel, configuration: .init(), sink: { _, _ in }, log: { _ in })
    try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 2197)).wait()
    var buffer = channel.allocator.buffer(capacity: 64)
    buffer.writeString("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    do { try channel.writeInbound(buffer) } catch { _ = error }
    var written: [UInt8] = []
    while let data = try? channel.readOutbound(as: IOData.self) {
      if case .byteBuffer(let bytes) = data { written += Array(bytes.readableBytesView) }
    }
    channel.embeddedEventLoop.run()
    #expect(written.count >= 9 + 8)
    // SETTINGS first, then GOAWAY PROTOCOL_ERROR.
    let settingsLength = Int(written[0]) << 16 | Int(written[1]) << 8 | Int(written[2])
    let goAway = Array(written[(9 + settingsLength)...])
    #expect(goAway.count >= 17 && goAway[3] == Limits.goAway)
    #expect(goAway.count >= 17 && goAway[13..<17] == [0, 0, 0, 1], "PROTOCOL_ERROR")
    #expect(!channel.isActive, "closed after the GOAWAY")
    _ = try? channel.finish()
  }

  /// Shutting down (`ChannelShouldQuiesceEvent`): GOAWAY `NO_ERROR` naming the last stream, the
  /// request waiting for its save is still answered, and then the connection closes.
  @Test func aDrainingConnectionAnswersWhatWasSentThenCloses() throws {
    let held = HeldSink()
    let connection = try Limits.Connection(sink: held.sink)
    try connection.send(Self.request(stream: 1) + Self.request(stream: 3))
    connection.channel.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
    connection.collect()
    let goAway = try #require(connection.received.last { $0.type == Limits.goAway })
    #expect(goAway.payload[0..<8] == [0, 0, 0, 3, 0, 0, 0, 0], "last stream 3, NO_ERROR")
    #expect(connection.channel.isActive, "two answers are still due")
    held.complete(.saved)
    connection.advance(by: .milliseconds(1))
    #expect(Self.status(connection, stream: 1) == 0x88)
    #expect(Self.status(connection, stream: 3) == 0x88)
    #expect(!connection.channel.isActive, "closed once both are answered")
  }

  @Test func anIdleConnectionClosesAtOnceWhenDraining() throws {
    let connection = try Limits.Connection()
    connection.channel.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
    connection.advance(by: .milliseconds(1))
    #expect(connection.goAwayCode == 0)
    #expect(!connection.channel.isActive)
  }
}

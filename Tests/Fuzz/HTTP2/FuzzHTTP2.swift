// libFuzzer target: the endpoint's HTTP/2 request path. The input is what a client sends after
// the connection preface and an empty SETTINGS frame (both added here, so the fuzzer starts
// inside the protocol): raw frames fed to the server's own pipeline (`configureConnection`:
// NIOHTTP2 with Pushdeck's limits, the HTTP/1 codec, `APNsStreamHandler`, `APNsRequest.decide`)
// on an `EmbeddedChannel`. Built only by .ci/fuzz (PUSHDECK_FUZZ=1); see docs/RELIABILITY.md.
import NIOCore
import NIOEmbedded
import NIOHTTP2
import PushWire

@testable import PushServer

private let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8) + [0, 0, 0, 4, 0, 0, 0, 0, 0]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTP2(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let channel = EmbeddedChannel()
  var accepted = 0
  do {
    try APNsServer.configureConnection(
      channel, configuration: .init(), sink: { _, _ in }, log: { _ in })
    try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 2197)).wait()
  } catch {
    fatalError("cannot set up the pipeline: \(error)")
  }
  var buffer = channel.allocator.buffer(capacity: preface.count + size)
  buffer.writeBytes(preface)
  buffer.writeBytes(UnsafeBufferPointer(start: data, count: size))
  // Fed in two pieces, so frames are also split across reads.
  let cut = preface.count + size / 2
  let first = buffer.getSlice(at: 0, length: cut)!
  let second = buffer.getSlice(at: cut, length: buffer.readableBytes - cut)!
  for piece in [first, second] where channel.isActive {
    do { try channel.writeInbound(piece) } catch { break }
    while let _ = try? channel.readOutbound(as: IOData.self) { accepted += 1 }
  }
  // Time passes: request deadlines and the idle timeout fire.
  channel.embeddedEventLoop.advanceTime(by: .minutes(6))
  while let _ = try? channel.readOutbound(as: IOData.self) { accepted += 1 }
  _ = try? channel.finish()
  return 0
}

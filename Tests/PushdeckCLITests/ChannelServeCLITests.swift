import Foundation
import PushCore
import PushStore
import PushTestSupport
import Testing

/// `pushdeck serve`'s broadcast channel API driven with curl, a client nobody here wrote: every
/// route on the main port, the management API on `--channels-port`, the state kept across a
/// restart.
@Suite(
  .requires(PushdeckProcess.binary != nil, "the pushdeck binary was not built"),
  .requires(FileManager.default.isExecutableFile(atPath: "/usr/bin/curl"), "curl is not installed"))
struct ChannelServeCLITests {
  static let bundle = "com.example.scores"

  /// `pushdeck serve --port 0 --channels-port 0 …`, with both ports read from its first lines.
  final class Server {
    let process = Process()
    let output = Pipe()
    var text = ""
    let port: Int
    let channelsPort: Int

    init(_ arguments: [String]) throws {
      process.executableURL = URL(fileURLWithPath: try #require(PushdeckProcess.binary))
      process.arguments = ["serve", "--port", "0", "--channels-port", "0"] + arguments
      process.standardOutput = output
      process.standardError = output
      try process.run()
      let deadline = Date().addingTimeInterval(30)
      while !text.contains("channel management on"), Date() < deadline, process.isRunning {
        text += String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
      }
      let printed = text
      func portNumber(after marker: String) -> Int? {
        printed.split(separator: "\n").first { $0.contains(marker) }?.split(separator: ":").last.flatMap { Int($0) }
      }
      guard let main = portNumber(after: "listening on"), let channels = portNumber(after: "channel management on")
      else {
        process.terminate()
        throw ServeProcessError(output: text)
      }
      port = main
      channelsPort = channels
    }

    @discardableResult
    func stop() -> String {
      if process.isRunning {
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        text += String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      }
      return text
    }
  }

  /// One curl request: the status, the response headers (lowercased names) and the body.
  struct Reply {
    var status: Int
    var headers: [String: String]
    var body: String
  }

  static func curl(
    _ method: String, port: Int, _ path: String, headers: [String] = [], body: String? = nil
  ) throws -> Reply {
    var arguments = ["-s", "-i", "--http2-prior-knowledge", "--max-time", "20", "-X", method]
    for header in headers { arguments += ["-H", header] }
    if let body { arguments += ["--data-binary", body] }
    arguments.append("http://127.0.0.1:\(port)\(path)")
    let printed = try ExternalTools.run("/usr/bin/curl", arguments)
    let parts = printed.components(separatedBy: "\r\n\r\n")
    let head = parts.first?.components(separatedBy: "\r\n") ?? []
    let status = head.first?.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? -1
    var fields: [String: String] = [:]
    for line in head.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    return Reply(status: status, headers: fields, body: parts.dropFirst().joined(separator: "\r\n\r\n"))
  }

  static let channels = "/1/apps/\(bundle)/channels"
  static let allChannels = "/1/apps/\(bundle)/all-channels"
  static let broadcast = "/4/broadcasts/apps/\(bundle)"
  static let live = ["apns-push-type: liveactivity"]

  static func start(_ stamp: Int, channel: String) -> String {
    #"{"aps": {"event": "start", "timestamp": \#(stamp), "attributes-type": "Game", "attributes": {"home": "A"}, "content-state": {"score": "0-0"}, "alert": {"title": "Kick-off", "body": "A v B"}, "input-push-channel": "\#(channel)"}}"#
  }

  @Test func everyChannelRouteAnswersAsAPNsAndTheStateKeepsTheChannels() throws {
    let directory = try PushdeckProcess.temporaryDirectory()
    let state = directory.appendingPathComponent("device.sqlite").path
    let server = try Server(["--state", state])
    defer { server.stop() }
    let port = server.port

    // Create: on the management port, as at Apple, and on the main port.
    let created = try Self.curl(
      "POST", port: server.channelsPort, Self.channels,
      body: #"{"message-storage-policy": 1, "push-type": "LiveActivity"}"#)
    #expect(created.status == 201, "\(created)")
    let stored = try #require(created.headers["apns-channel-id"])
    #expect(created.headers["apns-request-id"]?.count == 36)
    let plain = try #require(
      try Self.curl(
        "POST", port: port, Self.channels, body: #"{"message-storage-policy": 0, "push-type": "LiveActivity"}"#
      ).headers["apns-channel-id"])
    #expect(
      try Self.curl(
        "POST", port: port, Self.channels, body: #"{"message-storage-policy": 7, "push-type": "LiveActivity"}"#
      )
      .body == #"{"reason":"CannotCreateChannelConfig"}"#)

    // Read and list.
    let read = try Self.curl("GET", port: port, Self.channels, headers: ["apns-channel-id: \(stored)"])
    #expect(read.status == 200 && read.body == #"{"message-storage-policy":1,"push-type":"LiveActivity"}"#)
    #expect(read.headers["apns-channel-id"] == stored)
    let list = try Self.curl("GET", port: server.channelsPort, Self.allChannels)
    #expect(list.status == 200 && list.body == #"{"channels":["\#(stored)","\#(plain)"]}"#, "\(list)")
    #expect(try Self.curl("GET", port: port, Self.channels).body == #"{"reason":"MissingChannelId"}"#)
    #expect(
      try Self.curl("GET", port: port, Self.channels, headers: ["apns-channel-id: %%"]).body
        == #"{"reason":"BadChannelId"}"#)

    // Two Live Activities subscribe to the stored channel; one broadcast updates both.
    let token = String(repeating: "0f", count: 32)
    for stamp in [1, 2] {
      let started = try Self.curl(
        "POST", port: port, "/3/device/\(token)",
        headers: Self.live + ["apns-topic: \(Self.bundle).push-type.liveactivity"],
        body: Self.start(stamp, channel: stored))
      #expect(started.status == 200, "\(started)")
    }
    let update = #"{"aps": {"event": "update", "timestamp": 10, "content-state": {"score": "1-0"}}}"#
    let sent = try Self.curl(
      "POST", port: port, Self.broadcast, headers: Self.live + ["apns-channel-id: \(stored)", "apns-priority: 10"],
      body: update)
    #expect(sent.status == 200 && sent.headers["apns-id"]?.count == 36, "\(sent)")

    // Apple's refusals.
    func reason(_ reply: Reply) -> String { "\(reply.status) \(reply.body)" }
    #expect(
      reason(try Self.curl("POST", port: port, Self.broadcast, headers: Self.live, body: update))
        == #"400 {"reason":"MissingChannelId"}"#)
    #expect(
      reason(
        try Self.curl(
          "POST", port: port, Self.broadcast, headers: Self.live + ["apns-channel-id: bm9uZQ=="], body: update))
        == #"400 {"reason":"ChannelNotRegistered"}"#)
    #expect(
      reason(
        try Self.curl(
          "POST", port: port, Self.broadcast,
          headers: Self.live + ["apns-channel-id: \(plain)", "apns-expiration: 1900000000"],
          body: update)) == #"400 {"reason":"BadExpirationDate"}"#)
    #expect(
      reason(
        try Self.curl(
          "POST", port: port, Self.broadcast, headers: ["apns-push-type: alert", "apns-channel-id: \(stored)"],
          body: update))
        == #"400 {"reason":"InvalidPushType"}"#)
    #expect(
      reason(
        try Self.curl(
          "POST", port: port, Self.broadcast, headers: Self.live + ["apns-channel-id: \(stored)", "apns-priority: 3"],
          body: update))
        == #"400 {"reason":"BadPriority"}"#)
    let start = try Self.curl(
      "POST", port: port, Self.broadcast, headers: Self.live + ["apns-channel-id: \(stored)"],
      body: Self.start(20, channel: stored))
    #expect(start.status == 200, "APNs takes it; the device refuses to start an activity from a broadcast")
    #expect(
      reason(try Self.curl("PUT", port: port, Self.channels)) == #"405 {"reason":"MethodNotAllowed"}"#)
    #expect(
      reason(try Self.curl("POST", port: server.channelsPort, "/3/device/\(token)", body: update))
        == #"404 {"reason":"BadPath"}"#)

    // Delete.
    let deleted = try Self.curl(
      "DELETE", port: server.channelsPort, Self.channels, headers: ["apns-channel-id: \(plain)"])
    #expect(deleted.status == 204 && deleted.body.isEmpty)
    #expect(
      reason(try Self.curl("DELETE", port: port, Self.channels, headers: ["apns-channel-id: \(plain)"]))
        == #"400 {"reason":"ChannelNotRegistered"}"#)

    let log = server.stop()
    #expect(log.contains("201 ok \(Self.bundle) (channel \(stored) created, message-storage-policy 1)"), "\(log)")
    #expect(log.contains("400 ChannelNotRegistered \(Self.bundle)"))
    #expect(log.contains("stopped; 4 pushes saved, 3 channel changes saved"), "\(log)")

    // A new serve on the same state has the channel that was not deleted, and what it did.
    let again = try Server(["--state", state])
    defer { again.stop() }
    #expect(try Self.curl("GET", port: again.port, Self.allChannels).body == #"{"channels":["\#(stored)"]}"#)
    let next = #"{"aps": {"event": "update", "timestamp": 30, "content-state": {"score": "2-0"}}}"#
    #expect(
      try Self.curl(
        "POST", port: again.port, Self.broadcast, headers: Self.live + ["apns-channel-id: \(stored)"], body: next
      )
      .status == 200)
    again.stop()

    // The state holds both activities, subscribed, and updated by the broadcasts.
    let journal = try DeviceJournal.open(at: state)
    defer { try? journal.close() }
    let restored = try journal.restore()
    #expect(restored.liveActivities.count == 2)
    #expect(restored.liveActivities.allSatisfy { $0.channelID == stored })
    #expect(restored.liveActivities.allSatisfy { $0.contentState?["score"]?.stringValue == "2-0" })
    #expect(restored.channels.first?.lastMessage?.timestamp == 30)
  }

  @Test func pushManagesChannelsAndBroadcasts() throws {
    let directory = try PushdeckProcess.temporaryDirectory()
    let server = try Server(["--ephemeral"])
    defer { server.stop() }
    func push(_ arguments: [String], port: Int) throws -> PushdeckProcess.Output {
      try PushdeckProcess.run(["push", Self.bundle, "--port", String(port)] + arguments)
    }
    let created = try push(["--create-channel", "--storage-policy", "1"], port: server.channelsPort)
    #expect(created.status == 0, "\(created.standardError)")
    let line = try #require(created.standardOutput.split(separator: "\n").first)
    #expect(line.hasPrefix("201 apns-channel-id="))
    let id = String(line.dropFirst("201 apns-channel-id=".count))
    let listed = try push(["--list-channels"], port: server.port)
    #expect(listed.standardOutput == "200\n{\"channels\":[\"\(id)\"]}\n")
    let read = try push(["--read-channel", id], port: server.port)
    #expect(read.standardOutput.contains(#"{"message-storage-policy":1,"push-type":"LiveActivity"}"#))

    let file = directory.appendingPathComponent("update.json")
    try #"{"aps": {"event": "update", "timestamp": 5, "content-state": {"score": "1-0"}}}"#.write(
      to: file, atomically: true, encoding: .utf8)
    let sent = try push(["--channel", id, file.path], port: server.port)
    #expect(sent.status == 0 && sent.standardOutput.hasPrefix("200 apns-id="), "\(sent.standardOutput)")
    let unknown = try push(["--channel", "bm9uZQ==", file.path], port: server.port)
    #expect(unknown.status == 1 && unknown.standardOutput == "400 ChannelNotRegistered\n")

    let deleted = try push(["--delete-channel", id], port: server.channelsPort)
    #expect(deleted.status == 0 && deleted.standardOutput == "204\n")
    #expect(try push(["--delete-channel", id], port: server.port).status == 1)
    let both = try push(["--list-channels", "--create-channel"], port: server.port)
    #expect(both.status != 0 && both.standardError.contains("give one of"))
  }
}

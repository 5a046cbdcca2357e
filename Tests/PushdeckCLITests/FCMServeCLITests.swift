import Foundation
import PushCore
import PushStore
import PushTestSupport
import Testing

/// `pushdeck serve`'s FCM HTTP v1 route driven with curl: the message is mapped to the APNs push
/// FCM makes, saved through the device path, and answered as FCM does.
@Suite(
  .requires(PushdeckProcess.binary != nil, "the pushdeck binary was not built"),
  .requires(FileManager.default.isExecutableFile(atPath: "/usr/bin/curl"), "curl is not installed"))
struct FCMServeCLITests {
  static let token = String(repeating: "a1", count: 32)
  static let gone = String(repeating: "b2", count: 32)
  static let send = "/v1/projects/demo-proj/messages:send"

  @Test func sendsValidatesAndRefusesAsFCMDoes() throws {
    let directory = try PushdeckProcess.temporaryDirectory()
    let state = directory.appendingPathComponent("device.sqlite").path
    let profile = directory.appendingPathComponent("phone.yaml")
    try """
    apps:
      - bundle: com.example.app
        name: Example
    apns:
      fcm:
        project: demo-proj
      tokens:
        - token: \(Self.token)
          app: com.example.app
        - token: \(Self.gone)
          app: com.example.app
          state: unregistered
    """.write(to: profile, atomically: true, encoding: .utf8)
    let server = try ServeProcess(["--profile", profile.path, "--state", state])
    defer { server.stop() }
    func post(_ path: String, _ body: String) throws -> (status: Int, body: String) {
      let reply = try ChannelServeCLITests.curl(
        "POST", port: server.port, path, headers: ["content-type: application/json"], body: body)
      return (reply.status, reply.body)
    }

    let message = #"""
      {"message": {"token": "\#(Self.token)",
        "notification": {"title": "Your order", "body": "On its way"},
        "data": {"order": "42"},
        "apns": {"payload": {"aps": {"alert": {"title": "Courier nearby"}, "sound": "default"}}}}}
      """#
    let sent = try post(Self.send, message)
    #expect(sent.status == 200, "\(sent)")
    #expect(sent.body.hasPrefix(#"{"name":"projects/demo-proj/messages/0:"#), "\(sent)")

    let checked = try post(
      Self.send, #"{"validate_only": true, "message": {"token": "\#(Self.token)", "notification": {"title": "dry"}}}"#)
    #expect(checked.status == 200 && checked.body.contains(#""name":"projects/demo-proj/messages/"#))

    let bad = try post(Self.send, "{\"message\": {\"token\": \n}")
    #expect(bad.status == 400 && bad.body.contains(#""status":"INVALID_ARGUMENT""#) && bad.body.contains("2:1"))
    let unknown = try post(Self.send, #"{"message": {"token": "\#(String(repeating: "c3", count: 32))"}}"#)
    #expect(unknown.status == 404 && unknown.body.contains(#""errorCode":"UNREGISTERED""#), "\(unknown)")
    let unregistered = try post(Self.send, #"{"message": {"token": "\#(Self.gone)", "notification": {"body": "x"}}}"#)
    #expect(unregistered.status == 404)
    let otherProject = try post(
      "/v1/projects/other-proj/messages:send", #"{"message": {"token": "\#(Self.token)"}}"#)
    #expect(otherProject.status == 403 && otherProject.body.contains(#""errorCode":"SENDER_ID_MISMATCH""#))
    let big = try post(
      Self.send,
      #"{"message": {"token": "\#(Self.token)", "notification": {"body": "\#(String(repeating: "x", count: 3_990))"}}}"#
    )
    #expect(big.status == 400 && big.body.contains("Message is too big"), "\(big)")

    let log = server.stop()
    #expect(log.contains("200 apns-id=projects/demo-proj/messages/0:"), "\(log)")
    #expect(log.contains("404 UNREGISTERED"), "\(log)")
    #expect(log.contains("(validate_only: not delivered)"), "\(log)")
    #expect(log.contains("stopped; 1 push saved"), "\(log)")

    // The one delivered push: apns.payload's title over the notification's, data and FCM's keys.
    let journal = try DeviceJournal.open(at: state)
    defer { try? journal.close() }
    let saved = try journal.restore().notifications
    #expect(saved.count == 1)
    let notification = try #require(saved.first?.notification)
    #expect(notification.title == "Courier nearby")
    #expect(notification.body == "On its way")
    let keys = notification.customKeys.map(\.key)
    #expect(keys == ["order", "gcm.message_id", "google.c.a.e", "google.c.sender.id", "google.c.fid"])
  }

  /// `validate` and `explain` read an FCM message file as the APNs push FCM makes from it;
  /// `push --fcm` sends one.
  @Test func validateExplainAndPushReadFCMMessageFiles() throws {
    let root = Corpus.repositoryRoot()
    let example = "Examples/payloads/fcm-courier.json"
    let explained = try PushdeckProcess.run(["explain", example], directory: root)
    #expect(explained.status == 0, "\(explained.standardError)")
    // apns.payload's title and subtitle over the notification's title; its body kept.
    #expect(explained.standardOutput.contains("“Courier nearby · Sam, on a bike — Arriving in about 12 minutes”"))
    #expect(
      explained.standardOutput.contains("Food (com.example.food, n1)")
        || explained.standardOutput.contains("(com.example.food, n1)"))
    #expect(
      explained.standardOutput.contains(
        "info[FCMPayload] at 2:14: FCM sends APNs apns-topic: com.example.food, apns-push-type: alert, apns-priority: 10"
      ))
    #expect(
      explained.standardOutput.contains(
        #""order":"A-1042","screen":"tracking","gcm.message_id":"0:1000000000000000","google.c.a.e":"1""#))
    #expect(explained.standardOutput.contains(#""fcm_options":{"image":"https://example.com/map.png"}"#))

    let directory = try PushdeckProcess.temporaryDirectory()
    let big = directory.appendingPathComponent("big.json")
    let body = String(repeating: "x", count: 3_990)
    try
      #"{"message": {"token": "\#(Self.token)", "notification": {"body": "\#(body)"}, "apns": {"headers": {"apns-topic": "com.example.app"}}}}"#
      .write(to: big, atomically: true, encoding: .utf8)
    let tooBig = try PushdeckProcess.run(["validate", big.path])
    #expect(tooBig.status == 1)
    #expect(
      tooBig.standardOutput.contains("big.json:1:13: error[PayloadTooLarge]: the APNs payload FCM makes is"),
      "\(tooBig.standardOutput)")
    #expect(tooBig.standardOutput.contains("FCM answers 400 INVALID_ARGUMENT \"Message is too big\""))

    let bad = directory.appendingPathComponent("bad.json")
    try "{\"message\": {\n  \"token\": \"\(Self.token)\",\n  \"data\": {\"n\": 3}}}".write(
      to: bad, atomically: true, encoding: .utf8)
    let refused = try PushdeckProcess.run(["validate", bad.path])
    #expect(refused.status == 1)
    #expect(
      refused.standardOutput.contains("bad.json:3:17: error[InvalidFCMMessage]: Invalid value at 'message.data[n]'"),
      "\(refused.standardOutput)")

    let server = try ServeProcess(["--ephemeral"])
    defer { server.stop() }
    let port = String(server.port)
    let sent = try PushdeckProcess.run(
      ["push", "--fcm", example, "--project", "demo-proj", "--port", port], directory: root)
    #expect(sent.status == 0 && sent.standardOutput.hasPrefix("200 projects/demo-proj/messages/0:"), "\(sent)")
    let noTopic = try PushdeckProcess.run(["push", "--fcm", bad.path, "--project", "demo-proj", "--port", port])
    #expect(noTopic.status == 1 && noTopic.standardOutput == "400 INVALID_ARGUMENT\n")
    #expect(noTopic.standardError.contains("message.data[n]"))
    let noProject = try PushdeckProcess.run(["push", "--fcm", example])
    #expect(noProject.status != 0 && noProject.standardError.contains("--fcm needs --project"))
  }
}

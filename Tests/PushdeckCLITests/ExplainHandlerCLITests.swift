import Foundation
import PushTestSupport
import Testing

/// `explain --format json` names each response's handler, runs the ones the timeline makes,
/// and reports how they ended.
@Suite(.requires(PushdeckProcess.binary != nil, "the pushdeck binary was not built"))
struct ExplainHandlerCLITests {
  @Test func theHandlerFieldListsRoutesAndWhatRan() async throws {
    let directory =
      NSTemporaryDirectory() + "pushdeck-explain-handlers-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let scenario = directory + "/s.yaml"
    try """
    profile:
      apps:
        - bundle: com.example.shop
          name: Shop
          categories:
            - id: ORDER
              actions:
                - {id: CANCEL, title: Cancel order, options: [destructive]}
                - {id: TRACK, title: Track}
      handlers:
        - {app: com.example.shop, action: CANCEL, handler: exec, argv: [printf, "order cancelled"]}
        - {app: com.example.shop, action: default, handler: log, file: taps.jsonl}
    timeline:
      - push: {bundle: com.example.shop, payload: {aps: {alert: Order 1234 shipped, category: ORDER}}}
      - push: {bundle: com.example.shop, payload: {aps: {alert: Order 99 shipped, category: ORDER}}}
      - after: 10s
        action: {notification: 1, id: CANCEL}
      - open: 2
    """.write(toFile: scenario, atomically: true, encoding: .utf8)
    let output = try await PushdeckProcess.runOffPool(["explain", "--format", "json", scenario])
    #expect(output.status == 0, "\(output.standardError)")
    let objects = try output.standardOutput.split(separator: "\n").map {
      try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
    #expect(objects.count == 2)
    let first = try #require(objects[0]["handler"] as? [String: Any])
    let routes = try #require(first["routes"] as? [[String: Any]])
    #expect(routes.map { $0["response"] as? String } == ["tap", "CANCEL", "TRACK"])
    #expect(routes[0]["handler"] as? String == "log to \(directory)/taps.jsonl")
    #expect(routes[2]["handler"] is NSNull)
    let ran = try #require(first["ran"] as? [[String: Any]])
    #expect(ran.count == 1)
    #expect(ran.first?["action"] as? String == "CANCEL")
    #expect(ran.first?["outcome"] as? String == "succeeded")
    #expect(ran.first?["message"] as? String == "Shop: order cancelled")
    #expect((ran.first?["handler"] as? String)?.hasPrefix("exec printf") == true)
    let second = try #require((objects[1]["handler"] as? [String: Any])?["ran"] as? [[String: Any]])
    #expect(second.first?["action"] as? String == "com.apple.UNNotificationDefaultActionIdentifier")
    #expect(second.first?["message"] as? String == "Shop: Open logged")
    let log = try String(contentsOfFile: directory + "/taps.jsonl", encoding: .utf8)
    #expect(
      log.contains(#""notification":2"#) && log.contains(#""action":"com.apple.UNNotificationDefaultActionIdentifier""#)
    )

    // --no-handlers keeps the routes and runs nothing: the log gets no second line.
    let dry = try await PushdeckProcess.runOffPool(["explain", "--no-handlers", "--format", "json", scenario])
    #expect(dry.status == 0, "\(dry.standardError)")
    #expect(dry.standardOutput.contains(#""routes":[{"response":"tap""#))
    #expect(dry.standardOutput.contains(#""ran":[]"#))
    #expect(try String(contentsOfFile: directory + "/taps.jsonl", encoding: .utf8) == log)

    let text = try await PushdeckProcess.runOffPool(["explain", scenario])
    #expect(
      text.standardOutput.contains(
        "  Handled: CANCEL → exec printf \"order cancelled\" (timeout 5 s): succeeded: Shop: order cancelled"))
  }
}

/// An action or reply the notification does not offer (known only when played: the reference
/// follows a replacement without a category) reaches no handler, and explain and storyboard say
/// so alike; they used to report it "succeeded" and draw a "Replied" frame.
@Suite(.requires(PushdeckProcess.binary != nil, "the pushdeck binary was not built"))
struct NotPossibleResponseCLITests {
  @Test func explainAndStoryboardSayANotOfferedResponseWasNotPossible() async throws {
    let directory = try PushdeckProcess.temporaryDirectory()
    let scenario = directory.appendingPathComponent("rep.yaml").path
    try """
    profile:
      apps:
        - bundle: com.ex.app
          name: App
          categories: [{id: C, actions: [{id: A, title: A}, {id: R, title: Reply, textInput: {}}]}]
      handlers:
        - {app: "*", handler: echo}
    timeline:
      - push: {bundle: com.ex.app, headers: {apns-collapse-id: k}, payload: {aps: {alert: One, category: C}}}
      - after: 1m
        push: {bundle: com.ex.app, headers: {apns-collapse-id: k}, payload: {aps: {alert: Two}}}
      - after: 1m
        action: {notification: 1, id: A}
      - after: 1m
        reply: {notification: 1, text: hello}
    """.write(toFile: scenario, atomically: true, encoding: .utf8)

    let text = try await PushdeckProcess.runOffPool(["explain", scenario], environment: ["NO_COLOR": "1"])
    #expect(text.status == 0, "\(text.standardError)")
    #expect(!text.standardOutput.contains("Handled:"))
    #expect(
      text.standardOutput.contains(
        "  Not possible: A: the notification has no category; the device did nothing\n"
          + "  Not possible: reply “hello”: the notification has no category; the device did nothing\n"))
    // Without handlers (streamed) the same.
    let dry = try await PushdeckProcess.runOffPool(
      ["explain", "--no-handlers", scenario], environment: ["NO_COLOR": "1"])
    #expect(dry.standardOutput.contains("  Not possible: A: the notification has no category"))

    let json = try await PushdeckProcess.runOffPool(["explain", "--format", "json", scenario])
    let objects = try json.standardOutput.split(separator: "\n").map {
      try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
    #expect(objects.count == 2)
    let ran = try #require((objects[1]["handler"] as? [String: Any])?["ran"] as? [[String: Any]])
    #expect(ran.isEmpty, "\(ran)")
    let refused = try #require(objects[1]["notPossible"] as? [[String: Any]])
    #expect(refused.map { $0["action"] as? String } == ["A", "reply"])
    #expect(
      refused.map { $0["reason"] as? String } == [
        "the notification has no category", "the notification has no category",
      ])
    #expect(refused.last?["text"] as? String == "hello")
    #expect(objects[0]["notPossible"] == nil)

    let board = try await PushdeckProcess.runOffPool(["storyboard", scenario])
    #expect(board.status == 0, "\(board.standardError)")
    #expect(!board.standardOutput.contains("Replied"))
    #expect(!board.standardOutput.contains(">Action A<"))
    #expect(board.standardOutput.contains("Reply not possible: the notification has no"))
    #expect(board.standardOutput.contains("Action A not possible: the notification has no"))
  }
}

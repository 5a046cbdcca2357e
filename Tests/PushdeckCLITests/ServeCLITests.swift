import Foundation
import PushTestSupport
import Testing

/// `pushdeck serve` as a developer runs it: headless, one log line per request, `--record`
/// writing a capture that `validate` and `replay` accept, and Ctrl-C committing the device.
@Suite(
  .requires(PushdeckProcess.binary != nil, "the pushdeck binary was not built"),
  .requires(FileManager.default.isExecutableFile(atPath: "/usr/bin/curl"), "curl is not installed"))
struct ServeCLITests {
  /// A port another program listens on is said plainly, with what to do (it printed the system
  /// call's own description: "bind(descriptor:ptr:bytes:): Address already in use) (errno: 98)").
  @Test func aPortInUseIsSaidPlainly() throws {
    let (listener, port) = try #require(Loopback.listen(backlog: 1))
    defer { close(listener) }
    let directory = try PushdeckProcess.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let result = try PushdeckProcess.run([
      "serve", "--port", "\(port)", "--state", directory.appendingPathComponent("s.sqlite").path,
    ])
    #expect(result.status == 2)
    #expect(
      result.standardError.contains(
        "cannot listen on 127.0.0.1:\(port): address already in use: another program listens on this port"),
      "\(result.standardError)")
    #expect(!result.standardError.contains("bind(descriptor"), "\(result.standardError)")
  }

  /// A ready file that cannot be written is said before anything listens, in plain words (it
  /// printed "listening on …", then a Foundation error dump, and exited).
  @Test func anUnwritableReadyFileIsSaidBeforeListening() throws {
    let directory = try PushdeckProcess.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let missing = directory.appendingPathComponent("no/such/dir/port").path
    for (path, words) in [
      (missing, "the folder \(directory.path)/no/such/dir does not exist; create it"),
      ("/proc/version", "the folder /proc takes no new files"),
    ] {
      let result = try PushdeckProcess.run(["serve", "--port", "0", "--ephemeral", "--ready-file", path])
      #expect(result.status == 2)
      #expect(!result.standardOutput.contains("listening on"), "\(result.standardOutput)")
      #expect(result.standardError.contains("cannot write the ready file \(path): "), "\(result.standardError)")
      #expect(result.standardError.contains(words), "\(result.standardError)")
      #expect(!result.standardError.contains("NSCocoaErrorDomain"))
    }
    // A folder at the path is said, and left as it is with what it holds.
    let folder = directory.appendingPathComponent("keep")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try Data("precious".utf8).write(to: folder.appendingPathComponent("file.txt"))
    let onFolder = try PushdeckProcess.run(["serve", "--port", "0", "--ephemeral", "--ready-file", folder.path])
    #expect(onFolder.status == 2)
    #expect(onFolder.standardError.contains("it is a folder; name a file"), "\(onFolder.standardError)")
    #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("file.txt").path))
  }

  @Test func servesLogsRecordsAndJournals() throws {
    let directory = try PushdeckProcess.temporaryDirectory()
    let capture = directory.appendingPathComponent("live.jsonl").path
    let state = directory.appendingPathComponent("device.sqlite").path
    let (process, output, first) = try Self.startServe(["--record", capture, "--state", state])
    defer { if process.isRunning { process.terminate() } }
    var text = first.text
    let port = first.port

    func curl(_ token: String, _ body: String) throws -> String {
      let curl = Process()
      curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
      curl.arguments = [
        "-s", "-o", "/dev/null", "-w", "%{http_code}", "--http2-prior-knowledge", "--max-time", "20",
        "-H", "apns-topic: com.example.app", "--data-binary", body, "http://127.0.0.1:\(port)/3/device/\(token)",
      ]
      let pipe = Pipe()
      curl.standardOutput = pipe
      try curl.run()
      let data = pipe.fileHandleForReading.readDataToEndOfFile()
      curl.waitUntilExit()
      return String(decoding: data, as: UTF8.self)
    }
    let token = String(repeating: "0f", count: 32)
    #expect(try curl(token, #"{"aps": {"alert": "one"}}"#) == "200")
    #expect(try curl("nothex", #"{"aps": {"alert": "two"}}"#) == "400")
    #expect(try curl(token, #"{"aps": {"alert": "three"}}"#) == "200")

    kill(process.processIdentifier, SIGINT)
    process.waitUntilExit()
    text += String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(process.terminationStatus == 0)
    let lines = text.split(separator: "\n").filter { $0.first?.isNumber == true }
    #expect(lines.count == 3, "\(text)")
    #expect(lines.first?.hasPrefix("200 apns-id=") == true)
    #expect(lines.first?.hasSuffix(" com.example.app") == true)
    #expect(
      lines.dropFirst().first == #"400 BadDeviceToken com.example.app (the device token "nothex" is not a hex string)"#)

    let validated = try PushdeckProcess.run(["validate", capture])
    #expect(validated.status == 0, "\(validated.standardOutput)")
    #expect(validated.standardError.contains("checked 2 payloads: 2 valid, 0 rejected"))

    // The same pushes went through the device: replaying the capture on an empty device gives
    // the same Notification Center as the one `serve` journalled.
    let replayed = try PushdeckProcess.run(["replay", "--ephemeral", "--format", "json", capture])
    #expect(replayed.standardOutput.contains(#""stored":2"#), "\(replayed.standardOutput)")
    let continued = try PushdeckProcess.run(["replay", "--state", state, "--format", "json", capture])
    #expect(continued.standardOutput.contains(#""stored":4"#), "\(continued.standardOutput)")
  }

  /// A request that never ends held the stop for 10 s, silent and deaf to more signals: the
  /// stop says what it waits for, and a second SIGINT closes every connection at once.
  @Test func aSecondSignalStopsAtOnce() throws {
    let curlPath = "/usr/bin/curl"
    try #require(FileManager.default.isExecutableFile(atPath: curlPath), "curl is not installed")
    let (process, output, first) = try Self.startServe(["--ephemeral"])
    defer { if process.isRunning { process.terminate() } }
    var text = first.text
    let port = first.port
    let deadline = Date().addingTimeInterval(20)
    // An upload whose body never ends: curl reads it from a pipe this test keeps open.
    let curl = Process()
    curl.executableURL = URL(fileURLWithPath: curlPath)
    curl.arguments = [
      "-s", "-o", "/dev/null", "--http2-prior-knowledge", "--max-time", "60", "-X", "POST", "-T", "-",
      "-H", "apns-topic: com.example.app", "http://127.0.0.1:\(port)/3/device/\(String(repeating: "0f", count: 32))",
    ]
    let body = Pipe()
    curl.standardInput = body
    try curl.run()
    defer { if curl.isRunning { curl.terminate() } }
    try body.fileHandleForWriting.write(contentsOf: Data(#"{"aps": {"alert": "#.utf8))
    usleep(500_000)
    kill(process.processIdentifier, SIGINT)
    while !text.contains("stopping;"), Date() < deadline {
      text += String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
    }
    #expect(text.contains("stopping; answering what was sent on 1 open connection"), "\(text)")
    let second = Date()
    kill(process.processIdentifier, SIGINT)
    process.waitUntilExit()
    #expect(Date().timeIntervalSince(second) < 5, "the second signal stopped it at once, not after the 10 s drain")
    #expect(process.terminationStatus == 0)
    try? body.fileHandleForWriting.close()
  }

  /// Starts `pushdeck serve --port 0` with `arguments`, and reads its first line, which names
  /// the port it picked: the process, its standard output, what was read and the port.
  static func startServe(_ arguments: [String]) throws -> (Process, Pipe, (text: String, port: Int)) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try #require(PushdeckProcess.binary))
    process.arguments = ["serve", "--port", "0"] + arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    var text = ""
    let deadline = Date().addingTimeInterval(20)
    while !text.contains("\n"), Date() < deadline {
      text += String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
    }
    guard let port = text.split(separator: "\n").first?.split(separator: ":").last.flatMap({ Int($0) }) else {
      process.terminate()
      throw PortNotSaid(text: text)
    }
    return (process, output, (text, port))
  }

  struct PortNotSaid: Error {
    var text: String
  }
}

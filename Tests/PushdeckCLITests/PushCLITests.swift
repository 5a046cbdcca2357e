import Foundation
import PushTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `pushdeck push` against `pushdeck serve`, both as a developer runs them.
@Suite(
  .requires(PushdeckProcess.binary != nil, "the pushdeck binary was not built"),
  .requires(ExternalTools.hasOpenSSL, "openssl is not installed"))
struct PushCLITests {
  static let active = String(repeating: "a1", count: 32)
  static let gone = String(repeating: "b2", count: 32)

  @Test func pushSignsSendsAndReportsTheAnswer() throws {
    let directory = try PushdeckProcess.temporaryDirectory()
    let key = try ExternalTools.makeProviderKey(in: directory, keyID: "ABC123DEFG")
    let profile = directory.appendingPathComponent("phone.yaml")
    try """
    apns:
      keys:
        - file: AuthKey_ABC123DEFG.p8
          teamId: DEF123GHIJ
      tokens:
        - {token: \(Self.active), app: com.example.app}
        - {token: \(Self.gone), app: com.example.app, state: unregistered, unregisteredAt: 2026-11-20T10:00:00Z}
    """.write(to: profile, atomically: true, encoding: .utf8)
    let capture = directory.appendingPathComponent("live.jsonl").path
    let server = try ServeProcess(["--profile", profile.path, "--ephemeral", "--record", capture])
    defer { server.stop() }
    let apns = directory.appendingPathComponent("hello.apns")
    try #"{"Simulator Target Bundle": "com.example.app", "aps": {"alert": {"title": "Hello"}}}"#
      .write(to: apns, atomically: true, encoding: .utf8)
    let port = String(server.port)
    let sign = ["--jwt-key", key, "--team-id", "DEF123GHIJ"]

    let accepted = try PushdeckProcess.run(
      ["push", "--port", port, "--token", Self.active, "--collapse-id", "greeting", "--priority", "5"] + sign
        + [apns.path])
    #expect(accepted.status == 0, "\(accepted.standardError)")
    #expect(accepted.standardOutput.hasPrefix("200 apns-id="), "\(accepted.standardOutput)")

    let unsigned = try PushdeckProcess.run(["push", "--port", port, "--token", Self.active, apns.path])
    #expect(unsigned.status == 1)
    // Every answer names the push by an apns-id (made by the endpoint when none was sent).
    func answered(_ output: String, _ prefix: String) -> Bool {
      output.hasPrefix(prefix + " apns-id=") && output.hasSuffix("\n")
        && UUID(uuidString: String(output.dropFirst(prefix.count + 9).dropLast())) != nil
    }
    #expect(answered(unsigned.standardOutput, "403 MissingProviderToken"), "\(unsigned.standardOutput)")

    let unregistered = try PushdeckProcess.run(
      ["push", "--port", port, "--token", Self.gone] + sign + ["com.example.app", apns.path])
    #expect(unregistered.status == 1)
    #expect(
      answered(unregistered.standardOutput, "410 Unregistered timestamp=1795168800000"),
      "\(unregistered.standardOutput)")

    let fromStdin = try PushdeckProcess.run(
      ["push", "--port", port, "--token", Self.active, "--push-type", "background", "--priority", "10"] + sign
        + ["com.example.app", "-"],
      input: Data(#"{"aps": {"content-available": 1}}"#.utf8))
    #expect(fromStdin.status == 1)
    #expect(answered(fromStdin.standardOutput, "400 BadPriority"), "\(fromStdin.standardOutput)")

    // A rejected file is explained here too, with its line and column, as validate does.
    let broken = directory.appendingPathComponent("broken.apns")
    try "{\"Simulator Target Bundle\": \"com.example.app\",\n \"aps\": {\"alert\": \"Hi\",}}\n"
      .write(to: broken, atomically: true, encoding: .utf8)
    let malformed = try PushdeckProcess.run(["push", "--port", port, "--token", Self.active] + sign + [broken.path])
    #expect(malformed.status == 1)
    #expect(answered(malformed.standardOutput, "400 BadRequest"), "\(malformed.standardOutput)")
    #expect(malformed.standardError.contains("broken.apns:2:"), "\(malformed.standardError)")
    #expect(malformed.standardError.contains("error[TrailingComma]"), "\(malformed.standardError)")

    let log = server.stop()
    #expect(log.contains("410 Unregistered com.example.app"), "\(log)")
    // Ephemeral: the push was recorded to the capture, and the device's state not saved.
    #expect(log.contains("state ephemeral (not saved); pushes recorded to \(capture)"), "\(log)")
    #expect(
      log.contains("stopped; 1 push recorded to \(capture); the device's state was not saved (ephemeral)"), "\(log)")
    #expect(!log.contains("pushes saved"), "\(log)")
    let recorded = try String(contentsOfFile: capture, encoding: .utf8)
    #expect(recorded.split(separator: "\n").count == 1)
    #expect(recorded.contains(#""apns-collapse-id":"greeting""#), "\(recorded)")
    #expect(recorded.contains(#""apns-priority":"5""#), "\(recorded)")
  }

  /// A payload from a FIFO or a process substitution (`pushdeck push APP <(make-payload)`) is
  /// sent like a file's: `FileManager.contents(atPath:)` gave nothing for it, and push said
  /// "no such file, or it is not readable" about a file that was there.
  @Test func pushSendsAPayloadReadFromAFIFO() throws {
    let directory = try PushdeckProcess.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let server = try ServeProcess(["--ephemeral"])
    defer { server.stop() }
    let fifo = directory.appendingPathComponent("payload.json").path
    #expect(mkfifo(fifo, 0o600) == 0)
    let writer = Thread {
      guard let handle = FileHandle(forWritingAtPath: fifo) else { return }
      handle.write(Data(#"{"aps": {"alert": "from a pipe"}}"#.utf8))
      try? handle.close()
    }
    writer.start()
    let sent = try PushdeckProcess.run(["push", "--port", String(server.port), "com.example.app", fifo])
    #expect(sent.status == 0, "\(sent.standardError)")
    #expect(sent.standardOutput.hasPrefix("200 apns-id="), "\(sent.standardOutput)")
    let log = server.stop()
    #expect(log.contains("200 apns-id="), "\(log)")
  }

  /// An h2c push to an endpoint that resets the connection (a TLS endpoint answering h2c bytes,
  /// as `serve --tls` does) is told to give --tls, whether the reset or a clean close arrives:
  /// CI once saw "connection reset by peer" alone from ServeTLSCLITests, the hint given only for
  /// a close.
  @Test func aResetConnectionTellsAnH2CPushToGiveTLS() throws {
    let directory = try PushdeckProcess.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let payload = directory.appendingPathComponent("hi.json").path
    try #"{"aps":{"alert":"Hi"}}"#.write(toFile: payload, atomically: true, encoding: .utf8)
    // A listener that reads the client's first bytes and resets the connection (SO_LINGER 0).
    let (listener, port) = try #require(Loopback.listen())
    defer { close(listener) }
    let resetter = Thread {
      let connection = accept(listener, nil, nil)
      guard connection >= 0 else { return }
      var buffer = [UInt8](repeating: 0, count: 64)
      _ = read(connection, &buffer, buffer.count)
      var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
      setsockopt(connection, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
      close(connection)
    }
    resetter.start()
    let plain = try PushdeckProcess.run(["push", "--port", String(port), "com.example.app", payload])
    #expect(plain.status == 2, "\(plain.standardError)")
    #expect(plain.standardError.contains("give --tls"), "\(plain.standardError)")
  }

  @Test func pushExplainsWhatIsMissing() throws {
    let directory = try PushdeckProcess.temporaryDirectory()
    let payload = directory.appendingPathComponent("plain.json")
    try #"{"aps": {"alert": "Hi"}}"#.write(to: payload, atomically: true, encoding: .utf8)
    let noBundle = try PushdeckProcess.run(["push", payload.path])
    #expect(noBundle.status == 2)
    #expect(noBundle.standardError.contains("which app? name it"), "\(noBundle.standardError)")
    // Nothing listens on port 1.
    let noServer = try PushdeckProcess.run(["push", "--port", "1", "com.example.app", payload.path])
    #expect(noServer.status == 2)
    #expect(
      noServer.standardError.contains("cannot connect to 127.0.0.1:1: connection refused; is pushdeck serve running"),
      "\(noServer.standardError)")
    let missing = try PushdeckProcess.run(["push", "com.example.app", directory.appendingPathComponent("nope").path])
    #expect(missing.status == 2)
    #expect(missing.standardError.contains("cannot read"), "\(missing.standardError)")
    let usage = try PushdeckProcess.run(["push"])
    #expect(usage.status == 2)
    #expect(usage.standardError.contains("expected [BUNDLE] FILE"), "\(usage.standardError)")
  }

  /// A folder or a device named as the payload is said to be one: a folder gave
  /// "NSCocoaErrorDomain error 256", /dev/zero "the file is over 16 MiB".
  @Test func aFolderOrADeviceIsNoPayloadFile() throws {
    let folder = try PushdeckProcess.temporaryDirectory()
    let fromFolder = try PushdeckProcess.run(["push", "--port", "9", "com.example.app", folder.path])
    #expect(fromFolder.status != 0)
    #expect(fromFolder.standardError.contains("is a folder; name a payload file in it"), "\(fromFolder.standardError)")
    #expect(!fromFolder.standardError.contains("NSCocoaErrorDomain"))
    let fromDevice = try PushdeckProcess.run(["push", "--port", "9", "com.example.app", "/dev/zero"])
    #expect(fromDevice.standardError.contains("is a device or a socket, not a file"), "\(fromDevice.standardError)")
  }
}

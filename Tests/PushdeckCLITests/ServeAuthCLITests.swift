import Foundation
import PushTestSupport
import Testing

/// Provider tokens and device tokens end to end, with tools nobody here wrote: the key is made
/// by `openssl`, the JWTs are signed by Python's `cryptography`, the requests are sent by curl.
@Suite(
  .requires(PushdeckProcess.binary != nil, "the pushdeck binary was not built"),
  .requires(FileManager.default.isExecutableFile(atPath: "/usr/bin/curl"), "curl is not installed"),
  .requires(ExternalTools.hasOpenSSL, "openssl is not installed"),
  .requires(ExternalTools.hasPythonCryptography, "python3 with cryptography is not installed"))
struct ServeAuthCLITests {
  static let keyID = "ABC123DEFG"
  static let teamID = "DEF123GHIJ"
  static let active = String(repeating: "a1", count: 32)
  static let gone = String(repeating: "b2", count: 32)
  static let other = String(repeating: "c3", count: 32)

  @Test func providerTokensAndDeviceTokensAreCheckedAsAPNsDoes() throws {
    let directory = try PushdeckProcess.temporaryDirectory()
    let key = try ExternalTools.makeProviderKey(in: directory, keyID: Self.keyID)
    let profile = directory.appendingPathComponent("phone.yaml")
    try """
    locked: true
    apps:
      - bundle: com.example.app
        name: Example
    apns:
      keys:
        - file: AuthKey_\(Self.keyID).p8
          teamId: \(Self.teamID)
      tokens:
        - token: \(Self.active)
          app: com.example.app
        - token: \(Self.gone)
          app: com.example.app
          state: unregistered
          unregisteredAt: 2026-11-20T10:00:00Z
        - token: \(Self.other)
          app: com.example.other
    """.write(to: profile, atomically: true, encoding: .utf8)

    let server = try ServeProcess(["--profile", profile.path, "--ephemeral"])
    defer { server.stop() }
    let now = Int(Date().timeIntervalSince1970)
    let fresh = try ExternalTools.signJWT(key: key, keyID: Self.keyID, teamID: Self.teamID, issuedAt: now - 5)
    let body = #"{"aps": {"alert": "Hi"}}"#

    func send(_ token: String, _ jwt: String?, topic: String = "com.example.app") throws -> (Int, String) {
      try server.curl(
        token: token, headers: ["apns-topic: \(topic)"] + (jwt.map { ["authorization: bearer \($0)"] } ?? []),
        body: body)
    }
    #expect(try send(Self.active, fresh) == (200, ""))
    #expect(try send(Self.active, nil) == (403, #"{"reason":"MissingProviderToken"}"#))
    let old = try ExternalTools.signJWT(key: key, keyID: Self.keyID, teamID: Self.teamID, issuedAt: now - 7200)
    #expect(try send(Self.active, old) == (403, #"{"reason":"ExpiredProviderToken"}"#))
    let unknownKey = try ExternalTools.signJWT(key: key, keyID: "ZZZZZZZZZZ", teamID: Self.teamID, issuedAt: now)
    #expect(try send(Self.active, unknownKey) == (403, #"{"reason":"InvalidProviderToken"}"#))
    #expect(try send(String(repeating: "d4", count: 32), fresh) == (400, #"{"reason":"BadDeviceToken"}"#))
    #expect(try send(Self.other, fresh) == (400, #"{"reason":"DeviceTokenNotForTopic"}"#))
    #expect(try send(Self.gone, fresh) == (410, #"{"reason":"Unregistered","timestamp":1795168800000}"#))

    // TooManyProviderTokenUpdates needs two tokens on one connection; curl 7.88 cannot reuse an
    // h2c connection (exit 16 on the second request), so `PushClientTests` checks it instead.

    let log = server.stop()
    #expect(log.contains("provider tokens required (keys: \(Self.keyID) team \(Self.teamID))"), "\(log)")
    #expect(log.contains("device tokens from the profile only"), "\(log)")
    #expect(log.contains("403 InvalidProviderToken com.example.app (kid ZZZZZZZZZZ is not a configured key)"), "\(log)")
  }

  @Test func authNoneAndAcceptAnyTokenRelaxTheChecks() throws {
    let directory = try PushdeckProcess.temporaryDirectory()
    let key = try ExternalTools.makeProviderKey(in: directory, keyID: Self.keyID)
    let profile = directory.appendingPathComponent("phone.yaml")
    try """
    apns:
      tokens:
        - token: \(Self.active)
          app: com.example.app
    """.write(to: profile, atomically: true, encoding: .utf8)
    let server = try ServeProcess([
      "--profile", profile.path, "--ephemeral", "--jwt-key", key, "--team-id", Self.teamID, "--auth", "none",
      "--accept-any-token",
    ])
    defer { server.stop() }
    let unknown = String(repeating: "d4", count: 32)
    #expect(
      try server.curl(token: unknown, headers: ["apns-topic: com.example.app"], body: #"{"aps":{}}"#) == (200, ""))
    let log = server.stop()
    #expect(log.contains("provider tokens not required"), "\(log)")
    #expect(log.contains("device tokens from the profile, and any other token"), "\(log)")
  }

  @Test func badKeyConfigurationIsAClearError() throws {
    let directory = try PushdeckProcess.temporaryDirectory()
    let key = directory.appendingPathComponent("key.p8")
    try "not a key".write(to: key, atomically: true, encoding: .utf8)
    let noTeam = try PushdeckProcess.run(["serve", "--ephemeral", "--jwt-key", key.path])
    #expect(noTeam.status == 2)
    #expect(noTeam.standardError.contains("--jwt-key needs --team-id"), "\(noTeam.standardError)")
    let noKeyID = try PushdeckProcess.run(["serve", "--ephemeral", "--jwt-key", key.path, "--team-id", "T"])
    #expect(noKeyID.standardError.contains("give its Key ID with --key-id"), "\(noKeyID.standardError)")
    let notPEM = try PushdeckProcess.run([
      "serve", "--ephemeral", "--jwt-key", key.path, "--team-id", "T", "--key-id", "K",
    ])
    #expect(notPEM.status == 2)
    #expect(notPEM.standardError.contains("key.p8: not a P-256 key in PEM"), "\(notPEM.standardError)")
    let noKey = try PushdeckProcess.run(["serve", "--ephemeral", "--auth", "token"])
    #expect(noKey.standardError.contains("--auth token needs a key"), "\(noKey.standardError)")
    let profile = directory.appendingPathComponent("phone.yaml")
    try "apns:\n  tokens:\n    - token: xyz\n      app: a\n".write(to: profile, atomically: true, encoding: .utf8)
    let badToken = try PushdeckProcess.run(["serve", "--ephemeral", "--profile", profile.path])
    #expect(badToken.status == 2)
    #expect(badToken.standardError.contains("phone.yaml:3:14: apns.tokens[0].token:"), "\(badToken.standardError)")
  }
}

/// `pushdeck serve` as a child process on a free port.
final class ServeProcess {
  let process = Process()
  let output = Pipe()
  let port: Int
  private var text = ""

  init(_ arguments: [String], scheme: String = "h2c") throws {
    process.executableURL = URL(fileURLWithPath: try #require(PushdeckProcess.binary))
    process.arguments = ["serve", "--port", "0"] + arguments
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let deadline = Date().addingTimeInterval(30)
    while !text.contains("\n"), Date() < deadline, process.isRunning {
      text += String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
    }
    guard let line = text.split(separator: "\n").first(where: { $0.contains("listening on") }),
      let port = line.split(separator: ":").last.flatMap({ Int($0) })
    else {
      process.terminate()
      throw ServeProcessError(output: text)
    }
    self.port = port
  }

  /// Stops the server (SIGINT) and returns all it printed.
  @discardableResult
  func stop() -> String {
    if process.isRunning {
      kill(process.processIdentifier, SIGINT)
      process.waitUntilExit()
      text += String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }
    return text
  }

  /// One request with curl: the status and the body.
  func curl(token: String, headers: [String], body: String) throws -> (Int, String) {
    var arguments = ["-s", "-w", "\n%{http_code}", "--http2-prior-knowledge", "--max-time", "20"]
    for header in headers { arguments += ["-H", header] }
    arguments += ["--data-binary", body, "http://127.0.0.1:\(port)/3/device/\(token)"]
    let printed = try ExternalTools.run("/usr/bin/curl", arguments)
    let lines = printed.split(separator: "\n", omittingEmptySubsequences: false)
    return (Int(lines.last ?? "") ?? -1, lines.dropLast().joined(separator: "\n"))
  }
}

struct ServeProcessError: Error, CustomStringConvertible {
  var output: String
  var description: String { "pushdeck serve did not start: \(output)" }
}

/// Programs from outside the project, used as independent peers.
enum ExternalTools {
  static let hasOpenSSL = FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl")
  static let hasPythonCryptography: Bool = {
    (try? run("/usr/bin/env", ["python3", "-c", "import cryptography"])) != nil
  }()

  /// Makes an APNs provider key as Apple hands it out (P-256, PKCS#8 PEM) at
  /// `DIRECTORY/AuthKey_KEYID.p8` with openssl; returns its path.
  static func makeProviderKey(in directory: URL, keyID: String) throws -> String {
    let key = directory.appendingPathComponent("AuthKey_\(keyID).p8").path
    try run(
      "/bin/sh",
      ["-c", "openssl ecparam -name prime256v1 -genkey -noout | openssl pkcs8 -topk8 -nocrypt -out '\(key)'"])
    return key
  }

  /// Runs a program; its standard output. Throws when it exits non-zero.
  @discardableResult
  static func run(_ program: String, _ arguments: [String], check: Bool = true) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 || !check else {
      throw ExternalToolError(program: program, arguments: arguments)
    }
    return String(decoding: data, as: UTF8.self)
  }

  /// An APNs provider token signed by Python's `cryptography` (ES256, raw r||s signature).
  static func signJWT(key: String, keyID: String, teamID: String, issuedAt: Int) throws -> String {
    let script = """
      import sys, json, base64
      from cryptography.hazmat.primitives import serialization, hashes
      from cryptography.hazmat.primitives.asymmetric import ec
      from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature
      key = serialization.load_pem_private_key(open(sys.argv[1], 'rb').read(), None)
      b = lambda d: base64.urlsafe_b64encode(d).rstrip(b'=').decode()
      head = b(json.dumps({'alg': 'ES256', 'kid': sys.argv[2]}).encode())
      claims = b(json.dumps({'iss': sys.argv[3], 'iat': int(sys.argv[4])}).encode())
      r, s = decode_dss_signature(key.sign((head + '.' + claims).encode(), ec.ECDSA(hashes.SHA256())))
      print(head + '.' + claims + '.' + b(r.to_bytes(32, 'big') + s.to_bytes(32, 'big')))
      """
    return try run("/usr/bin/env", ["python3", "-c", script, key, keyID, teamID, String(issuedAt)])
      .trimmingCharacters(in: .whitespacesAndNewlines)
  }
}

struct ExternalToolError: Error, CustomStringConvertible {
  var program: String
  var arguments: [String]
  var description: String { "\(program) \(arguments.joined(separator: " ")) failed" }
}

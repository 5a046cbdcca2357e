import Foundation
import PushTestSupport
import Testing

/// A Python APNs client from PyPI, aioapns, signing provider tokens with a `.p8` key made by
/// openssl, against `pushdeck serve --tls` with its self-signed certificate.
@Suite(
  .requires(PushdeckProcess.binary != nil, "the pushdeck binary was not built"),
  .requires(ExternalTools.hasOpenSSL, "openssl is not installed"),
  .requires(ExternalTools.hasAioapns, "python3 with aioapns is not installed (pip install aioapns)"))
struct AioapnsCLITests {
  static let active = String(repeating: "a1", count: 32)
  static let gone = String(repeating: "b2", count: 32)

  /// aioapns talks to Apple's host names only, so the script points its protocol class at
  /// localhost and the port, and trusts the printed certificate.
  static let script = """
    import asyncio, ssl, sys
    from aioapns import APNs, NotificationRequest, PushType
    from aioapns.connection import APNsDevelopmentClientProtocol
    port, cafile, keyfile = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    APNsDevelopmentClientProtocol.APNS_SERVER = 'localhost'
    APNsDevelopmentClientProtocol.APNS_PORT = port
    async def main():
        client = APNs(key=open(keyfile).read(), key_id='ABC123DEFG', team_id='DEF123GHIJ',
                      topic='com.example.app', use_sandbox=True, max_connection_attempts=1,
                      ssl_context=ssl.create_default_context(cafile=cafile), err_func=lambda *a: asyncio.sleep(0))
        for token in sys.argv[4:]:
            result = await client.send_notification(NotificationRequest(
                device_token=token, message={'aps': {'alert': {'title': 'From aioapns'}}},
                push_type=PushType.ALERT, priority=10))
            print(result.status, result.description, result.timestamp)
    asyncio.run(main())
    """

  @Test func aioapnsSendsOverTLSWithAProviderToken() throws {
    let directory = try PushdeckProcess.temporaryDirectory()
    let key = try ExternalTools.makeProviderKey(in: directory, keyID: "ABC123DEFG")
    let profile = directory.appendingPathComponent("phone.yaml")
    try """
    apns:
      keys:
        - {file: AuthKey_ABC123DEFG.p8, teamId: DEF123GHIJ}
      tokens:
        - {token: \(Self.active), app: com.example.app}
        - {token: \(Self.gone), app: com.example.app, state: unregistered, unregisteredAt: 2026-11-20T10:00:00Z}
    """.write(to: profile, atomically: true, encoding: .utf8)
    let state = directory.appendingPathComponent("device.sqlite").path
    let server = try ServeProcess(["--tls", "--profile", profile.path, "--state", state])
    defer { server.stop() }
    let certificate = directory.appendingPathComponent("pushdeck-localhost.pem").path
    let output = try ExternalTools.run(
      "/usr/bin/env",
      ["python3", "-c", Self.script, String(server.port), certificate, key, Self.active, Self.gone])
    let lines = output.split(separator: "\n").map(String.init)
    #expect(lines == ["200 None None", "410 Unregistered 1795168800000"], "\(output)")
    let log = server.stop()
    #expect(log.contains("200 apns-id="), "\(log)")
    #expect(log.contains("410 Unregistered com.example.app"), "\(log)")
  }
}

extension ExternalTools {
  static let hasAioapns = (try? run("/usr/bin/env", ["python3", "-c", "import aioapns"])) != nil
}

import Foundation
import PushTestSupport
import Testing

/// `pushdeck serve --tls` as a developer runs it: the self-signed certificate is made on first
/// use beside the state, printed, kept for the next start, and trusted by curl and
/// `pushdeck push` with `--cacert`; a certificate made by openssl works with `--cert/--key`.
@Suite(
  .requires(PushdeckProcess.binary != nil, "the pushdeck binary was not built"),
  .requires(FileManager.default.isExecutableFile(atPath: "/usr/bin/curl"), "curl is not installed"))
struct ServeTLSCLITests {
  static let token = String(repeating: "ab", count: 32)

  func curl(_ arguments: [String]) throws -> String {
    try ExternalTools.run(
      "/usr/bin/curl",
      ["-s", "--max-time", "20", "-o", "/dev/null", "-w", "%{http_version} %{http_code}"] + arguments, check: false)
  }

  @Test func selfSignedCertificateIsMadePrintedKeptAndTrusted() throws {
    let directory = try PushdeckProcess.temporaryDirectory()
    let state = directory.appendingPathComponent("phone/device.sqlite").path
    let certificate = directory.appendingPathComponent("phone/pushdeck-localhost.pem").path
    let payload = directory.appendingPathComponent("hi.json").path
    try #"{"aps":{"alert":"Hi"}}"#.write(toFile: payload, atomically: true, encoding: .utf8)

    var server = try ServeProcess(["--tls", "--state", state])
    let url = "https://localhost:\(server.port)/3/device/\(Self.token)"
    #expect(
      try curl(["--cacert", certificate, "-H", "apns-topic: com.example.app", "--data-binary", "@" + payload, url])
        == "2 200")
    #expect(try curl(["-H", "apns-topic: com.example.app", "--data-binary", "@" + payload, url]) == "0 000")
    let pushed = try PushdeckProcess.run([
      "push", "--host", "localhost", "--port", String(server.port), "--cacert", certificate, "com.example.app", payload,
    ])
    #expect(pushed.status == 0, "\(pushed.standardError)")
    #expect(pushed.standardOutput.hasPrefix("200 apns-id="))
    let untrusted = try PushdeckProcess.run([
      "push", "--port", String(server.port), "--tls", "com.example.app", payload,
    ])
    #expect(untrusted.status == 2)
    #expect(untrusted.standardError.contains("the server's certificate is not trusted"), "\(untrusted.standardError)")
    // An h2c push at the TLS endpoint is told to use --tls.
    let plain = try PushdeckProcess.run(["push", "--port", String(server.port), "com.example.app", payload])
    #expect(plain.status == 2)
    #expect(plain.standardError.contains("give --tls"), "\(plain.standardError)")
    let first = server.stop()
    #expect(first.hasPrefix("pushdeck serve: listening on https://127.0.0.1:"), "\(first)")
    #expect(
      first.contains(
        "TLS certificate \(certificate) (self-signed, made now); trust it with curl --cacert \(certificate)"),
      "\(first)")
    let pem = try String(contentsOfFile: certificate, encoding: .utf8)

    // The next start keeps the same certificate, so clients keep trusting it.
    server = try ServeProcess(["--tls", "--state", state])
    #expect(
      try curl([
        "--cacert", certificate, "-H", "apns-topic: com.example.app", "--data-binary", "@" + payload,
        "https://127.0.0.1:\(server.port)/3/device/\(Self.token)",
      ]) == "2 200")
    let second = server.stop()
    #expect(second.contains("TLS certificate \(certificate); trust it"), "\(second)")
    #expect(try String(contentsOfFile: certificate, encoding: .utf8) == pem)

    // A TLS push at an h2c endpoint is told to drop --tls, not shown BoringSSL's error (with the
    // path of its source file).
    server = try ServeProcess(["--state", directory.appendingPathComponent("h2c.sqlite").path])
    let wrong = try PushdeckProcess.run(["push", "--port", String(server.port), "--tls", "com.example.app", payload])
    _ = server.stop()
    #expect(wrong.status == 2)
    #expect(
      wrong.standardError.contains(
        "the server does not speak TLS (an h2c endpoint, such as pushdeck serve without --tls): drop --tls"),
      "\(wrong.standardError)")
    #expect(!wrong.standardError.contains("BoringSSL"), "\(wrong.standardError)")
  }

  @Test(.requires(ExternalTools.hasOpenSSL, "openssl is not installed"))
  func usersCertificateAndKeyAreServed() throws {
    let directory = try PushdeckProcess.temporaryDirectory().path
    try ExternalTools.run(
      "/usr/bin/openssl",
      [
        "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=localhost",
        "-addext", "subjectAltName=DNS:localhost", "-keyout", directory + "/key.pem", "-out", directory + "/cert.pem",
      ])
    let server = try ServeProcess(["--cert", directory + "/cert.pem", "--key", directory + "/key.pem", "--ephemeral"])
    defer { server.stop() }
    #expect(
      try curl([
        "--cacert", directory + "/cert.pem", "-H", "apns-topic: com.example.app", "--data-binary", #"{"aps":{}}"#,
        "https://localhost:\(server.port)/3/device/\(Self.token)",
      ]) == "2 200")
    let bad = try PushdeckProcess.run([
      "serve", "--ephemeral", "--cert", directory + "/key.pem", "--key", directory + "/key.pem",
    ])
    #expect(bad.status == 2)
    #expect(bad.standardError.contains("key.pem: not a PEM certificate"), "\(bad.standardError)")
    let half = try PushdeckProcess.run(["serve", "--ephemeral", "--cert", directory + "/cert.pem"])
    #expect(half.status == 2)
    #expect(half.standardError.contains("--cert and --key go together"), "\(half.standardError)")
  }
}

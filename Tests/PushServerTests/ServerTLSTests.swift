import Foundation
import PushServer
import PushTestSupport
import PushWire
import Testing

/// TLS with ALPN h2: the self-signed certificate made on first use and kept, and clients that
/// trust it (curl with --cacert, the push client) or do not.
struct ServerTLSTests {
  static let token = String(repeating: "ab", count: 32)

  @Test func selfSignedCertificateIsMadeOnceAndKept() throws {
    let directory = try PushdeckProcess.temporaryDirectory().appendingPathComponent("state").path
    let first = try ServerTLS.selfSigned(directory: directory)
    #expect(first.isNew)
    #expect(first.certificatePath == directory + "/pushdeck-localhost.pem")
    let keyPath = directory + "/pushdeck-localhost-key.pem"
    let attributes = try FileManager.default.attributesOfItem(atPath: keyPath)
    #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    let pem = try String(contentsOfFile: first.certificatePath, encoding: .utf8)
    #expect(pem.hasPrefix("-----BEGIN CERTIFICATE-----"))
    let second = try ServerTLS.selfSigned(directory: directory)
    #expect(!second.isNew)
    #expect(try String(contentsOfFile: second.certificatePath, encoding: .utf8) == pem)
  }

  @Test func badCertificateFilesAreNamed() throws {
    let directory = try PushdeckProcess.temporaryDirectory()
    let bad = directory.appendingPathComponent("cert.pem").path
    try "hello".write(toFile: bad, atomically: true, encoding: .utf8)
    #expect {
      try ServerTLS.load(certificatePath: bad, keyPath: bad)
    } throws: { error in
      "\(error)".hasPrefix("\(bad): not a PEM certificate")
    }
  }

  func withTLSServer(_ body: (Int, String) async throws -> Void) async throws {
    let directory = try PushdeckProcess.temporaryDirectory().path
    let tls = try ServerTLS.selfSigned(directory: directory)
    let server = try await APNsServer(configuration: .init(port: 0, tls: tls), threads: 1, sink: { _, _ in })
    do {
      try await body(server.port, tls.certificatePath)
    } catch {
      try await server.shutdown()
      throw error
    }
    try await server.shutdown()
  }

  @Test func pushClientTalksH2OverTLSWhenItTrustsTheCertificate() async throws {
    try await withTLSServer { port, certificate in
      for host in ["localhost", "127.0.0.1"] {
        let client = try await APNsClient(
          host: host, port: port, tls: try ClientTLS.installer(trusting: certificate, serverHostname: host))
        let response = try await client.send(
          .init(token: Self.token, headers: [("apns-topic", "com.example.app")], body: Array(#"{"aps":{}}"#.utf8)))
        await client.close()
        #expect(response.status == 200, "\(host)")
        #expect(APNsHeaders.isCanonicalUUID(response.apnsID ?? ""))
      }
      // Without trusting it (the system's roots only), the handshake fails.
      let untrusting = try ClientTLS.installer(trusting: nil, serverHostname: "localhost")
      await #expect(throws: (any Error).self) {
        let client = try await APNsClient(host: "localhost", port: port, tls: untrusting)
        defer { Task { await client.close() } }
        _ = try await client.send(
          .init(token: Self.token, headers: [("apns-topic", "com.example.app")], body: Array(#"{"aps":{}}"#.utf8)))
      }
    }
  }

  @Test(.requires(Curl.path != nil, "curl is not installed"))
  func curlWithCACertGetsH2OverTLS() async throws {
    try await withTLSServer { port, certificate in
      let run = { (arguments: [String]) throws -> String in
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Curl.path!)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
      }
      let url = "https://localhost:\(port)/3/device/\(Self.token)"
      let ok = try run([
        "-s", "--max-time", "20", "--cacert", certificate, "-o", "/dev/null", "-w", "%{http_version} %{http_code}",
        "-H", "apns-topic: com.example.app", "--data-binary", #"{"aps":{"alert":"Hi"}}"#, url,
      ])
      #expect(ok == "2 200")
      let rejected = try run([
        "-s", "--max-time", "20", "--cacert", certificate, "-H", "apns-topic: com.example.app", "--data-binary",
        #"{"aps":{"alert":"Hi"},}"#, "https://127.0.0.1:\(port)/3/device/\(Self.token)",
      ])
      #expect(rejected == #"{"reason":"BadRequest"}"#)
      // Without --cacert curl refuses the self-signed certificate.
      let untrusted = try run(["-s", "--max-time", "20", "-o", "/dev/null", "-w", "%{http_code}", url])
      #expect(untrusted == "000")
    }
  }
}

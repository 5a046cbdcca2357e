import Crypto
import Foundation
import NIOCore
import NIOSSL
import SwiftASN1
import X509

/// The endpoint's TLS: a certificate and key (the user's, or a self-signed one made on first
/// use), offering HTTP/2 only through ALPN, TLS 1.2 or later, as APNs does.
public struct ServerTLS: Sendable {
  let context: NIOSSLContext
  /// The certificate's file, for clients to trust (`curl --cacert`).
  public let certificatePath: String
  /// Whether the certificate was made just now.
  public let isNew: Bool

  /// Uses the user's certificate chain and private key, PEM files.
  public static func load(certificatePath: String, keyPath: String) throws(TLSSetupError) -> ServerTLS {
    let chain: [NIOSSLCertificate]
    do {
      chain = try NIOSSLCertificate.fromPEMFile(certificatePath)
    } catch {
      throw TLSSetupError(
        path: certificatePath, message: "not a PEM certificate (-----BEGIN CERTIFICATE-----): \(error)")
    }
    guard !chain.isEmpty else { throw TLSSetupError(path: certificatePath, message: "no certificate in the file") }
    let key: NIOSSLPrivateKey
    do {
      key = try NIOSSLPrivateKey(file: keyPath, format: .pem)
    } catch {
      throw TLSSetupError(path: keyPath, message: "not a PEM private key (-----BEGIN PRIVATE KEY-----): \(error)")
    }
    return try make(chain: chain, key: key, certificatePath: certificatePath, isNew: false)
  }

  /// The file names of the self-signed certificate and its key in their directory.
  public static let selfSignedCertificateName = "pushdeck-localhost.pem"
  public static let selfSignedKeyName = "pushdeck-localhost-key.pem"

  /// Uses the self-signed certificate in `directory`, making it first when it is not there:
  /// ECDSA P-256, for `localhost`, `127.0.0.1` and `::1`, valid ten years. The key file is
  /// readable by its owner only.
  public static func selfSigned(directory: String, now: Date = Date()) throws(TLSSetupError) -> ServerTLS {
    let certificatePath = directory + "/" + selfSignedCertificateName
    let keyPath = directory + "/" + selfSignedKeyName
    let fileManager = FileManager.default
    if fileManager.fileExists(atPath: certificatePath), fileManager.fileExists(atPath: keyPath) {
      return try load(certificatePath: certificatePath, keyPath: keyPath)
    }
    let (certificatePEM, keyPEM): (String, String)
    do {
      (certificatePEM, keyPEM) = try makeSelfSigned(now: now)
    } catch {
      throw TLSSetupError(path: certificatePath, message: "cannot make a self-signed certificate: \(error)")
    }
    do {
      try fileManager.createDirectory(atPath: directory, withIntermediateDirectories: true)
      guard fileManager.createFile(atPath: keyPath, contents: Data(keyPEM.utf8), attributes: [.posixPermissions: 0o600])
      else {
        throw TLSSetupError(path: keyPath, message: "cannot write the key")
      }
      try Data(certificatePEM.utf8).write(to: URL(fileURLWithPath: certificatePath))
    } catch let error as TLSSetupError {
      throw error
    } catch {
      throw TLSSetupError(path: certificatePath, message: "cannot write the certificate: \(error.localizedDescription)")
    }
    let loaded = try load(certificatePath: certificatePath, keyPath: keyPath)
    return ServerTLS(context: loaded.context, certificatePath: certificatePath, isNew: true)
  }

  /// A new self-signed certificate and its key, both PEM.
  static func makeSelfSigned(now: Date) throws -> (certificate: String, key: String) {
    let key = P256.Signing.PrivateKey()
    let certificateKey = Certificate.PrivateKey(key)
    let name = try DistinguishedName {
      OrganizationName("Pushdeck")
      CommonName("localhost")
    }
    let certificate = try Certificate(
      version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: certificateKey.publicKey,
      notValidBefore: now.addingTimeInterval(-3600), notValidAfter: now.addingTimeInterval(10 * 365 * 86400),
      issuer: name, subject: name, signatureAlgorithm: .ecdsaWithSHA256,
      extensions: try Certificate.Extensions {
        Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
        Critical(KeyUsage(digitalSignature: true, keyCertSign: true))
        try ExtendedKeyUsage([.serverAuth])
        SubjectKeyIdentifier(hash: certificateKey.publicKey)
        SubjectAlternativeNames([
          .dnsName("localhost"), .ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1])),
          .ipAddress(ASN1OctetString(contentBytes: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1])),
        ])
      }, issuerPrivateKey: certificateKey)
    return (try certificate.serializeAsPEM().pemString + "\n", key.pemRepresentation + "\n")
  }

  static func make(
    chain: [NIOSSLCertificate], key: NIOSSLPrivateKey, certificatePath: String, isNew: Bool
  ) throws(TLSSetupError) -> ServerTLS {
    var configuration = TLSConfiguration.makeServerConfiguration(
      certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
    configuration.minimumTLSVersion = .tlsv12
    configuration.applicationProtocols = ["h2"]
    do {
      return ServerTLS(
        context: try NIOSSLContext(configuration: configuration), certificatePath: certificatePath, isNew: isNew)
    } catch {
      throw TLSSetupError(path: certificatePath, message: "the certificate and key do not make a TLS context: \(error)")
    }
  }

  /// Adds the server TLS handler to a new connection.
  func addHandler(to channel: Channel) throws {
    try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
  }
}

/// A certificate or key that cannot be used.
public struct TLSSetupError: Error, CustomStringConvertible, Sendable {
  public var path: String
  public var message: String
  public var description: String { "\(path): \(message)" }
}

/// TLS for ``APNsClient``: trusts the given certificates (PEM), or the system's, and asks for h2.
public enum ClientTLS {
  /// The handler installer to pass as `APNsClient(tls:)`.
  public static func installer(
    trusting caPath: String?, serverHostname: String
  ) throws(TLSSetupError) -> APNsClient.ConnectionSetup {
    var configuration = TLSConfiguration.makeClientConfiguration()
    configuration.minimumTLSVersion = .tlsv12
    configuration.applicationProtocols = ["h2"]
    if let caPath {
      do {
        configuration.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(caPath))
      } catch {
        throw TLSSetupError(path: caPath, message: "not a PEM certificate (-----BEGIN CERTIFICATE-----): \(error)")
      }
    }
    let context: NIOSSLContext
    do {
      context = try NIOSSLContext(configuration: configuration)
    } catch {
      throw TLSSetupError(path: caPath ?? "the system trust store", message: "cannot make a TLS context: \(error)")
    }
    // SNI takes host names only, not addresses.
    let isAddress = serverHostname.contains(":") || serverHostname.allSatisfy { $0.isNumber || $0 == "." }
    let hostname = isAddress ? nil : serverHostname
    return { channel in
      try channel.pipeline.syncOperations.addHandler(
        try NIOSSLClientHandler(context: context, serverHostname: hostname))
    }
  }
}

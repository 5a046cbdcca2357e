import ArgumentParser
import Foundation
import PushScenario
import PushServer
import PushShell
import PushStore
import PushWire

/// Provider-token authentication: on when a key is configured, unless `--auth none`.
enum AuthMode: String, ExpressibleByArgument, CaseIterable {
  case none, token
}

/// The endpoint options `serve` and `run --listen` share: authentication and device tokens.
struct EndpointOptions: ParsableArguments {
  @Option(
    name: .long,
    help: ArgumentHelp(
      "Provider-token authentication: none, or token (default: token when a key is configured by --jwt-key or the profile's apns.keys, otherwise none).",
      valueName: "none|token"))
  var auth: AuthMode?

  @Option(
    name: .long,
    help: ArgumentHelp(
      "A provider-token key to trust: Apple's .p8 file (PKCS#8 PEM), or its public key. Repeatable.",
      valueName: "file"))
  var jwtKey: [String] = []

  @Option(name: .long, help: "The Key ID of --jwt-key (default: from the name AuthKey_<KEYID>.p8).")
  var keyId: String?

  @Option(name: .long, help: "The Team ID the --jwt-key tokens are issued by (the JWT's iss).")
  var teamId: String?

  @Flag(
    name: .long,
    help: "Accept device tokens the profile's apns.tokens does not list (without that list, every token is).")
  var acceptAnyToken = false

  @Flag(
    name: .long,
    help: "Serve HTTP/2 over TLS (ALPN h2), with --cert/--key or a self-signed certificate made on first use.")
  var tls = false

  @Flag(name: .long, help: "Serve cleartext HTTP/2 with prior knowledge (the default).")
  var h2c = false

  @Option(name: .long, help: ArgumentHelp("The TLS certificate (chain), PEM; implies --tls.", valueName: "file"))
  var cert: String?

  @Option(name: .long, help: ArgumentHelp("The TLS certificate's private key, PEM.", valueName: "file"))
  var key: String?

  /// The endpoint flags given on the command line, as typed: `run` refuses them without
  /// `--listen`, where they would configure nothing.
  var given: [String] {
    var flags: [String] = []
    if auth != nil { flags.append("--auth") }
    if !jwtKey.isEmpty { flags.append("--jwt-key") }
    if keyId != nil { flags.append("--key-id") }
    if teamId != nil { flags.append("--team-id") }
    if acceptAnyToken { flags.append("--accept-any-token") }
    if tls { flags.append("--tls") }
    if h2c { flags.append("--h2c") }
    if cert != nil { flags.append("--cert") }
    if key != nil { flags.append("--key") }
    return flags
  }

  func validateTLS() throws {
    if h2c, tls || cert != nil { throw ValidationError("--h2c is cleartext; it does not go with --tls or --cert") }
    if (cert == nil) != (key == nil) {
      throw ValidationError("--cert and --key go together: the certificate (PEM) and its private key (PEM)")
    }
  }

  /// The TLS set-up: the user's certificate, or the self-signed one beside the state (made on
  /// first use), nil for h2c.
  ///
  /// - Parameter statePath: `--state`, whose directory keeps the self-signed certificate
  ///   (the default data directory otherwise, `--ephemeral` included).
  func serverTLS(statePath: String?) throws -> ServerTLS? {
    try validateTLS()
    if let cert, let key {
      do throws(TLSSetupError) {
        return try ServerTLS.load(certificatePath: cert, keyPath: key)
      } catch {
        throw ValidationError(error.description)
      }
    }
    guard tls else { return nil }
    let location: StateLocation
    do throws(StoreError) {
      location = try StateLocation.resolve(
        statePath: statePath, ephemeral: false, environment: ProcessInfo.processInfo.environment)
    } catch {
      throw ValidationError("--tls: no directory for the self-signed certificate (\(error)); give --cert and --key")
    }
    guard case .file(let path) = location else { return nil }
    let directory = (path as NSString).deletingLastPathComponent
    do throws(TLSSetupError) {
      return try ServerTLS.selfSigned(directory: directory.isEmpty ? "." : directory)
    } catch {
      throw ValidationError(error.description)
    }
  }

  /// What the endpoint checks: the trusted keys (empty when no authentication) and the known
  /// tokens (nil when any token is accepted), from the flags and the profile's `apns:` section.
  ///
  /// - Throws: `ValidationError` naming the file or flag that is wrong.
  func endpoint(profile: String?) throws -> (keys: [ProviderTokenKey], registry: TokenRegistry?, fcmProject: String?) {
    var section = APNsEndpointProfile()
    if let profile, !Session.presets.contains(profile) {
      do throws(ScenarioError) {
        section = try ScenarioLoader().loadEndpoint(path: profile) ?? APNsEndpointProfile()
      } catch {
        throw ValidationError(error.description)
      }
    }
    if !jwtKey.isEmpty {
      guard let teamId, !teamId.isEmpty else {
        throw ValidationError("--jwt-key needs --team-id: the Team ID that issues the tokens (the JWT's iss)")
      }
      if keyId != nil, jwtKey.count > 1 {
        throw ValidationError("--key-id names one key; with several --jwt-key files, name them AuthKey_<KEYID>.p8")
      }
      for path in jwtKey {
        guard let id = keyId ?? APNsEndpointProfile.ProviderKey.keyID(fromFileName: path) else {
          throw ValidationError(
            "--jwt-key \(path): give its Key ID with --key-id (or name the file AuthKey_<KEYID>.p8, as Apple does)")
        }
        guard let data = FileManager.default.contents(atPath: path), let pem = String(data: data, encoding: .utf8)
        else {
          throw ValidationError("--jwt-key \(path): cannot read the file")
        }
        section.keys.append(.init(keyID: id, teamID: teamId, path: path, pem: pem))
      }
    } else if keyId != nil || teamId != nil {
      throw ValidationError("--key-id and --team-id describe a --jwt-key FILE; give the key file too")
    }
    var keys: [ProviderTokenKey] = []
    for key in section.keys {
      do throws(ProviderKeyError) {
        keys.append(try ProviderTokenKey(key))
      } catch {
        throw ValidationError(error.description)
      }
    }
    switch auth {
    case .none?:
      keys = []
    case .token?:
      guard !keys.isEmpty else {
        throw ValidationError(
          "--auth token needs a key to verify with: --jwt-key AuthKey_<KEYID>.p8 --team-id TEAMID, or apns.keys in the profile"
        )
      }
    case nil:
      break
    }
    let registry = section.devices.map { TokenRegistry(devices: $0, acceptsUnknownTokens: acceptAnyToken) }
    return (keys, registry, section.fcmProject)
  }
}

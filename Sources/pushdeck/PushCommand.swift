import ArgumentParser
import Foundation
import PushServer
import PushShell
import PushWire

/// `pushdeck push`: sends one payload to a running APNs-compatible endpoint, as
/// `xcrun simctl push` sends one to a Simulator.
struct PushCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "push",
    abstract: "Send a payload to a running pushdeck serve (or any APNs-compatible endpoint).",
    discussion: """
      Like xcrun simctl push: pushdeck push [BUNDLE] FILE|-. The bundle id may be left out when \
      the .apns file names it ("Simulator Target Bundle") or --topic is given. Prints the status \
      and the apns-id, or the status and APNs reason; exits 0 on 200, 1 on a rejection and 2 when \
      nothing could be sent.

      Broadcast channels (iOS 18): --channel ID sends the payload to POST /4/broadcasts/apps/BUNDLE \
      (apns-push-type liveactivity unless given). The channel management API takes the bundle id \
      alone: --create-channel [--storage-policy 0|1], --list-channels, --read-channel ID, \
      --delete-channel ID; give --port the endpoint's --channels-port or its main port.

      FCM HTTP v1: --fcm FILE --project ID sends an FCM message file ({"message": {...}}) to \
      POST /v1/projects/ID/messages:send; prints the status and the message name, or FCM's \
      error code and message.
      """
  )

  @Argument(help: ArgumentHelp("The app's bundle id (optional), then the payload file, or - for standard input."))
  var arguments: [String] = []

  @Option(name: .long, help: "The endpoint's host.")
  var host: String = "127.0.0.1"

  @Option(name: .long, help: "The endpoint's port.")
  var port: Int = 2197

  @Flag(name: .long, help: "Connect with TLS (ALPN h2) instead of h2c; --cacert implies it.")
  var tls = false

  @Option(
    name: .long,
    help: ArgumentHelp(
      "Trust this certificate (PEM), such as the one pushdeck serve --tls prints; the system's otherwise.",
      valueName: "file"))
  var cacert: String?

  @Option(name: .long, help: "The device token, as hex (default: 64 zeros).")
  var token: String = String(repeating: "0", count: 64)

  @Option(name: .long, help: "apns-topic (default: the bundle id with the push type's suffix).")
  var topic: String?

  @Option(name: .long, help: "apns-push-type: alert, background, voip, liveactivity, …")
  var pushType: String?

  @Option(name: .long, help: "apns-priority: 10, 5 or 1.")
  var priority: String?

  @Option(name: .long, help: "apns-collapse-id.")
  var collapseId: String?

  @Option(name: .long, help: "apns-expiration: UNIX seconds, 0 for now or never.")
  var expiration: String?

  @Option(name: .long, help: "apns-id: a lowercase UUID (the endpoint makes one otherwise).")
  var apnsId: String?

  @Option(name: .long, help: "Send the payload as a broadcast on this channel (apns-channel-id, base64).")
  var channel: String?

  @Flag(name: .long, help: "Create a broadcast channel for BUNDLE; prints its apns-channel-id.")
  var createChannel = false

  @Option(name: .long, help: "With --create-channel: message-storage-policy, 0 (no storage) or 1 (most recent).")
  var storagePolicy: Int = 0

  @Flag(name: .long, help: "List BUNDLE's broadcast channels.")
  var listChannels = false

  @Option(name: .long, help: "Read BUNDLE's channel with this id.")
  var readChannel: String?

  @Option(name: .long, help: "Delete BUNDLE's channel with this id.")
  var deleteChannel: String?

  @Option(
    name: .long,
    help: ArgumentHelp("Send this FCM v1 message file (or - for standard input) to messages:send.", valueName: "file"))
  var fcm: String?

  @Option(name: .long, help: "With --fcm: the Firebase project id in the path.")
  var project: String?

  @Option(name: .long, help: ArgumentHelp("Sign a provider token with this .p8 key.", valueName: "file"))
  var jwtKey: String?

  @Option(name: .long, help: "The key's Key ID (default: from the name AuthKey_<KEYID>.p8).")
  var keyId: String?

  @Option(name: .long, help: "The Team ID issuing the token.")
  var teamId: String?

  /// How many channel management actions were asked for.
  var managementActions: Int {
    [createChannel, listChannels, readChannel != nil, deleteChannel != nil].filter { $0 }.count
  }

  func validate() throws {
    if let fcm {
      guard arguments.isEmpty, managementActions == 0, channel == nil else {
        throw ValidationError("--fcm \(fcm) sends the message file alone: pushdeck push --fcm FILE --project ID")
      }
      guard let project, !project.isEmpty, !project.contains("/"), !project.contains("?") else {
        throw ValidationError("--fcm needs --project ID: the Firebase project id of /v1/projects/ID/messages:send")
      }
      guard (1...65535).contains(port) else { throw ValidationError("--port must be 1 to 65535") }
      return
    }
    if project != nil { throw ValidationError("--project names the Firebase project of an --fcm message") }
    guard managementActions <= 1 else {
      throw ValidationError("give one of --create-channel, --list-channels, --read-channel, --delete-channel")
    }
    guard (0...1).contains(storagePolicy) else {
      throw ValidationError("--storage-policy must be 0 (no storage) or 1 (most recent message stored)")
    }
    if managementActions == 1 {
      guard arguments.count == 1 else {
        throw ValidationError("a channel request takes the bundle id alone: pushdeck push BUNDLE --list-channels")
      }
      guard channel == nil else { throw ValidationError("--channel sends a payload; it is not a channel request") }
      guard (1...65535).contains(port) else { throw ValidationError("--port must be 1 to 65535") }
      return
    }
    guard (1...2).contains(arguments.count) else {
      throw ValidationError(
        "expected [BUNDLE] FILE: the payload file (or - for standard input), optionally after the bundle id")
    }
    guard (1...65535).contains(port) else { throw ValidationError("--port must be 1 to 65535") }
    if jwtKey == nil, keyId != nil || teamId != nil {
      throw ValidationError("--key-id and --team-id sign with a key: give --jwt-key FILE too")
    }
  }

  func run() async throws {
    do {
      try await send()
    } catch let failure as Failure {
      FileHandleError.write("pushdeck push: \(terminalSafe(failure.description))\n")
      throw ExitCode(2)
    }
  }

  /// Connects as --host, --port, --tls and --cacert say.
  private func connect() async throws -> APNsClient {
    var installer: APNsClient.ConnectionSetup?
    if tls || cacert != nil {
      do throws(TLSSetupError) {
        installer = try ClientTLS.installer(trusting: cacert, serverHostname: host)
      } catch {
        throw Failure(error.description)
      }
    }
    do {
      return try await APNsClient(host: host, port: port, tls: installer)
    } catch {
      throw Failure("\(error); is pushdeck serve running there?")
    }
  }

  /// Sends one request on a connection of its own and closes it, whatever the answer.
  private func exchange(_ request: APNsClientRequest) async throws -> APNsClientResponse {
    let client = try await connect()
    do {
      let response = try await client.send(request)
      await client.close()
      return response
    } catch {
      await client.close()
      throw Failure("\(error)")
    }
  }

  /// One channel management request: prints the status, then the channel id or the body.
  private func manageChannel(bundle: String) async throws {
    let path = "/1/apps/\(bundle)/channels"
    var headers: [(name: String, value: String)] = []
    if let jwtKey { headers.append(("authorization", "bearer " + (try signedToken(jwtKey)))) }
    let request: APNsClientRequest
    if createChannel {
      request = APNsClientRequest(
        method: "POST", path: path, headers: headers, body: ChannelRequest.createBody(storagePolicy: storagePolicy))
    } else if listChannels {
      request = APNsClientRequest(method: "GET", path: "/1/apps/\(bundle)/all-channels", headers: headers)
    } else if let readChannel {
      request = APNsClientRequest(method: "GET", path: path, headers: headers + [("apns-channel-id", readChannel)])
    } else {
      request = APNsClientRequest(
        method: "DELETE", path: path, headers: headers + [("apns-channel-id", deleteChannel ?? "")])
    }
    let response = try await exchange(request)
    var line = "\(response.status)"
    if let reason = response.reason { line += " " + terminalSafe(reason) }
    if let id = response.channelID { line += " apns-channel-id=" + terminalSafe(id) }
    print(line)
    if response.status < 300, response.reason == nil, !response.body.isEmpty { print(terminalSafe(response.body)) }
    if response.status >= 300 { throw ExitCode(1) }
  }

  /// Sends an FCM v1 message file: prints the status and the name, or FCM's error.
  private func sendFCM(file: String, project: String) async throws {
    let body = try readBody(file)
    let request = APNsClientRequest(
      method: "POST", path: "/v1/projects/\(project)/messages:send",
      headers: [("content-type", "application/json")], body: body)
    let response = try await exchange(request)
    let answer = try? JSONDocument(text: response.body).value(0)
    if response.status == 200 {
      print("200 " + terminalSafe(answer?["name"]?.stringValue ?? response.body))
      return
    }
    let error = answer?["error"]
    let code: String? =
      if case .array(let details)? = error?["details"] { details.first?["errorCode"]?.stringValue } else { nil }
    var line = "\(response.status)"
    if let code = code ?? error?["status"]?.stringValue { line += " " + terminalSafe(code) }
    print(line)
    if let message = error?["message"]?.stringValue {
      FileHandleError.write("pushdeck push: \(terminalSafe(message))\n")
    }
    throw ExitCode(1)
  }

  /// The file's bytes, or standard input's for "-". Read as `validate` reads a payload file, so a
  /// FIFO or `<(…)` works too: `FileManager.contents(atPath:)` gave nil for them, and its failure
  /// said "no such file" for a file that was there.
  private func readBody(_ file: String) throws -> [UInt8] {
    if file == "-" { return [UInt8](FileHandle.standardInput.readDataToEndOfFile()) }
    do throws(InputProblem) {
      return try readWholeFile(file, limit: PushReader.maximumFileBytes)
    } catch {
      throw Failure("cannot read \(error.path): \(error.message)")
    }
  }

  private func send() async throws {
    if let fcm, let project {
      try await sendFCM(file: fcm, project: project)
      return
    }
    if managementActions == 1 {
      try await manageChannel(bundle: arguments[0])
      return
    }
    let file = arguments.last!
    let body = try readBody(file)
    let type = pushType.flatMap(PushType.init(rawValue:))
    let bundle = arguments.count == 2 ? arguments[0] : Self.simulatorTargetBundle(body)
    guard let topic = topic ?? bundle.map({ $0 + (type?.topicSuffix ?? "") }) else {
      throw Failure(
        "which app? name it (pushdeck push com.example.app \(file)), give --topic, or put \"Simulator Target Bundle\" in the .apns file"
      )
    }
    var headers: [(name: String, value: String)] = []
    // A broadcast names its app in the path; a topic is sent only when given.
    if channel == nil || self.topic != nil { headers.append(("apns-topic", topic)) }
    if let pushType {
      headers.append(("apns-push-type", pushType))
    } else if channel != nil {
      headers.append(("apns-push-type", "liveactivity"))
    }
    if let channel { headers.append(("apns-channel-id", channel)) }
    if let priority { headers.append(("apns-priority", priority)) }
    if let collapseId { headers.append(("apns-collapse-id", collapseId)) }
    if let expiration { headers.append(("apns-expiration", expiration)) }
    if let apnsId { headers.append(("apns-id", apnsId)) }
    if let jwtKey { headers.append(("authorization", "bearer " + (try signedToken(jwtKey)))) }

    var request = APNsClientRequest(token: token, headers: headers, body: body)
    if channel != nil {
      guard let bundle = bundle ?? (self.topic.map { APNsRequest.bundle(fromTopic: $0, pushType: .liveactivity) })
      else { throw Failure("a broadcast needs the bundle id: pushdeck push BUNDLE --channel ID FILE") }
      request.path = ChannelRequest.broadcastPrefix + bundle
    }
    let response = try await exchange(request)
    var line = "\(response.status)"
    if let reason = response.reason { line += " " + terminalSafe(reason) }
    if let timestamp = response.timestamp { line += " timestamp=\(timestamp)" }
    if let id = response.apnsID { line += " apns-id=" + terminalSafe(id) }
    print(line)
    if response.status != 200 {
      // Say what is wrong with the file where it can be seen here, as `validate` would.
      let format: InputFormat = InputFormat.from(fileName: file) == .simulator ? .simulator : .payload
      let record = PushReader.readPayloadFile(body, source: file == "-" ? "<stdin>" : file, format: format)
      if !record.diagnostics.isEmpty {
        let err = OutputStream.standardError()
        err.write(DiagnosticPrinter(color: colorEnabled(for: err), strict: false).render(record))
        err.flush()
      }
      throw ExitCode(1)
    }
  }

  private func signedToken(_ path: String) throws -> String {
    guard let teamId else { throw Failure("--jwt-key needs --team-id: the Team ID that issues the token") }
    guard let keyID = keyId ?? APNsEndpointProfile.ProviderKey.keyID(fromFileName: path) else {
      throw Failure("--jwt-key \(path): give its Key ID with --key-id (or name the file AuthKey_<KEYID>.p8)")
    }
    guard let data = FileManager.default.contents(atPath: path) else { throw Failure("cannot read \(path)") }
    do {
      let key = try ProviderTokenSigner.privateKey(pem: String(decoding: data, as: UTF8.self), path: path)
      return try ProviderTokenSigner.token(
        privateKey: key, keyID: keyID, teamID: teamId, issuedAt: Date().timeIntervalSince1970)
    } catch let error as ProviderKeyError {
      throw Failure(error.description)
    }
  }

  /// The bundle id an `.apns` file names in `Simulator Target Bundle`.
  ///
  /// Trailing commas are forgiven here (and only here): the file is still sent as it is, so
  /// that APNs answers 400 and its mistakes are explained, but it needs an app to go to.
  static func simulatorTargetBundle(_ body: [UInt8]) -> String? {
    var bytes = body
    for _ in 0..<64 {
      do {
        let document = try JSONDocument(bytes: bytes)
        return document.member("Simulator Target Bundle", of: document.root).flatMap(document.stringValue)
      } catch  where error.kind == .trailingComma {
        // The error is at the closing bracket; the comma is the last byte before it that is
        // not whitespace.
        var index = min(error.offset, bytes.count) - 1
        while index >= 0, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index -= 1 }
        guard index >= 0, bytes[index] == UInt8(ascii: ",") else { return nil }
        bytes[index] = 0x20
      } catch {
        return nil
      }
    }
    return nil
  }

  /// A problem that stops the push before an answer: printed, exit status 2.
  struct Failure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
  }
}

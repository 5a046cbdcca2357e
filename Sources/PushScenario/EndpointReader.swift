import PushCore
import PushYAML

extension ScenarioLoader {
  /// Loads a profile file's `apns:` section: the device tokens the endpoint knows and the
  /// provider-token keys it trusts (key files are read here, relative to the profile).
  ///
  /// - Returns: nil when the profile has no `apns:` section.
  public func loadEndpoint(path: String) throws(ScenarioError) -> APNsEndpointProfile? {
    let text: String
    do throws(ScenarioFiles.Problem) {
      text = try files.text(path)
    } catch {
      throw ScenarioError(file: path, message: "cannot read the file: \(error.message)")
    }
    return try loadEndpoint(text: text, file: path)
  }

  /// Loads the `apns:` section from profile text; relative paths start from `file`'s directory.
  public func loadEndpoint(text: String, file: String) throws(ScenarioError) -> APNsEndpointProfile? {
    let root = try YAMLValue.parse(text, file: file)
    guard let section = try root.freeMapping().first(where: { $0.key == "apns" })?.value, !section.isNull else {
      return nil
    }
    return try EndpointReader(files: files, directory: ScenarioFiles.directory(of: file)).endpoint(section)
  }
}

/// Reads a profile's `apns:` section. See `docs/SCENARIOS.md`.
struct EndpointReader {
  let files: ScenarioFiles
  let directory: String

  static let keys = ["tokens", "keys", "fcm"]
  static let tokenKeys = ["token", "app", "state", "unregisteredAt"]
  static let keyKeys = ["file", "keyId", "teamId"]

  func endpoint(_ value: YAMLValue) throws(ScenarioError) -> APNsEndpointProfile {
    let map = try value.mapping(allowed: Self.keys)
    var profile = APNsEndpointProfile()
    if let tokens = map["tokens"] {
      var devices: [APNsEndpointProfile.Device] = []
      var seen: Set<String> = []
      for item in try tokens.list() {
        let device = try self.device(item)
        guard seen.insert(device.token).inserted else {
          throw item.error("the token \(device.token) is listed twice; list each device token once")
        }
        devices.append(device)
      }
      profile.devices = devices
    }
    if let keys = map["keys"] {
      var seen: Set<String> = []
      for item in try keys.list() {
        let key = try self.key(item)
        guard seen.insert(key.keyID).inserted else {
          throw item.error("the key id \(key.keyID) is listed twice; list each key once")
        }
        profile.keys.append(key)
      }
    }
    if let fcm = map["fcm"] {
      let fields = try fcm.mapping(allowed: ["project"])
      profile.fcmProject = try fields.required(
        "project", "the Firebase project id, as in /v1/projects/<id>/messages:send"
      )
      .nonEmptyString("a Firebase project id")
    }
    return profile
  }

  func device(_ value: YAMLValue) throws(ScenarioError) -> APNsEndpointProfile.Device {
    let map = try value.mapping(allowed: Self.tokenKeys)
    let tokenValue = try map.required("token", "the device token as hex, such as \(String(repeating: "ab", count: 32))")
    let token = try tokenValue.nonEmptyString("a device token")
    if let problem = DeviceToken.check(token) { throw tokenValue.error(problem.message) }
    let app = try map.required("app", "the bundle id the token belongs to, such as com.example.app")
      .nonEmptyString("a bundle id")
    let stateName = try map["state"]?.oneOf([
      ("active", "active"), ("unregistered", "unregistered"), ("expired", "expired"),
    ])
    if map.has("unregisteredAt"), stateName != "unregistered" {
      throw map["unregisteredAt"]!.error("unregisteredAt applies only to state: unregistered")
    }
    let state: APNsEndpointProfile.TokenState
    switch stateName {
    case "unregistered":
      // The time APNs learned the token stopped working; the profile's default start otherwise.
      var milliseconds = ProfileReader.defaultStart.milliseconds
      if let at = map["unregisteredAt"] {
        let text = try at.string()
        guard let stamp = TimeGrammar.stamp(text) else {
          throw at.error("expected a date and time such as 2026-11-20T10:00:00Z, got \(at.described)")
        }
        let instant = stamp.instant(fallbackOffset: 0)
        guard instant.isInRange else {
          throw at.error("\(at.described) is outside the simulated time \(EpochRange.text)")
        }
        milliseconds = instant.milliseconds
      }
      state = .unregistered(sinceMilliseconds: milliseconds)
    case "expired": state = .expired
    default: state = .active
    }
    return APNsEndpointProfile.Device(token: token, bundleID: app, state: state)
  }

  func key(_ value: YAMLValue) throws(ScenarioError) -> APNsEndpointProfile.ProviderKey {
    let map = try value.mapping(allowed: Self.keyKeys)
    let fileValue = try map.required("file", "the .p8 key file from Apple, such as AuthKey_ABC123DEFG.p8")
    let file = try fileValue.nonEmptyString("a file path")
    let full = ScenarioFiles.join(directory, file)
    let keyID: String
    if let given = map["keyId"] {
      keyID = try given.nonEmptyString("the 10-character Key ID")
    } else if let named = APNsEndpointProfile.ProviderKey.keyID(fromFileName: file) {
      keyID = named
    } else {
      throw value.error(
        "missing \"keyId\": expected the 10-character Key ID (it can be left out when the file is named AuthKey_<KEYID>.p8)"
      )
    }
    let teamID = try map.required("teamId", "the 10-character Team ID that signs the tokens (the JWT's iss)")
      .nonEmptyString("a Team ID")
    let pem: String
    do throws(ScenarioFiles.Problem) {
      pem = try files.text(full)
    } catch {
      throw fileValue.error("cannot read the key \"\(file)\" (\(full)): \(error.message)")
    }
    return APNsEndpointProfile.ProviderKey(keyID: keyID, teamID: teamID, path: full, pem: pem)
  }
}

/// An FCM HTTP v1 error, as FCM answers it: the HTTP status, the `google.rpc` status name, the
/// FCM `errorCode` and a message (see docs/DECISIONS.md, "FCM HTTP v1").
public struct FCMError: Error, Equatable, Sendable {
  /// The HTTP status (400, 401, 403, 404, 429).
  public var code: Int
  /// The `google.rpc.Code` name: `INVALID_ARGUMENT`, `NOT_FOUND`, …
  public var status: String
  /// The `FcmError` code in `details`, nil for errors that are not FCM's own (a bad path).
  public var errorCode: String?
  /// What is wrong, with the field path and, for JSON syntax, the line:column.
  public var message: String
  /// Where in the request body the problem is, when it is about one place (not sent to clients:
  /// the message says it too).
  public var location: TextLocation?

  public init(code: Int, status: String, errorCode: String?, message: String, location: TextLocation? = nil) {
    self.code = code
    self.status = status
    self.errorCode = errorCode
    self.message = message
    self.location = location
  }

  /// 400 `INVALID_ARGUMENT`.
  public static func invalid(_ message: String) -> FCMError {
    FCMError(code: 400, status: "INVALID_ARGUMENT", errorCode: "INVALID_ARGUMENT", message: message)
  }

  /// 404 `UNREGISTERED`: the token is not (or no longer) a registered device.
  public static func unregistered(_ message: String) -> FCMError {
    FCMError(code: 404, status: "NOT_FOUND", errorCode: "UNREGISTERED", message: message)
  }

  /// 403 `SENDER_ID_MISMATCH`: the token belongs to another project.
  public static func senderIDMismatch(_ message: String) -> FCMError {
    FCMError(code: 403, status: "PERMISSION_DENIED", errorCode: "SENDER_ID_MISMATCH", message: message)
  }

  /// 401 `THIRD_PARTY_AUTH_ERROR`: APNs refused the request FCM made.
  public static func thirdPartyAuth(_ message: String) -> FCMError {
    FCMError(code: 401, status: "UNAUTHENTICATED", errorCode: "THIRD_PARTY_AUTH_ERROR", message: message)
  }

  /// 500 `INTERNAL`: the message could not be saved.
  public static let notSaved = FCMError(
    code: 500, status: "INTERNAL", errorCode: "INTERNAL", message: "the message could not be saved")

  /// The JSON body FCM answers with.
  public var body: String {
    var members: [JSONMember] = [
      JSONMember(key: "code", value: .number(JSONNumber(code))),
      JSONMember(key: "message", value: .string(message)),
      JSONMember(key: "status", value: .string(status)),
    ]
    if let errorCode {
      members.append(
        JSONMember(
          key: "details",
          value: .array([
            .object([
              JSONMember(key: "@type", value: .string("type.googleapis.com/google.firebase.fcm.v1.FcmError")),
              JSONMember(key: "errorCode", value: .string(errorCode)),
            ])
          ])))
    }
    return JSONValue.object([JSONMember(key: "error", value: .object(members))]).compactText
  }
}

/// An FCM HTTP v1 send request (`{"message": {…}, "validate_only": …}`) mapped to the APNs
/// request FCM makes for it: one pure function. The rules and their sources are in
/// docs/DECISIONS.md, "FCM HTTP v1".
public struct FCMMessage: Equatable, Sendable {
  /// The registration token (here: the device token the APNs request goes to).
  public var token: String
  /// Whether the sender only asked for validation (`validate_only`).
  public var validateOnly: Bool
  /// The APNs request headers (`apns-push-type`, `apns-priority`, `apns-expiration`, and those
  /// of `apns.headers`), lower-cased, in order.
  public var headers: [(name: String, value: String)]
  /// The APNs payload FCM sends: `apns.payload` with the notification merged into `aps.alert`,
  /// the `data` keys and FCM's own keys.
  public var payload: JSONValue
  /// The app, when `apns.headers` names it (`apns-topic`).
  public var topic: String?

  public static func == (lhs: FCMMessage, rhs: FCMMessage) -> Bool {
    lhs.token == rhs.token && lhs.validateOnly == rhs.validateOnly && lhs.payload == rhs.payload
      && lhs.topic == rhs.topic
      && lhs.headers.map { "\($0.name)=\($0.value)" } == rhs.headers.map { "\($0.name)=\($0.value)" }
  }

  /// FCM's default time to live: 4 weeks (2,419,200 s), used for `apns-expiration` when unset.
  public static let defaultTimeToLive = 2_419_200

  /// What FCM adds to every payload: the message id, the sender (the project number) and the
  /// installation id.
  public struct Added: Sendable {
    public var messageID: String
    public var senderID: String
    /// nil: made from the token (``installationID(forToken:)``).
    public var installationID: String?

    public init(messageID: String, senderID: String, installationID: String? = nil) {
      self.messageID = messageID
      self.senderID = senderID
      self.installationID = installationID
    }
  }

  /// The payload text as sent: compact JSON.
  public var payloadText: String { payload.compactText }

  static let messageFields: Set = [
    "name", "token", "topic", "condition", "notification", "data", "apns", "android", "webpush", "fcm_options",
  ]
  static let notificationFields: Set = ["title", "body", "image"]
  static let apnsFields: Set = ["headers", "payload", "fcm_options", "live_activity_token"]
  static let apnsOptionsFields: Set = ["image", "analytics_label"]

  /// Maps a send request's body.
  ///
  /// - Parameters:
  ///   - bytes: the request body (or a message file).
  ///   - now: UNIX seconds, for the default `apns-expiration`; nil leaves it out (a file).
  ///   - added: the values of FCM's own keys.
  /// - Returns: the mapped message, or the `INVALID_ARGUMENT` FCM answers.
  public static func map(_ bytes: [UInt8], now: Int?, added: Added) -> Result<FCMMessage, FCMError> {
    let document: JSONDocument
    do {
      document = try JSONDocument(bytes: bytes)
    } catch {
      let at = TextLocation.of(offset: error.offset, in: bytes)
      var failure = FCMError.invalid("Invalid JSON payload received. \(at): \(error.message); \(error.hint)")
      failure.location = at
      return .failure(failure)
    }
    return map(document, now: now, added: added)
  }

  /// Maps a parsed send request: the request read field by field (``SendRequestReader``), in the
  /// order FCM checks them, then the APNs payload and headers FCM makes from it.
  public static func map(_ document: JSONDocument, now: Int?, added: Added) -> Result<FCMMessage, FCMError> {
    let reader = SendRequestReader(document: document)
    let request: SendRequestReader.Target
    let notification: SendRequestReader.Notification
    let data: [JSONMember]
    let apns: SendRequestReader.APNs
    do {
      request = try reader.target()
      notification = try reader.notification(of: request.message)
      data = try reader.data(of: request.message)
      apns = try reader.apns(of: request.message)
    } catch {
      return .failure(error)
    }
    let aps = aps(apns.payload, showing: notification)
    let payload = payload(
      aps: aps, apnsPayload: apns.payload, data: data, image: apns.optionsImage ?? notification.image,
      token: request.token, added: added)
    return .success(
      FCMMessage(
        token: request.token.lowercased(), validateOnly: request.validateOnly,
        headers: headers(apns.headers, aps: aps, now: now), payload: .object(payload),
        topic: apns.headers.first { $0.name == "apns-topic" }?.value))
  }

  /// `apns.payload.aps`, with the notification's title and body where `aps.alert` does not set
  /// them (a string `aps.alert` replaces the notification altogether).
  static func aps(_ apnsPayload: [JSONMember], showing notification: SendRequestReader.Notification) -> [JSONMember] {
    var aps: [JSONMember] = []
    if case .object(let members)? = apnsPayload.first(where: { $0.key == "aps" })?.value { aps = members }
    let (title, body) = (notification.title, notification.body)
    guard title != nil || body != nil else { return aps }
    switch aps.firstIndex(where: { $0.key == "alert" }).map({ (index: $0, value: aps[$0].value) }) {
    case .some((let index, .object(var alert))):
      if let title, !alert.contains(where: { $0.key == "title" }) {
        alert.insert(JSONMember(key: "title", value: .string(title)), at: 0)
      }
      if let body, !alert.contains(where: { $0.key == "body" }) {
        let after = alert.firstIndex { $0.key == "title" }.map { $0 + 1 } ?? 0
        alert.insert(JSONMember(key: "body", value: .string(body)), at: after)
      }
      aps[index].value = .object(alert)
    case .some:
      break  // aps.alert as a string replaces the notification altogether.
    case .none:
      var alert: [JSONMember] = []
      if let title { alert.append(JSONMember(key: "title", value: .string(title))) }
      if let body { alert.append(JSONMember(key: "body", value: .string(body))) }
      aps.insert(JSONMember(key: "alert", value: .object(alert)), at: 0)
    }
    return aps
  }

  /// The APNs payload: `aps`, the other `apns.payload` keys (a `data` key of the same name
  /// wins), the `data` keys, then FCM's own keys and `fcm_options` for an image.
  static func payload(
    aps: [JSONMember], apnsPayload: [JSONMember], data: [JSONMember], image: String?, token: String, added: Added
  ) -> [JSONMember] {
    var payload: [JSONMember] = [JSONMember(key: "aps", value: .object(aps))]
    for member in apnsPayload where member.key != "aps" && !data.contains(where: { $0.key == member.key }) {
      payload.append(member)
    }
    payload += data
    payload.removeAll { isReserved(dataKey: $0.key) || $0.key == "fcm_options" }
    payload.append(JSONMember(key: "gcm.message_id", value: .string(added.messageID)))
    payload.append(JSONMember(key: "google.c.a.e", value: .string("1")))
    payload.append(JSONMember(key: "google.c.sender.id", value: .string(added.senderID)))
    payload.append(
      JSONMember(key: "google.c.fid", value: .string(added.installationID ?? installationID(forToken: token))))
    if let image {
      payload.append(JSONMember(key: "fcm_options", value: .object([JSONMember(key: "image", value: .string(image))])))
    }
    return payload
  }

  /// The APNs headers: what `apns.headers` sets, then FCM's defaults for what it does not.
  static func headers(_ apnsHeaders: [(name: String, value: String)], aps: [JSONMember], now: Int?) -> [(
    name: String, value: String
  )] {
    let hasAlert = aps.contains { $0.key == "alert" }
    let contentAvailable = aps.first { $0.key == "content-available" }?.value.doubleValue == 1
    let background = !hasAlert && contentAvailable && !aps.contains { ["badge", "sound"].contains($0.key) }
    var headers = apnsHeaders
    func setDefault(_ name: String, _ value: String) {
      if !headers.contains(where: { $0.name == name }) { headers.append((name, value)) }
    }
    setDefault("apns-push-type", background ? "background" : "alert")
    let pushType = headers.first { $0.name == "apns-push-type" }?.value
    setDefault("apns-priority", pushType == "background" ? "5" : "10")
    if let now { setDefault("apns-expiration", String(now + defaultTimeToLive)) }
    return headers
  }

  /// The installation id (`google.c.fid`) Pushdeck reports for a token: its first 22
  /// characters (at FCM it is the registration token's first part; Pushdeck's tokens are device tokens).
  public static func installationID(forToken token: String) -> String { String(token.lowercased().prefix(22)) }

  /// Whether a document is an FCM v1 message file rather than an APNs payload: an object with a
  /// `message` key and no `aps`.
  public static func isMessageFile(_ document: JSONDocument) -> Bool {
    document.kind(document.root) == .object && document.member("message", of: document.root) != nil
      && document.member("aps", of: document.root) == nil
  }

  /// The values of FCM's keys shown for a message file (no project, no send): fixed, so
  /// `validate` and `explain` print the same every time.
  public static let fileKeys = Added(messageID: "0:1000000000000000", senderID: "000000000000")

  /// Whether FCM reserves a data key: "from", "message_type", and keys starting with "google" or
  /// "gcm" (Firebase's `Message.data` reference).
  public static func isReserved(dataKey key: String) -> Bool {
    key == "from" || key == "message_type" || key.hasPrefix("google") || key.hasPrefix("gcm")
  }
}

/// Reads an FCM v1 send request's fields, in the order FCM checks them; the first problem is
/// thrown as FCM answers it, located in the body.
struct SendRequestReader {
  let document: JSONDocument

  /// The request's target and options.
  struct Target {
    var validateOnly: Bool
    /// The index of `message`.
    var message: Int
    var token: String
  }

  /// `message.notification`.
  struct Notification {
    var title: String?
    var body: String?
    var image: String?
  }

  /// `message.apns`.
  struct APNs {
    var headers: [(name: String, value: String)] = []
    var payload: [JSONMember] = []
    /// `apns.fcm_options.image`.
    var optionsImage: String?
  }

  /// 400 INVALID_ARGUMENT at a value.
  func invalid(_ index: Int, _ text: String) -> FCMError {
    var failure = FCMError.invalid("\(text) (at \(document.location(of: index)))")
    failure.location = document.location(of: index)
    return failure
  }

  /// Fails at the first key of an object that is not in `allowed`.
  func checkKeys(_ index: Int, in path: String, allowed: Set<String>) throws(FCMError) {
    for (key, _) in document.members(of: index) where !allowed.contains(document.string(key)) {
      throw invalid(
        key,
        "Invalid JSON payload received. Unknown name \(JSONValue.quoted(document.string(key))) at '\(path)': "
          + "Cannot find field.")
    }
  }

  /// The body's shape, `validate_only`, `message` and its one target, which must be a token.
  func target() throws(FCMError) -> Target {
    let root = document.root
    guard document.kind(root) == .object else { throw invalid(root, "the request body must be a JSON object") }
    try checkKeys(root, in: "", allowed: ["message", "validate_only"])
    var validateOnly = false
    if let index = document.member("validate_only", of: root) {
      guard let flag = document.bool(index) else { throw invalid(index, "validate_only must be true or false") }
      validateOnly = flag
    }
    guard let message = document.member("message", of: root) else {
      throw .invalid("Request contains an invalid argument: message is missing; send {\"message\": {…}}")
    }
    guard document.kind(message) == .object else { throw invalid(message, "message must be an object") }
    try checkKeys(message, in: "message", allowed: FCMMessage.messageFields)
    let targets = ["token", "topic", "condition"].filter { document.member($0, of: message) != nil }
    guard targets.count == 1 else {
      throw invalid(
        message,
        targets.isEmpty
          ? "message needs exactly one target: token, topic or condition; none is set"
          : "message needs exactly one target: token, topic or condition; \(targets.joined(separator: " and ")) are set"
      )
    }
    guard let tokenIndex = document.member("token", of: message) else {
      throw invalid(
        message, "message.\(targets[0]) is valid FCM but Pushdeck delivers to tokens only; send message.token")
    }
    guard let token = document.stringValue(tokenIndex), DeviceToken.check(token) == nil else {
      throw invalid(
        tokenIndex,
        "The registration token is not a valid FCM registration token: message.token must be the device token "
          + "(hex) of a device in the profile")
    }
    return Target(validateOnly: validateOnly, message: message, token: token)
  }

  /// `message.notification`: strings for its title, body and image.
  func notification(of message: Int) throws(FCMError) -> Notification {
    var notification = Notification()
    guard let index = document.member("notification", of: message) else { return notification }
    guard document.kind(index) == .object else { throw invalid(index, "message.notification must be an object") }
    try checkKeys(index, in: "message.notification", allowed: FCMMessage.notificationFields)
    for (key, value) in document.members(of: index) {
      guard let text = document.stringValue(value) else {
        throw invalid(value, "message.notification.\(document.string(key)) must be a string")
      }
      switch document.string(key) {
      case "title": notification.title = text
      case "body": notification.body = text
      default: notification.image = text
      }
    }
    return notification
  }

  /// `message.data`: string values under keys that are not reserved.
  func data(of message: Int) throws(FCMError) -> [JSONMember] {
    var data: [JSONMember] = []
    guard let index = document.member("data", of: message) else { return data }
    guard document.kind(index) == .object else { throw invalid(index, "message.data must be an object") }
    for (key, value) in document.members(of: index) {
      let name = document.string(key)
      guard let text = document.stringValue(value) else {
        throw invalid(
          value, "Invalid value at 'message.data[\(name)]': every data value must be a string; write it in quotes")
      }
      if FCMMessage.isReserved(dataKey: name) {
        throw invalid(
          key,
          "Invalid data key \(JSONValue.quoted(name)): \"from\", \"message_type\" and keys starting with "
            + "\"google\" or \"gcm\" are reserved")
      }
      data.append(JSONMember(key: name, value: .string(text)))
    }
    return data
  }

  /// `message.apns`: its headers (strings, each once), its payload (an object whose `aps` is
  /// an object) and its `fcm_options`.
  func apns(of message: Int) throws(FCMError) -> APNs {
    var apns = APNs()
    guard let index = document.member("apns", of: message) else { return apns }
    guard document.kind(index) == .object else { throw invalid(index, "message.apns must be an object") }
    try checkKeys(index, in: "message.apns", allowed: FCMMessage.apnsFields)
    if let headers = document.member("headers", of: index) {
      guard document.kind(headers) == .object else {
        throw invalid(headers, "message.apns.headers must be an object")
      }
      var seen = Set<String>()
      for (key, value) in document.members(of: headers) {
        let name = document.string(key).lowercased()
        guard let text = document.stringValue(value) else {
          throw invalid(value, "message.apns.headers.\(name) must be a string")
        }
        guard seen.insert(name).inserted else { throw invalid(key, "message.apns.headers.\(name) is repeated") }
        apns.headers.append((name, text))
      }
    }
    if let payload = document.member("payload", of: index) {
      guard case .object(let members) = document.value(payload) else {
        throw invalid(payload, "message.apns.payload must be an object")
      }
      if let aps = members.first(where: { $0.key == "aps" }), case .object = aps.value {
      } else if members.contains(where: { $0.key == "aps" }) {
        throw invalid(payload, "message.apns.payload.aps must be an object")
      }
      apns.payload = members
    }
    if let options = document.member("fcm_options", of: index) {
      guard document.kind(options) == .object else {
        throw invalid(options, "message.apns.fcm_options must be an object")
      }
      try checkKeys(options, in: "message.apns.fcm_options", allowed: FCMMessage.apnsOptionsFields)
      for (key, value) in document.members(of: options) {
        guard let text = document.stringValue(value) else {
          throw invalid(value, "message.apns.fcm_options.\(document.string(key)) must be a string")
        }
        if document.string(key) == "image" { apns.optionsImage = text }
      }
    }
    return apns
  }
}

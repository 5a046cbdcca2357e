/// A small decoded image: 8-bit RGB pixels, row by row, top to bottom.
public struct ImageThumbnail: Equatable, Hashable, Sendable {
  public var width: Int
  public var height: Int
  /// `width * height * 3` bytes.
  public var rgb: [UInt8]

  /// Creates a thumbnail; `rgb` must hold `width * height * 3` bytes.
  public init(width: Int, height: Int, rgb: [UInt8]) {
    precondition(width >= 0 && height >= 0 && rgb.count == width * height * 3, "thumbnail size and pixels disagree")
    self.width = width
    self.height = height
    self.rgb = rgb
  }

  /// The pixel at a column and row, clamped to the image.
  public func pixel(_ x: Int, _ y: Int) -> (red: UInt8, green: UInt8, blue: UInt8) {
    let column = min(max(x, 0), width - 1)
    let row = min(max(y, 0), height - 1)
    let offset = (row * width + column) * 3
    return (rgb[offset], rgb[offset + 1], rgb[offset + 2])
  }
}

/// A file a notification carries (`UNNotificationAttachment`): added by a service extension and
/// accepted by the device's checks of type and size.
public struct NotificationAttachment: Equatable, Hashable, Sendable {
  /// The three families `UNNotificationAttachment` takes, each with its own size limit.
  public enum Kind: String, Sendable, CaseIterable {
    case image, audio, movie

    /// The largest file the device accepts (binary megabytes): audio 5 MB, image 10 MB, movie 50 MB.
    public var maxBytes: Int {
      switch self {
      case .audio: 5 * 1024 * 1024
      case .image: 10 * 1024 * 1024
      case .movie: 50 * 1024 * 1024
      }
    }
  }

  /// The attachment's identifier (unique within the notification).
  public var identifier: String
  /// Where the device keeps the file: a local path.
  public var path: String
  public var kind: Kind
  /// The type found from the file's first bytes: `png`, `jpeg`, `gif`, `aiff`, `wav`, `mp3`,
  /// `m4a`, `mpeg`, `mp4` or `avi`.
  public var type: String
  /// The file's size in bytes.
  public var byteCount: Int
  /// For an image the shell could decode: a small copy to draw (see ``ImageThumbnail``).
  public var thumbnail: ImageThumbnail?
  /// Why the image could not be decoded, when it could not.
  public var thumbnailProblem: String?

  /// Creates an attachment.
  public init(
    identifier: String, path: String, kind: Kind, type: String, byteCount: Int, thumbnail: ImageThumbnail? = nil,
    thumbnailProblem: String? = nil
  ) {
    self.identifier = identifier
    self.path = path
    self.kind = kind
    self.type = type
    self.byteCount = byteCount
    self.thumbnail = thumbnail
    self.thumbnailProblem = thumbnailProblem
  }

  /// Its JSON form in content JSON: `{"identifier", "url", "type", "kind", "size"}`.
  public var json: JSONValue {
    .object([
      JSONMember(key: "identifier", value: .string(identifier)),
      JSONMember(key: "url", value: .string("file://" + path)),
      JSONMember(key: "type", value: .string(type)),
      JSONMember(key: "kind", value: .string(kind.rawValue)),
      JSONMember(key: "size", value: .number(JSONNumber(byteCount))),
    ])
  }
}

/// The part of `UNNotificationContent` a service extension may change: what goes in to the
/// extension and what comes back, and the shape of the content JSON the `exec` extension reads
/// and prints (docs/SCENARIOS.md, Service extensions).
public struct NotificationContent: Equatable, Sendable {
  public var title: String?
  public var subtitle: String?
  public var body: String?
  public var badge: Int?
  /// The sound's name; `default` for the system sound.
  public var sound: String?
  public var threadIdentifier: String?
  public var categoryIdentifier: String?
  public var interruptionLevel: InterruptionLevel?
  public var relevanceScore: Double?
  public var targetContentIdentifier: String?
  /// The payload as sent (an object), which the app reads as `userInfo`.
  public var userInfo: JSONValue
  /// Files to show with the notification. Entries a service extension adds are requests until
  /// the device checks them: `path` is then the URL the extension gave.
  public var attachments: [NotificationAttachment]

  /// Creates content; everything defaults to absent.
  public init(
    title: String? = nil, subtitle: String? = nil, body: String? = nil, badge: Int? = nil, sound: String? = nil,
    threadIdentifier: String? = nil, categoryIdentifier: String? = nil, interruptionLevel: InterruptionLevel? = nil,
    relevanceScore: Double? = nil, targetContentIdentifier: String? = nil, userInfo: JSONValue = .object([]),
    attachments: [NotificationAttachment] = []
  ) {
    self.title = title
    self.subtitle = subtitle
    self.body = body
    self.badge = badge
    self.sound = sound
    self.threadIdentifier = threadIdentifier
    self.categoryIdentifier = categoryIdentifier
    self.interruptionLevel = interruptionLevel
    self.relevanceScore = relevanceScore
    self.targetContentIdentifier = targetContentIdentifier
    self.userInfo = userInfo
    self.attachments = attachments
  }

  /// The content JSON: every field, `null` when absent.
  public var json: JSONValue {
    func text(_ value: String?) -> JSONValue { value.map { .string($0) } ?? .null }
    return .object([
      JSONMember(key: "title", value: text(title)),
      JSONMember(key: "subtitle", value: text(subtitle)),
      JSONMember(key: "body", value: text(body)),
      JSONMember(key: "badge", value: badge.map { .number(JSONNumber($0)) } ?? .null),
      JSONMember(key: "sound", value: text(sound)),
      JSONMember(key: "threadIdentifier", value: text(threadIdentifier)),
      JSONMember(key: "categoryIdentifier", value: text(categoryIdentifier)),
      JSONMember(key: "interruptionLevel", value: text(interruptionLevel?.rawValue)),
      JSONMember(
        key: "relevanceScore",
        value: relevanceScore.map { .number(JSONNumber(text: String($0), value: $0)) } ?? .null),
      JSONMember(key: "targetContentIdentifier", value: text(targetContentIdentifier)),
      JSONMember(key: "attachments", value: .array(attachments.map(\.json))),
      JSONMember(key: "userInfo", value: userInfo),
    ])
  }

  /// Why content JSON was not taken, with the key path at fault.
  public struct FormatError: Error, Equatable, Sendable, CustomStringConvertible {
    public var path: String
    public var message: String
    public var description: String { "\(path): \(message)" }
  }

  /// Reads content JSON an extension gave back, on top of `original`: a key that is present
  /// replaces the field (`null` clears it), a key that is absent keeps it. Unknown keys are errors.
  public init(json: JSONValue, over original: NotificationContent) throws(FormatError) {
    guard case .object(let members) = json else {
      throw FormatError(path: "content", message: "expected a JSON object with title, body, … keys")
    }
    self = original
    for member in members {
      let key = member.key
      let value = member.value
      func text() throws(FormatError) -> String? {
        switch value {
        case .null: return nil
        case .string(let string): return string
        default: throw FormatError(path: key, message: "expected a string or null, got \(value.compactText)")
        }
      }
      switch key {
      case "title": title = try text()
      case "subtitle": subtitle = try text()
      case "body": body = try text()
      case "sound": sound = try text()
      case "threadIdentifier": threadIdentifier = try text()
      case "categoryIdentifier": categoryIdentifier = try text()
      case "targetContentIdentifier": targetContentIdentifier = try text()
      case "badge":
        if case .null = value {
          badge = nil
        } else if let number = value.doubleValue, number == number.rounded(), number >= 0, number < 1e9 {
          badge = Int(number)
        } else {
          throw FormatError(path: key, message: "expected a whole number 0 or more, or null, got \(value.compactText)")
        }
      case "relevanceScore":
        if case .null = value {
          relevanceScore = nil
        } else if let number = value.doubleValue {
          relevanceScore = min(max(number, 0), 1)
        } else {
          throw FormatError(path: key, message: "expected a number from 0 to 1, or null, got \(value.compactText)")
        }
      case "interruptionLevel":
        let name = try text()
        guard let name else {
          interruptionLevel = nil
          continue
        }
        guard let level = InterruptionLevel(rawValue: name) else {
          throw FormatError(
            path: key,
            message:
              "expected one of \(InterruptionLevel.allCases.map(\.rawValue).joined(separator: ", ")), got \(JSONValue.quoted(name))"
          )
        }
        interruptionLevel = level
      case "userInfo":
        guard case .object = value else {
          throw FormatError(path: key, message: "expected an object (the payload), got \(value.compactText)")
        }
        userInfo = value
      case "attachments":
        guard case .array(let items) = value else {
          throw FormatError(path: key, message: "expected a list of {identifier, url} objects")
        }
        var requested: [NotificationAttachment] = []
        for (index, item) in items.enumerated() {
          guard let url = item["url"]?.stringValue, !url.isEmpty else {
            throw FormatError(path: "attachments[\(index)].url", message: "expected the file's URL as a string")
          }
          let identifier = item["identifier"]?.stringValue ?? "attachment-\(index + 1)"
          requested.append(
            NotificationAttachment(
              identifier: identifier, path: url, kind: .image, type: item["type"]?.stringValue ?? "", byteCount: 0))
        }
        attachments = requested
      default:
        throw FormatError(
          path: key,
          message:
            "unknown key; content JSON has title, subtitle, body, badge, sound, threadIdentifier, categoryIdentifier, interruptionLevel, relevanceScore, targetContentIdentifier, attachments, userInfo"
        )
      }
    }
  }
}

/// What a service extension did with one push: run by the shell before the device takes the
/// push, read by the device when it delivers it.
public struct ServiceExtensionResult: Equatable, Sendable {
  /// How the run ended.
  public enum Outcome: Equatable, Sendable {
    /// The extension handed back content within its budget.
    case modified
    /// The budget ran out; `serviceExtensionTimeWillExpire` delivered the best attempt when
    /// there was one, else the original content is shown.
    case expired(bestAttempt: Bool)
    /// The extension crashed, failed or handed back nothing usable: the original content is shown.
    case failed(String)
  }

  /// The extension's name as the profile gives it: `decrypt`, `attach-media`, `exec ./x`…
  public var name: String
  public var outcome: Outcome
  /// The content to show; nil shows the original.
  public var content: NotificationContent?
  /// How long it ran, in simulated seconds.
  public var elapsedSeconds: Double
  /// Its budget, in simulated seconds.
  public var budgetSeconds: Double
  /// What else happened, for `explain`: a decryption failure behind a placeholder…
  public var notes: [String]
  /// Why each attachment the extension asked for was refused (type, size, unreadable file).
  public var refusedAttachments: [String]

  /// Creates a result.
  public init(
    name: String, outcome: Outcome, content: NotificationContent?, elapsedSeconds: Double, budgetSeconds: Double,
    notes: [String] = [], refusedAttachments: [String] = []
  ) {
    self.name = name
    self.outcome = outcome
    self.content = content
    self.elapsedSeconds = elapsedSeconds
    self.budgetSeconds = budgetSeconds
    self.notes = notes
    self.refusedAttachments = refusedAttachments
  }
}

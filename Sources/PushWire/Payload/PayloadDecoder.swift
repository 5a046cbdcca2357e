/// Builds an ``APNsPayload`` from a scanned document and reports every problem on the way.
///
/// One pass over the tape both types the payload and checks it against the rules in
/// `shared/reference/apple-notifications.md` §1: errors for what APNs or the device rejects,
/// warnings for the mistakes people really make (each saying what iOS will do), and notes.
public final class PayloadDecoder {
  /// What the decoder knows about the push beyond the payload itself.
  public struct Context: Sendable {
    /// The push type from the headers, if there were headers.
    public var pushType: PushType?
    /// Whether the payload came from an Xcode Simulator `.apns` file.
    public var isSimulatorFile: Bool
    /// The key path prefix, for example `payload` inside a capture envelope.
    public var pathPrefix: String?
    /// Whether custom keys are materialised into ``APNsPayload/customKeys``. Validation alone
    /// turns this off: custom values are app data, checked for syntax but not needed as trees.
    public var keepsCustomValues: Bool
    /// The priority the headers give, if they give one.
    public var priority: PushPriority?

    /// Creates a context.
    public init(
      pushType: PushType? = nil, isSimulatorFile: Bool = false, pathPrefix: String? = nil,
      keepsCustomValues: Bool = true, priority: PushPriority? = nil
    ) {
      self.priority = priority
      self.pushType = pushType
      self.isSimulatorFile = isSimulatorFile
      self.pathPrefix = pathPrefix
      self.keepsCustomValues = keepsCustomValues
    }
  }

  /// The outcome: the payload when the structure allowed one, and every diagnostic.
  public struct Result: Sendable {
    /// The typed payload; nil when the top level is not an object or has no usable `aps`.
    public var payload: APNsPayload?
    /// Everything found, in source order within each pass.
    public var diagnostics: [Diagnostic]
  }

  let document: JSONView
  let context: Context
  /// `KnownKey.table`, fetched once per payload (see ``JSONView/knownKey(_:in:)``).
  let keyTable = KnownKey.table
  /// What has been reported so far.
  private(set) var diagnostics: [Diagnostic] = []

  /// The known key a string token spells.
  @inline(__always)
  func knownKey(_ index: Int) -> KnownKey? { document.knownKey(index, in: keyTable) }

  private init(document: JSONView, context: Context) {
    self.document = document
    self.context = context
  }

  /// Decodes the payload object at `index` of `document`.
  ///
  /// - Parameters:
  ///   - document: the scanned JSON.
  ///   - index: the payload's tape index (0 for a payload file).
  ///   - context: push type and source kind.
  public static func decode(_ document: JSONDocument, at index: Int = 0, context: Context = Context())
    -> Result
  {
    document.withView { decode($0, at: index, context: context) }
  }

  /// Decodes the payload object at `index` of a borrowed view.
  public static func decode(_ view: JSONView, at index: Int = 0, context: Context = Context()) -> Result {
    let decoder = PayloadDecoder(document: view, context: context)
    let payload = decoder.decodePayload(at: index)
    return Result(payload: payload, diagnostics: decoder.diagnostics)
  }

  /// Decodes the payload object at `index` straight into a record's fields (the capture hot
  /// path), appending to `diagnostics`.
  ///
  /// Going through ``Result`` would copy the whole payload (a retain for every string in it)
  /// and then destroy the original; writing in place moves it instead.
  public static func decode(
    _ view: JSONView, at index: Int, context: Context, into payload: inout APNsPayload?,
    diagnostics: inout [Diagnostic]
  ) {
    let decoder = PayloadDecoder(document: view, context: context)
    // The decoder appends to the caller's array; nothing it checks reads diagnostics it did
    // not make itself except for Simulator files, which never come through a capture.
    swap(&decoder.diagnostics, &diagnostics)
    decoder.decodePayload(at: index, into: &payload)
    swap(&decoder.diagnostics, &diagnostics)
  }

  // MARK: - Reporting

  func path(_ components: String...) -> String {
    let joined = components.joined(separator: ".")
    guard let prefix = context.pathPrefix, !prefix.isEmpty else { return joined }
    return joined.isEmpty ? prefix : prefix + "." + joined
  }

  func report(
    _ code: DiagnosticCode, at index: Int?, path: @autoclosure () -> String?,
    _ message: @autoclosure () -> String, effect: String, hint: String? = nil
  ) {
    diagnostics.append(
      Diagnostic(
        code, path: path(), location: index.map(document.location(of:)), message: message(),
        effect: effect, hint: hint))
  }

  /// The tape indices of keys that repeat an earlier key of the same object (usually none).
  /// Objects are small, so this compares raw key bytes pairwise without allocating.
  func repeatedKeys(of object: Int) -> [Int] {
    let count = Int(document.tokens[object].count)
    guard count > 1 else { return [] }
    var repeated: [Int] = []
    var outer = object + 1
    for position in 0..<count {
      var inner = object + 1
      for _ in 0..<position {
        if sameKey(inner, outer) {
          repeated.append(outer)
          break
        }
        inner = Int(document.tokens[inner + 1].next)
      }
      outer = Int(document.tokens[outer + 1].next)
    }
    return repeated
  }

  func sameKey(_ lhs: Int, _ rhs: Int) -> Bool {
    let a = document.tokens[lhs]
    let b = document.tokens[rhs]
    guard a.end - a.start == b.end - b.start, let base = document.bytes.baseAddress else { return false }
    return memoryEquals(base + Int(a.start), base + Int(b.start), Int(a.end - a.start))
  }

  func wrongType(_ index: Int, path: @autoclosure () -> String, expected: String, effect: String) {
    let path = path()
    report(
      .invalidValue, at: index, path: path,
      "\(path) must be \(expected), not \(describe(index))", effect: effect)
  }

  func describe(_ index: Int) -> String {
    switch document.kind(index) {
    case .object: return "an object"
    case .array: return "an array"
    case .string: return "the string \(JSONValue.quoted(String(document.string(index).prefix(40))))"
    case .number: return "the number \(document.rawText(index))"
    case .true: return "true"
    case .false: return "false"
    case .null: return "null"
    }
  }

  // MARK: - Top level

  func decodePayload(at index: Int) -> APNsPayload? {
    var payload: APNsPayload?
    decodePayload(at: index, into: &payload)
    return payload
  }

  /// Decodes the payload at `index` into `result`, which ends nil when there is no usable
  /// payload. The payload is built in place (`result!.…`): returning a local of this size
  /// made the compiler copy it, with a retain and a release for every string in it.
  func decodePayload(at index: Int, into result: inout APNsPayload?) {
    result = nil
    guard document.kind(index) == .object else {
      report(
        .notAnObject, at: index, path: context.pathPrefix,
        "the payload must be a JSON object, not \(describe(index))",
        effect: "APNs rejects it (400); nothing reaches the device.",
        hint: "wrap it as {\"aps\": {\"alert\": \"…\"}}")
      return
    }
    result = APNsPayload()
    var apsIndex: Int?
    let repeated = repeatedKeys(of: index)
    for (keyIndex, valueIndex) in document.members(of: index) {
      if !repeated.isEmpty && repeated.contains(keyIndex) {
        reportDuplicate(keyIndex, parent: nil)
        continue
      }
      switch knownKey(keyIndex) {
      case .aps:
        apsIndex = valueIndex
      case .simulatorTargetBundle:
        if document.kind(valueIndex) == .string {
          let bundle = document.string(valueIndex)
          result!.simulatorTargetBundle = bundle
          let reported = diagnostics.count
          checkPlaceholder(valueIndex, path: path("Simulator Target Bundle"), what: "bundle id")
          if diagnostics.count == reported { checkBundleID(bundle, at: valueIndex) }
        } else {
          wrongType(
            valueIndex, path: path("Simulator Target Bundle"), expected: "a bundle id string",
            effect: "The Simulator does not know which app to deliver to.")
        }
      case let known:
        // The key's text is made only when it is kept or reported.
        func key() -> String { known?.rawValue ?? document.string(keyIndex) }
        checkTopLevelKey(key(), known: known, keyIndex: keyIndex, valueIndex: valueIndex)
        if context.keepsCustomValues {
          result!.customKeys.append(JSONMember(key: key(), value: document.value(valueIndex)))
        }
      }
    }
    guard let apsIndex else {
      // A scenario written as JSON, given as a payload file (only .yaml and .yml names are read
      // as scenarios by the commands that also take payloads).
      let isScenario = context.pathPrefix == nil && document.member("timeline", of: index) != nil
      report(
        .missingAps, at: index, path: context.pathPrefix,
        "the payload has no \"aps\" dictionary",
        effect: "APNs and the Simulator reject it; nothing reaches the device.",
        hint: isScenario
          ? "it has a \"timeline\": a scenario is read as one from a .yaml or .yml file (JSON is YAML too): rename it"
          : "put alert, badge and sound inside \"aps\": {\"aps\": {\"alert\": \"Hello\"}}")
      result = nil
      return
    }
    guard document.kind(apsIndex) == .object else {
      // No usable aps dictionary: the same verdict as none at all (APNs rejects it).
      report(
        .missingAps, at: apsIndex, path: path("aps"), "\(path("aps")) must be a dictionary, not \(describe(apsIndex))",
        effect: "APNs and the Simulator reject it; nothing reaches the device.",
        hint: "write \"aps\": {\"alert\": \"Hello\"}")
      result = nil
      return
    }
    decodeAPS(at: apsIndex, into: &result!.aps)
    checkWholePayload(result!.aps, apsIndex: apsIndex)
    if context.isSimulatorFile && result!.simulatorTargetBundle == nil
      && !diagnostics.contains(where: { $0.code == .misspelledSimulatorTargetBundle })
    {
      report(
        .missingSimulatorTargetBundle, at: nil, path: nil,
        "the file has no \"Simulator Target Bundle\" key",
        effect: "Dragging it onto the Simulator does nothing; `xcrun simctl push` needs the bundle id as an argument.",
        hint: "add \"Simulator Target Bundle\": \"<your bundle id>\" at the top level")
    }
  }

  func reportDuplicate(_ keyIndex: Int, parent: String?) {
    let key = document.string(keyIndex)
    report(
      .duplicateKey, at: keyIndex, path: parent.map { path($0, key) } ?? path(key),
      "the key \(JSONValue.quoted(key)) appears twice\(parent.map { " in " + $0 } ?? "")",
      effect: "Which value iOS uses is undefined; Pushdeck uses the first.", hint: "remove one of them")
  }

  func checkTopLevelKey(_ key: @autoclosure () -> String, known: KnownKey?, keyIndex: Int, valueIndex: Int) {
    if known == nil {
      if checkUnknownTopLevelKey(key, keyIndex: keyIndex) { return }
    } else if known?.isHeader == true {
      reportHeaderInBody(key(), keyIndex: keyIndex, path: path(key()))
      return
    } else if known?.isVisibleApsKey == true {
      report(
        .apsKeyOutsideAps, at: keyIndex, path: path(key()),
        "\(JSONValue.quoted(key())) is beside \"aps\" instead of inside it",
        effect: "iOS reads it only inside aps; here it is custom data and has no effect on the notification.",
        hint: "move it into the \"aps\" dictionary")
      return
    }
    if let first = document.firstContentByte(valueIndex), first == UInt8(ascii: "{") || first == UInt8(ascii: "["),
      (try? JSONDocument(text: document.string(valueIndex))) != nil
    {
      report(
        .customValueIsEncodedJSON, at: valueIndex, path: path(key()),
        "the custom value \(JSONValue.quoted(key())) is a JSON document encoded as a string",
        effect: "userInfo[\"\(key())\"] is a String; the app must parse it again.",
        hint: "send the object itself if the app expects a dictionary")
    }
  }

  func reportHeaderInBody(_ key: String, keyIndex: Int, path: @autoclosure () -> String) {
    report(
      .headerInBody, at: keyIndex, path: path(),
      "\(JSONValue.quoted(key)) is an HTTP/2 request header, not a payload key",
      effect: "In the body it is only custom data: it does not change the push type, priority or collapse id.",
      hint: "send it as a request header (in a capture, under \"headers\")")
  }

  /// Checks a top-level key Pushdeck does not know: misplaced headers, a misspelled Simulator
  /// key, Firebase metadata. Returns whether it reported something.
  func checkUnknownTopLevelKey(_ makeKey: () -> String, keyIndex: Int) -> Bool {
    let length = Int(document.tokens[keyIndex].end - document.tokens[keyIndex].start) - 2
    let apnsHeader = document.contentHasASCIIPrefix(keyIndex, "apns-")
    let firebase =
      document.contentHasASCIIPrefix(keyIndex, "gcm.") || document.contentHasASCIIPrefix(keyIndex, "google.")
    guard apnsHeader || firebase || length >= 15 else { return false }
    let key = makeKey()
    if apnsHeader {
      reportHeaderInBody(key, keyIndex: keyIndex, path: path(key))
    } else if key.utf8.count >= 15, isSimulatorTargetBundleTypo(key) {
      report(
        .misspelledSimulatorTargetBundle, at: keyIndex, path: path(key),
        "\(JSONValue.quoted(key)) looks like a misspelling of \"Simulator Target Bundle\"",
        effect: "The Simulator ignores it, so dragging the file onto a Simulator does not know the target app.",
        hint: "rename the key to exactly \"Simulator Target Bundle\"")
    } else if key.hasASCIIPrefixIgnoringCase("gcm.") || key.hasASCIIPrefixIgnoringCase("google.") {
      report(
        .firebaseKey, at: keyIndex, path: path(key),
        "\(JSONValue.quoted(key)) is Firebase Cloud Messaging metadata",
        effect: "iOS passes it to the app in userInfo as custom data; it changes nothing on screen.")
    } else {
      return false
    }
    return true
  }

  /// Whether a top-level key is a near-miss of `Simulator Target Bundle` (letters compared
  /// case-insensitively, within three edits).
  func isSimulatorTargetBundleTypo(_ key: String) -> Bool {
    guard key != "Simulator Target Bundle" else { return false }
    let letters = Array(key.lowercased().filter { $0.isLetter })
    return editDistance(letters, Array("simulatortargetbundle"), limit: 3) <= 3
  }

  /// Warns when the string at `index` looks like an unfilled template placeholder.
  /// Checks `Simulator Target Bundle` as a bundle id, as a capture line's `bundle` is checked: one
  /// the Simulator cannot deliver to is an error at the value.
  func checkBundleID(_ bundle: String, at index: Int) {
    guard let problem = BundleID.problem(bundle, named: "\"Simulator Target Bundle\"") else { return }
    report(
      .badSimulatorTargetBundle, at: index, path: path("Simulator Target Bundle"), problem,
      effect: "No app has that id: the Simulator delivers the push to nothing, and Pushdeck drops it.",
      hint: "write the app's bundle id, which holds only \(BundleID.allowedCharacters), for example \"com.example.app\""
    )
  }

  func checkPlaceholder(_ index: Int, path: @autoclosure () -> String, what: String) {
    guard let first = document.firstContentByte(index), let last = document.lastContentByte(index) else { return }
    // Cheap byte test first; only candidates are decoded.
    let bracketed =
      (first == UInt8(ascii: "{") && last == UInt8(ascii: "}"))
      || (first == UInt8(ascii: "<") && last == UInt8(ascii: ">"))
      || (first == UInt8(ascii: "[") && last == UInt8(ascii: "]"))
    guard
      bracketed || first == UInt8(ascii: "$") || (first == UInt8(ascii: "%") && last == first)
        || (first | 0x20 == UInt8(ascii: "y") && document.contentHasASCIIPrefix(index, "YOUR"))
        || (first | 0x20 == UInt8(ascii: "x") && document.contentHasASCIIPrefix(index, "XXXX"))
        || (first | 0x20 == UInt8(ascii: "p") && document.contentHasASCIIPrefix(index, "PLACEHOLDER"))
    else { return }
    let value = document.string(index)
    guard Self.isPlaceholder(value) else { return }
    report(
      .placeholderValue, at: index, path: path(),
      // At most 80 characters of it: a 4,100-character alert of X's was quoted whole.
      "\(JSONValue.quoted(value.count > 80 ? value.prefix(80) + "…" : value)) looks like a template placeholder, not a real \(what)",
      effect: what == "bundle id"
        ? "No installed app matches it, so the push is not delivered."
        : "The user sees the placeholder text as it is.",
      hint: "replace it with the real value")
  }

  /// Whether a value looks like an unfilled template placeholder (`{app_bundle_id}`, `[BUNDLE_ID]`,
  /// `<bundle id>`, `YOUR_BUNDLE_ID`, `$BUNDLE_ID`, `%BUNDLE%`, `PLACEHOLDER`, `XXXX`).
  public static func isPlaceholder(_ value: String) -> Bool {
    let trimmed = value.trimmingCharacters(in: " ")
    guard let first = trimmed.first, let last = trimmed.last, trimmed.count > 2 else { return false }
    if (first == "{" && last == "}") || (first == "<" && last == ">") || (first == "[" && last == "]") {
      // `{"a": 1}` is JSON, not a placeholder.
      return !trimmed.contains(":") && !trimmed.contains(",")
    }
    if first == "$" && trimmed.dropFirst().allSatisfy({ $0.isLetter || $0 == "_" || $0 == "{" || $0 == "}" }) {
      return true
    }
    if first == "%" && last == "%" { return true }
    let upper = trimmed.uppercased()
    return upper.hasPrefix("YOUR_") || upper.hasPrefix("YOUR-") || upper.hasPrefix("YOUR.")
      || upper == "PLACEHOLDER" || upper.hasPrefix("XXXX")
  }

  // MARK: - aps

  /// Decodes `aps` into `aps`, which starts empty (see ``decodePayload(at:into:)`` for why in place).
  func decodeAPS(at apsIndex: Int, into aps: inout APS) {
    var liveActivity = LiveActivityContent()
    var hasLiveActivityKey = false
    let repeated = repeatedKeys(of: apsIndex)
    for (keyIndex, valueIndex) in document.members(of: apsIndex) {
      if !repeated.isEmpty && repeated.contains(keyIndex) {
        reportDuplicate(keyIndex, parent: "aps")
        continue
      }
      guard let key = knownKey(keyIndex) else {
        checkUnknownAPSKey(document.string(keyIndex), keyIndex: keyIndex)
        continue
      }
      func keyPath() -> String { PayloadDecoder.join(context.pathPrefix, "aps", key.rawValue) }
      switch key {
      case .alert:
        aps.alert = decodeAlert(at: valueIndex, path: keyPath())
      case .badge:
        if let badge = document.integer(valueIndex), badge >= 0 {
          aps.badge = badge
        } else {
          wrongType(
            valueIndex, path: keyPath(), expected: "a whole number of 0 or more", effect: "The badge is not changed.")
        }
      case .sound:
        aps.sound = decodeSound(at: valueIndex, path: keyPath())
      case .threadID:
        aps.threadID = string(
          valueIndex, path: keyPath(), effect: "The notification is grouped with the app's other notifications.")
        if aps.threadID != nil { checkPlaceholder(valueIndex, path: keyPath(), what: "thread id") }
      case .category:
        aps.category = string(valueIndex, path: keyPath(), effect: "No action buttons are shown.")
      case .contentAvailable:
        aps.contentAvailable = flag(
          valueIndex, key: key, path: keyPath(), code: .contentAvailableNotInteger,
          effect: "iOS does not treat it as a background push, so the app is not woken.")
      case .mutableContent:
        aps.mutableContent = flag(
          valueIndex, key: key, path: keyPath(), code: .mutableContentNotInteger,
          effect: "iOS ignores it, so the service extension will not run and the content is shown unmodified.")
      case .targetContentID:
        aps.targetContentID = string(valueIndex, path: keyPath(), effect: "The app opens its default scene.")
      case .interruptionLevel:
        guard let text = string(valueIndex, path: keyPath(), effect: "It is delivered at the default level, active.")
        else { break }
        aps.interruptionLevelText = text
        if let level = InterruptionLevel(rawValue: text) {
          aps.interruptionLevel = level
        } else {
          let suggestion =
            text == "time-senstive" || text.lowercased().replacingUnderscores() == "time-sensitive"
              || text == "timeSensitive" ? "time-sensitive" : nil
          report(
            .unknownInterruptionLevel, at: valueIndex, path: keyPath(),
            "unknown interruption-level \(JSONValue.quoted(text))",
            effect:
              "iOS delivers it at the default level, active: it will not break through Focus or Scheduled Summary.",
            hint: suggestion.map { "write \"\($0)\"" } ?? "use passive, active, time-sensitive or critical")
        }
      case .relevanceScore:
        if let score = document.double(valueIndex) {
          aps.relevanceScore = score
        } else {
          wrongType(valueIndex, path: keyPath(), expected: "a number from 0 to 1", effect: "It is ignored for ranking.")
        }
      case .filterCriteria:
        aps.filterCriteria = string(valueIndex, path: keyPath(), effect: "Focus filters cannot match it.")
      case .timestamp, .event, .contentState, .staleDate, .dismissalDate, .attributesType, .attributes,
        .inputPushToken, .inputPushChannel:
        hasLiveActivityKey = true
        decodeLiveActivityKey(key, at: valueIndex, path: keyPath(), into: &liveActivity)
      case .apnsPushType, .apnsPriority, .apnsExpiration, .apnsTopic, .apnsCollapseID, .apnsID:
        reportHeaderInBody(key.rawValue, keyIndex: keyIndex, path: keyPath())
      default:
        checkUnknownAPSKey(key.rawValue, keyIndex: keyIndex)
      }
    }
    if hasLiveActivityKey { aps.liveActivity = liveActivity }
  }

  /// Joins a key path, skipping an absent prefix.
  static func join(_ prefix: String?, _ components: String...) -> String {
    let joined = components.joined(separator: ".")
    guard let prefix, !prefix.isEmpty else { return joined }
    return prefix + "." + joined
  }

  func checkUnknownAPSKey(_ key: String, keyIndex: Int) {
    let keyPath = path("aps", key)
    let lowered = key.lowercased()
    let canonical = lowered.replacingUnderscores()
    let known = KnownKey.apsKeys.map(\.rawValue)
    let camel = known.first { $0.replacingOccurrences(of: "-", with: "") == lowered }
    if lowered.hasPrefix("apns-") {
      reportHeaderInBody(key, keyIndex: keyIndex, path: keyPath)
    } else if let match = known.first(where: { $0 == canonical }) ?? camel {
      report(
        .misspelledApsKey, at: keyIndex, path: keyPath,
        "\(JSONValue.quoted(key)) is not an aps key; did you mean \(JSONValue.quoted(match))?",
        effect: "iOS ignores it"
          + (match == "content-available"
            ? ", so the app is not woken in the background."
            : match == "mutable-content" ? ", so the service extension does not run." : "."),
        hint: "rename it to \(JSONValue.quoted(match))")
    } else {
      report(
        .customKeyInAps, at: keyIndex, path: keyPath,
        "\(JSONValue.quoted(key)) is not an aps key",
        effect: "APNs ignores unknown keys inside aps; the app may not find its data where it expects it.",
        hint: "move custom data beside \"aps\", at the top level of the payload")
    }
  }

  func string(_ index: Int, path: @autoclosure () -> String, effect: String) -> String? {
    if document.kind(index) == .string { return document.string(index) }
    wrongType(index, path: path(), expected: "a string", effect: effect)
    return nil
  }

  /// Reads a flag that must be the number 1; true and "1" get the given warning.
  func flag(
    _ index: Int, key: KnownKey, path: @autoclosure () -> String, code: DiagnosticCode, effect: String
  ) -> Bool {
    switch document.kind(index) {
    case .number:
      let value = document.integer(index)
      if value == 1 { return true }
      if value == 0 {
        report(
          .noOpValue, at: index, path: path(), "\(path()) is 0, which is the same as leaving it out",
          effect: "No effect.")
        return false
      }
    case .true, .false, .string:
      break
    default:
      wrongType(index, path: path(), expected: "the number 1", effect: effect)
      return false
    }
    report(
      code, at: index, path: path(), "\(path()) is \(describe(index)); APNs expects the number 1",
      effect: effect, hint: "write \"\(key.rawValue)\": 1")
    return false
  }

  // MARK: - alert

  func decodeAlert(at index: Int, path alertPathBuilder: @autoclosure () -> String) -> Alert? {
    func alertPath() -> String { alertPathBuilder() }
    switch document.kind(index) {
    case .string:
      checkPlaceholder(index, path: alertPath(), what: "message")
      return .text(document.string(index))
    case .object:
      break
    default:
      wrongType(
        index, path: alertPath(), expected: "a string or a dictionary",
        effect: "Nothing is shown for this notification.")
      return nil
    }
    // Filled through inout by a separate function: returning a dictionary built in this
    // function's own local made the compiler copy it (a retain per string) and destroy the
    // original.
    var alert = AlertDictionary()
    decodeAlertDictionary(at: index, path: alertPath(), into: &alert)
    return .dictionary(alert)
  }

  /// Decodes the members of an alert dictionary into `alert`.
  func decodeAlertDictionary(
    at index: Int, path alertPathBuilder: @autoclosure () -> String, into alert: inout AlertDictionary
  ) {
    func alertPath() -> String { alertPathBuilder() }
    let isLiveActivity = context.pushType == .liveactivity
    let textEffect = "That line is not shown."
    for (keyIndex, valueIndex) in document.members(of: index) {
      let known = knownKey(keyIndex)
      func keyPath() -> String { alertPath() + "." + (known?.rawValue ?? document.string(keyIndex)) }
      switch known {
      case .title, .subtitle, .body:
        // Live Activity alerts allow {"loc-key": …, "loc-args": […]} in place of a string.
        if isLiveActivity, document.kind(valueIndex) == .object {
          let locKey = document.member("loc-key", of: valueIndex).flatMap(document.stringValue)
          if known == .title { alert.titleLocKey = locKey } else { alert.locKey = locKey }
          continue
        }
        let text = string(valueIndex, path: keyPath(), effect: textEffect)
        if text != nil { checkPlaceholder(valueIndex, path: keyPath(), what: "message") }
        switch known {
        case .title: alert.title = text
        case .subtitle: alert.subtitle = text
        default: alert.body = text
        }
      case .launchImage:
        alert.launchImage = string(valueIndex, path: keyPath(), effect: "The default launch screen is used.")
      case .titleLocKey: alert.titleLocKey = string(valueIndex, path: keyPath(), effect: textEffect)
      case .subtitleLocKey: alert.subtitleLocKey = string(valueIndex, path: keyPath(), effect: textEffect)
      case .locKey: alert.locKey = string(valueIndex, path: keyPath(), effect: textEffect)
      case .titleLocArgs: alert.titleLocArgs = stringArray(valueIndex, path: keyPath())
      case .subtitleLocArgs: alert.subtitleLocArgs = stringArray(valueIndex, path: keyPath())
      case .locArgs: alert.locArgs = stringArray(valueIndex, path: keyPath())
      case .actionLocKey:
        if document.kind(valueIndex) != .null {
          alert.actionLocKey = string(valueIndex, path: keyPath(), effect: "No effect.")
        }
        report(
          .legacyKeyIgnored, at: keyIndex, path: keyPath(),
          "action-loc-key belongs to the pre-iOS 10 alert style", effect: "Modern iOS ignores it.")
      case .summaryArg, .summaryArgCount:
        if known == .summaryArg {
          alert.summaryArg = document.stringValue(valueIndex)
        } else {
          alert.summaryArgCount = document.integer(valueIndex)
        }
        report(
          .legacyKeyIgnored, at: keyIndex, path: keyPath(), "\(known?.rawValue ?? "") is ignored since iOS 15",
          effect: "The group summary does not use it on iOS 15 and later.")
      case .sound:
        if isLiveActivity {
          alert.sound = string(valueIndex, path: keyPath(), effect: "No sound plays.")
        } else {
          report(
            .soundInsideAlert, at: keyIndex, path: keyPath(), "\"sound\" is inside alert instead of aps",
            effect: "iOS ignores it there, so the notification arrives without a sound.",
            hint: "move \"sound\" up into \"aps\" (only Live Activity alerts carry sound inside alert)")
        }
      case .contentAvailable:
        report(
          .contentAvailableInsideAlert, at: keyIndex, path: keyPath(),
          "\"content-available\" is inside alert instead of aps",
          effect: "iOS ignores it there, so the app is not woken in the background.",
          hint: "move \"content-available\": 1 up into \"aps\"")
      default:
        report(
          .customKeyInAlert, at: keyIndex, path: keyPath(),
          "\(JSONValue.quoted(known?.rawValue ?? document.string(keyIndex))) is not an alert key",
          effect: "iOS ignores it when showing the notification.",
          hint: "move custom data beside \"aps\", at the top level of the payload")
      }
    }
  }

  /// Reads an array of strings. The path is built only for a report (it allocates).
  func stringArray(_ index: Int, path makePath: @autoclosure () -> String) -> [String]? {
    func path() -> String { makePath() }
    guard document.kind(index) == .array else {
      wrongType(index, path: path(), expected: "an array of strings", effect: "The %@ placeholders stay empty.")
      return nil
    }
    var values: [String] = []
    for (offset, element) in document.elements(of: index).enumerated() {
      if document.kind(element) == .string {
        values.append(document.string(element))
      } else {
        wrongType(
          element, path: "\(path())[\(offset)]", expected: "a string",
          effect: "iOS does not substitute it; send numbers as strings, for example \"3\".")
        values.append(document.kind(element) == .number ? document.rawText(element) : "")
      }
    }
    return values
  }

  // MARK: - sound

  func decodeSound(at index: Int, path soundPath: @autoclosure () -> String) -> Sound? {
    switch document.kind(index) {
    case .string:
      return .named(document.string(index))
    case .object:
      var critical = CriticalSound(isCritical: false, name: nil, volume: nil)
      for (keyIndex, valueIndex) in document.members(of: index) {
        let known = knownKey(keyIndex)
        func keyPath() -> String { soundPath() + "." + (known?.rawValue ?? document.string(keyIndex)) }
        switch known {
        case .critical:
          critical.isCritical = document.integer(valueIndex) == 1 || document.bool(valueIndex) == true
          if document.kind(valueIndex) != .number {
            report(
              .invalidValue, at: valueIndex, path: keyPath(), "\(keyPath()) should be the number 1",
              effect: "Pushdeck treats it as 1; a device may play an ordinary sound instead.",
              hint: "write \"critical\": 1")
          }
        case .name:
          critical.name = string(valueIndex, path: keyPath(), effect: "The default critical sound plays.")
        case .volume:
          guard let volume = document.double(valueIndex) else {
            wrongType(valueIndex, path: keyPath(), expected: "a number from 0.0 to 1.0", effect: "Full volume is used.")
            break
          }
          critical.volume = volume
          if volume < 0 || volume > 1 {
            report(
              .criticalVolumeOutOfRange, at: valueIndex, path: keyPath(),
              "volume \(document.rawText(valueIndex)) is outside 0.0…1.0",
              effect: "Pushdeck clamps it to \(volume < 0 ? "0.0 (silent)" : "1.0 (full volume)").")
          }
        default:
          report(
            .invalidValue, at: keyIndex, path: keyPath(),
            "\(JSONValue.quoted(known?.rawValue ?? document.string(keyIndex))) is not a sound key",
            effect: "iOS ignores it.", hint: "the sound dictionary has critical, name and volume")
        }
      }
      return .critical(critical)
    default:
      wrongType(
        index, path: soundPath(), expected: "a sound file name or a critical-sound dictionary",
        effect: "No sound plays.")
      return nil
    }
  }

  // MARK: - Live Activities

  func decodeLiveActivityKey(
    _ key: KnownKey, at index: Int, path makePath: @autoclosure () -> String, into content: inout LiveActivityContent
  ) {
    // The path is built only for a report (it allocates).
    func keyPath() -> String { makePath() }
    let effect = "The Live Activity ignores this update."
    switch key {
    case .timestamp:
      if let value = document.double(index) {
        content.timestamp = value
      } else {
        wrongType(index, path: keyPath(), expected: "UNIX seconds", effect: effect)
      }
    case .event:
      guard let text = string(index, path: keyPath(), effect: effect) else { return }
      if let event = LiveActivityEvent(rawValue: text) {
        content.event = event
      } else {
        report(
          .invalidValue, at: index, path: keyPath(), "unknown Live Activity event \(JSONValue.quoted(text))",
          effect: effect, hint: "use start, update or end")
      }
    case .contentState:
      if document.kind(index) == .object {
        content.contentState = document.value(index)
      } else {
        wrongType(index, path: keyPath(), expected: "a dictionary", effect: effect)
      }
    case .staleDate:
      if let value = document.double(index) {
        content.staleDate = value
      } else {
        wrongType(index, path: keyPath(), expected: "UNIX seconds", effect: "The activity never goes stale.")
      }
    case .dismissalDate:
      if let value = document.double(index) {
        content.dismissalDate = value
      } else {
        wrongType(index, path: keyPath(), expected: "UNIX seconds", effect: "An ended activity stays up to 4 hours.")
      }
    case .attributesType:
      content.attributesType = string(index, path: keyPath(), effect: "The activity cannot start.")
    case .attributes:
      if document.kind(index) == .object {
        content.attributes = document.value(index)
      } else {
        wrongType(index, path: keyPath(), expected: "a dictionary", effect: "The activity cannot start.")
      }
    case .inputPushToken:
      content.inputPushToken = document.integer(index) == 1
    default:
      content.inputPushChannel = string(index, path: keyPath(), effect: "No broadcast channel is joined.")
    }
  }

  // MARK: - Whole-payload rules

  /// The rules between `aps` keys. Takes only `aps`, borrowed: passing the whole payload made
  /// the compiler copy it (a retain and release for every string in it).
  func checkWholePayload(_ aps: borrowing APS, apsIndex: Int) {
    let isUserVisible = aps.isUserVisible
    let isSilent = aps.contentAvailable && !isUserVisible
    func apsPath() -> String { path("aps") }
    let isLiveActivity = context.pushType == .liveactivity || aps.hasLiveActivity
    if let score = aps.relevanceScore, !isLiveActivity, score < 0 || score > 1,
      let index = document.member("relevance-score", of: apsIndex)
    {
      report(
        .relevanceScoreOutOfRange, at: index, path: apsPath() + ".relevance-score",
        "relevance-score \(document.rawText(index)) is outside 0…1",
        effect:
          "Pushdeck clamps it to \(score < 0 ? "0" : "1") when ranking and choosing the summary's featured notification.",
        hint: "use a value from 0.0 to 1.0")
    }
    if let live = aps.liveActivity {
      if context.isSimulatorFile {
        report(
          .liveActivityInSimulatorFile, at: apsIndex, path: apsPath(),
          "a Live Activity push in a Simulator .apns file",
          effect: "`xcrun simctl push` and drag-and-drop deliver app notifications only; the activity is not updated.",
          hint:
            "send it through APNs (or `pushdeck push`) with apns-push-type: liveactivity to the activity's push token")
      }
      if context.pushType != nil && context.pushType != .liveactivity {
        report(
          .liveActivityKeyOutsideLiveActivity, at: apsIndex, path: apsPath(),
          "Live Activity keys in a push of type \(context.pushType?.rawValue ?? "")",
          effect: "iOS ignores them: only apns-push-type liveactivity updates an activity.",
          hint: "send activity updates with apns-push-type: liveactivity to the activity's push token")
      }
      if live.timestamp == nil {
        report(
          .missingLiveActivityKey, at: apsIndex, path: apsPath() + ".timestamp",
          "a Live Activity push needs \"timestamp\"",
          effect: "The activity ignores the update.", hint: "add \"timestamp\": <UNIX seconds when sent>")
      }
      if live.event == nil {
        report(
          .missingLiveActivityKey, at: apsIndex, path: apsPath() + ".event",
          "a Live Activity push needs \"event\"",
          effect: "The activity ignores the update.", hint: "add \"event\": \"update\" (or start or end)")
      }
      if live.event == .start {
        for (present, key) in [
          (live.attributesType != nil, "attributes-type"), (live.attributes != nil, "attributes"),
          (aps.hasAlert, "alert"),
        ]
        where !present {
          report(
            .missingLiveActivityKey, at: apsIndex, path: apsPath() + "." + key,
            "a Live Activity start push needs \"\(key)\"", effect: "The activity does not start.")
        }
      }
      if live.event != .start && live.event != nil && live.contentState == nil && live.event == .update {
        report(
          .missingLiveActivityKey, at: apsIndex, path: apsPath() + ".content-state",
          "a Live Activity update needs \"content-state\"", effect: "The activity ignores the update.")
      }
      return
    }
    // Borrowed in place: binding the alert to a local would copy it (a retain per string).
    let hasAlertContent: Bool
    switch aps.alert {
    case .text(let text): hasAlertContent = !text.isEmpty
    case .dictionary(let dictionary): hasAlertContent = dictionary.hasContent
    case nil: hasAlertContent = false
    }
    if aps.contentAvailable && isUserVisible {
      report(
        .silentPushAlsoAlerts, at: apsIndex, path: apsPath(),
        "content-available is combined with a visible alert, badge or sound",
        effect:
          "iOS shows it as an ordinary notification; the background wake-up is best-effort and is skipped for a force-quit app.",
        hint:
          "send silent updates as separate pushes with only content-available (apns-push-type background, priority 5)")
    }
    if !aps.contentAvailable && !hasAlertContent && aps.badge == nil && !aps.hasSound {
      report(
        .nothingToShowOrDo, at: apsIndex, path: apsPath(),
        !aps.hasAlert
          ? "aps has no alert, badge, sound or content-available" : "the alert has no title, subtitle or body",
        effect: "Nothing happens on the device and no app code runs.",
        hint: "add an alert to show something, or \"content-available\": 1 to wake the app")
    }
    if let type = context.pushType {
      if type == .background && isUserVisible {
        report(
          .pushTypeMismatch, at: apsIndex, path: apsPath(),
          "apns-push-type is background but the payload alerts, badges or plays a sound",
          effect: "APNs may reject, delay or drop it; a background push never shows anything.",
          hint: "use apns-push-type: alert for visible notifications")
      } else if type == .alert && isSilent {
        report(
          .pushTypeMismatch, at: apsIndex, path: apsPath(),
          "apns-push-type is alert but the payload is a silent (content-available only) push",
          effect: "APNs may reject, delay or drop it.", hint: "use apns-push-type: background with apns-priority: 5")
      }
    } else if isSilent && context.priority == .immediate {
      // No push type to check against, but the priority names one: a silent push is a
      // background push, which must be priority 5 (with the type written out it is BadPriority;
      // without it, it passed unsaid; found by an exploratory test).
      report(
        .pushTypeMismatch, at: apsIndex, path: apsPath(),
        "a silent (content-available only) push sent with apns-priority 10 and no apns-push-type",
        effect:
          "APNs takes it for a background push, which must be priority 5: it may reject it (400 BadPriority) or hold it, and the app may not be woken.",
        hint: "send silent pushes with apns-push-type: background and apns-priority: 5")
    }
  }
}

extension String {
  /// Whether the string starts with an ASCII prefix, ignoring ASCII case.
  func hasASCIIPrefixIgnoringCase(_ prefix: StaticString) -> Bool {
    let count = prefix.utf8CodeUnitCount
    var iterator = utf8.makeIterator()
    for offset in 0..<count {
      guard let byte = iterator.next() else { return false }
      let expected = prefix.utf8Start[offset]
      if byte != expected && byte | 0x20 != expected | 0x20 { return false }
    }
    return true
  }

  /// The string with underscores turned into hyphens (`content_available` → `content-available`).
  func replacingUnderscores() -> String { replacingOccurrences(of: "_", with: "-") }

  /// Replaces every occurrence of `target` with `replacement` (no Foundation needed).
  func replacingOccurrences(of target: String, with replacement: String) -> String {
    guard !target.isEmpty else { return self }
    var result = ""
    var remainder = self[...]
    while let range = remainder.firstRange(of: target) {
      result += remainder[..<range.lowerBound]
      result += replacement
      remainder = remainder[range.upperBound...]
    }
    result += remainder
    return result
  }

  /// Trims the given characters from both ends.
  func trimmingCharacters(in characters: String) -> String {
    let set = Set(characters)
    var slice = self[...]
    while let first = slice.first, set.contains(first) { slice = slice.dropFirst() }
    while let last = slice.last, set.contains(last) { slice = slice.dropLast() }
    return String(slice)
  }
}

/// The Levenshtein distance between two sequences, giving up (returning `limit + 1`) early.
func editDistance<Element: Equatable>(_ lhs: [Element], _ rhs: [Element], limit: Int) -> Int {
  if abs(lhs.count - rhs.count) > limit { return limit + 1 }
  var previous = Array(0...rhs.count)
  for (i, left) in lhs.enumerated() {
    var current = [i + 1] + Array(repeating: 0, count: rhs.count)
    for (j, right) in rhs.enumerated() {
      current[j + 1] = Swift.min(previous[j + 1] + 1, current[j] + 1, previous[j] + (left == right ? 0 : 1))
    }
    if current.min() ?? 0 > limit { return limit + 1 }
    previous = current
  }
  return previous[rhs.count]
}

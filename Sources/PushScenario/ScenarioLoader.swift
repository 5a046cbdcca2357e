import PushCore
import PushYAML
import Yams

/// Loads device profiles and scenarios from YAML (or JSON) and reads the files they name.
///
/// All file reading happens here, through ``ScenarioFiles``; the loaded ``Scenario`` is plain
/// data that plays without touching the file system. Every error is a ``ScenarioError`` that
/// names the file, line, column and key path. The schema is in `docs/SCENARIOS.md`.
public struct ScenarioLoader: Sendable {
  /// How files are read.
  public var files: ScenarioFiles

  /// Creates a loader; by default it reads the local file system.
  public init(files: ScenarioFiles = .local) { self.files = files }

  // MARK: Profiles

  /// Loads a device profile file.
  public func loadProfile(path: String) throws(ScenarioError) -> DeviceProfile {
    try loadProfile(text: read(path), file: path)
  }

  /// Loads a device profile from text; relative paths in it start from `file`'s directory.
  public func loadProfile(text: String, file: String) throws(ScenarioError) -> DeviceProfile {
    let root = try YAMLValue.parse(text, file: file)
    return try ProfileReader(files: files, directory: ScenarioFiles.directory(of: file)).profile(root)
  }

  // MARK: Scenarios

  /// Loads a scenario file.
  ///
  /// - Parameter defaultProfile: the device when the scenario has no `profile:`; the standard
  ///   profile when nil.
  public func loadScenario(path: String, defaultProfile: DeviceProfile? = nil) throws(ScenarioError) -> Scenario {
    try loadScenario(text: read(path), file: path, defaultProfile: defaultProfile)
  }

  /// Loads a scenario from text; relative paths in it start from `file`'s directory.
  public func loadScenario(text: String, file: String, defaultProfile: DeviceProfile? = nil) throws(ScenarioError)
    -> Scenario
  {
    try loadCheckedScenario(text: text, file: file, defaultProfile: defaultProfile).scenario
  }

  /// Loads a scenario file with the expectations of its `expect:` blocks.
  public func loadCheckedScenario(path: String, defaultProfile: DeviceProfile? = nil) throws(ScenarioError)
    -> CheckedScenario
  {
    try loadCheckedScenario(text: read(path), file: path, defaultProfile: defaultProfile)
  }

  /// Loads a scenario from text with the expectations of its `expect:` blocks.
  public func loadCheckedScenario(text: String, file: String, defaultProfile: DeviceProfile? = nil)
    throws(ScenarioError) -> CheckedScenario
  {
    let root = try YAMLValue.parse(text, file: file)
    let map = try root.mapping(allowed: ["title", "description", "profile", "timeline"])
    let directory = ScenarioFiles.directory(of: file)
    var scenario = Scenario(
      title: try map["title"]?.string(), summary: try map["description"]?.string(),
      profile: defaultProfile ?? DeviceProfile.standard(start: ProfileReader.defaultStart), hasOwnProfile: false,
      timeline: [])
    // Where the profile's apps are written, for messages that ask for one to be added.
    var appsPlace = "the profile's apps:"
    if let profile = map["profile"] {
      scenario.hasOwnProfile = true
      if case .mapping = profile.node {
        scenario.profile = try ProfileReader(files: files, directory: directory).profile(profile)
        appsPlace = "profile.apps"
      } else {
        let path = try profile.nonEmptyString("a profile mapping, or the path of a profile file")
        let full = ScenarioFiles.join(directory, path)
        let text: String
        do throws(ScenarioFiles.Problem) {
          text = try files.text(full)
        } catch {
          throw profile.error("cannot read the profile \"\(path)\" (\(full)): \(error.message)")
        }
        scenario.profile = try loadProfile(text: text, file: full)
        appsPlace = "apps: in \(full)"
      }
    }
    let timeline = try map.required("timeline", "a list of events")
    var reader = TimelineReader(
      files: files, directory: directory, profile: scenario.profile, appsPlace: appsPlace,
      knowsCategories: scenario.hasOwnProfile)
    var steps: [ExpectationStep] = []
    // Element by element, not as one list of located values: a million entries (`- *e`) would
    // otherwise each keep a key path while the whole timeline is read.
    guard case .sequence(let items) = timeline.node else {
      throw timeline.error("expected a list, got \(timeline.described)")
    }
    reader.timeline.reserveCapacity(items.count)
    for (index, node) in items.enumerated() {
      try reader.append(timeline.element(index, node))
      if var step = reader.step {
        step.eventsBefore = reader.timeline.count
        steps.append(step)
        reader.step = nil
      }
    }
    scenario.timeline = reader.timeline
    return CheckedScenario(scenario: scenario, steps: steps, file: file)
  }

  /// Whether a YAML file is a scenario (has a `timeline:`) rather than a profile or other YAML,
  /// looking only at its top-level keys; nil when it cannot be read or parsed.
  public func isScenario(path: String) -> Bool? {
    guard let text = try? read(path), let root = try? YAMLValue.parse(text, file: path) else { return nil }
    guard case .mapping(let mapping) = root.node else { return false }
    return mapping.keys.contains { $0.scalar?.string == "timeline" }
  }

  private func read(_ path: String) throws(ScenarioError) -> String {
    do throws(ScenarioFiles.Problem) {
      return try files.text(path)
    } catch {
      throw ScenarioError(file: path, message: "cannot read the file: \(error.message)")
    }
  }
}

/// Reads timeline events in order, keeping the clock and the count of pushes.
struct TimelineReader {
  let files: ScenarioFiles
  let directory: String
  let profile: DeviceProfile
  /// Where the profile's apps are written (`profile.apps`, `apps: in dir/profile.yaml`), for
  /// messages that ask for an app to be added.
  let appsPlace: String
  /// Whether the profile is the scenario's own, so that an app's categories are the ones it
  /// lists (a scenario without one may be played on another profile that registers more).
  let knowsCategories: Bool
  /// The events read so far.
  var timeline: [TimedEvent] = []
  /// Where each push is in ``timeline``, by push number (1-based number − 1).
  var pushPositions: [Int32] = []
  /// The time of the previous event (the start before the first).
  var clock: SimInstant
  var pushes = 0
  /// The expectations of the entry just read, if it has `expect:`.
  var step: ExpectationStep?
  /// The inline payloads' anchored values as JSON, what aliases repeat of them, and the pushes
  /// that share a record.
  let aliases = AliasExpansions()
  /// The events of timeline entries written once with an anchor and repeated through aliases
  /// (`- &e {...}`, then `- *e`), by anchor: every repetition shares them (``TimedEvent``). The
  /// anchor is kept so that its identifier stays its own.
  var sharedEntries: [ObjectIdentifier: (anchor: Anchor, events: [TimedEvent])] = [:]
  /// The push events of `push:` values repeated through aliases (`push: *p`), by anchor.
  var sharedPushes: [ObjectIdentifier: (anchor: Anchor, event: TimelineEvent)] = [:]

  init(
    files: ScenarioFiles, directory: String, profile: DeviceProfile, appsPlace: String = "the profile's apps:",
    knowsCategories: Bool = false
  ) {
    self.files = files
    self.directory = directory
    self.profile = profile
    self.appsPlace = appsPlace
    self.knowsCategories = knowsCategories
    clock = profile.start
  }

  static let eventKeys = [
    "push", "focus", "lock", "unlock", "set", "open", "tap", "clear", "clearGroup", "clearAll", "action", "reply",
    "advance",
  ]

  /// Reads one timeline entry and appends its events to ``timeline``.
  mutating func append(_ value: YAMLValue) throws(ScenarioError) {
    let events = try event(value)
    for timed in events {
      if case .device(.push) = timed.event { pushPositions.append(Int32(truncatingIfNeeded: timeline.count)) }
      timeline.append(timed)
    }
  }

  /// Reads one timeline entry. An entry repeated through an alias is the anchored entry itself:
  /// its time is read again (`after:` moves on from the previous event), its events are shared
  /// with the first time it was read (issue 15 §5: a million `- *e` cost a time and a pointer
  /// each). Entries with `expect:` and `advance:` are read each time.
  mutating func event(_ value: YAMLValue) throws(ScenarioError) -> [TimedEvent] {
    guard let anchor = value.node.anchor else { return try readEvent(value) }
    let key = ObjectIdentifier(anchor)
    if let earlier = sharedEntries[key]?.events {
      let map = try value.mapping(allowed: ["at", "after", "note", "expect"] + Self.eventKeys)
      let at = try time(map)
      clock = at
      for timed in earlier {
        if case .device(.push) = timed.event { pushes += 1 }
      }
      return earlier.map { TimedEvent(at: at, sharing: $0) }
    }
    let events = try readEvent(value)
    if step == nil, !events.isEmpty, !events.contains(where: { $0.event == .advance }) {
      sharedEntries[key] = (anchor, events)
    }
    return events
  }

  private mutating func readEvent(_ value: YAMLValue) throws(ScenarioError) -> [TimedEvent] {
    let map = try value.mapping(allowed: ["at", "after", "note", "expect"] + Self.eventKeys)
    let present = map.entries.map(\.key).filter { Self.eventKeys.contains($0) }
    let expectations = ExpectationReader(directory: directory, profile: profile)
    guard let kind = present.first else {
      if let expect = map["expect"] {
        // A moment: the checks happen at this time, after the events before it.
        let at = try time(map)
        clock = at
        step = ExpectationStep(
          push: nil, eventsBefore: 0, at: at, line: value.line, path: value.path,
          expectations: try expectations.read(expect, push: nil))
        return []
      }
      throw value.error("expected one event: \(Self.eventKeys.joined(separator: ", ")), or an expect: block")
    }
    guard present.count == 1 else {
      throw value.error(
        "one event per entry, found \(present.joined(separator: " and ")); split them into separate entries")
    }
    let at = try time(map)
    clock = at
    let body = map[kind] ?? value
    // Where it was written, kept as the file (one string every entry shares) and a line.
    let (file, line) = (value.file, value.line)
    func timed(_ event: TimelineEvent) -> [TimedEvent] { [TimedEvent(at: at, event: event, file: file, line: line)] }
    if kind != "push", let expect = map["expect"] {
      // Checked after the entry's event.
      step = ExpectationStep(
        push: nil, eventsBefore: 0, at: at, line: value.line, path: value.path,
        expectations: try expectations.read(expect, push: nil))
    }
    switch kind {
    case "push":
      pushes += 1
      // A `push:` value repeated through an alias (`push: *p`) is the same push each time: its
      // event is shared (the record's line is the anchored payload's).
      if map["expect"] == nil, let anchor = body.node.anchor, let shared = sharedPushes[ObjectIdentifier(anchor)] {
        return timed(shared.event)
      }
      // An entry or push reused through an alias reads the same payload each time: share it.
      let event = try push(body, isAliased: value.node.anchor != nil || body.node.anchor != nil)
      if let anchor = body.node.anchor { sharedPushes[ObjectIdentifier(anchor)] = (anchor, event) }
      if let expect = map["expect"] {
        guard case .device(.push(let record, _)) = event else { return timed(event) }
        step = ExpectationStep(
          push: pushes, eventsBefore: 0, at: at, line: value.line, path: value.path,
          expectations: try expectations.read(expect, push: record))
      }
      return timed(event)
    case "focus":
      return timed(.device(.focus(try focus(body))))
    case "lock":
      try noArgument(body)
      return timed(.device(.lock))
    case "unlock":
      try noArgument(body)
      return timed(.device(.unlock))
    case "clearAll":
      try noArgument(body)
      return timed(.device(.clearAll))
    case "set":
      return try set(body).map { TimedEvent(at: at, event: .device($0), file: file, line: line) }
    case "open", "tap":
      return timed(.open(try ref(body)))
    case "clear":
      return timed(.clear(try ref(body)))
    case "clearGroup":
      return timed(.clearGroup(try ref(body)))
    case "action":
      let fields = try body.mapping(allowed: ["notification", "id"])
      let notification = try fields.required("notification", "the push's number or collapse id")
      let reference = try ref(notification)
      let idValue = try fields.required("id", "the action identifier")
      let actionID = try idValue.nonEmptyString("an action identifier")
      try checkResponse(to: reference, at: notification, actionID: actionID, idValue: idValue, reply: nil)
      return timed(.action(reference, actionID: actionID))
    case "reply":
      let fields = try body.mapping(allowed: ["notification", "text", "action"])
      let notification = try fields.required("notification", "the push's number or collapse id")
      let reference = try ref(notification)
      // `action: default` is the category's first text-input action, as when it is left out.
      let actionValue = fields["action"]
      var actionID = try actionValue?.nonEmptyString("an action identifier")
      if actionID == "default" { actionID = nil }
      let text = try fields.required("text", "the typed reply").string()
      try checkResponse(
        to: reference, at: notification, actionID: actionID, idValue: actionID == nil ? nil : actionValue,
        reply: body)
      return timed(.reply(reference, actionID: actionID, text: text))
    default:
      clock = try Self.later(at, by: try Self.duration(body), body)
      step?.at = clock
      return [TimedEvent(at: clock, event: .advance, file: file, line: line)]
    }
  }

  /// The event's time from `at:` or `after:`; the previous event's time when neither is given.
  func time(_ map: YAMLMapping) throws(ScenarioError) -> SimInstant {
    let instant: SimInstant
    switch (map["at"], map["after"]) {
    case (.some(let at), .some):
      throw at.error("give either at: or after:, not both")
    case (.some(let at), nil):
      let text = try at.string()
      // The one time grammar: +2m from the start, 09:45 on the start's day, or a date and time.
      do {
        instant = try TimeGrammar.instant(text, now: profile.start, utcOffsetSeconds: profile.utcOffsetSeconds)
      } catch .outOfRange {
        guard text.hasPrefix("+") else {
          throw at.error("\(at.described) is outside the simulated time \(EpochRange.text)")
        }
        throw at.error(
          "\(at.described) goes past \(CivilTime.iso8601(SimInstant.latest)), the last instant Pushdeck simulates")
      } catch {
        throw at.error("expected a time such as \(TimeGrammar.instantForms), got \(at.described)")
      }
      guard instant >= clock else {
        throw at.error(
          "this event is at \(CivilTime.iso8601(instant, utcOffsetSeconds: profile.utcOffsetSeconds)), before the previous one (\(CivilTime.iso8601(clock, utcOffsetSeconds: profile.utcOffsetSeconds))); a timeline only moves forward"
        )
      }
    case (nil, .some(let after)):
      instant = try Self.later(clock, by: try Self.duration(after), after)
    case (nil, nil):
      instant = clock
    }
    return instant
  }

  /// `instant + duration`, or an error at `value` when that is past the last simulated instant.
  static func later(_ instant: SimInstant, by duration: SimDuration, _ value: YAMLValue) throws(ScenarioError)
    -> SimInstant
  {
    guard let later = instant.adding(duration) else {
      throw value.error(
        "\(value.described) goes past \(CivilTime.iso8601(SimInstant.latest)), the last instant Pushdeck simulates")
    }
    return later
  }

  static func duration(_ value: YAMLValue) throws(ScenarioError) -> SimDuration {
    guard let text = value.scalarText, !value.isNull else {
      throw value.error("expected a duration such as \(TimeGrammar.durationForms), got \(value.described)")
    }
    do {
      return try TimeGrammar.duration(text)
    } catch .outOfRange {
      throw value.error(
        "\(value.described) goes past \(CivilTime.iso8601(SimInstant.latest)), the last instant Pushdeck simulates")
    } catch {
      throw value.error("expected a duration such as \(TimeGrammar.durationForms), got \(value.described)")
    }
  }

  func noArgument(_ value: YAMLValue) throws(ScenarioError) {
    if value.isNull || (value.isPlain && ["true", "True", "TRUE"].contains(value.scalarText ?? "")) { return }
    throw value.error("expected nothing (or true), got \(value.described)")
  }

  func focus(_ value: YAMLValue) throws(ScenarioError) -> String? {
    if value.isNull { return nil }
    if value.isPlain, ["off", "false", "False", "FALSE"].contains(value.scalarText ?? "") { return nil }
    let id = try value.string()
    let ids = profile.focusModes.map(\.id)
    guard ids.contains(id) else {
      throw value.error(
        "no Focus with id \"\(id)\"\(Spelling.didYouMean(id, among: ids)); expected off or one of \(ids.joined(separator: ", "))"
      )
    }
    return id
  }

  func set(_ value: YAMLValue) throws(ScenarioError) -> [DeviceEvent] {
    let map = try value.mapping(allowed: ["bundle", "authorization", "state", "settings"])
    let bundleValue = try map.required("bundle", "the bundle id of the app to change")
    let bundle = try bundleValue.nonEmptyString("a bundle id")
    guard profile.app(bundle) != nil else {
      // Only listed apps are installed (installsUnknownApps is false), and none may be listed.
      let known = profile.apps.map(\.bundleID)
      let remedy = "add it under \(appsPlace) (- bundle: \(bundle)) or set installsUnknownApps: true"
      guard !known.isEmpty else {
        throw bundleValue.error(
          "\(bundle) is not installed: the profile lists no apps and installsUnknownApps is false; \(remedy)")
      }
      throw bundleValue.error(
        "\(bundle) is not installed\(Spelling.didYouMean(bundle, among: known)); expected one of \(known.joined(separator: ", ")), or \(remedy)"
      )
    }
    var changes: [AppSettingChange] = []
    if let status = map["authorization"] { changes.append(.authorization(try status.oneOf(AuthorizationStatus.self))) }
    if let state = map["state"] { changes.append(.state(try state.oneOf(AppRunState.self))) }
    if let settings = map["settings"] { changes += try ProfileReader.settingChanges(settings) }
    guard !changes.isEmpty else { throw value.error("expected authorization:, state: or settings: to change") }
    return changes.map { .setting(bundleID: bundle, $0) }
  }

  /// `3` (the third push), `order-42` (a collapse id), `{push: 3}` or `{collapseId: order-42}`.
  func ref(_ value: YAMLValue) throws(ScenarioError) -> NotificationRef {
    if case .mapping = value.node {
      let map = try value.mapping(allowed: ["push", "collapseId"])
      if let push = map["push"], !map.has("collapseId") { return try pushRef(push) }
      if let collapse = map["collapseId"], !map.has("push") {
        return .collapseID(try collapse.nonEmptyString("a collapse id"))
      }
      throw value.error("expected either push: or collapseId:")
    }
    if value.isPlain, let text = value.scalarText, YAMLValue.integer(text) != nil { return try pushRef(value) }
    // A plain number that is not whole (1.5, 1e0) is a number in YAML 1.2, not a collapse id.
    if value.isPlain, let text = value.scalarText, YAMLValue.number(text) != nil {
      throw value.error(
        "expected the number of an earlier push (a whole number, 1 to \(pushes)) or a collapse id, got the number \(text); quote it (\"\(text)\") or write collapseId: for a collapse id"
      )
    }
    return .collapseID(try value.nonEmptyString("a push number or a collapse id"))
  }

  func pushRef(_ value: YAMLValue) throws(ScenarioError) -> NotificationRef {
    let index = try value.int()
    guard index >= 1, index <= pushes else {
      throw value.error(
        pushes == 0
          ? "no push comes before this event, so there is no notification \(index)"
          : "expected the number of an earlier push, 1 to \(pushes), got \(index)")
    }
    return .push(index)
  }

  // MARK: Responses

  /// Reports, as a located error, an action or reply the notification it names cannot offer,
  /// where that is known before playing: the reference is a push number, that push is valid,
  /// has no `apns-collapse-id` (a later push may replace it and the reference follow) and its
  /// app no service extension (which may change its category). A push without a category
  /// offers no action on any device; a category the profile declares offers its actions; a
  /// category it does not declare offers none when the profile is the scenario's own. The rest
  /// is the device's to refuse when played (``ResponseProblem``, ``DeviceSimulator/refusedResponses``).
  ///
  /// - Parameters:
  ///   - actionID: the action asked for; nil for a reply through the first text-input action.
  ///   - idValue: where the action is written (`id:`, or a reply's `action:`).
  ///   - reply: the reply's mapping; nil for an action.
  func checkResponse(
    to reference: NotificationRef, at notification: YAMLValue, actionID: String?, idValue: YAMLValue?,
    reply: YAMLValue?
  ) throws(ScenarioError) {
    guard case .push(let number) = reference, number >= 1, number <= pushPositions.count else { return }
    guard case .device(.push(let record, _)) = timeline[Int(pushPositions[number - 1])].event else { return }
    guard record.isValid, record.headers.collapseID == nil, let bundle = record.bundleID,
      let app = profile.app(bundle), app.serviceExtension == nil, !app.hasServiceExtension
    else { return }
    let category = record.payload?.aps.category
    if let category, app.category(category) == nil, !knowsCategories { return }
    let isReply = reply != nil
    guard
      let problem = ResponseProblem.check(
        category: category, of: app,
        actionID: NotificationCategory.replyAction(actionID, in: app.category(category)),
        isReply: isReply)
    else { return }
    let push = "push \(number) (\(record.source))"
    let wanted = isReply ? "a reply" : "action \(actionID ?? "")"
    switch problem {
    case .noCategory:
      throw notification.error(
        "\(push) has no category, so it offers no actions and \(wanted) is not possible; give its payload an aps.category that the app declares under categories: in \(appsPlace)"
      )
    case .unregisteredCategory(let category):
      let declared = app.categories.map(\.identifier)
      throw notification.error(
        declared.isEmpty
          ? "\(push) has category \(category), and \(bundle) declares no categories, so \(wanted) is not possible; declare \(category) with its actions under the app's categories: in \(appsPlace)"
          : "\(push) has category \(category), which \(bundle) does not declare\(Spelling.didYouMean(category, among: declared)), so \(wanted) is not possible; expected one of \(declared.joined(separator: ", ")), or declare \(category) under the app's categories: in \(appsPlace)"
      )
    case .noSuchAction(let category, let action):
      let actions = app.category(category)?.actions.map(\.identifier) ?? []
      let tap =
        [Self.defaultActionName, "com.apple.UNNotificationDefaultActionIdentifier"].contains(action)
        ? " (a tap is open: \(number))" : ""
      let at = idValue ?? notification
      throw at.error(
        actions.isEmpty
          ? "category \(category) has no actions, so \(action) is not possible\(tap); declare \(action) under its actions:"
          : "category \(category) has no action \(action)\(tap)\(Spelling.didYouMean(action, among: actions)); expected one of \(actions.joined(separator: ", "))"
      )
    case .noTextInputAction(let category):
      let actions = app.category(category)?.actions.map(\.identifier) ?? []
      let at = idValue ?? reply ?? notification
      let instead =
        actions.isEmpty ? "" : ", or pick one of \(actions.joined(separator: ", ")) with action: instead of reply:"
      throw at.error(
        "category \(category) has no text-input action to reply with; give one of its actions textInput: {button: …}\(instead)"
      )
    case .notTextInput(let category, let action):
      let textInputs = app.category(category)?.actions.filter(\.isTextInput).map(\.identifier) ?? []
      throw (idValue ?? notification).error(
        "action \(action) of category \(category) takes no text input, so it cannot send a reply; expected one of \(textInputs.joined(separator: ", ")) (its text-input actions), or use action: {notification: \(number), id: \(action)} without text"
      )
    }
  }

  /// The name a timeline may give the tap (the default action) in handler bindings.
  static let defaultActionName = "default"

  // MARK: Pushes

  /// Where the diagnostics of a payload written in the scenario point. Their lines and columns
  /// count in the payload's own text, not the YAML file: a string's (`payload: '{…}'`, whose
  /// first character is 1:1 whatever its YAML style, escapes and indentation), which they now
  /// say (`1:23 of the payload string`; the record's source names the file and line), or the
  /// JSON made from a mapping, which nobody wrote: that place is dropped and the key path says
  /// where (docs/DECISIONS.md, Where a payload written in a scenario is wrong).
  static func locateInline(_ record: inout PushRecord, isString: Bool) {
    for index in record.diagnostics.indices where record.diagnostics[index].location != nil {
      if isString {
        record.diagnostics[index].location?.within = "the payload string"
      } else {
        record.diagnostics[index].location = nil
      }
    }
  }

  func push(_ value: YAMLValue, isAliased: Bool = false) throws(ScenarioError) -> TimelineEvent {
    let map = try value.mapping(allowed: ["bundle", "token", "headers", "sender", "payload", "file", "channel"])
    let bundle = try map["bundle"]?.nonEmptyString("a bundle id")
    var headers: [(name: String, value: String)] = []
    if let headerMap = map["headers"] {
      for (name, item) in try headerMap.freeMapping() {
        headers.append((name, try item.string()))
      }
    }
    // `channel:` sends the push as a broadcast on that channel, as POST /4/broadcasts does.
    if let channel = map["channel"] {
      let id = try channel.nonEmptyString("a broadcast channel id (base64)")
      guard ChannelID.isWellFormed(id) else {
        throw channel.error(
          "\"\(id)\" is not a channel id: expected base64 text (A-Z a-z 0-9 + /, = padding, a multiple of 4 characters)"
        )
      }
      guard !headers.contains(where: { $0.name.lowercased() == "apns-channel-id" }) else {
        throw channel.error("give the channel either as channel: or as the apns-channel-id header, not both")
      }
      headers.append(("apns-channel-id", id))
      if !headers.contains(where: { $0.name.lowercased() == "apns-push-type" }) {
        headers.append(("apns-push-type", "liveactivity"))
      }
    }
    var record: PushRecord
    switch (map["payload"], map["file"]) {
    case (.some(let payload), nil):
      let text: String
      let isString: Bool
      if case .scalar = payload.node {
        text = try payload.string()
        isString = true
      } else {
        text = try payload.jsonText(aliases: aliases)
        isString = false
      }
      if aliases.payloadRepeats || isAliased || payload.node.anchor != nil {
        let key = SharedPushKey(
          text: text, isString: isString, bundle: bundle, headers: headers.flatMap { [$0.name, $0.value] })
        if let shared = aliases.records[key] {
          aliases.shared()
          record = shared
        } else {
          try aliases.charge(push: value)
          record = PushReader.readPayloadFile(
            Array(text.utf8), source: value.file, format: .payload, bundleID: bundle, headers: headers)
          Self.locateInline(&record, isString: isString)
          aliases.records[key] = record
        }
      } else {
        record = PushReader.readPayloadFile(
          Array(text.utf8), source: value.file, format: .payload, bundleID: bundle, headers: headers)
        Self.locateInline(&record, isString: isString)
      }
      record.file = value.file
      // An alias's node is the anchored one, which is where the anchor was written: an aliased
      // payload is located at its own `payload:` key.
      record.line =
        payload.node.anchor == nil
        ? payload.line
        : map.entries.first { $0.key == "payload" }?.keyValue.line
          ?? payload.line
    case (nil, .some(let fileValue)):
      let path = try fileValue.nonEmptyString("the path of a .apns or .json payload")
      let full = ScenarioFiles.join(directory, path)
      let format = InputFormat.from(fileName: path) ?? .payload
      guard format != .capture else {
        throw fileValue.error(
          "a push names one payload (.apns or .json), got a capture; give captures to pushdeck explain directly")
      }
      let bytes: [UInt8]
      do throws(ScenarioFiles.Problem) {
        bytes = try files.read(full)
      } catch {
        throw fileValue.error("cannot read the payload \"\(path)\" (\(full)): \(error.message)")
      }
      record = PushReader.readPayloadFile(bytes, source: full, format: format, bundleID: bundle, headers: headers)
    case (.some(let payload), .some):
      throw payload.error("give either payload: or file:, not both")
    case (nil, nil):
      throw value.error(
        "missing \"payload\" or \"file\": expected the push's JSON payload inline, or the path of a .apns or .json file"
      )
    }
    guard record.bundleID != nil else {
      throw value.error(
        "missing \"bundle\": expected the app's bundle id (a .apns file may give it as \"Simulator Target Bundle\")")
    }
    if let tokenValue = map["token"] {
      let token = try tokenValue.string()
      record.token = token
      if let problem = DeviceToken.check(token) { record.diagnostics.append(problem) }
    }
    let sender = try map["sender"]?.nonEmptyString("the sender's name")
    return .device(.push(record, sender: sender))
  }
}

/// What a push with an inline payload reads: pushes that read the same are the same record.
struct SharedPushKey: Hashable {
  var text: String
  /// Whether the text was written as a string (else made from a mapping): their diagnostics
  /// are located differently (``TimelineReader/locateInline(_:isString:)``).
  var isString: Bool
  var bundle: String?
  var headers: [String]
}

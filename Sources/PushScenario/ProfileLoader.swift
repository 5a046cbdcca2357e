import PushCore
import PushYAML

/// Reads a device profile from a YAML mapping. See `docs/SCENARIOS.md` for the schema.
struct ProfileReader {
  /// Reads files named by the profile (localizations), relative to the YAML's directory.
  let files: ScenarioFiles
  /// The directory relative paths start from.
  let directory: String

  static let keys = [
    "start", "timeZone", "locked", "silentMode", "installsUnknownApps", "apps", "focusModes", "activeFocus",
    "summaryTimes", "silentPushesPerHour", "maxStoredNotifications", "engagement", "handlers", "apns", "displayAs",
  ]

  /// The start used when a profile gives none: Monday 23 November 2026, 9:41 UTC.
  static let defaultStart = SimInstant(milliseconds: 1_795_426_860_000)

  func profile(_ value: YAMLValue) throws(ScenarioError) -> DeviceProfile {
    let map = try value.mapping(allowed: Self.keys)
    var profile = DeviceProfile(start: Self.defaultStart)
    var zoneName: String?
    if let zone = map["timeZone"] {
      let name = try zone.nonEmptyString("a time zone")
      guard TimeZones.isKnownZone(name) else {
        throw zone.error(
          "unknown time zone \"\(name)\"; expected a name such as Europe/Berlin or America/New_York, UTC, or an offset such as +01:00"
        )
      }
      zoneName = name
    }
    if let start = map["start"] {
      let text = try start.string()
      guard let stamp = TimeGrammar.stamp(text) else {
        throw start.error(
          "expected a date and time such as 2026-11-23T09:41:00+01:00 or 2026-11-23 09:41, got \(start.described)")
      }
      if stamp.offset != nil {
        profile.start = stamp.instant(fallbackOffset: 0)
      } else {
        profile.start = TimeZones.instant(ofLocal: stamp, inZone: zoneName ?? "UTC") ?? stamp.localAsUTC
      }
      guard profile.start.isInRange else {
        throw start.error("\(start.described) is outside the simulated time \(EpochRange.text)")
      }
      if zoneName == nil, let offset = stamp.offset, offset != 0 {
        zoneName = Self.offsetName(offset)
      }
    }
    profile.timeZoneName = zoneName ?? "UTC"
    profile.utcOffsetSeconds = TimeZones.offset(ofZone: profile.timeZoneName, at: profile.start) ?? 0
    if let locked = map["locked"] { profile.isLocked = try locked.bool() }
    if let silent = map["silentMode"] { profile.isSilentMode = try silent.bool() }
    if let display = map["displayAs"] { profile.lockScreenDisplay = try display.oneOf(LockScreenDisplay.self) }
    if let installs = map["installsUnknownApps"] { profile.installsUnknownApps = try installs.bool() }
    if let budget = map["silentPushesPerHour"] { profile.silentPushesPerHour = try budget.int(in: 0...1000) }
    if let limit = map["maxStoredNotifications"] { profile.maxStoredNotifications = try limit.int(in: 1...10_000_000) }
    if let apps = map["apps"] {
      var seen: Set<String> = []
      for item in try apps.list() {
        let app = try self.app(item)
        guard seen.insert(app.bundleID).inserted else {
          throw item.error("the app \(app.bundleID) is listed twice; list each bundle id once")
        }
        profile.apps.append(app)
      }
    }
    if let modes = map["focusModes"] {
      // The built-in dnd and sleep stay unless a mode with the same id replaces them.
      var defined: Set<String> = []
      for item in try modes.list() {
        let mode = try focus(item)
        guard defined.insert(mode.id).inserted else {
          throw item.error("the Focus \"\(mode.id)\" is defined twice; give each Focus its own id")
        }
        if let index = profile.focusModes.firstIndex(where: { $0.id == mode.id }) {
          profile.focusModes[index] = mode
        } else {
          profile.focusModes.append(mode)
        }
      }
    }
    if let active = map["activeFocus"], !active.isNull {
      let id = try active.string()
      let ids = profile.focusModes.map(\.id)
      guard ids.contains(id) else {
        throw active.error(
          "no Focus with id \"\(id)\"\(Spelling.didYouMean(id, among: ids)); expected one of \(ids.joined(separator: ", "))"
        )
      }
      profile.activeFocusID = id
    }
    if let times = map["summaryTimes"] {
      for item in try times.listOrOne() {
        let text = try item.string()
        guard let time = TimeOfDay(text) else {
          throw item.error("expected a time of day such as \"8:00\" or \"18:30\", got \(item.described)")
        }
        profile.summaryTimes.append(time)
      }
      profile.summaryTimes.sort()
    }
    if let engagement = map["engagement"] {
      for (bundle, entry) in try engagement.freeMapping() {
        let fields = try entry.mapping(allowed: ["taps", "dismissals"])
        profile.engagement[bundle] = Engagement(
          taps: try fields["taps"]?.int(in: 0...1_000_000) ?? 0,
          dismissals: try fields["dismissals"]?.int(in: 0...1_000_000) ?? 0)
      }
    }
    if let handlers = map["handlers"] {
      for item in try handlers.list() { profile.handlers.append(try handler(item)) }
    }
    return profile
  }

  static func offsetName(_ offset: Int) -> String {
    let magnitude = abs(offset)
    let hours = magnitude / 3600
    let minutes = (magnitude % 3600) / 60
    return (offset < 0 ? "-" : "+") + (hours < 10 ? "0" : "") + "\(hours):" + (minutes < 10 ? "0" : "") + "\(minutes)"
  }

  // MARK: Apps

  static let appKeys = [
    "bundle", "name", "icon", "authorization", "settings", "state", "foregroundPresentation", "categories",
    "localizations", "serviceExtension", "backgroundMode", "entitlements", "liveActivities",
    // Live Activity tokens and broadcast channels (their own keys, docs/SCENARIOS.md "Apps").
    "tokens", "channels",
  ]

  func app(_ value: YAMLValue) throws(ScenarioError) -> AppProfile {
    let map = try value.mapping(allowed: Self.appKeys)
    let bundle = try map.required("bundle", "the app's bundle id, such as com.example.messages").nonEmptyString(
      "a bundle id")
    var info = AppInfo.inferred(from: bundle)
    if let name = map["name"] { info.displayName = try name.nonEmptyString("the app's display name") }
    if let icon = map["icon"] {
      let glyph = try icon.nonEmptyString("one emoji or character")
      guard glyph.count == 1 else { throw icon.error("expected one emoji or character, got \(icon.described)") }
      info.iconGlyph = glyph
    }
    var app = AppProfile(info: info)
    if let status = map["authorization"] { app.authorization = try status.oneOf(AuthorizationStatus.self) }
    if let state = map["state"] { app.state = try state.oneOf(AppRunState.self) }
    if let settings = map["settings"] {
      for change in try Self.settingChanges(settings) { Self.apply(change, to: &app) }
    }
    if let presentation = map["foregroundPresentation"] {
      app.foregroundPresentation = try Self.presentation(presentation)
    }
    if let categories = map["categories"] {
      for item in try categories.list() {
        let category = try self.category(item)
        guard !app.categories.contains(where: { $0.identifier == category.identifier }) else {
          throw item.error("the category \"\(category.identifier)\" is registered twice")
        }
        app.categories.append(category)
      }
    }
    if let localizations = map["localizations"] { app.localizations = try self.localizations(localizations) }
    if let extensionValue = map["serviceExtension"] {
      app.serviceExtension = try serviceExtension(extensionValue)
      app.hasServiceExtension = app.serviceExtension != nil
    }
    if let background = map["backgroundMode"] { app.backgroundRemoteNotifications = try background.bool() }
    if let layouts = map["liveActivities"] {
      for (type, layout) in try layouts.freeMapping() {
        app.liveActivityLayouts[type] = try liveActivityLayout(layout)
      }
    }
    if let tokens = map["tokens"] {
      let fields = try tokens.mapping(allowed: ["pushToStart"])
      if let token = fields["pushToStart"] {
        let text = try token.nonEmptyString("the app's push-to-start token, hex")
        if let problem = DeviceToken.check(text) {
          throw token.error("\(problem.message); expected the push-to-start token as hex, as the app received it")
        }
        app.pushToStartToken = text.lowercased()
      }
    }
    if let channels = map["channels"] {
      for item in try channels.list() {
        let fields = try item.mapping(allowed: ["id", "storage"])
        let idValue = try fields.required("id", "the channel id, base64 as APNs gives it (e.g. dHN0LXNyY2gtY2hubA==)")
        let id = try idValue.nonEmptyString("a channel id")
        guard ChannelID.isWellFormed(id) else {
          throw idValue.error(
            "\"\(id)\" is not a channel id: expected base64 text (A-Z a-z 0-9 + /, = padding, a multiple of 4 characters)"
          )
        }
        guard !app.channels.contains(where: { $0.id == id }) else {
          throw idValue.error("the channel \"\(id)\" is declared twice")
        }
        var policy = BroadcastChannel.StoragePolicy.noStorage
        if let storage = fields["storage"] {
          policy = try storage.oneOf([("none", .noStorage), ("mostRecent", .mostRecent)])
        }
        app.channels.append(
          BroadcastChannel(id: id, bundleID: bundle, storagePolicy: policy, createdAt: SimInstant(milliseconds: 0)))
      }
    }
    if let entitlements = map["entitlements"] {
      app.criticalAlertsEntitled = false
      app.timeSensitiveEntitled = false
      for item in try entitlements.list() {
        switch try item.oneOf([("criticalAlerts", 0), ("timeSensitive", 1)]) {
        case 0: app.criticalAlertsEntitled = true
        default: app.timeSensitiveEntitled = true
        }
      }
    }
    return app
  }

  static let settingKeys = [
    "lockScreen", "notificationCenter", "banners", "bannerStyle", "sounds", "badges", "showPreviews", "grouping",
    "timeSensitive", "criticalAlerts", "directMessages", "delivery",
  ]

  /// Reads a `settings:` mapping into changes, in the order written.
  static func settingChanges(_ value: YAMLValue) throws(ScenarioError) -> [AppSettingChange] {
    let map = try value.mapping(allowed: settingKeys)
    var changes: [AppSettingChange] = []
    for (key, _, item) in map.entries {
      switch key {
      case "lockScreen": changes.append(.lockScreen(try item.bool()))
      case "notificationCenter": changes.append(.notificationCenter(try item.bool()))
      case "banners": changes.append(.banners(try item.bool()))
      case "bannerStyle": changes.append(.bannerStyle(try item.oneOf(BannerStyle.self)))
      case "sounds": changes.append(.sounds(try item.bool()))
      case "badges": changes.append(.badges(try item.bool()))
      case "showPreviews": changes.append(.showPreviews(try item.oneOf(PreviewSetting.self)))
      case "grouping": changes.append(.grouping(try item.oneOf(GroupingSetting.self)))
      case "timeSensitive": changes.append(.timeSensitive(try item.bool()))
      case "criticalAlerts": changes.append(.criticalAlerts(try item.bool()))
      case "directMessages": changes.append(.directMessages(try item.bool()))
      default: changes.append(.delivery(try item.oneOf(DeliverySetting.self)))
      }
    }
    return changes
  }

  /// Applies a setting change to an app, as the simulator does.
  static func apply(_ change: AppSettingChange, to app: inout AppProfile) {
    switch change {
    case .authorization(let status): app.authorization = status
    case .state(let state): app.state = state
    case .lockScreen(let on): app.settings.lockScreen = on
    case .notificationCenter(let on): app.settings.notificationCenter = on
    case .banners(let on): app.settings.banners = on
    case .sounds(let on): app.settings.sounds = on
    case .badges(let on): app.settings.badges = on
    case .bannerStyle(let style): app.settings.bannerStyle = style
    case .showPreviews(let setting): app.settings.showPreviews = setting
    case .grouping(let setting): app.settings.grouping = setting
    case .timeSensitive(let on): app.settings.timeSensitive = on
    case .criticalAlerts(let on): app.settings.criticalAlerts = on
    case .directMessages(let on): app.settings.directMessages = on
    case .delivery(let setting): app.settings.delivery = setting
    }
  }

  /// `none` (the app does not implement `willPresent`) or a list of banner, list, sound, badge.
  static func presentation(_ value: YAMLValue) throws(ScenarioError) -> PresentationOptions? {
    if value.isNull || value.scalarText == "none" { return nil }
    var options: PresentationOptions = []
    for item in try value.list() {
      options.insert(try item.oneOf(PresentationOptions.names))
    }
    return options
  }

  // MARK: Categories

  func category(_ value: YAMLValue) throws(ScenarioError) -> NotificationCategory {
    let map = try value.mapping(allowed: ["id", "actions", "options", "hiddenPreviewsPlaceholder", "summaryFormat"])
    var category = NotificationCategory(
      identifier: try map.required("id", "the category identifier, as in the payload's \"category\"").nonEmptyString(
        "an identifier"))
    if let actions = map["actions"] {
      for item in try actions.list() {
        let action = try self.action(item)
        guard !category.actions.contains(where: { $0.identifier == action.identifier }) else {
          throw item.error("the action \"\(action.identifier)\" appears twice; action identifiers are unique")
        }
        category.actions.append(action)
      }
    }
    if let options = map["options"] {
      for item in try options.list() {
        category.options.insert(
          try item.oneOf([
            ("customDismissAction", CategoryOptions.customDismissAction),
            ("hiddenPreviewsShowTitle", .hiddenPreviewsShowTitle),
            ("hiddenPreviewsShowSubtitle", .hiddenPreviewsShowSubtitle),
          ]))
      }
    }
    if let placeholder = map["hiddenPreviewsPlaceholder"] {
      category.hiddenPreviewsBodyPlaceholder = try Self.pluralFormat(placeholder)
    }
    if let format = map["summaryFormat"] { category.summaryFormat = try Self.pluralFormat(format) }
    return category
  }

  /// A `%u` format: one string for every count, or `{one: …, other: …}` as a `.stringsdict`
  /// gives the plural forms.
  static func pluralFormat(_ value: YAMLValue) throws(ScenarioError) -> PluralFormat {
    guard case .mapping = value.node else { return PluralFormat(other: try value.string()) }
    let map = try value.mapping(allowed: ["one", "other"])
    return PluralFormat(
      one: try map["one"]?.string(),
      other: try map.required("other", "the form for every count but 1, such as \"%u new messages\"").string())
  }

  // MARK: Live Activities

  static let liveActivityKeys = ["title", "detail", "progress", "time"]

  /// A Live Activity layout: which content-state keys make its title, detail line, progress
  /// bar and relative time.
  func liveActivityLayout(_ value: YAMLValue) throws(ScenarioError) -> LiveActivityLayout {
    let map = try value.mapping(allowed: Self.liveActivityKeys)
    func text(_ key: String) throws(ScenarioError) -> LiveActivityText? {
      guard let item = map[key] else { return nil }
      let text = LiveActivityText(try item.nonEmptyString("a content-state key or a template such as \"{status}\""))
      if text.isTemplate {
        let opened = text.source.filter { $0 == "{" }.count
        let closed = text.source.filter { $0 == "}" }.count
        guard opened == closed, !text.keys.contains(where: \.isEmpty) else {
          throw item.error(
            "unbalanced or empty braces in \(item.described); write each key as {key}, such as \"{courier} · {etaMinutes} min\""
          )
        }
      }
      return text
    }
    var layout = LiveActivityLayout(title: try text("title"), detail: try text("detail"))
    if let progress = map["progress"] {
      if case .mapping = progress.node {
        let fields = try progress.mapping(allowed: ["key", "from", "to"])
        let key = try fields.required("key", "the content-state key holding the number").nonEmptyString("a key")
        let from = try fields["from"].map { (item: YAMLValue) throws(ScenarioError) in try Self.finite(item) } ?? 0
        let to = try fields["to"].map { (item: YAMLValue) throws(ScenarioError) in try Self.finite(item) } ?? 1
        guard from != to else {
          throw progress.error(
            "from and to are both \(from); the bar needs two different ends, such as from: 35, to: 0")
        }
        layout.progress = LiveActivityProgress(key: key, from: from, to: to)
      } else {
        layout.progress = LiveActivityProgress(key: try progress.nonEmptyString("a content-state key holding 0…1"))
      }
    }
    if let time = map["time"] {
      if case .mapping = time.node {
        let fields = try time.mapping(allowed: ["key", "as"])
        layout.time = LiveActivityTime(
          key: try fields.required("key", "the content-state key holding the time").nonEmptyString("a key"),
          unit: try fields["as"]?.oneOf(LiveActivityTime.Unit.self) ?? .date)
      } else {
        layout.time = LiveActivityTime(key: try time.nonEmptyString("a content-state key holding a date"))
      }
    }
    return layout
  }

  /// A finite number, unquoted.
  static func finite(_ value: YAMLValue) throws(ScenarioError) -> Double {
    guard value.isPlain, let text = value.scalarText, let number = YAMLValue.number(text), abs(number) <= 1e12 else {
      throw value.error("expected a number from -1e12 to 1e12, got \(value.described)")
    }
    return number
  }

  func action(_ value: YAMLValue) throws(ScenarioError) -> NotificationAction {
    let map = try value.mapping(allowed: ["id", "title", "options", "textInput"])
    var action = NotificationAction(
      identifier: try map.required("id", "the action identifier").nonEmptyString("an identifier"),
      title: try map.required("title", "the button's title").string())
    if let options = map["options"] {
      for item in try options.list() {
        action.options.insert(
          try item.oneOf([
            ("authenticationRequired", ActionOptions.authenticationRequired), ("destructive", .destructive),
            ("foreground", .foreground),
          ]))
      }
    }
    if let input = map["textInput"] {
      let fields = try input.mapping(allowed: ["button", "placeholder"])
      action.textInputButtonTitle = try fields["button"]?.string() ?? "Send"
      action.textInputPlaceholder = try fields["placeholder"]?.string()
    }
    return action
  }

  // MARK: Localizations

  func localizations(_ value: YAMLValue) throws(ScenarioError) -> [String: String] {
    if case .mapping = value.node {
      var table: [String: String] = [:]
      for (key, item) in try value.freeMapping() { table[key] = try item.string() }
      return table
    }
    let path = try value.nonEmptyString("a map of key: format, or the path of a .strings or .xcstrings file")
    let full = ScenarioFiles.join(directory, path)
    let text: String
    do throws(ScenarioFiles.Problem) {
      text = try files.text(full)
    } catch {
      throw value.error("cannot read \"\(path)\" (\(full)): \(error.message)")
    }
    if path.hasSuffix(".xcstrings") {
      return try StringsFiles.xcstrings(text, file: full)
    } else if path.hasSuffix(".strings") {
      return try StringsFiles.strings(text, file: full)
    }
    throw value.error("expected a .strings or .xcstrings file, got \(value.described)")
  }

  // MARK: Focus

  static let focusKeys = [
    "id", "name", "kind", "allowedApps", "allowedPeople", "timeSensitive", "showSilencedOnLockScreen", "dimLockScreen",
    "filterCriteria",
  ]

  func focus(_ value: YAMLValue) throws(ScenarioError) -> FocusMode {
    let map = try value.mapping(allowed: Self.focusKeys)
    let kind = try map["kind"]?.oneOf(FocusKind.self) ?? .custom
    let id = try map.required("id", "a short id for the Focus, such as work").nonEmptyString("an id")
    let defaultName = kind == .custom ? id : kind.defaultName
    var filters: [String: Set<String>] = [:]
    if let criteria = map["filterCriteria"] {
      for (bundle, values) in try criteria.freeMapping() {
        var set: Set<String> = []
        for item in try values.listOrOne() { set.insert(try item.string()) }
        filters[bundle] = set
      }
    }
    func strings(_ key: String) throws(ScenarioError) -> Set<String> {
      guard let list = map[key] else { return [] }
      var set: Set<String> = []
      for item in try list.list() { set.insert(try item.string()) }
      return set
    }
    return FocusMode(
      id: id, name: try map["name"]?.nonEmptyString("the Focus's name") ?? defaultName, kind: kind,
      allowedApps: try strings("allowedApps"), allowedPeople: try strings("allowedPeople"),
      allowsTimeSensitive: try map["timeSensitive"]?.bool() ?? (kind != .sleep),
      showsSilencedOnLockScreen: try map["showSilencedOnLockScreen"]?.bool() ?? false,
      dimsLockScreen: try map["dimLockScreen"]?.bool(), filterCriteria: filters)
  }
}

import PushCore

/// One row of the settings pane.
public enum SettingsRow: Equatable, Sendable, CaseIterable {
  case focus, locked, displayAs, app
  case authorization, runState
  case lockScreen, notificationCenter, banners, bannerStyle, sounds, badges, showPreviews, grouping
  case timeSensitive, criticalAlerts, directMessages, delivery

  /// The label on the left.
  public var title: String {
    switch self {
    case .focus: "Focus"
    case .locked: "Phone"
    case .displayAs: "Display As"
    case .app: "App"
    case .authorization: "Allow Notifications"
    case .runState: "App state"
    case .lockScreen: "Lock Screen"
    case .notificationCenter: "Notification Center"
    case .banners: "Banners"
    case .bannerStyle: "Banner Style"
    case .sounds: "Sounds"
    case .badges: "Badges"
    case .showPreviews: "Show Previews"
    case .grouping: "Notification Grouping"
    case .timeSensitive: "Time Sensitive"
    case .criticalAlerts: "Critical Alerts"
    case .directMessages: "Direct Messages"
    case .delivery: "Notification Delivery"
    }
  }

  /// Whether the row is an on/off switch (Enter and Space flip it); the others cycle.
  public var isSwitch: Bool {
    switch self {
    case .lockScreen, .notificationCenter, .banners, .sounds, .badges, .timeSensitive, .criticalAlerts,
      .directMessages:
      true
    default: false
    }
  }
}

extension AppState {
  /// The app the settings pane shows: the chosen one, or the first in the profile.
  public var settingsAppProfile: AppProfile? {
    if let settingsApp, let app = device.app(settingsApp) { return app }
    return device.profile.apps.first
  }

  /// The settings pane's rows: Focus, lock, the app, then the app's authorization and settings.
  public func settingsRows() -> [SettingsRow] {
    guard let app = settingsAppProfile else { return [.focus, .locked, .displayAs, .app] }
    // As iOS's Settings shows them: the Critical Alerts and Time Sensitive switches only for
    // an app with the entitlement (they were listed, "On", for every app; an exploratory test).
    return SettingsRow.allCases.filter { row in
      switch row {
      case .criticalAlerts: app.criticalAlertsEntitled
      case .timeSensitive: app.timeSensitiveEntitled
      default: true
      }
    }
  }

  /// A row's current value as iOS's Settings app words it: `On`, `Off`, `When Unlocked`,
  /// `Temporary`, `Immediate Delivery`…
  public func settingsValue(_ row: SettingsRow) -> String {
    if row == .focus { return device.activeFocus?.name ?? "Off" }
    if row == .locked { return device.isLocked ? "Locked" : "Unlocked" }
    if row == .displayAs { return device.profile.lockScreenDisplay.title }
    guard let app = settingsAppProfile else { return "—" }
    let settings = app.settings
    func onOff(_ value: Bool) -> String { value ? "On" : "Off" }
    switch row {
    case .focus, .locked, .displayAs: return ""
    case .app: return app.info.displayName
    case .authorization: return app.authorization.settingsLabel
    case .runState: return app.state.settingsLabel
    case .lockScreen: return onOff(settings.lockScreen)
    case .notificationCenter: return onOff(settings.notificationCenter)
    case .banners: return onOff(settings.banners)
    case .bannerStyle: return settings.bannerStyle.settingsLabel
    case .sounds: return onOff(settings.sounds)
    case .badges: return onOff(settings.badges)
    case .showPreviews: return settings.showPreviews.settingsLabel
    case .grouping: return settings.grouping.settingsLabel
    case .timeSensitive: return onOff(settings.timeSensitive)
    case .criticalAlerts: return onOff(settings.criticalAlerts)
    case .directMessages: return onOff(settings.directMessages)
    case .delivery: return settings.delivery.settingsLabel
    }
  }

  /// Enter or Space on the highlighted row: flips a switch, or moves an enum to its next value.
  mutating func toggleSetting() -> [Effect] {
    adjustSetting(by: 1)
    return []
  }

  /// Changes the highlighted row by `step` values (a switch flips either way), through device
  /// events so the device re-evaluates and the shell's journal records the change.
  mutating func adjustSetting(by step: Int) {
    let rows = settingsRows()
    guard !rows.isEmpty else { return }
    settingsSelection = min(max(settingsSelection, 0), rows.count - 1)
    let row = rows[settingsSelection]
    func cycled<T: CaseIterable & Equatable>(_ value: T) -> T {
      let all = Array(T.allCases)
      let index = all.firstIndex(of: value) ?? 0
      return all[((index + step) % all.count + all.count) % all.count]
    }
    switch row {
    case .focus:
      let choices: [String?] = [nil] + device.profile.focusModes.map(\.id)
      let index = choices.firstIndex(of: device.activeFocusID) ?? 0
      let next = choices[((index + step) % choices.count + choices.count) % choices.count]
      apply(.focus(next), at: now)
      showToast(device.activeFocus.map { "\($0.name) on" } ?? "Focus off")
      return
    case .locked:
      apply(device.isLocked ? .unlock : .lock, at: now)
      showToast(device.isLocked ? "Locked" : "Unlocked")
      return
    case .displayAs:
      device.setLockScreenDisplay(cycled(device.profile.lockScreenDisplay))
      showToast("Display As \(device.profile.lockScreenDisplay.title)")
      return
    case .app:
      let apps = device.profile.apps.map(\.bundleID)
      guard !apps.isEmpty else { return }
      let index = settingsAppProfile.flatMap { apps.firstIndex(of: $0.bundleID) } ?? 0
      settingsApp = apps[((index + step) % apps.count + apps.count) % apps.count]
      return
    default: break
    }
    guard let app = settingsAppProfile else { return }
    let settings = app.settings
    let change: AppSettingChange
    switch row {
    case .focus, .locked, .displayAs, .app: return
    case .authorization: change = .authorization(cycled(app.authorization))
    case .runState: change = .state(cycled(app.state))
    case .lockScreen: change = .lockScreen(!settings.lockScreen)
    case .notificationCenter: change = .notificationCenter(!settings.notificationCenter)
    case .banners: change = .banners(!settings.banners)
    case .bannerStyle: change = .bannerStyle(cycled(settings.bannerStyle))
    case .sounds: change = .sounds(!settings.sounds)
    case .badges: change = .badges(!settings.badges)
    case .showPreviews: change = .showPreviews(cycled(settings.showPreviews))
    case .grouping: change = .grouping(cycled(settings.grouping))
    case .timeSensitive: change = .timeSensitive(!settings.timeSensitive)
    case .criticalAlerts: change = .criticalAlerts(!settings.criticalAlerts)
    case .directMessages: change = .directMessages(!settings.directMessages)
    case .delivery: change = .delivery(cycled(settings.delivery))
    }
    apply(.setting(bundleID: app.bundleID, change), at: now)
    showToast("\(app.info.displayName): \(row.title) \(settingsValue(row))")
  }
}

extension AppState {
  /// A mouse press on something the last frame drew.
  mutating func click(_ target: HitTarget, isDouble: Bool) -> [Effect] {
    switch target {
    case .lockRow(let index):
      guard overlay == nil else { return [] }
      screen = .lock
      let again = lockSelection == index
      lockSelection = index
      if again || isDouble { return perform(.activate) }
    case .centerRow(let index):
      guard overlay == nil else { return [] }
      screen = .center
      let again = centerSelection == index
      centerSelection = index
      if again || isDouble { return perform(.activate) }
    case .action(let index):
      if case .provisional(var choice)? = overlay, choice.options.indices.contains(index) {
        choice.highlighted = index
        overlay = .provisional(choice)
        return perform(.activate)
      }
      guard case .actionSheet(var sheet)? = overlay, case .choosing = sheet.stage else { return [] }
      sheet.highlighted = index
      overlay = .actionSheet(sheet)
      return perform(.activate)
    case .settingsRow(let index):
      guard pane == .settings else { return [] }
      let again = settingsSelection == index
      settingsSelection = index
      if again || isDouble { adjustSetting(by: 1) }
    case .provisional(let row, let keep):
      screen = .center
      centerSelection = row
      return perform(keep ? .keepProvisional : .turnOffProvisional)
    case .banner:
      guard let banner = currentBanner else { return [] }
      dismissFrontBanner()
      if device.store.contains(banner.notification) {
        openDetail(banner.notification)
      } else if let carried = banner.carriedContent {
        // Nothing to open in Notification Center (a Live Activity, or an app with it off): the
        // tap opens the app, as on iOS.
        return openApp(from: banner.notification, carried)
      }
    case .bannerButton(let index):
      guard overlay == nil, let banner = currentBanner else { return [] }
      guard device.store.contains(banner.notification) else {
        // Its actions act on a stored notification: a carried banner's click opens the app.
        return click(.banner, isDouble: false)
      }
      dismissFrontBanner()
      return press(index, on: banner.notification)
    case .detailButton(let index):
      guard overlay == nil, case .detail(let id) = screen else { return [] }
      return press(index, on: id)
    case .inspector:
      break
    }
    return []
  }

  /// A button pressed on a card: as choosing that action in the action sheet, which asks to
  /// unlock first where the action needs it and opens the reply field for a text input.
  private mutating func press(_ index: Int, on id: NotificationID) -> [Effect] {
    guard actions(for: id).indices.contains(index) else { return [] }
    overlay = .actionSheet(ActionSheet(notification: id, highlighted: index))
    return perform(.activate)
  }

  /// The wheel: moves the selection of the list under it, or scrolls an opened notification.
  mutating func scroll(by rows: Int) {
    if overlay == .help {
      helpScroll = min(max(0, helpScroll + rows), helpMaxScroll)
      return
    }
    if pane == .settings {
      settingsSelection = min(max(settingsSelection + rows, 0), settingsRows().count - 1)
      return
    }
    switch screen {
    case .center:
      centerSelection = min(max(centerSelection + rows, 0), max(centerRows().count - 1, 0))
    case .lock:
      lockSelection = min(max(lockSelection + rows, 0), max(lockScreenStacks().count - 1, 0))
    case .detail:
      // Three rows a notch, as terminals scroll text (the inspector's wheel does the same).
      scrollDetail(by: rows * 3)
    }
  }
}

// The words iOS's Settings app uses for each value (Settings ▸ Notifications ▸ app).

extension AuthorizationStatus {
  /// The Allow Notifications row: On, Off, or how the app was allowed.
  public var settingsLabel: String {
    switch self {
    case .notDetermined: "Not Asked Yet"
    case .denied: "Off"
    case .authorized: "On"
    case .provisional: "Deliver Quietly"
    case .ephemeral: "App Clip (8 hours)"
    }
  }
}

extension AppRunState {
  /// The app's state as a person says it.
  public var settingsLabel: String {
    switch self {
    case .foreground: "In Use (Foreground)"
    case .background: "In Background"
    case .notRunning: "Not Running"
    case .forceQuit: "Force Quit"
    }
  }
}

extension BannerStyle {
  /// Banner Style: Temporary or Persistent.
  public var settingsLabel: String {
    switch self {
    case .temporary: "Temporary"
    case .persistent: "Persistent"
    }
  }
}

extension PreviewSetting {
  /// Show Previews: Always, When Unlocked or Never.
  public var settingsLabel: String {
    switch self {
    case .always: "Always"
    case .whenUnlocked: "When Unlocked"
    case .never: "Never"
    }
  }
}

extension GroupingSetting {
  /// Notification Grouping: Automatic, By App or Off.
  public var settingsLabel: String {
    switch self {
    case .automatic: "Automatic"
    case .byApp: "By App"
    case .off: "Off"
    }
  }
}

extension DeliverySetting {
  /// Notification Delivery: Immediate Delivery or Scheduled Summary.
  public var settingsLabel: String {
    switch self {
    case .immediate: "Immediate Delivery"
    case .scheduledSummary: "Scheduled Summary"
    }
  }
}

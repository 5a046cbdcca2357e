import PushCheck
import PushCore
import PushHandlers
import PushScenario
import PushUI

/// Renders delivery records as JSON Lines or as readable blocks.
package struct ExplainPrinter {
  package init(color: Bool, profile: DeviceProfile, ran: [NotificationID: [HandlerRun]] = [:]) {
    self.color = color
    self.profile = profile
    self.ran = ran
  }

  package let color: Bool
  package let profile: DeviceProfile
  /// The handlers that ran for each notification's responses (scenarios with `handlers:`).
  package var ran: [NotificationID: [HandlerRun]] = [:]

  private func iso(_ instant: SimInstant) -> String {
    CivilTime.iso8601(instant, utcOffsetSeconds: profile.utcOffsetSeconds)
  }

  private func quoted(_ text: String?) -> String { text.map(JSONValue.quoted) ?? "null" }

  private func number(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
  }

  /// A rank term for people: at most two decimals.
  private func short(_ value: Double) -> String {
    guard value.isFinite, abs(value) < 1e15 else { return String(value) }
    let hundredths = Int64((value * 100).rounded())
    let sign = hundredths < 0 ? "-" : ""
    let magnitude = abs(hundredths)
    let fraction = magnitude % 100
    if fraction == 0 { return sign + String(magnitude / 100) }
    return sign + String(magnitude / 100) + "." + (fraction < 10 ? "0" : "") + String(fraction).replacingSuffix()
  }

  /// One JSON object, without the newline.
  package func json(_ record: DeliveryRecord) -> String {
    var text = ""
    json(record, into: &text)
    return text
  }

  /// Appends one JSON object, without the newline, to `text`. Written field by field into one
  /// string (no array of fields joined at the end): `explain --format json` of a million-line
  /// capture spends most of its main thread here (docs/PERFORMANCE.md, issue 15).
  package func json(_ record: DeliveryRecord, into text: inout String) {
    let decision = record.decision
    let notification = record.notification
    text.reserveCapacity(text.utf8.count + 1024)
    func string(_ value: String?) {
      if let value { JSONValue.writeString(value, to: &text) } else { text += "null" }
    }
    func strings(_ values: [String]) {
      text += "["
      for (offset, value) in values.enumerated() {
        if offset > 0 { text += "," }
        JSONValue.writeString(value, to: &text)
      }
      text += "]"
    }
    func instant(_ value: SimInstant?) {
      guard let value else {
        text += "null"
        return
      }
      text += "\""
      appendISO(value, to: &text)
      text += "\""
    }
    text += "{\"index\":"
    text += String(record.index + 1)
    text += ",\"at\":"
    instant(record.at)
    text += ",\"bundle\":"
    string(record.bundleID.isEmpty ? nil : record.bundleID)
    text += ",\"title\":"
    string(notification?.title)
    text += ",\"threadId\":"
    string(notification?.threadID)
    text += ",\"collapseId\":"
    string(notification?.collapseID)
    text += ",\"interruptionLevel\":"
    string(notification?.level.rawValue)
    text += ",\"effectiveLevel\":"
    string(notification == nil ? nil : decision.effectiveLevel.rawValue)
    text += ",\"disposition\":"
    string(decision.disposition.rawValue)
    text += ",\"surfaces\":"
    strings(decision.surfaces.map(\.rawValue))
    text += decision.playsSound ? ",\"sound\":true" : ",\"sound\":false"
    text += ",\"soundName\":"
    string(decision.playsSound ? decision.sound.map(Self.soundName) : nil)
    text += ",\"badge\":"
    text += decision.badge.map(String.init) ?? "null"
    text += ",\"heldUntil\":"
    instant(decision.heldUntil)
    text += ",\"replaces\":"
    string(decision.replaces?.description)
    text += decision.previewsHidden ? ",\"previewsHidden\":true" : ",\"previewsHidden\":false"
    text += ",\"reasons\":["
    for (offset, reason) in decision.reasons.enumerated() {
      text += offset > 0 ? ",{\"code\":" : "{\"code\":"
      JSONValue.writeString(reason.code.rawValue, to: &text)
      text += ",\"text\":"
      JSONValue.writeString(reason.text, to: &text)
      text += "}"
    }
    text += "],\"callbacks\":"
    strings(decision.callbacks.map(\.rawValue))
    text += ",\"group\":"
    string(record.group?.description)
    text += ",\"rank\":"
    text += record.groupRank.map(String.init) ?? "null"
    if let terms = record.rank {
      text += ",\"rankTerms\":{\"level\":"
      text += number(terms.level)
      text += ",\"relevance\":"
      text += number(terms.relevance)
      text += ",\"engagement\":"
      text += number(terms.engagement)
      text += ",\"communication\":"
      text += number(terms.communication)
      text += ",\"recency\":"
      text += number(terms.recency)
      text += ",\"score\":"
      text += number(terms.score)
      text += "}"
    } else {
      text += ",\"rankTerms\":null"
    }
    // Only for a broadcast: the channel it came through (apns-channel-id).
    if let channel = record.channelID {
      text += ",\"channel\":"
      JSONValue.writeString(channel, to: &text)
    }
    text += ",\"source\":"
    JSONValue.writeString(record.source, to: &text)
    text += ",\"verdict\":"
    text += PushVerdict(record.diagnostics).json
    text += ",\"diagnostics\":["
    for (offset, diagnostic) in record.diagnostics.enumerated() {
      text += offset > 0 ? ",{\"severity\":" : "{\"severity\":"
      JSONValue.writeString(diagnostic.severity.rawValue, to: &text)
      text += ",\"code\":"
      JSONValue.writeString(diagnostic.code.rawValue, to: &text)
      text += ",\"path\":"
      string(diagnostic.path)
      text += ",\"line\":"
      text += diagnostic.location.map { String($0.line) } ?? "null"
      text += ",\"column\":"
      text += diagnostic.location.map { String($0.column) } ?? "null"
      text += ",\"message\":"
      JSONValue.writeString(diagnostic.message, to: &text)
      text += "}"
    }
    text += "]"
    if !profile.handlers.isEmpty {
      text += ",\"handler\":"
      text += handlerJSON(record.notification)
    }
    text += "}"
  }

  /// `CivilTime.iso8601` in the profile's offset, appended digit by digit (the same text).
  private func appendISO(_ instant: SimInstant, to text: inout String) {
    let offset = profile.utcOffsetSeconds
    let civil = CivilTime(instant, utcOffsetSeconds: offset)
    guard (0...9999).contains(civil.year), (-359_999...359_999).contains(offset) else {
      text += CivilTime.iso8601(instant, utcOffsetSeconds: offset)
      return
    }
    func digits(_ value: Int, _ width: Int) {
      var divisor = 1
      for _ in 1..<width { divisor *= 10 }
      var rest = value
      while divisor > 0 {
        text.unicodeScalars.append(Unicode.Scalar(UInt8(48 + rest / divisor)))
        rest %= divisor
        divisor /= 10
      }
    }
    digits(civil.year, 4)
    text += "-"
    digits(civil.month, 2)
    text += "-"
    digits(civil.day, 2)
    text += "T"
    digits(civil.hour, 2)
    text += ":"
    digits(civil.minute, 2)
    text += ":"
    digits(civil.second, 2)
    var millis = Int(instant.milliseconds % 1000)
    if millis < 0 { millis += 1000 }
    if millis != 0 {
      text += "."
      digits(millis, 3)
    }
    if offset == 0 {
      text += "Z"
    } else {
      text += offset < 0 ? "-" : "+"
      let magnitude = abs(offset)
      digits(magnitude / 3600, 2)
      text += ":"
      digits((magnitude % 3600) / 60, 2)
    }
  }

  package static func soundName(_ sound: SoundRequest) -> String { SoundText.name(sound) }

  private func paint(_ text: String, _ code: String) -> String {
    color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
  }

  /// The outcome in one line: what the device did, where it shows, and why (the reasons' text),
  /// as storyboards caption a push and `--compare` fills a cell.
  package func outcome(_ record: DeliveryRecord) -> String {
    let decision = record.decision
    let surfaces = decision.surfaces.map(Self.surfaceName)
    var line = disposition(decision).0 + (surfaces.isEmpty ? "" : ": " + surfaces.joined(separator: ", "))
    for reason in decision.reasons.prefix(2) { line += " · " + reason.text }
    return line
  }

  /// A push in one line: its number, time, app and title.
  package func heading(_ record: DeliveryRecord) -> String {
    let info =
      record.bundleID.isEmpty ? nil : profile.app(record.bundleID)?.info ?? AppInfo.inferred(from: record.bundleID)
    var line = "#\(record.index + 1)  " + iso(record.at) + "  "
    line += info.map { terminalSafe($0.iconGlyph) + " " + terminalSafe($0.displayName) } ?? "Unknown app"
    if let title = record.notification?.title, !title.isEmpty { line += " “" + terminalSafe(title) + "”" }
    return line
  }

  /// A readable block, ending with a blank line.
  package func text(_ record: DeliveryRecord) -> String {
    let decision = record.decision
    let info =
      record.bundleID.isEmpty
      ? AppInfo(bundleID: "", displayName: "Unknown app", iconGlyph: "🔔")
      : profile.app(record.bundleID)?.info ?? AppInfo.inferred(from: record.bundleID)
    var lines: [String] = []
    lines.append(
      paint("#\(record.index + 1)", "1") + "  " + iso(record.at) + "  " + terminalSafe(info.iconGlyph) + " "
        + paint(terminalSafe(info.displayName), "1") + " ("
        + (record.bundleID.isEmpty ? "no bundle id" : terminalSafe(record.bundleID)) + ")")
    if let notification = record.notification {
      let heading = [notification.title, notification.subtitle].compactMap { $0 }.filter { !$0.isEmpty }
        .joined(separator: " · ")
      let content = [heading, notification.body ?? ""].filter { !$0.isEmpty }.joined(separator: " — ")
      if !content.isEmpty { lines.append("  “" + terminalSafe(content) + "”") }
      var facts = [notification.level.rawValue]
      if decision.effectiveLevel != notification.level { facts[0] += " → " + decision.effectiveLevel.rawValue }
      if let thread = notification.threadID { facts.append("thread " + terminalSafe(thread)) }
      if let collapse = notification.collapseID { facts.append("collapse id " + terminalSafe(collapse)) }
      if let sender = notification.sender { facts.append("from " + terminalSafe(sender)) }
      lines.append("  Level: " + facts.joined(separator: ", "))
    }
    let (word, colorCode) = disposition(decision)
    let surfaces = decision.surfaces.map(Self.surfaceName)
    lines.append(
      "  " + paint(word, colorCode) + (surfaces.isEmpty ? "" : ": " + surfaces.joined(separator: ", ")))
    var sound = "Sound: "
    if decision.playsSound, let request = decision.sound {
      sound += terminalSafe(Self.soundName(request))
    } else {
      sound += decision.playsSound ? "yes" : "none"
    }
    let badge: String
    switch decision.badge {
    case nil: badge = "unchanged"
    case 0: badge = "cleared"
    case .some(let value): badge = String(value)
    }
    lines.append("  " + sound + " · Badge: " + badge + (decision.previewsHidden ? " · Previews hidden" : ""))
    if !decision.reasons.isEmpty {
      lines.append("  Why:")
      for reason in decision.reasons {
        lines.append("    • " + terminalSafe(reason.text) + " " + paint("[\(reason.code.rawValue)]", "2"))
      }
    }
    if !decision.callbacks.isEmpty {
      lines.append("  Callbacks: " + decision.callbacks.map(\.rawValue).joined(separator: ", "))
    }
    if !profile.handlers.isEmpty, let notification = record.notification {
      lines.append("  Handlers: " + terminalSafe(handlerRoutes(notification)))
      for run in ran[notification.id] ?? [] {
        lines.append(
          "  Handled: " + terminalSafe(Self.responseLabel(run.action)) + " → "
            + terminalSafe(run.handler ?? "no handler") + ": " + terminalSafe(run.outcomeText))
      }
    }
    if let group = record.group {
      var stack = "  Stack: " + terminalSafe(group.description)
      if let rank = record.groupRank { stack += ", #\(rank) in Notification Center" }
      if let terms = record.rank {
        stack += String(
          " (level \(short(terms.level)), relevance \(short(terms.relevance)), engagement \(short(terms.engagement)), communication \(short(terms.communication)))"
        )
      }
      lines.append(stack)
    }
    for diagnostic in record.diagnostics {
      let label = diagnostic.severity == .error ? paint("error", "1;31") : paint(diagnostic.severity.rawValue, "1;33")
      var line = "  " + label + "[\(diagnostic.code.rawValue)]: " + terminalSafe(diagnostic.message)
      if let path = diagnostic.path { line += " (at " + terminalSafe(path) + ")" }
      lines.append(line)
    }
    if let channel = record.channelID { lines.append("  Channel: " + terminalSafe(channel) + " (a broadcast)") }
    lines.append("  Source: " + terminalSafe(record.source))
    return lines.joined(separator: "\n") + "\n\n"
  }

  /// `tap`, `dismiss`, or the action's identifier.
  package static func responseLabel(_ action: String) -> String {
    switch action {
    case defaultActionIdentifier: "tap"
    case dismissActionIdentifier: "dismiss"
    default: action
    }
  }

  /// Each response a notification can get and the handler it would go to (nil: none).
  private func routes(_ notification: PushNotification) -> [(label: String, action: String, handler: String?)] {
    let category = profile.app(notification.bundleID)?.category(notification.category)
    var responses = [("tap", defaultActionIdentifier)]
    responses += (category?.actions ?? []).prefix(10).map { ($0.identifier, $0.identifier) }
    if category?.options.contains(.customDismissAction) == true {
      responses.append(("dismiss", dismissActionIdentifier))
    }
    return responses.map { label, action in
      let binding = HandlerBinding.best(
        in: profile.handlers, app: notification.bundleID, category: notification.category, action: action)
      return (label, action, binding.map { HandlerRegistry.summary($0.binding.kind) })
    }
  }

  /// Where each response to a notification would go under the profile's `handlers:`.
  private func handlerRoutes(_ notification: PushNotification) -> String {
    routes(notification).map { $0.label + " → " + ($0.handler ?? "no handler") }.joined(separator: "; ")
  }

  /// `{"routes":[{response, action, handler}], "ran":[{action, handler, outcome, message}]}`.
  private func handlerJSON(_ notification: PushNotification?) -> String {
    guard let notification else { return "null" }
    let routes = routes(notification).map {
      "{\"response\":\(quoted($0.label)),\"action\":\(quoted($0.action)),\"handler\":\(quoted($0.handler))}"
    }
    let runs = (ran[notification.id] ?? []).map {
      "{\"action\":\(quoted($0.action)),\"handler\":\(quoted($0.handler)),\"outcome\":\(quoted($0.outcomeName)),"
        + "\"message\":\(quoted($0.message))}"
    }
    return "{\"routes\":[" + routes.joined(separator: ",") + "],\"ran\":[" + runs.joined(separator: ",") + "]}"
  }

  private func disposition(_ decision: DeliveryDecision) -> (String, String) {
    switch decision.disposition {
    case .delivered: ("Delivered", "1;32")
    case .deliveredQuietly: ("Delivered quietly", "32")
    case .heldForSummary:
      ("Held for the Scheduled Summary" + (decision.heldUntil.map { " at " + iso($0) } ?? ""), "1;33")
    case .replaced: ("Replaced an earlier notification" + (decision.replaces.map { " (\($0))" } ?? ""), "1;32")
    case .silent: ("Silent push, nothing shown", "36")
    case .dropped: ("Dropped", "1;31")
    case .rejected: ("Rejected", "1;31")
    }
  }

  package static func surfaceName(_ surface: Surface) -> String {
    switch surface {
    case .banner: "banner"
    case .lockScreen: "lock screen"
    case .notificationCenter: "Notification Center"
    case .liveActivity: "Live Activity"
    }
  }
}

extension String {
  /// Drops a trailing zero of a two-digit fraction (`50` → `5`).
  fileprivate func replacingSuffix() -> String {
    count == 2 && hasSuffix("0") ? String(dropLast()) : self
  }
}

import PushCheck
import PushCore
import PushHandlers
import PushScenario
import PushUI

/// Renders delivery records as JSON Lines or as readable blocks.
package struct ExplainPrinter {
  package init(
    color: Bool, profile: DeviceProfile, ran: [NotificationID: [HandlerRun]] = [:],
    refused: [NotificationID: [RefusedResponse]] = [:]
  ) {
    self.color = color
    self.profile = profile
    self.ran = ran
    self.refused = refused
  }

  package let color: Bool
  package let profile: DeviceProfile
  /// The handlers that ran for each notification's responses (scenarios with `handlers:`).
  package var ran: [NotificationID: [HandlerRun]] = [:]
  /// The actions and replies the timeline asked of each notification that it does not offer
  /// (``DeviceSimulator/refusedResponses``): said under the push, handlers or not.
  package var refused: [NotificationID: [RefusedResponse]] = [:]

  /// Refused responses by the notification they were aimed at.
  package static func byNotification(_ refused: [RefusedResponse]) -> [NotificationID: [RefusedResponse]] {
    Dictionary(grouping: refused, by: \.id)
  }

  /// `NOPE`, or `reply “On my way”` (through its action when one was named).
  package static func refusedLabel(_ refused: RefusedResponse) -> String {
    guard let text = refused.text else { return refused.actionID }
    return "reply “\(text)”" + (refused.actionID == "reply" ? "" : " (\(refused.actionID))")
  }

  private func iso(_ instant: SimInstant) -> String {
    CivilTime.iso8601(instant, utcOffsetSeconds: profile.utcOffsetSeconds)
  }

  /// A rank term: a whole number as an integer, else as Swift writes the Double.
  private func number(_ name: String, _ value: Double, to json: inout JSONWriter) {
    json.key(name)
    if value == value.rounded() && abs(value) < 1e15 { json.integer(Int(value)) } else { json.number(value) }
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
    var json = JSONWriter(capacity: 1024)
    write(record, to: &json)
    return json.text
  }

  /// Writes one JSON object (without the newline) for a record.
  ///
  /// - Parameter untimed: the push gave no time of its own (a rejected capture line without
  ///   `at`): `at` is null, not the time of the push before it.
  package func write(_ record: DeliveryRecord, to json: inout JSONWriter, untimed: Bool = false) {
    let decision = record.decision
    let notification = record.notification
    json.beginObject()
    json.member("index", record.index + 1)
    json.member("at", untimed ? nil : iso(record.at))
    json.member("bundle", record.bundleID.isEmpty ? nil : record.bundleID)
    // The id later pushes name (`replaces`, "apns-collapse-id matches n1"): pushes rejected or
    // dropped before they were a notification have none.
    json.member("id", notification?.id.description)
    json.member("title", notification?.title)
    json.member("subtitle", notification?.subtitle)
    json.member("body", notification?.body)
    json.member("threadId", notification?.threadID)
    json.member("collapseId", notification?.collapseID)
    json.member("interruptionLevel", notification?.level.rawValue)
    json.member("effectiveLevel", notification == nil ? nil : decision.effectiveLevel.rawValue)
    json.member("disposition", decision.disposition.rawValue)
    // Written in a loop here: `member(_:strings:)` is generic over the sequence, and not
    // specialised across modules.
    json.key("surfaces")
    json.beginArray()
    for surface in decision.surfaces { json.string(surface.rawValue) }
    json.endArray()
    json.member("sound", decision.playsSound)
    json.member("soundName", decision.playsSound ? decision.sound.map(Self.soundName) : nil)
    json.member("badge", decision.badge)
    json.member("heldUntil", decision.heldUntil.map(iso))
    json.member("replaces", decision.replaces?.description)
    json.member("previewsHidden", decision.previewsHidden)
    json.key("reasons")
    json.beginArray()
    for reason in decision.reasons {
      json.beginObject()
      json.member("code", reason.code.rawValue)
      json.member("text", reason.text)
      json.endObject()
    }
    json.endArray()
    json.key("callbacks")
    json.beginArray()
    for callback in decision.callbacks { json.string(callback.rawValue) }
    json.endArray()
    json.member("group", record.group?.description)
    json.member("rank", record.groupRank)
    json.key("rankTerms")
    if let terms = record.rank {
      json.beginObject()
      number("level", terms.level, to: &json)
      number("relevance", terms.relevance, to: &json)
      number("engagement", terms.engagement, to: &json)
      number("communication", terms.communication, to: &json)
      number("recency", terms.recency, to: &json)
      number("score", terms.score, to: &json)
      json.endObject()
    } else {
      json.null()
    }
    // Only for a broadcast: the channel it came through (apns-channel-id).
    if let channel = record.channelID { json.member("channel", channel) }
    json.member("source", record.source)
    json.key("verdict")
    PushVerdict(record.diagnostics).write(to: &json)
    json.key("diagnostics")
    json.beginArray()
    // As `validate --format json` writes them.
    for diagnostic in record.diagnostics { DiagnosticJSON.write(diagnostic, to: &json) }
    json.endArray()
    // Only when the timeline asked it for a response it does not offer.
    if let notification = record.notification, let refused = refused[notification.id], !refused.isEmpty {
      json.key("notPossible")
      json.beginArray()
      for response in refused {
        json.beginObject()
        json.member("action", response.actionID)
        json.member("text", response.text)
        json.member("at", iso(response.at))
        json.member("reason", response.reason)
        json.endObject()
      }
      json.endArray()
    }
    if !profile.handlers.isEmpty {
      json.key("handler")
      writeHandlerJSON(record.notification, to: &json)
    }
    json.endObject()
  }

  /// What a block says in place of the time of a push that gave none.
  package static let noTime = "(no time)"

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

  /// A push in one line: its number, time (``noTime`` when `untimed`), app and title.
  package func heading(_ record: DeliveryRecord, untimed: Bool = false) -> String {
    let info =
      record.bundleID.isEmpty ? nil : profile.app(record.bundleID)?.info ?? AppInfo.inferred(from: record.bundleID)
    var line = "#\(record.index + 1)  " + (untimed ? Self.noTime : iso(record.at)) + "  "
    line += info.map { terminalSafe($0.iconGlyph) + " " + terminalSafe($0.displayName) } ?? "Unknown app"
    if let title = record.notification?.title, !title.isEmpty { line += " “" + terminalSafe(title) + "”" }
    return line
  }

  /// A readable block, ending with a blank line.
  package func text(_ record: DeliveryRecord) -> String { text(record, untimed: false) }

  /// A readable block, ending with a blank line; `untimed` as in ``write(_:to:untimed:)``.
  package func text(_ record: DeliveryRecord, untimed: Bool) -> String {
    let decision = record.decision
    let info =
      record.bundleID.isEmpty
      ? AppInfo(bundleID: "", displayName: "Unknown app", iconGlyph: "🔔")
      : profile.app(record.bundleID)?.info ?? AppInfo.inferred(from: record.bundleID)
    var lines: [String] = []
    lines.append(
      paint("#\(record.index + 1)", "1") + "  " + (untimed ? Self.noTime : iso(record.at)) + "  "
        + terminalSafe(info.iconGlyph) + " "
        + paint(terminalSafe(info.displayName), "1") + " ("
        + (record.bundleID.isEmpty ? "no bundle id" : terminalSafe(record.bundleID))
        // The notification's id, as a later push's reasons name it ("apns-collapse-id matches n1").
        + (record.notification.map { ", " + $0.id.description } ?? "") + ")")
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
    if let notification = record.notification {
      for response in refused[notification.id] ?? [] {
        lines.append(
          "  " + paint("Not possible", "1;33") + ": " + terminalSafe(Self.refusedLabel(response)) + ": "
            + terminalSafe(response.reason) + "; the device did nothing")
      }
    }
    if let group = record.group {
      var stack = "  Stack: " + terminalSafe(group.description)
      if let rank = record.groupRank {
        // One kept for the lock screen only (its app has Notification Center off) is not listed there.
        let list =
          record.decision.surfaces.contains(.notificationCenter) ? "in Notification Center" : "on the lock screen"
        stack += ", #\(rank) \(list)"
      }
      if let terms = record.rank {
        stack += String(
          " (level \(short(terms.level)), relevance \(short(terms.relevance)), engagement \(short(terms.engagement)), communication \(short(terms.communication)))"
        )
      }
      lines.append(stack)
    }
    for diagnostic in record.diagnostics {
      let label = diagnostic.severity == .error ? paint("error", "1;31") : paint(diagnostic.severity.rawValue, "1;33")
      // Where, as `validate` says it: line:column in the source, then the key path; in a text
      // written inside the source's file, in that text: `at 1:23 of the payload string (s.yaml:2)`.
      let place =
        diagnostic.location.map { location in
          " at " + location.place + (location.within == nil ? "" : " (" + terminalSafe(record.source) + ")")
        } ?? ""
      var line = "  " + label + "[\(diagnostic.code.rawValue)]\(place): " + terminalSafe(diagnostic.message)
      if let path = diagnostic.path { line += " (at " + terminalSafe(path) + ")" }
      lines.append(line)
      if let hint = diagnostic.hint { lines.append("    → " + terminalSafe(hint)) }
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
  private func writeHandlerJSON(_ notification: PushNotification?, to json: inout JSONWriter) {
    guard let notification else { return json.null() }
    json.beginObject()
    json.key("routes")
    json.beginArray()
    for route in routes(notification) {
      json.beginObject()
      json.member("response", route.label)
      json.member("action", route.action)
      json.member("handler", route.handler)
      json.endObject()
    }
    json.endArray()
    json.key("ran")
    json.beginArray()
    for run in ran[notification.id] ?? [] {
      json.beginObject()
      json.member("action", run.action)
      json.member("handler", run.handler)
      json.member("outcome", run.outcomeName)
      json.member("message", run.message)
      json.endObject()
    }
    json.endArray()
    json.endObject()
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

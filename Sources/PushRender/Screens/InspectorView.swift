import PushCore
import PushUI

/// The inspector pane for the selected notification: the raw payload pretty-printed, its
/// diagnostics, the delivery decision with every reason, the callbacks fired and the rank terms.
struct InspectorView {
  var state: AppState

  /// The pane's lines with their roles, before wrapping.
  func lines() -> [(String, StyleRole)] {
    if let rejected = state.inspectedRejection {
      let kept = state.rejectedPushes
      let position = kept.firstIndex(of: rejected)
      switch rejected {
      case .record(let index):
        if let record = state.rejectedRecord(index) {
          return Self.rejectionLines(record, position: position, of: kept.count)
        }
      case .refusal(let number):
        if let refusal = state.endpointRefusal(number) {
          var lines = Self.refusalLines(refusal, position: position, of: kept.count)
          let notKept = state.refusedCount - state.endpointRefusals.count
          if notKept > 0 {
            lines.insert(
              ("\(notKept) older refusal\(notKept == 1 ? " is" : "s are") not kept (a flood)", .cardMeta), at: 1)
          }
          return lines
        }
      }
    }
    // A lean device's payload text and reasons come back from the state database, if any.
    guard let id = state.selectedNotification, let detailed = state.detailed(id) else {
      return [("Nothing selected.", .cardMeta)]
    }
    let stored = detailed.notification
    let notification = stored.notification
    let decision = stored.decision
    var lines: [(String, StyleRole)] = []
    let record = state.record(for: id)
    lines.append(("\(id) · \(notification.bundleID)", .cardTitle))
    if let record { lines.append(("source \(record.source)", .cardMeta)) }
    lines.append(("Decision", .groupHeader))
    var summary = "\(decision.disposition.rawValue) · \(decision.effectiveLevel.rawValue)"
    summary +=
      " · " + (decision.surfaces.isEmpty ? "no surfaces" : decision.surfaces.map(\.rawValue).joined(separator: ", "))
    lines.append((summary, .cardBody))
    if decision.playsSound { lines.append(("sound: \(decision.sound.map { "\($0)" } ?? "default")", .cardBody)) }
    if let badge = decision.badge { lines.append(("badge: \(badge)", .cardBody)) }
    if decision.previewsHidden { lines.append(("previews hidden", .cardBody)) }
    lines.append(("Reasons", .groupHeader))
    // A large capture in `run` plays on a lean device: reasons and payload text are not kept
    // (`explain` and `render` on the capture show them).
    let lean = !detailed.hasDetails
    if lean { lines.append(("not kept for a capture this large: explain shows them", .cardMeta)) }
    if decision.reasons.isEmpty, !lean {
      lines.append(("none: delivered as the app's settings allow", .cardMeta))
    }
    for reason in decision.reasons { lines.append(("• \(reason.code.rawValue): \(reason.text)", .cardBody)) }
    if !notification.attachments.isEmpty {
      lines.append(("Attachments", .groupHeader))
      for attachment in notification.attachments {
        lines.append((DetailView.chip(attachment), .cardBody))
        if let image = attachment.thumbnail {
          lines.append(("  thumbnail \(image.width)×\(image.height) px · \(attachment.path)", .cardMeta))
        } else if let problem = attachment.thumbnailProblem {
          lines.append(("  cannot show the image: \(problem)", .warning))
        } else {
          lines.append(("  \(attachment.path)", .cardMeta))
        }
      }
    }
    lines.append(("Callbacks", .groupHeader))
    let fired =
      decision.callbacks.map(\.rawValue)
      + state.device.responses.filter { $0.id == id }.map { "\($0.callback.rawValue) (\($0.actionID))" }
    lines.append((fired.isEmpty ? "none" : fired.joined(separator: ", "), .cardBody))
    // Actions a timeline asked for that this notification does not offer: the device did nothing.
    for refused in state.device.refusedResponses where refused.id == id {
      lines.append(("not possible: \(refused.actionID): \(refused.reason)", .warning))
    }
    let rank = stored.rank
    lines.append(("Rank", .groupHeader))
    lines.append(
      (
        "level \(Self.format(rank.level)) + relevance \(Self.format(rank.relevance)) + engagement \(Self.format(rank.engagement))"
          + " + communication \(Self.format(rank.communication)) + recency \(Self.format(rank.recency)) = \(Self.format(rank.score))",
        .cardBody
      ))
    lines.append(("Diagnostics", .groupHeader))
    let diagnostics = record?.diagnostics ?? []
    if diagnostics.isEmpty { lines.append(("none", .cardBody)) }
    for diagnostic in diagnostics {
      let role: StyleRole =
        diagnostic.severity == .error ? .destructiveAction : diagnostic.severity == .warning ? .warning : .cardBody
      lines.append(("\(diagnostic.severity.rawValue) \(diagnostic.code.rawValue): \(diagnostic.message)", role))
    }
    lines.append(("Payload", .groupHeader))
    if lean, notification.rawPayload.isEmpty {
      lines.append(("not kept for a capture this large: explain shows it", .cardMeta))
      return lines
    }
    let pretty = (try? JSONDocument(bytes: Array(notification.rawPayload.utf8))).map { $0.value(0).prettyText }
    for line in (pretty ?? notification.rawPayload).split(separator: "\n", omittingEmptySubsequences: false) {
      lines.append((String(line), .cardBody))
    }
    return lines
  }

  /// A rejected push: where it came from, why, each diagnostic with its code, key path and
  /// line:column, and the text as received with control characters shown as escapes.
  static func rejectionLines(_ record: DeliveryRecord, position: Int?, of count: Int) -> [(String, StyleRole)] {
    var lines: [(String, StyleRole)] = []
    let which = position.map { " \($0 + 1) of \(count)" } ?? ""
    lines.append(
      ("✗ Rejected push\(which) · " + (record.bundleID.isEmpty ? "unknown app" : record.bundleID), .destructiveAction))
    lines.append(("source \(record.source)", .cardMeta))
    lines.append(("Decision", .groupHeader))
    lines.append(("rejected: nothing reached the device", .cardBody))
    for reason in record.decision.reasons { lines.append(("• \(reason.code.rawValue): \(reason.text)", .cardBody)) }
    lines.append(("Diagnostics", .groupHeader))
    if record.diagnostics.isEmpty { lines.append(("none", .cardBody)) }
    for diagnostic in record.diagnostics {
      let role: StyleRole =
        diagnostic.severity == .error ? .destructiveAction : diagnostic.severity == .warning ? .warning : .cardBody
      lines.append(
        ("\(diagnostic.severity.rawValue) \(diagnostic.code.rawValue)\(diagnostic.place): \(diagnostic.message)", role))
      if let hint = diagnostic.hint { lines.append(("  → \(hint)", .cardMeta)) }
    }
    lines.append(("Text as received", .groupHeader))
    let text = record.rejectedText ?? ""
    if text.isEmpty { lines.append(("(empty)", .cardMeta)) }
    for line in text.split(separator: "\n", omittingEmptySubsequences: false).prefix(200) {
      lines.append((visibleControls(String(line)), .cardBody))
    }
    if text.utf8.count >= DeliveryRecord.rejectedTextLimit {
      lines.append(("… cut at \(DeliveryRecord.rejectedTextLimit) bytes", .cardMeta))
    }
    lines.append(("r: the rejected push before · i or Esc: close", .cardMeta))
    return lines
  }

  /// A push the endpoint refused: the answer, why, and the request as it arrived (headers and
  /// body, untrusted: control characters shown as escapes).
  static func refusalLines(_ refusal: EndpointRefusal, position: Int?, of count: Int) -> [(String, StyleRole)] {
    var lines: [(String, StyleRole)] = []
    let which = position.map { " \($0 + 1) of \(count)" } ?? ""
    let app = refusal.app.map { " · \(visibleControls($0))" } ?? ""
    lines.append(("✗ Refused on the endpoint\(which)\(app)", .destructiveAction))
    lines.append(("\(visibleControls(refusal.method)) \(visibleControls(refusal.path))", .cardMeta))
    lines.append(("Decision", .groupHeader))
    lines.append(("answered \(refusal.status) \(refusal.reason): nothing reached the device", .cardBody))
    if let detail = refusal.detail { lines.append(("• \(visibleControls(detail))", .cardBody)) }
    lines.append(("Headers", .groupHeader))
    if refusal.headers.isEmpty { lines.append(("none", .cardMeta)) }
    for header in refusal.headers {
      lines.append(("\(visibleControls(header.name)): \(visibleControls(header.value))", .cardBody))
    }
    lines.append(("Body as received (\(refusal.bodyByteCount) bytes)", .groupHeader))
    if refusal.body.isEmpty { lines.append(("(empty)", .cardMeta)) }
    for line in refusal.body.split(separator: "\n", omittingEmptySubsequences: false).prefix(200) {
      lines.append((visibleControls(String(line)), .cardBody))
    }
    if refusal.bodyByteCount > refusal.keptBodyBytes {
      lines.append(("… the first \(refusal.keptBodyBytes) bytes are kept", .cardMeta))
    }
    lines.append(("r: the rejected push before · i or Esc: close", .cardMeta))
    return lines
  }

  /// Untrusted text with every control character (C0, DEL, C1) and bidi control shown as an
  /// escape such as `\u{1B}`, so the inspector shows what arrived and the terminal gets none.
  static func visibleControls(_ text: String) -> String {
    var output = ""
    for scalar in text.unicodeScalars {
      switch scalar.value {
      case 0x09: output += "  "
      case 0x00...0x1F, 0x7F...0x9F, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0x061C:
        output += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      default: output.unicodeScalars.append(scalar)
      }
    }
    return output
  }

  /// A rank term to two decimals, whole numbers without them.
  static func format(_ value: Double) -> String {
    let scaled = (value * 100).rounded() / 100
    // `Int(_:)` only where it cannot trap: a stored row may hold any double.
    return scaled == scaled.rounded() && abs(scaled) < 1e15 ? String(Int(scaled)) : String(scaled)
  }

  /// Draws the pane, scrolled by ``AppState/inspectorScrollRows`` (clamped to its text): a
  /// row at the top says how much is above, one at the bottom how much is below and how to
  /// get there. Sets the grid's ``CellGrid/inspectorScrollLimit``.
  func draw(into grid: inout CellGrid, in rect: Rect, theme: Theme) {
    Chrome.drawBox(rect, title: "Inspector", into: &grid, theme: theme)
    let inner = rect.columns - 4
    // Every row of the wrapped text: its text, role and column.
    var rows: [(text: String, role: StyleRole, column: Int)] = []
    for (text, role) in lines() {
      // Payload lines keep their indentation; wrapped continuation lines indent two more.
      let indent = min(leadingSpaces(text), inner / 2)
      let wrapped = TextLayout.wrap(text.drop { $0 == " " }, toColumns: max(1, inner - indent - 2))
      for (index, line) in (wrapped.isEmpty ? [""] : wrapped).enumerated() {
        rows.append((line, role, rect.column + 2 + indent + (index > 0 ? 2 : 0)))
      }
    }
    let first = rect.row + 1
    let visible = max(1, rect.endRow - 2 - first)
    let limit = max(0, rows.count - visible)
    grid.inspectorScrollLimit = limit
    let offset = min(state.inspectorScrollRows, limit)
    for (index, row) in rows[offset..<min(rows.count, offset + visible)].enumerated() {
      let at = first + index
      if index == 0, offset > 0 {
        grid.write(
          "↑ \(offset) more above · PgUp", at: Point(column: rect.column + 2, row: at), style: theme[.cardMeta],
          role: .cardMeta, maxColumns: inner)
        continue
      }
      grid.write(
        row.text, at: Point(column: row.column, row: at), style: theme[row.role], role: row.role, maxColumns: inner)
    }
    let below = rows.count - offset - visible
    if below > 0 {
      grid.write(
        "↓ \(below) more · PgDn", at: Point(column: rect.column + 2, row: first + visible), style: theme[.cardMeta],
        role: .cardMeta, maxColumns: inner)
    }
  }

  private func leadingSpaces(_ text: String) -> Int { text.prefix { $0 == " " }.count }
}

import PushCore
import PushUI

/// The inspector pane for the selected notification: the raw payload pretty-printed, its
/// diagnostics, the delivery decision with every reason, the callbacks fired and the rank terms.
struct InspectorView {
  var state: AppState

  /// The pane's lines with their roles, before wrapping.
  func lines() -> [(String, StyleRole)] {
    guard let id = state.selectedNotification, let stored = state.device.store[id] else {
      return [("Nothing selected.", .cardMeta)]
    }
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
    if decision.reasons.isEmpty { lines.append(("none: delivered as the app's settings allow", .cardMeta)) }
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
    let rank = stored.rank
    lines.append(("Rank", .groupHeader))
    lines.append(
      (
        "level \(format(rank.level)) + relevance \(format(rank.relevance)) + engagement \(format(rank.engagement))"
          + " + communication \(format(rank.communication)) + recency \(format(rank.recency)) = \(format(rank.score))",
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
    let pretty = (try? JSONDocument(bytes: Array(notification.rawPayload.utf8))).map { $0.value(0).prettyText }
    for line in (pretty ?? notification.rawPayload).split(separator: "\n", omittingEmptySubsequences: false) {
      lines.append((String(line), .cardBody))
    }
    return lines
  }

  private func format(_ value: Double) -> String {
    let scaled = (value * 100).rounded() / 100
    return scaled == scaled.rounded() ? String(Int(scaled)) : String(scaled)
  }

  func draw(into grid: inout CellGrid, in rect: Rect, theme: Theme) {
    Chrome.drawBox(rect, title: "Inspector", into: &grid, theme: theme)
    let inner = rect.columns - 4
    var row = rect.row + 1
    let last = rect.endRow - 2
    for (text, role) in lines() {
      // Payload lines keep their indentation; wrapped continuation lines indent two more.
      let indent = min(leadingSpaces(text), inner / 2)
      let wrapped = TextLayout.wrap(text.drop { $0 == " " }, toColumns: max(1, inner - indent - 2))
      for (index, line) in (wrapped.isEmpty ? [""] : wrapped).enumerated() {
        guard row < last else {
          grid.write("…", at: Point(column: rect.column + 2, row: last), style: theme[.cardMeta], role: .cardMeta)
          return
        }
        let column = rect.column + 2 + indent + (index > 0 ? 2 : 0)
        grid.write(line, at: Point(column: column, row: row), style: theme[role], role: role, maxColumns: inner)
        row += 1
      }
    }
  }

  private func leadingSpaces(_ text: String) -> Int { text.prefix { $0 == " " }.count }
}

import Foundation
import PushCore
import PushUI

/// The JSON a handler receives for one response: what the app's
/// `userNotificationCenter(_:didReceive:withCompletionHandler:)` would see.
///
/// One line, keys in a fixed order: `time` (ISO 8601, UTC), `app`, `notification`, `category`,
/// `action`, `actionTitle`, `text` (null unless typed), `userInfo` (the payload as sent, or a
/// string when it is not JSON).
public enum ResponseJSON {
  /// The response as one line of JSON.
  public static func line(for invocation: ActionInvocation, at time: Date) -> String {
    var fields: [(String, String)] = [
      ("time", quote(timestamp(time))),
      ("app", quote(invocation.bundleID)),
      ("notification", String(invocation.notification.rawValue)),
      ("category", invocation.categoryID.map(quote) ?? "null"),
      ("action", quote(invocation.actionID)),
      ("actionTitle", quote(invocation.actionTitle)),
      ("text", invocation.text.map(quote) ?? "null"),
    ]
    fields.append(("userInfo", userInfo(invocation.payload)))
    return "{" + fields.map { "\(quote($0.0)):\($0.1)" }.joined(separator: ",") + "}"
  }

  /// The payload as a JSON value on one line: valid JSON is kept as sent (raw newlines can only
  /// be whitespace between tokens, so they become spaces); anything else becomes a string.
  static func userInfo(_ payload: String) -> String {
    let trimmed = payload.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !trimmed.isEmpty,
      (try? JSONSerialization.jsonObject(with: Data(trimmed.utf8), options: [.fragmentsAllowed])) != nil
    else { return trimmed.isEmpty ? "null" : quote(payload) }
    return String(trimmed.map { $0 == "\n" || $0 == "\r" || $0 == "\r\n" || $0 == "\t" ? " " : $0 })
  }

  /// `2026-11-23T09:41:00.000Z`.
  static func timestamp(_ date: Date) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    formatter.timeZone = TimeZone(identifier: "UTC")
    return formatter.string(from: date)
  }

  /// A JSON string literal; every control character is escaped.
  public static func quote(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case _
      where scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value)
        || scalar.value == 0x2028 || scalar.value == 0x2029:
        let hex = String(scalar.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }
}

/// Text from a handler made safe for a one-line toast: control characters and escape
/// sequences are dropped, runs of whitespace become one space.
enum ToastText {
  static func clean(_ text: String, limit: Int = 200) -> String {
    var out = ""
    var scalars = text.unicodeScalars.makeIterator()
    var lastWasSpace = false
    while let scalar = scalars.next() {
      if scalar == "\u{1B}" {
        // Skip an escape sequence: ESC [ … final byte, ESC ] … BEL/ST, or ESC + one character.
        guard let next = scalars.next() else { break }
        if next == "[" {
          while let c = scalars.next(), !(0x40...0x7E).contains(c.value) {}
        } else if next == "]" {
          while let c = scalars.next(), c != "\u{07}", c != "\u{1B}" {}
        }
        continue
      }
      let isControl = scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value)
      if isControl || scalar.properties.isWhitespace {
        if !lastWasSpace && !out.isEmpty { out += " " }
        lastWasSpace = true
        continue
      }
      lastWasSpace = false
      out.unicodeScalars.append(scalar)
    }
    while out.hasSuffix(" ") { out.removeLast() }
    return out.count > limit ? String(out.prefix(limit - 1)) + "…" : out
  }
}

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
    var json = JSONWriter(capacity: invocation.payload.utf8.count + 256)
    json.object { write(invocation, at: time, to: &$0) }
    return json.text
  }

  /// Writes the response's members (into an open object), for handlers that add their own.
  static func write(_ invocation: ActionInvocation, at time: Date, to json: inout JSONWriter) {
    json.member("time", timestamp(time))
    json.member("app", invocation.bundleID)
    json.member("notification", invocation.notification.rawValue)
    json.member("category", invocation.categoryID)
    json.member("action", invocation.actionID)
    json.member("actionTitle", invocation.actionTitle)
    json.member("text", invocation.text)
    json.key("userInfo")
    writeUserInfo(invocation.payload, to: &json)
  }

  /// The payload as a JSON value on one line: valid JSON is kept as sent (raw line breaks can
  /// only be whitespace between tokens, so they become spaces); anything else becomes a string.
  static func writeUserInfo(_ payload: String, to json: inout JSONWriter) {
    let trimmed = payload.trimmingCharacters(in: .whitespacesAndNewlines)
    if trimmed.isEmpty { return json.null() }
    let bytes = Array(trimmed.utf8)
    if (try? JSONDocument(bytes: bytes)) != nil {
      json.scannedJSON(bytes)
    } else {
      json.string(payload)
    }
  }

  /// `2026-11-23T09:41:00.000Z`.
  static func timestamp(_ date: Date) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    formatter.timeZone = TimeZone(identifier: "UTC")
    return formatter.string(from: date)
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

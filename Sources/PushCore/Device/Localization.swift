/// Resolves `loc-key`/`loc-args` the way iOS does with the app's `Localizable.strings`.
public enum Localization {
  /// Formats the string for `key` with `arguments`.
  ///
  /// `%@` takes the next argument, `%n$@` the n-th, `%%` is a percent sign; `%d` and `%i` are
  /// accepted too, since loc-args are strings anyway. A key the app does not have is shown as the
  /// key itself, as iOS does.
  public static func resolve(key: String, arguments: [String], table: [String: String]) -> String {
    format(table[key] ?? key, arguments)
  }

  /// Substitutes arguments into a printf-style format with `%@` and `%n$@` placeholders.
  public static func format(_ format: String, _ arguments: [String]) -> String {
    // Without a `%`, the format is its own result (most strings have no placeholder).
    guard format.utf8.contains(UInt8(ascii: "%")) else { return format }
    var output = ""
    var next = 0
    let characters = Array(format)
    var index = 0
    while index < characters.count {
      let character = characters[index]
      guard character == "%", index + 1 < characters.count else {
        output.append(character)
        index += 1
        continue
      }
      var cursor = index + 1
      if characters[cursor] == "%" {
        output.append("%")
        index = cursor + 1
        continue
      }
      var position: Int?
      var digits = ""
      while cursor < characters.count, characters[cursor].isASCII, characters[cursor].isNumber {
        digits.append(characters[cursor])
        cursor += 1
      }
      if !digits.isEmpty, cursor < characters.count, characters[cursor] == "$" {
        position = Int(digits).map { $0 - 1 }
        cursor += 1
      } else if !digits.isEmpty {
        cursor = index + 1
      }
      guard cursor < characters.count, ["@", "d", "i", "u", "s"].contains(characters[cursor]) else {
        output.append(character)
        index += 1
        continue
      }
      let argumentIndex = position ?? next
      if position == nil { next += 1 }
      output += argumentIndex >= 0 && argumentIndex < arguments.count ? arguments[argumentIndex] : ""
      index = cursor + 1
    }
    return output
  }
}

import PushCore
import PushYAML

/// Reads an app's localizations: `Localizable.strings` and String Catalogs (`.xcstrings`).
enum StringsFiles {
  /// Parses the old-style property list of `"key" = "value";` pairs, with `/* */` and `//`
  /// comments and the escapes `\"`, `\\`, `\n`, `\t`, `\r` and `\U1234`.
  static func strings(_ text: String, file: String) throws(ScenarioError) -> [String: String] {
    let scalars = Array(text.unicodeScalars)
    var index = 0
    var line = 1
    var column = 1
    var table: [String: String] = [:]

    func fail(_ message: String) -> ScenarioError {
      ScenarioError(file: file, line: line, column: column, message: message)
    }
    func advance() {
      if scalars[index] == "\n" {
        line += 1
        column = 1
      } else {
        column += 1
      }
      index += 1
    }
    func skipTrivia() throws(ScenarioError) {
      while index < scalars.count {
        let scalar = scalars[index]
        if scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" || scalar == "\u{FEFF}" {
          advance()
        } else if scalar == "/", index + 1 < scalars.count, scalars[index + 1] == "*" {
          advance()
          advance()
          while index + 1 < scalars.count, !(scalars[index] == "*" && scalars[index + 1] == "/") { advance() }
          guard index + 1 < scalars.count else { throw fail("a /* comment is not closed") }
          advance()
          advance()
        } else if scalar == "/", index + 1 < scalars.count, scalars[index + 1] == "/" {
          while index < scalars.count, scalars[index] != "\n" { advance() }
        } else {
          return
        }
      }
    }
    func quoted(_ what: String) throws(ScenarioError) -> String {
      guard index < scalars.count, scalars[index] == "\"" else { throw fail("expected \(what) in double quotes") }
      advance()
      var value = String.UnicodeScalarView()
      while index < scalars.count, scalars[index] != "\"" {
        if scalars[index] == "\\", index + 1 < scalars.count {
          advance()
          let escape = scalars[index]
          advance()
          switch escape {
          case "n": value.append("\n")
          case "t": value.append("\t")
          case "r": value.append("\r")
          case "U", "u":
            var hex = ""
            while hex.count < 4, index < scalars.count, scalars[index].properties.isASCIIHexDigit {
              hex.unicodeScalars.append(scalars[index])
              advance()
            }
            guard let code = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(code) else {
              throw fail("\\U needs four hex digits")
            }
            value.append(scalar)
          default: value.append(escape)
          }
        } else {
          value.append(scalars[index])
          advance()
        }
      }
      guard index < scalars.count else { throw fail("a string is not closed with \"") }
      advance()
      return String(value)
    }

    while true {
      try skipTrivia()
      guard index < scalars.count else { break }
      let key = try quoted("a key")
      try skipTrivia()
      guard index < scalars.count, scalars[index] == "=" else { throw fail("expected = after the key \"\(key)\"") }
      advance()
      try skipTrivia()
      let value = try quoted("the value")
      try skipTrivia()
      guard index < scalars.count, scalars[index] == ";" else { throw fail("expected ; after the value of \"\(key)\"") }
      advance()
      table[key] = value
    }
    return table
  }

  /// Reads a String Catalog: for each key, the source language's `stringUnit.value` (or the key
  /// itself when the catalog has no value, as Xcode does).
  static func xcstrings(_ text: String, file: String) throws(ScenarioError) -> [String: String] {
    let root = try YAMLValue.parse(text, file: file)
    let top = try root.freeMapping()
    let source = try top.first { $0.key == "sourceLanguage" }?.value.string() ?? "en"
    guard let strings = top.first(where: { $0.key == "strings" })?.value else {
      throw root.error("a String Catalog needs \"strings\"")
    }
    var table: [String: String] = [:]
    for (key, entry) in try strings.freeMapping() {
      table[key] = key
      guard case .mapping = entry.node,
        let localizations = try entry.freeMapping().first(where: { $0.key == "localizations" })?.value,
        case .mapping = localizations.node,
        let language = try localizations.freeMapping().first(where: { $0.key == source })?.value,
        case .mapping = language.node,
        let unit = try language.freeMapping().first(where: { $0.key == "stringUnit" })?.value,
        case .mapping = unit.node,
        let value = try unit.freeMapping().first(where: { $0.key == "value" })?.value
      else { continue }
      table[key] = try value.string()
    }
    return table
  }
}

import PushYAML

/// A problem in a theme file, naming the file, line and key path (the YAML layer's
/// ``YAMLError`` without its column).
public struct ThemeError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The file (or a description such as `<built-in default>`).
  public var file: String
  /// The 1-based line, when known.
  public var line: Int?
  /// The 1-based column, when known.
  public var column: Int?
  /// The dotted key path, for example `roles.cardTitle.fg`; empty for the whole document.
  public var keyPath: String
  /// What is wrong.
  public var message: String

  /// Creates an error.
  public init(file: String, line: Int?, column: Int? = nil, keyPath: String, message: String) {
    self.file = file
    self.line = line
    self.column = column
    self.keyPath = keyPath
    self.message = message
  }

  /// The theme error of a YAML layer error.
  init(_ error: YAMLError) {
    self.init(file: error.file, line: error.line, column: error.column, keyPath: error.path, message: error.message)
  }

  /// `themes/bad.yaml:7:9: roles.cardTitle.fg: unknown colour "blurple"`.
  public var description: String {
    let location = line.map { line in column.map { "\(file):\(line):\($0)" } ?? "\(file):\(line)" } ?? file
    return keyPath.isEmpty ? "\(location): \(message)" : "\(location): \(keyPath): \(message)"
  }
}

extension Theme {
  /// Loads a theme from YAML (or JSON) text.
  ///
  /// The document is a mapping with `name`, an optional `palette` of named colours, an optional
  /// `wallpaper` (`top`, `bottom`), `roles` (each `fg`, `bg`, `bold`, `dim`, `italic`,
  /// `underline`, `reverse`) and an optional `monochrome` list of attributes per role. Colours
  /// are `#RRGGBB`, a palette name, an ANSI name (`red`, `brightBlue`…), `default`, or a
  /// 256-colour index. A missing `bg`/`fg` is transparent. Unknown keys are errors.
  ///
  /// - Parameters:
  ///   - yaml: the text.
  ///   - file: how to name the text in errors.
  ///   - base: roles the document does not define are taken from this theme.
  public static func load(yaml: String, file: String, base: Theme? = .builtInDefault)
    throws(ThemeError) -> Theme
  {
    let root: YAMLValue
    do {
      root = try YAMLValue.parse(yaml, file: file)
    } catch {
      throw ThemeError(error)
    }
    return try ThemeDocumentReader(file: file, base: base).read(root)
  }
}

/// Walks a theme document through the YAML layer (``YAMLValue``) and builds a ``Theme``,
/// keeping key paths for errors.
private struct ThemeDocumentReader {
  let file: String
  let base: Theme?

  private static let ansiNames: [String: UInt8] = [
    "black": 0, "red": 1, "green": 2, "yellow": 3, "blue": 4, "magenta": 5, "cyan": 6,
    "white": 7, "brightblack": 8, "gray": 8, "grey": 8, "brightred": 9, "brightgreen": 10,
    "brightyellow": 11, "brightblue": 12, "brightmagenta": 13, "brightcyan": 14,
    "brightwhite": 15,
  ]

  /// An error at a value's line, under a key path.
  func error(_ value: YAMLValue, _ path: String, _ message: String) -> ThemeError {
    ThemeError(file: file, line: value.line, column: value.column, keyPath: path, message: message)
  }

  /// A mapping's entries: each key, its node (for errors about the key) and its value.
  func mapping(_ value: YAMLValue, _ path: String) throws(ThemeError) -> [(String, YAMLValue, YAMLValue)] {
    guard let entries = value.entries() else {
      throw error(value, path, "expected a mapping")
    }
    var result: [(String, YAMLValue, YAMLValue)] = []
    for (key, keyValue, entry) in entries {
      guard let key else { throw error(keyValue, path, "keys must be strings") }
      result.append((key, keyValue, entry))
    }
    return result
  }

  func read(_ root: YAMLValue) throws(ThemeError) -> Theme {
    var name = base?.name ?? "unnamed"
    var palette: [String: Color] = [:]
    var styles = base?.styles ?? [:]
    var monochrome = base?.monochromeStyles ?? [:]
    var wallpaper = base?.wallpaper
    let entries = try mapping(root, "")
    // The palette first, so roles may refer to it wherever it appears.
    for (key, _, value) in entries where key == "palette" {
      for (colorName, _, colorValue) in try mapping(value, "palette") {
        // An entry may name one given before it (`accent: brand`), as roles may.
        palette[colorName] = try color(colorValue, "palette.\(colorName)", palette: palette)
      }
    }
    for (key, keyValue, value) in entries {
      switch key {
      case "name":
        guard let text = value.scalarText else {
          throw error(value, "name", "expected a string")
        }
        name = text
      case "palette": break
      case "wallpaper":
        var top: Color?
        var bottom: Color?
        for (edge, edgeKey, colorValue) in try mapping(value, "wallpaper") {
          switch edge {
          case "top": top = try color(colorValue, "wallpaper.top", palette: palette)
          case "bottom": bottom = try color(colorValue, "wallpaper.bottom", palette: palette)
          default: throw error(edgeKey, "wallpaper.\(edge)", "unknown key (expected top or bottom)")
          }
        }
        guard let top else { throw error(value, "wallpaper.top", "missing") }
        wallpaper = Wallpaper(top: top, bottom: bottom ?? top)
      case "roles":
        for (roleName, roleKey, roleValue) in try mapping(value, "roles") {
          let role = try self.role(roleName, roleKey, "roles.\(roleName)")
          styles[role] = try style(roleValue, "roles.\(roleName)", palette: palette)
        }
      case "monochrome":
        for (roleName, roleKey, listValue) in try mapping(value, "monochrome") {
          let role = try self.role(roleName, roleKey, "monochrome.\(roleName)")
          monochrome[role] = try attributes(listValue, "monochrome.\(roleName)")
        }
      default:
        throw error(
          keyValue, key, "unknown key (expected name, palette, wallpaper, roles or monochrome)")
      }
    }
    return Theme(name: name, styles: styles, monochromeStyles: monochrome, wallpaper: wallpaper)
  }

  func role(_ name: String, _ key: YAMLValue, _ path: String) throws(ThemeError) -> StyleRole {
    guard let role = StyleRole(rawValue: name) else {
      let roles = StyleRole.allCases.map(\.rawValue)
      let hint =
        Spelling.suggestion(for: name, among: roles).map { "did you mean \"\($0)\"?" }
        ?? "the roles are listed in themes/default.yaml"
      throw error(key, path, "unknown role \"\(name)\" (\(hint))")
    }
    return role
  }

  func style(_ value: YAMLValue, _ path: String, palette: [String: Color]) throws(ThemeError) -> Style {
    var style = Style()
    for (key, keyValue, entry) in try mapping(value, path) {
      let keyPath = "\(path).\(key)"
      switch key {
      case "fg": style.foreground = try color(entry, keyPath, palette: palette)
      case "bg": style.background = try color(entry, keyPath, palette: palette)
      case "bold": style.isBold = try flag(entry, keyPath)
      case "dim": style.isDim = try flag(entry, keyPath)
      case "italic": style.isItalic = try flag(entry, keyPath)
      case "underline": style.isUnderlined = try flag(entry, keyPath)
      case "reverse": style.isReversed = try flag(entry, keyPath)
      default:
        throw error(
          keyValue, keyPath, "unknown key (expected fg, bg, bold, dim, italic, underline, reverse)")
      }
    }
    return style
  }

  func attributes(_ value: YAMLValue, _ path: String) throws(ThemeError) -> Style {
    guard let list = try? value.list() else {
      throw error(value, path, "expected a list such as [bold, reverse]")
    }
    var style = Style()
    for item in list {
      switch item.scalarText {
      case "bold": style.isBold = true
      case "dim": style.isDim = true
      case "italic": style.isItalic = true
      case "underline": style.isUnderlined = true
      case "reverse": style.isReversed = true
      default:
        throw error(item, path, "unknown attribute \"\(item.scalarText ?? "?")\"")
      }
    }
    return style
  }

  /// `true` or `false`, unquoted (the YAML 1.2 core schema, as in scenarios: `yes` is text).
  func flag(_ value: YAMLValue, _ path: String) throws(ThemeError) -> Bool {
    guard let flag = try? value.bool() else { throw error(value, path, "expected true or false") }
    return flag
  }

  /// `#RRGGBB`, a palette name, an ANSI colour name, `default`, or a colour index (a whole
  /// number, unquoted, from 0 to 255).
  func color(_ value: YAMLValue, _ path: String, palette: [String: Color]) throws(ThemeError) -> Color {
    if let index = try? value.int() {
      guard (0...255).contains(index) else {
        throw error(value, path, "colour index \(index) is outside 0–255")
      }
      return index < 16 ? .ansi16(UInt8(index)) : .indexed256(UInt8(index))
    }
    guard let text = value.scalarText else {
      throw error(value, path, "expected a colour")
    }
    if let named = palette[text] { return named }
    if text == "default" { return .terminalDefault }
    if let ansi = Self.ansiNames[text.lowercased()] { return .ansi16(ansi) }
    if text.hasPrefix("#"), text.count == 7, let value = UInt32(text.dropFirst(), radix: 16) {
      return .rgb(UInt8(value >> 16), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF))
    }
    let known = palette.keys.sorted() + Self.ansiNames.keys.sorted()
    throw error(
      value, path,
      "unknown colour \"\(text)\"\(Spelling.didYouMean(text, among: known)) (expected #RRGGBB, a palette name given before it, an ANSI colour name, default or 0–255)"
    )
  }
}

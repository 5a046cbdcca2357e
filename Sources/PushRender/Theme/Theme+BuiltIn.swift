extension Theme {
  /// The built-in themes' YAML, by name, in name order: `themes/*.yaml`, compiled into the
  /// binary at build time by the `EmbedFiles` plugin, so it works without the folder.
  public static let builtInYAML: [(name: String, text: String)] = EmbeddedThemes.files

  /// The names of the built-in themes, `default` first, then in name order.
  public static var builtInNames: [String] {
    let names = builtInYAML.map(\.name)
    return names.contains("default") ? ["default"] + names.filter { $0 != "default" } : names
  }

  /// The text of `themes/default.yaml`.
  public static var builtInDefaultYAML: String {
    builtInYAML.first { $0.name == "default" }?.text ?? ""
  }

  /// A built-in theme by name (roles it leaves out come from `default`), or nil.
  ///
  /// - Throws: ``ThemeError`` only if an embedded file is broken, which `ThemeTests` rules out.
  public static func builtIn(named name: String) throws(ThemeError) -> Theme? {
    if name == "default" { return builtInDefault }
    guard let text = builtInYAML.first(where: { $0.name == name })?.text else { return nil }
    return try Theme.load(yaml: text, file: "<built-in \(name)>")
  }
}

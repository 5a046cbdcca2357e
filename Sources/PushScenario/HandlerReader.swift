import PushCore
import PushYAML

extension ProfileReader {
  static let handlerKeys = ["app", "category", "action", "handler", "file", "argv", "url", "timeout", "message"]

  /// Reads one `handlers:` entry: `{app, category, action, handler, file | argv | url, timeout}`.
  ///
  /// Relative `file` paths and an `argv[0]` with a slash start from the profile's directory.
  func handler(_ value: YAMLValue) throws(ScenarioError) -> HandlerBinding {
    let map = try value.mapping(allowed: Self.handlerKeys)
    let handlerValue = try map.required("handler", "the handler to run: \(HandlerKind.names.joined(separator: ", "))")
    let name = try handlerValue.oneOf(HandlerKind.names.map { ($0, $0) })
    let applicable: [String: [String]] = [
      "log": ["file"], "exec": ["argv", "timeout"], "http": ["url", "timeout"], "open": ["file"],
      "echo": ["message"],
    ]
    for key in ["file", "argv", "url", "timeout", "message"]
    where map.has(key) && !(applicable[name] ?? []).contains(key) {
      throw map[key]!.error(
        "\(key) does not apply to the \(name) handler; it takes \((applicable[name] ?? []).joined(separator: ", "))")
    }
    var timeout = HandlerKind.defaultTimeoutSeconds
    if let value = map["timeout"] {
      let text = try value.string()
      guard let seconds = YAMLValue.number(text), seconds > 0, seconds <= 600 else {
        throw value.error("expected a number of seconds between 0 and 600, such as 5 or 0.5, got \(value.described)")
      }
      timeout = seconds
    }
    let kind: HandlerKind
    switch name {
    case "log":
      let file = try map.required("file", "the file to append JSON lines to").nonEmptyString("a file path")
      kind = .log(file: ScenarioFiles.join(directory, file))
    case "exec":
      let argvValue = try map.required(
        "argv", "the program and its arguments as a list, such as [./cancel.sh, --order]")
      kind = .exec(argv: try argv(argvValue, example: "./cancel.sh"), timeoutSeconds: timeout)
    case "http":
      let urlValue = try map.required("url", "the URL to POST responses to")
      let url = try urlValue.nonEmptyString("a URL")
      let lowered = url.lowercased()
      guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://") else {
        throw urlValue.error("expected an http:// or https:// URL, got \(urlValue.described)")
      }
      kind = .http(url: url, timeoutSeconds: timeout)
    case "echo":
      kind = .echo(
        message: try map["message"].map { value throws(ScenarioError) in
          try value.nonEmptyString("the answer to show, such as \"Reply sent: {text}\"")
        })
    default:
      kind = .open(
        file: try map["file"].map { value throws(ScenarioError) in
          ScenarioFiles.join(directory, try value.nonEmptyString("a file path"))
        })
    }
    func pattern(_ key: String) throws(ScenarioError) -> String {
      guard let value = map[key] else { return "*" }
      return try value.nonEmptyString("an identifier, a pattern with *, or *")
    }
    return HandlerBinding(
      app: try pattern("app"), category: try pattern("category"), action: try pattern("action"), kind: kind)
  }
}

extension ProfileReader {
  /// Reads an `argv:` list (a program run without a shell); an `argv[0]` with a slash starts
  /// from the profile's directory.
  func argv(_ value: YAMLValue, example: String) throws(ScenarioError) -> [String] {
    guard case .sequence = value.node else {
      throw value.error(
        "expected a list such as [\(example), --verbose], got \(value.described); programs run without a shell, so give each argument separately"
      )
    }
    var argv: [String] = []
    for item in try value.list() { argv.append(try item.string()) }
    guard let program = argv.first, !program.isEmpty else {
      throw value.error("expected at least the program to run")
    }
    if program.contains("/") { argv[0] = ScenarioFiles.join(directory, program) }
    return argv
  }
}

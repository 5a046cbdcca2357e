/// A problem in a YAML document (a scenario, a device profile, a theme) or a file it names,
/// located in its file. PushScenario calls it `ScenarioError`; PushRender's `ThemeError` is made
/// from it.
///
/// Printed as `file:line:column: key.path: message`, for example
/// `scenario.yaml:14:7: apps[2].settings.banners: expected true or false, got "yes please"`.
public struct YAMLError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The file, as the user named it (or `<built-in demo>`).
  public var file: String
  /// The 1-based line, when known.
  public var line: Int?
  /// The 1-based column in Unicode scalars, when known.
  public var column: Int?
  /// The key path from the document's root, for example `timeline[3].push.headers`; empty for
  /// the whole document.
  public var path: String
  /// What is wrong and what is expected.
  public var message: String

  /// Creates an error.
  public init(file: String, line: Int? = nil, column: Int? = nil, path: String = "", message: String) {
    self.file = file
    self.line = line
    self.column = column
    self.path = path
    self.message = message
  }

  /// `file:line:column: path: message`.
  public var description: String {
    var text = file
    if let line {
      text += ":\(line)"
      if let column { text += ":\(column)" }
    }
    text += ": "
    if !path.isEmpty { text += path + ": " }
    return text + message
  }
}

/// Suggestions for misspelt keys and enum values.
package enum Spelling {
  /// The candidate closest to `word`, if it is close enough to be a likely typo.
  package static func suggestion(for word: String, among candidates: [String]) -> String? {
    let lowered = word.lowercased()
    var best: (candidate: String, distance: Int)?
    for candidate in candidates {
      let distance = editDistance(lowered, candidate.lowercased())
      if distance < (best?.distance ?? .max) { best = (candidate, distance) }
    }
    guard let best else { return nil }
    let limit = max(2, min(word.count, best.candidate.count) / 3)
    let isPrefix = best.candidate.lowercased().hasPrefix(lowered) || lowered.hasPrefix(best.candidate.lowercased())
    return best.distance <= limit || (isPrefix && lowered.count >= 3) ? best.candidate : nil
  }

  /// ` (did you mean "x"?)` or nothing.
  package static func didYouMean(_ word: String, among candidates: [String]) -> String {
    suggestion(for: word, among: candidates).map { " (did you mean \"\($0)\"?)" } ?? ""
  }

  /// Levenshtein distance over characters.
  package static func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = Array(repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
      }
      swap(&previous, &current)
    }
    return previous[b.count]
  }
}

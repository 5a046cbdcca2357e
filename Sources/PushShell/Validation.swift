import PushCheck
import PushWire

/// Counts what `validate` saw, for the summary line and the exit status.
package struct Tally: Sendable {
  package init() {}

  package var payloads = 0
  package var invalid = 0
  package var errors = 0
  package var warnings = 0

  package mutating func count(_ record: PushRecord, strict: Bool) {
    payloads += 1
    // Counted in one loop; `filter` would build two arrays per record.
    var errorCount = 0
    var warningCount = 0
    for diagnostic in record.diagnostics {
      switch diagnostic.severity {
      case .error: errorCount += 1
      case .warning: warningCount += 1
      case .info: break
      }
    }
    errors += errorCount + (strict ? warningCount : 0)
    warnings += strict ? 0 : warningCount
    if errorCount > 0 || (strict && warningCount > 0) { invalid += 1 }
  }

  package mutating func add(_ other: Tally) {
    payloads += other.payloads
    invalid += other.invalid
    errors += other.errors
    warnings += other.warnings
  }

  package func summary(strict: Bool, ioProblems: Int) -> String {
    let plural = payloads == 1 ? "payload" : "payloads"
    var text = "checked \(payloads) \(plural): \(payloads - invalid) valid, \(invalid) rejected"
    text += "; \(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")"
    if strict { text += " (strict)" }
    if ioProblems > 0 { text += "; \(ioProblems) input\(ioProblems == 1 ? "" : "s") could not be read" }
    return text
  }
}

/// Prints diagnostics in compiler style, with the offending line and a caret for syntax errors.
package struct DiagnosticPrinter: Sendable {
  package init(color: Bool, strict: Bool) {
    self.color = color
    self.strict = strict
  }

  package let color: Bool
  package let strict: Bool

  package func paint(_ text: String, _ code: String) -> String {
    color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
  }

  /// Renders every diagnostic of a record.
  package func render(_ record: PushRecord) -> String {
    var text = ""
    func line(_ string: String) { text += string + "\n" }
    let fileName = record.file
    for diagnostic in record.diagnostics {
      let severity = strict && diagnostic.severity == .warning ? Severity.error : diagnostic.severity
      let position = terminalSafe(diagnostic.position(file: fileName, line: record.line))
      let inside = diagnostic.placeInsideText
      let label: String
      switch severity {
      case .error: label = paint("error", "1;31")
      case .warning: label = paint("warning", "1;33")
      case .info: label = paint("note", "1;36")
      }
      line(
        "\(paint(position + ":", "1")) \(label)[\(diagnostic.code.rawValue)]: \(terminalSafe(diagnostic.message))\(inside)"
      )
      if let excerpt = excerpt(for: diagnostic, in: record) { text += excerpt }
      if let path = diagnostic.path { line("  \(paint("key:", "2")) \(terminalSafe(path))") }
      line("  \(paint("effect:", "2")) \(terminalSafe(diagnostic.effect))")
      let verdict = diagnostic.code.verdict
      line("  \(paint("verdict:", "2")) APNs \(verdict.apns.words); the device \(verdict.device.words)")
      if let hint = diagnostic.hint { line("  \(paint("hint:", "2")) \(terminalSafe(hint))") }
    }
    return text
  }

  /// The source line of a syntax error with a caret under the column.
  package func excerpt(for diagnostic: Diagnostic, in record: PushRecord) -> String? {
    guard diagnostic.path == nil, let location = diagnostic.location, record.payload == nil else { return nil }
    // Lines are cut at each "\n" scalar, as the parser counts them: a String's Characters would
    // take "\r\n" for one and never cut a CRLF file's lines. The "\r" ending a line is not shown.
    let lines = record.rawPayload.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
    // A capture line's text is one line; a file's, or a text inside a file, is counted from its start.
    let lineIndex = record.line == nil || location.within != nil ? location.line - 1 : 0
    guard lineIndex >= 0, lineIndex < lines.count else { return nil }
    var scalars = Array(lines[lineIndex])
    if scalars.last == "\r" { scalars.removeLast() }
    // The byte order mark a file may begin with is not shown, nor counted (TextLocation).
    if lineIndex == 0, scalars.first == "\u{FEFF}" { scalars.removeFirst() }
    let column = min(max(0, location.column - 1), scalars.count)
    let start = max(0, column - 50)
    let end = min(scalars.count, column + 30)
    guard start <= end else { return nil }
    var shown = String(String.UnicodeScalarView(scalars[start..<end]))
    shown = terminalSafe(shown).replacingTabs()
    let prefix = start > 0 ? "…" : ""
    let suffix = end < scalars.count ? "…" : ""
    let caretOffset =
      terminalSafe(String(String.UnicodeScalarView(scalars[start..<column]))).replacingTabs()
      .unicodeScalars.count + prefix.count
    return "   | \(prefix)\(shown)\(suffix)\n   | \(String(repeating: " ", count: caretOffset))\(paint("^", "1;32"))\n"
  }
}

extension String {
  fileprivate func replacingTabs() -> String {
    String(unicodeScalars.map { $0 == "\t" ? " " : Character($0) })
  }
}

/// GitHub Actions annotations for a record's diagnostics, at their file, line and column.
package enum ValidationAnnotations {
  package static func render(_ record: PushRecord, strict: Bool) -> String {
    var text = ""
    for diagnostic in record.diagnostics {
      let severity = strict && diagnostic.severity == .warning ? Severity.error : diagnostic.severity
      let kind =
        switch severity {
        case .error: "error"
        case .warning: "warning"
        case .info: "notice"
        }
      let verdict = diagnostic.code.verdict
      var message = terminalSafe(diagnostic.message)
      if let path = diagnostic.path { message += " (at \(terminalSafe(path)))" }
      // A place inside a text written in the file is annotated on the file's line that holds it.
      let location = diagnostic.fileLocation
      message += diagnostic.placeInsideText
      message += "\n" + terminalSafe(diagnostic.effect)
      message += "\nverdict: APNs \(verdict.apns.words); the device \(verdict.device.words)"
      if let hint = diagnostic.hint { message += "\nhint: " + terminalSafe(hint) }
      text +=
        GitHubAnnotation.command(
          kind, file: terminalSafe(record.file), line: location?.line ?? record.line,
          column: location?.column, title: "pushdeck validate: \(diagnostic.code.rawValue)",
          message: message) + "\n"
    }
    return text
  }
}

/// The JSON Lines form of a validation result.
package enum ValidationJSON {
  package static func line(for record: PushRecord, strict: Bool) -> String {
    var json = JSONWriter(capacity: 512)
    json.beginObject()
    json.member("source", record.source)
    json.member("valid", strict ? record.isStrictlyValid : record.isValid)
    json.member("bundle", record.bundleID)
    json.member("pushType", record.pushType)
    json.member("bytes", record.byteCount)
    json.key("verdict")
    record.verdict.write(to: &json)
    json.key("diagnostics")
    json.beginArray()
    for diagnostic in record.diagnostics {
      let severity = strict && diagnostic.severity == .warning ? Severity.error : diagnostic.severity
      DiagnosticJSON.write(diagnostic, severity: severity, to: &json)
    }
    json.endArray()
    json.endObject()
    return json.text
  }
}

/// The one JSON form of a diagnostic, which `validate --format json` and `explain --format json`
/// both write, so their objects for the same finding have the same keys: `severity`, `code`,
/// `path`, `line`, `column`, `within` (only for a text written inside the source's file, such as
/// a scenario's payload string: what the line and column count in), `message`, `effect`, `hint`,
/// and the verdict's `apns` and `device`.
package enum DiagnosticJSON {
  /// Writes one object; `severity` is the diagnostic's own unless `--strict` raised it.
  package static func write(_ diagnostic: Diagnostic, severity: Severity? = nil, to json: inout JSONWriter) {
    let verdict = diagnostic.code.verdict
    json.beginObject()
    json.member("severity", (severity ?? diagnostic.severity).rawValue)
    json.member("code", diagnostic.code.rawValue)
    json.member("path", diagnostic.path)
    json.member("line", diagnostic.location?.line)
    json.member("column", diagnostic.location?.column)
    if let within = diagnostic.location?.within { json.member("within", within) }
    json.member("message", diagnostic.message)
    json.member("effect", diagnostic.effect)
    json.member("hint", diagnostic.hint)
    json.member("apns", verdict.apns.words)
    json.member("device", verdict.device.rawValue)
    json.endObject()
  }
}

extension Diagnostic {
  /// Where the finding is in the record's file; nil when it is inside a text written in the file
  /// (a scenario's payload string), whose place the printers put on the file's line instead.
  var fileLocation: TextLocation? { location?.within == nil ? location : nil }

  /// `FILE:LINE:COLUMN` where the finding is in `file`, or `FILE:LINE` with the record's
  /// `line` when it has no place of its own there, as `validate` heads it (and `replay` too).
  func position(file: String, line: Int?) -> String {
    if let location = fileLocation { return file + ":\(location.line):\(location.column)" }
    return line.map { file + ":\($0)" } ?? file
  }

  /// ` (at 1:24 of the payload string)` after the message, for a place inside such a text;
  /// empty otherwise.
  fileprivate var placeInsideText: String {
    guard let location, location.within != nil else { return "" }
    return " (at \(terminalSafe(location.place)))"
  }
}

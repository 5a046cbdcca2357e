/// The format of an input, from its name or its content.
public enum InputFormat: String, Sendable, CaseIterable, Codable {
  /// An Xcode Simulator `.apns` file: one payload, perhaps with `Simulator Target Bundle`.
  case simulator
  /// A plain JSON payload file.
  case payload
  /// A JSON Lines capture: one envelope per line.
  case capture

  /// The format a file name implies, or nil for names Pushdeck does not read.
  public static func from(fileName: String) -> InputFormat? {
    let lowered = fileName.lowercased()
    if lowered.hasSuffix(".apns") { return .simulator }
    if lowered.hasSuffix(".jsonl") || lowered.hasSuffix(".ndjson") { return .capture }
    if lowered.hasSuffix(".json") { return .payload }
    return nil
  }

  /// Guesses the format of standard input from its first bytes: a capture when the first line
  /// is a complete object with a `payload` member and more lines follow, else a payload.
  public static func sniff(_ prefix: [UInt8]) -> InputFormat {
    guard let newline = prefix.firstIndex(of: UInt8(ascii: "\n")) else { return .payload }
    let firstLine = Array(prefix[..<newline])
    guard let document = try? JSONDocument(bytes: firstLine), document.kind(0) == .object,
      document.member("payload", of: 0) != nil
    else { return .payload }
    return .capture
  }
}

/// One push read from an input, decoded and checked: the unit `validate`, `explain` and the
/// device all work on. A rejected push is kept, with its raw text, so nothing the user gave is lost.
public struct PushRecord: Sendable {
  /// The file it came from, as the user named it (`<stdin>` for standard input).
  public var file: String { didSet { preparedSource = nil } }
  /// The 1-based line in a capture, nil for a whole file.
  public var line: Int? { didSet { preparedSource = nil } }
  /// Where it came from: the file, or `file:line` for a capture line.
  public var source: String {
    // Not `preparedSource ?? …`: the autoclosure copied the whole record (a score of
    // references) on every read, and a replay reads it once per push.
    if let preparedSource { return preparedSource }
    guard let line else { return file }
    return "\(file):\(line)"
  }
  /// ``source`` in two parts, for a record that keeps it without building the text: the file
  /// (or the source as prepared) and the line, if any.
  public var sourceParts: (file: String, line: Int?) {
    if let preparedSource { return (preparedSource, nil) }
    return (file, line)
  }
  /// The receive time from a capture envelope (UNIX seconds), if any.
  public var at: Double?
  /// The app: the capture's `bundle`, the `.apns` file's `Simulator Target Bundle`, or as given.
  public var bundleID: String?
  /// The device token from a capture envelope, if any.
  public var token: String?
  /// The typed headers (empty for files, which carry none).
  public var headers: APNsHeaders
  /// The typed payload, when its structure allowed one.
  public var payload: APNsPayload?
  /// The payload's raw bytes as received (the whole line or file when it did not scan).
  public var rawBytes: ArraySlice<UInt8>
  /// The payload's raw JSON text as received.
  public var rawPayload: String { String(decoding: rawBytes, as: UTF8.self) }
  /// The payload's size in bytes, as APNs counts it.
  public var byteCount: Int
  /// Every finding, errors first in source order.
  public var diagnostics: [Diagnostic]
  /// What the app's service extension made of it, boxed: PushCore's `serviceExtension` reads and
  /// writes it (the result is a core type; the wire module does not know it). By reference: the
  /// result is several hundred bytes inline, and a record without one (nearly every record of a
  /// capture) should not carry that room through the decoder's queues.
  package var extensionBox: (any AnyObject & Sendable)? = nil
  /// ``source`` made ahead by ``prepareSource()``; nil until then, and again once the file or
  /// line changes.
  var preparedSource: String? = nil

  /// Makes ``source`` now, so that reading it later costs a retain instead of formatting it. A
  /// replay does this on its decoding threads, sparing the thread that runs the device; it never
  /// makes the payload's text (``rawPayload``): its journal writes ``rawBytes`` as they came.
  public mutating func prepareSource() {
    preparedSource = source
  }

  /// Whether nothing is wrong enough for APNs to reject it or the device to drop it (no
  /// finding whose ``DiagnosticCode/verdict`` is an error; the same answer as ``verdict``).
  public var isValid: Bool { !diagnostics.contains { $0.severity == .error } }

  /// Whether it is valid even when warnings count as errors (`--strict`).
  public var isStrictlyValid: Bool { !diagnostics.contains { $0.severity >= .warning } }

  /// The push type: the header when given, otherwise what the payload implies.
  public var pushType: String {
    if let type = headers.pushType { return type.rawValue }
    if let raw = headers.value("apns-push-type") { return raw }
    // Read through the payload in place: binding it copied every reference it holds.
    guard let hasLiveActivity = payload?.aps.hasLiveActivity else { return "alert" }
    if hasLiveActivity { return PushType.liveactivity.rawValue }
    return payload?.isSilent == true ? PushType.background.rawValue : PushType.alert.rawValue
  }
}

/// Turns raw input bytes into checked ``PushRecord``s: whole payload files and capture lines.
///
/// Pure: it is handed bytes and never touches the file system, so the shell decides how to read
/// (streamed in chunks for captures) and tests feed it strings.
public enum PushReader {
  /// The longest capture line read; longer lines are rejected without being parsed.
  public static let maximumLineBytes = 1 << 20
  /// The largest payload file read.
  public static let maximumFileBytes = 16 << 20

  /// Decodes a whole payload file (`.apns` or `.json`, or a payload on standard input).
  ///
  /// - Parameters:
  ///   - bytes: the file's content.
  ///   - source: the path, for messages.
  ///   - format: `.simulator` or `.payload`.
  ///   - bundleID: the app the user named, which wins over `Simulator Target Bundle`.
  ///   - headers: headers to check the payload against (none for plain files).
  ///   - isRequestBody: the bytes are an HTTP request's body, not a file (for messages).
  public static func readPayloadFile(
    _ bytes: [UInt8], source: String, format: InputFormat, bundleID: String? = nil,
    headers: [(name: String, value: String)] = [], isRequestBody: Bool = false
  ) -> PushRecord {
    let (typedHeaders, headerDiagnostics) = APNsHeaders.parse(headers, bundleID: bundleID)
    var record = PushRecord(
      file: source, line: nil, at: nil, bundleID: bundleID, token: nil, headers: typedHeaders,
      payload: nil, rawBytes: bytes[...], byteCount: bytes.count, diagnostics: headerDiagnostics)
    let document: JSONDocument
    do {
      document = try JSONDocument(bytes: bytes)
    } catch {
      let error = wideEncoding(bytes[...], isRequestBody: isRequestBody) ?? error
      record.diagnostics.insert(Diagnostic.syntax(error, in: bytes[...]), at: 0)
      // The app it names before the mistake, when it does: not one it never named.
      if bundleID == nil {
        record.bundleID = appBeforeSyntaxError(bytes[...], errorOffset: error.offset, key: "Simulator Target Bundle")
      }
      return record
    }
    if headers.isEmpty, format == .payload, FCMMessage.isMessageFile(document) {
      return readFCMFile(document, bytes: bytes, source: source, bundleID: bundleID)
    }
    let result = PayloadDecoder.decode(
      document,
      context: .init(
        pushType: typedHeaders.pushType, isSimulatorFile: format == .simulator, priority: typedHeaders.priority))
    record.payload = result.payload
    record.bundleID = bundleID ?? result.payload?.simulatorTargetBundle
    record.diagnostics = result.diagnostics + record.diagnostics
    checkSize(&record, pushType: typedHeaders.pushType) { nil }
    return record
  }

  /// Decodes an FCM v1 message file (`{"message": …}`): the record of the APNs push FCM makes
  /// from it, with the payload and headers shown in an `FCMPayload` note. The findings about
  /// that payload point at the file's `message`; an APNs payload over the limit only because of
  /// FCM's keys says so.
  static func readFCMFile(_ document: JSONDocument, bytes: [UInt8], source: String, bundleID: String?) -> PushRecord {
    let messageIndex = document.member("message", of: document.root) ?? document.root
    let messageAt = document.location(of: messageIndex)
    switch FCMMessage.map(document, now: nil, added: FCMMessage.fileKeys) {
    case .failure(let error):
      return PushRecord(
        file: source, line: nil, at: nil, bundleID: bundleID, token: nil, headers: APNsHeaders(), payload: nil,
        rawBytes: bytes[...], byteCount: bytes.count,
        diagnostics: [
          Diagnostic(
            .invalidFCMMessage, path: "message", location: error.location ?? messageAt, message: error.message,
            effect: "FCM answers 400 INVALID_ARGUMENT; nothing is sent to APNs or the device.",
            hint: "fix the message as the error says (Firebase's Message reference lists every field)")
        ])
    case .success(let message):
      let payloadText = message.payloadText
      let payloadBytes = Array(payloadText.utf8)
      var ownKeys = message
      ownKeys.payload = .object(
        {
          guard case .object(let members) = message.payload else { return [] }
          return members.filter { !$0.key.hasPrefix("gcm.") && !$0.key.hasPrefix("google.c.") }
        }())
      let withoutFCM = Array(ownKeys.payloadText.utf8).count
      var record = readPayloadFile(
        payloadBytes, source: source, format: .payload, bundleID: bundleID ?? message.topic, headers: message.headers)
      record.token = message.token
      var findings: [Diagnostic] = []
      for var finding in record.diagnostics where finding.code != .firebaseKey {
        finding.location = messageAt
        finding.path = "message" + (finding.path.map { " → APNs payload \($0)" } ?? "")
        if finding.code == .payloadTooLarge {
          let limit = (record.headers.pushType ?? .alert).maximumPayloadBytes
          finding.message =
            "the APNs payload FCM makes is \(payloadBytes.count) bytes with FCM's keys (\(withoutFCM) without them); "
            + "the limit is \(limit)"
          finding.effect = "FCM answers 400 INVALID_ARGUMENT \"Message is too big\"; nothing reaches the device."
          finding.hint =
            "leave \(payloadBytes.count - limit) bytes out of the notification, data or apns.payload: FCM adds "
            + "\(payloadBytes.count - withoutFCM) bytes of its own"
        } else {
          finding.message = "in the APNs payload FCM makes: " + finding.message
        }
        findings.append(finding)
      }
      // A long payload is shown by its two ends: the app's keys start it, FCM's end it.
      let shownPayload =
        payloadText.count > 1_000 ? "\(payloadText.prefix(400)) … \(payloadText.suffix(400))" : payloadText
      let headerText = message.headers.map { "\($0.name): \($0.value)" }.joined(separator: ", ")
      findings.append(
        Diagnostic(
          .fcmPayload, path: "message", location: messageAt,
          message: "FCM sends APNs \(headerText) and this \(payloadBytes.count)-byte payload: \(shownPayload)",
          effect:
            "the device gets this payload: apns.payload overrides the notification; data and FCM's keys are custom keys."
        ))
      // rawBytes stay the APNs payload: what the device stores and replays is what FCM sent.
      record.diagnostics = findings
      return record
    }
  }

  /// Decodes one capture line: an envelope `{"at", "bundle", "token", "headers", "payload"}`.
  ///
  /// - Parameters:
  ///   - bytes: the line without its newline.
  ///   - lineNumber: its 1-based line number in the file.
  ///   - source: the file's path, for messages.
  ///   - keepsCustomValues: whether custom keys are materialised (off for validation alone).
  public static func readCaptureLine(
    _ bytes: [UInt8], lineNumber: Int, source: String, keepsCustomValues: Bool = true
  ) -> PushRecord {
    var scratch: [JSONToken] = []
    var names = NameCache()
    return readCaptureLine(
      bytes[...], lineNumber: lineNumber, source: source, keepsCustomValues: keepsCustomValues, scratch: &scratch,
      names: &names)
  }

  /// Decodes one capture line held in a larger buffer, reusing a token tape.
  ///
  /// - Parameters:
  ///   - scratch: a tape whose storage is reused from line to line.
  ///   - names: the bundle ids met on earlier lines, shared from line to line.
  public static func readCaptureLine(
    _ bytes: ArraySlice<UInt8>, lineNumber: Int, source: String, keepsCustomValues: Bool,
    scratch: inout [JSONToken], names: inout NameCache
  ) -> PushRecord {
    // Each path builds its record once and returns it directly: an early `return record` of
    // one shared variable made the compiler copy the whole (large) record on the common path.
    func emptyRecord(_ rawBytes: ArraySlice<UInt8>, diagnostics: [Diagnostic]) -> PushRecord {
      PushRecord(
        file: source, line: lineNumber, at: nil, bundleID: nil, token: nil,
        headers: APNsHeaders(), payload: nil, rawBytes: rawBytes, byteCount: bytes.count, diagnostics: diagnostics)
    }
    guard bytes.count <= maximumLineBytes else {
      return overlongCaptureLine(bytes.prefix(4096), length: bytes.count, lineNumber: lineNumber, source: source)
    }
    var document: JSONDocument
    do {
      document = try JSONDocument(slice: bytes, firstLine: lineNumber, tokens: &scratch)
    } catch {
      // A UTF-16 capture's first line starts with its byte-order mark.
      let error = lineNumber == 1 ? wideEncoding(bytes, isRequestBody: false) ?? error : error
      // The app the line names before its mistake, when it does: not one it never named.
      var record = emptyRecord(bytes, diagnostics: [Diagnostic.syntax(error, in: bytes, firstLine: lineNumber)])
      record.bundleID = appBeforeSyntaxError(bytes, errorOffset: error.offset, key: "bundle")
      return record
    }
    var record = emptyRecord(bytes, diagnostics: [])
    decodeEnvelope(document, into: &record, keepsCustomValues: keepsCustomValues, names: &names)
    document.recycleTokens(into: &scratch)
    return record
  }

  /// The mistake of a text in UTF-16 or UTF-32, told by the byte-order mark it starts with
  /// (`FF FE`, `FE FF`; `FF FE 00 00`, `00 00 FE FF`): "the file is UTF-16 (byte-order mark at
  /// byte 0); save it as UTF-8", at line 1, column 1. Without it the scanner said "invalid UTF-8
  /// byte 0xFF", which does not say what to do. Nil for any other text.
  static func wideEncoding(_ bytes: ArraySlice<UInt8>, isRequestBody: Bool) -> JSONSyntaxError? {
    let start = bytes.startIndex
    guard bytes.count >= 2 else { return nil }
    let utf32 =
      bytes.count >= 4
      && (bytes[start..<start + 4].elementsEqual([0xFF, 0xFE, 0, 0])
        || bytes[start..<start + 4].elementsEqual([0, 0, 0xFE, 0xFF]))
    let utf16 =
      bytes[start..<start + 2].elementsEqual([0xFF, 0xFE]) || bytes[start..<start + 2].elementsEqual([0xFE, 0xFF])
    guard utf16 || utf32 else { return nil }
    let encoding = utf32 ? "UTF-32" : "UTF-16"
    return JSONSyntaxError(
      .invalidUTF8, at: 0,
      isRequestBody
        ? "the body is \(encoding) (byte-order mark at byte 0); send it as UTF-8"
        : "the file is \(encoding) (byte-order mark at byte 0); save it as UTF-8",
      hint: isRequestBody
        ? "APNs reads a payload as UTF-8 and rejects any other encoding"
        : "APNs and iOS read payloads as UTF-8; convert it, for example: iconv -f \(encoding) -t UTF-8 FILE > NEW-FILE")
  }

  /// The record of a capture line over ``maximumLineBytes``, which is not parsed: rejected with
  /// `LineTooLong` at its line. A reader that skipped the line's bytes gives its first bytes
  /// and its full length (newline excluded).
  public static func overlongCaptureLine(
    _ prefix: ArraySlice<UInt8>, length: Int, lineNumber: Int, source: String
  ) -> PushRecord {
    PushRecord(
      file: source, line: lineNumber, at: nil, bundleID: nil, token: nil, headers: APNsHeaders(), payload: nil,
      rawBytes: prefix.prefix(4096), byteCount: length,
      diagnostics: [
        Diagnostic(
          .lineTooLong, location: TextLocation(line: lineNumber, column: 1, offset: 0),
          message: "the line is \(length) bytes; the limit is \(maximumLineBytes) (1 MiB)",
          effect: "Pushdeck does not read it; a real push is at most 4096 bytes (5120 for VoIP).",
          hint: "check that the capture has one envelope per line: split the line at each envelope, or remove it")
      ])
  }

  /// Decodes a capture line's envelope into its record, in three steps: its keys
  /// (``readEnvelopeKeys(_:into:)``), the keys it must have (``checkRequiredKeys(_:view:)``), then
  /// its headers and payload (``decodePayload(_:at:view:document:into:keepsCustomValues:)``).
  static func decodeEnvelope(
    _ document: JSONDocument, into record: inout PushRecord, keepsCustomValues: Bool, names: inout NameCache
  ) {
    document.withView { view in
      guard view.kind(0) == .object else {
        record.addEnvelopeError(
          view, 0, nil, "a capture line must be a JSON object (an envelope)",
          hint: "write {\"at\": …, \"bundle\": …, \"payload\": {…}}")
        return
      }
      var headers = HeaderParser()
      let payloadIndex = readEnvelopeKeys(view, into: &record, headers: &headers, names: &names)
      checkRequiredKeys(&record, view: view)
      let headerDiagnostics: [Diagnostic]
      (record.headers, headerDiagnostics) = headers.finish(bundleID: record.bundleID)
      if !headerDiagnostics.isEmpty { record.diagnostics += headerDiagnostics }
      guard let payloadIndex else {
        record.addEnvelopeError(
          view, nil, "payload", "the envelope has no \"payload\"", hint: "add \"payload\": {\"aps\": {…}}")
        return
      }
      decodePayload(payloadIndex, view: view, document: document, into: &record, keepsCustomValues: keepsCustomValues)
    }
  }

  /// Reads the envelope object's keys, `at`, `bundle` and `token` into the record and the headers
  /// into `headers`; an unknown key is a finding. Returns the payload's index, if there is one.
  private static func readEnvelopeKeys(
    _ view: JSONView, into record: inout PushRecord, headers: inout HeaderParser, names: inout NameCache
  ) -> Int? {
    var payloadIndex: Int?
    let keyTable = KnownKey.table  // fetched once (see JSONView.knownKey(_:in:))
    // The envelope keys met so far: a repeat is reported and its value left unread, so the
    // first counts, as in a payload (a second "at" used to win without a word).
    var seen: UInt8 = 0
    /// A finding about an envelope key, at the key, its text made only here.
    func reportKey(
      _ code: DiagnosticCode, _ keyIndex: Int, _ message: (String) -> String, effect: String, hint: String
    ) {
      let key = view.string(keyIndex)
      record.diagnostics.append(
        Diagnostic(
          code, path: key, location: view.location(of: keyIndex), message: message(key), effect: effect, hint: hint))
    }
    for (keyIndex, valueIndex) in view.members(of: 0) {
      let known = view.knownKey(keyIndex, in: keyTable)
      let bit: UInt8 =
        switch known {
        case .at: 1
        case .bundle: 2
        case .token: 4
        case .headers: 8
        case .payload: 16
        default: 0
        }
      if bit != 0 {
        if seen & bit != 0 {
          reportKey(
            .duplicateKey, keyIndex, { "the envelope key \(JSONValue.quoted($0)) appears twice" },
            effect: "Pushdeck uses the first and ignores this one.", hint: "remove one of them")
          continue
        }
        seen |= bit
      }
      switch known {
      case .at: readAt(valueIndex, view: view, into: &record)
      case .bundle:
        if view.kind(valueIndex) == .string, view.stringByteCount(valueIndex) > 0 {
          // The line's own bytes first, when the string has no escapes: nearly every line.
          let token = view.tokens[valueIndex]
          let raw = UnsafeBufferPointer(rebasing: view.bytes[Int(token.start) + 1..<Int(token.end) - 1])
          let plain = !token.stringHasEscapes && BundleID.isWellFormed(raw)
          let bundle = plain ? names.string(raw) : view.string(valueIndex)
          if (!plain || raw.count > BundleID.maximumLength),
            let problem = BundleID.problem(bundle, named: "\"bundle\"")
          {
            record.addEnvelopeError(
              view, valueIndex, "bundle", problem,
              hint:
                "write the app's bundle id, which holds only \(BundleID.allowedCharacters), for example \"bundle\": \"com.example.app\""
            )
          } else {
            record.bundleID = bundle
          }
        } else {
          record.addEnvelopeError(
            view, valueIndex, "bundle", "\"bundle\" must be a non-empty bundle id string",
            hint: "for example \"bundle\": \"com.example.app\"")
        }
      case .token:
        if let token = view.stringValue(valueIndex) {
          record.token = token
          if let problem = DeviceToken.check(token, location: view.location(of: valueIndex)) {
            record.diagnostics.append(problem)
          }
        } else {
          record.addEnvelopeError(
            view, valueIndex, "token", "\"token\" must be a hex string", hint: "omit it if unknown")
        }
      case .headers:
        headers.bundleID = record.bundleID
        readHeaders(valueIndex, view: view, keyTable: keyTable, into: &headers, record: &record)
      case .payload: payloadIndex = valueIndex
      default:
        reportKey(
          .unknownEnvelopeKey, keyIndex, { "\(JSONValue.quoted($0)) is not an envelope key" },
          effect: "Pushdeck ignores it.", hint: "envelope keys are at, bundle, token, headers and payload")
      }
    }
    return payloadIndex
  }

  /// Reads `at`: UNIX seconds inside ``EpochRange``.
  private static func readAt(_ valueIndex: Int, view: JSONView, into record: inout PushRecord) {
    guard let at = view.double(valueIndex) else {
      record.addEnvelopeError(
        view, valueIndex, "at", "\"at\" must be a number of UNIX seconds", hint: "for example \"at\": 1767225600.125")
      return
    }
    guard EpochRange.contains(seconds: at) else {
      let number = view.rawText(valueIndex)
      record.addEnvelopeError(
        view, valueIndex, "at",
        "\"at\" is \(number.utf8.count > 40 ? number.prefix(40) + "…" : number) UNIX seconds, outside the simulated time \(EpochRange.text)",
        hint: "write the time the push was received, for example \"at\": 1767225600.125")
      return
    }
    record.at = at
  }

  /// Reads `headers`: an object of header names to string (or number) values, fed to `headers`
  /// straight from the line's bytes when the value has no escapes.
  private static func readHeaders(
    _ valueIndex: Int, view: JSONView, keyTable: KeyTable<KnownKey>, into headers: inout HeaderParser,
    record: inout PushRecord
  ) {
    guard view.kind(valueIndex) == .object else {
      record.addEnvelopeError(
        view, valueIndex, "headers", "\"headers\" must be an object of header names to values",
        hint: "for example \"headers\": {\"apns-push-type\": \"alert\"}")
      return
    }
    for (nameIndex, headerValueIndex) in view.members(of: valueIndex) {
      // Header names are case-insensitive (HTTP/2 sends them lowercased): `Apns-Priority` is
      // apns-priority, checked as such.
      let exact = view.knownKey(nameIndex, in: keyTable)
      let lowered = exact == nil ? view.string(nameIndex).lowercased() : ""
      let known = exact ?? keyTable.lookup(lowered)
      func name() -> String { known?.rawValue ?? lowered }
      switch view.kind(headerValueIndex) {
      case .string where !view.tokens[headerValueIndex].stringHasEscapes, .number:
        let token = view.tokens[headerValueIndex]
        let quote = token.kind == .string ? 1 : 0
        headers.add(
          name: name(), known: known,
          value: UnsafeBufferPointer(rebasing: view.bytes[Int(token.start) + quote..<Int(token.end) - quote]),
          location: view.location(of: headerValueIndex))
      case .string:
        var text = view.string(headerValueIndex)
        text.withUTF8 { bytes in
          headers.add(name: name(), known: known, value: bytes, location: view.location(of: headerValueIndex))
        }
      default:
        record.addEnvelopeError(
          view, headerValueIndex, "headers.\(name())", "header values must be strings",
          hint: "write \"\(name())\": \"…\"")
      }
    }
  }

  /// Reports a missing `at` or `bundle`, unless the key was there and already reported.
  private static func checkRequiredKeys(_ record: inout PushRecord, view: JSONView) {
    if record.at == nil && !record.diagnostics.contains(where: { $0.path == "at" }) {
      record.addEnvelopeError(
        view, nil, "at", "the envelope has no \"at\" time", hint: "add \"at\": <UNIX seconds when received>")
    }
    if record.bundleID == nil && !record.diagnostics.contains(where: { $0.path == "bundle" }) {
      record.addEnvelopeError(
        view, nil, "bundle", "the envelope has no \"bundle\"", hint: "add \"bundle\": \"<bundle id>\"")
    }
  }

  /// Decodes the payload for the push type the headers give, and checks its size.
  private static func decodePayload(
    _ payloadIndex: Int, view: JSONView, document: JSONDocument, into record: inout PushRecord,
    keepsCustomValues: Bool
  ) {
    let pushType = record.headers.pushType
    let token = view.tokens[payloadIndex]
    let base = document.bytes.startIndex
    record.rawBytes = document.bytes[base + Int(token.start)..<base + Int(token.end)]
    record.byteCount = Int(token.end - token.start)
    PayloadDecoder.decode(
      view, at: payloadIndex,
      context: .init(
        pushType: pushType, pathPrefix: "payload", keepsCustomValues: keepsCustomValues,
        priority: record.headers.priority),
      into: &record.payload, diagnostics: &record.diagnostics)
    checkSize(&record, pushType: pushType) { view.location(of: payloadIndex) }
  }

  /// Adds `PayloadTooLarge` when the payload is over the push type's limit.
  static func checkSize(_ record: inout PushRecord, pushType: PushType?, location: () -> TextLocation?) {
    let limit = (pushType ?? .alert).maximumPayloadBytes
    guard record.byteCount > limit else { return }
    record.diagnostics.insert(
      Diagnostic(
        .payloadTooLarge, path: record.line == nil ? nil : "payload", location: location(),
        message:
          "the payload is \(record.byteCount) bytes; the limit is \(limit)\(pushType == .voip ? " for VoIP" : "")",
        effect: "APNs rejects it (413 PayloadTooLarge); nothing reaches the device.",
        hint: "move large data out of the payload and fetch it in the app or a service extension"),
      at: 0)
  }
}

extension LineSplitter {
  /// The number of lines in a buffer: its newlines, plus one for a last line without one.
  public static func countLines(in bytes: [UInt8]) -> Int {
    bytes.withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return 0 }
      var count = 0
      var index = 0
      while index + 8 <= buffer.count {
        let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self) ^ 0x0A0A_0A0A_0A0A_0A0A
        // Exact per-byte zero test (no false positives): high bit set where the byte was 0x0A.
        let low7 = (word & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7F7F_7F7F_7F7F_7F7F
        count += (~(low7 | word) & 0x8080_8080_8080_8080).nonzeroBitCount
        index += 8
      }
      while index < buffer.count {
        if base[index] == UInt8(ascii: "\n") { count += 1 }
        index += 1
      }
      if let last = buffer.last, last != UInt8(ascii: "\n") { count += 1 }
      return count
    }
  }

  /// Calls `body` with the index range and 1-based number of every line in a buffer (without
  /// `\n` or a trailing `\r`); the last line needs no newline. Returns the number of lines.
  @discardableResult
  public static func forEachLine(in bytes: [UInt8], _ body: (Range<Int>, Int) -> Void) -> Int {
    var number = 0
    bytes.withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return }
      let count = buffer.count
      var lineStart = 0
      var index = 0
      func emit(_ end: Int) {
        number += 1
        var lineEnd = end
        if lineEnd > lineStart, base[lineEnd - 1] == UInt8(ascii: "\r") { lineEnd -= 1 }
        body(lineStart..<lineEnd, number)
      }
      while index < count {
        while index + 8 <= count {
          let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self) ^ 0x0A0A_0A0A_0A0A_0A0A
          if (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080 != 0 { break }
          index += 8
        }
        guard index < count else { break }
        if base[index] == UInt8(ascii: "\n") {
          emit(index)
          lineStart = index + 1
        }
        index += 1
      }
      if lineStart < count { emit(count) }
    }
    return number
  }
}

/// Splits a stream of byte chunks into lines without ever holding more than one partial line.
///
/// Feed it chunks as they are read; it hands each complete line (without `\n` or a trailing
/// `\r`) to the body, with its 1-based number. A final line without a newline comes out of
/// ``finish(_:)``.
public struct LineSplitter {
  private var carry: [UInt8] = []
  /// Partial lines are kept up to this many bytes (plus one, so an overlong line is still seen
  /// as overlong); the rest of such a line is dropped, keeping memory bounded.
  public let maximumCarryBytes: Int
  /// The number of the next line to be handed out.
  public private(set) var nextLineNumber = 1

  /// Creates a splitter at line 1.
  public init(maximumCarryBytes: Int = PushReader.maximumLineBytes) {
    self.maximumCarryBytes = maximumCarryBytes
  }

  private mutating func keep(_ bytes: UnsafeBufferPointer<UInt8>) {
    let room = maximumCarryBytes + 1 - carry.count
    guard room > 0 else { return }
    carry.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[0..<min(room, bytes.count)]))
  }

  /// Splits a chunk, calling `body` for each complete line.
  public mutating func feed(_ chunk: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>, Int) -> Void) {
    guard let base = chunk.baseAddress else { return }
    var lineStart = 0
    var index = 0
    let count = chunk.count
    while index < count {
      // Skip eight bytes at a time while no byte of the word is a newline.
      while index + 8 <= count {
        let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self) ^ 0x0A0A_0A0A_0A0A_0A0A
        if (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080 != 0 { break }
        index += 8
      }
      guard index < count else { break }
      if base[index] == UInt8(ascii: "\n") {
        if carry.isEmpty {
          emit(UnsafeBufferPointer(start: base + lineStart, count: index - lineStart), body)
        } else {
          keep(UnsafeBufferPointer(start: base + lineStart, count: index - lineStart))
          let line = carry
          carry.removeAll(keepingCapacity: true)
          line.withUnsafeBufferPointer { emit($0, body) }
        }
        lineStart = index + 1
      }
      index += 1
    }
    if lineStart < count {
      keep(UnsafeBufferPointer(start: base + lineStart, count: count - lineStart))
    }
  }

  /// Hands out the last line if the input did not end with a newline.
  public mutating func finish(_ body: (UnsafeBufferPointer<UInt8>, Int) -> Void) {
    guard !carry.isEmpty else { return }
    let line = carry
    carry.removeAll()
    line.withUnsafeBufferPointer { emit($0, body) }
  }

  private mutating func emit(_ line: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>, Int) -> Void) {
    var length = line.count
    if length > 0, line[length - 1] == UInt8(ascii: "\r") { length -= 1 }
    let number = nextLineNumber
    nextLineNumber += 1
    body(UnsafeBufferPointer(rebasing: line[0..<length]), number)
  }
}

extension PushRecord {
  /// Adds an `InvalidEnvelope` finding at a value of the envelope (its start when nil).
  fileprivate mutating func addEnvelopeError(
    _ view: JSONView, _ index: Int?, _ path: String?, _ message: String, hint: String
  ) {
    diagnostics.append(
      Diagnostic(
        .invalidEnvelope, path: path, location: view.location(of: index ?? 0), message: message,
        effect: "Pushdeck cannot tell when or to which app this push was sent, so it is not replayed.",
        hint: hint))
  }
}

extension PushReader {
  /// The app a text that is not valid JSON names before its first mistake: the string value of
  /// `key` at the top level of the object, when it is whole before `errorOffset` and is a bundle
  /// id (``BundleID``); nil otherwise.
  ///
  /// - Parameters:
  ///   - bytes: the text (a capture line, or a payload file).
  ///   - errorOffset: where the scanner found the mistake, relative to the start of `bytes`.
  ///   - key: `bundle` for a capture line, `Simulator Target Bundle` for a payload file.
  static func appBeforeSyntaxError(_ bytes: ArraySlice<UInt8>, errorOffset: Int, key: String) -> String? {
    var found: String?
    forEachTopLevelValue(bytes, before: errorOffset, key: key) { value in
      guard value.first == UInt8(ascii: "\""), let string = (try? JSONDocument(bytes: Array(value)))?.stringValue(0)
      else { return true }
      if !string.isEmpty, BundleID.firstInvalidCharacter(in: string) == nil { found = string }
      return true
    }
    return found
  }

  /// The time a capture line that is not valid JSON gives before its first mistake, in UNIX
  /// seconds: its first top-level `at`, when that is a number whole before the mistake and
  /// inside ``EpochRange``; nil otherwise, and for a line that is valid JSON (its record has
  /// its `at` when it is a time). `explain` dates such a rejected line at its own time, not at
  /// the push before it; the device, as `replay`, `render` and `run` play it, still takes it at
  /// the time of the push before it (``PushRecord/at`` stays nil).
  public static func timeBeforeSyntaxError(inCaptureLine bytes: ArraySlice<UInt8>) -> Double? {
    var scratch: [JSONToken] = []
    do {
      _ = try JSONDocument(slice: bytes, firstLine: 1, tokens: &scratch)
      return nil
    } catch {
      return timeBeforeSyntaxError(bytes, errorOffset: error.offset)
    }
  }

  /// The first top-level `at` of a text that is not valid JSON, before its mistake at
  /// `errorOffset` (``timeBeforeSyntaxError(inCaptureLine:)``).
  static func timeBeforeSyntaxError(_ bytes: ArraySlice<UInt8>, errorOffset: Int) -> Double? {
    var found: Double?
    forEachTopLevelValue(bytes, before: errorOffset, key: "at") { value in
      // The first "at" counts, as in a line that parses (a repeat is a DuplicateKey warning).
      if let document = try? JSONDocument(bytes: Array(value)), let seconds = document.double(0),
        EpochRange.contains(seconds: seconds)
      {
        found = seconds
      }
      return false
    }
    return found
  }

  /// Calls `body` with the text of each string or number value of `key` at the top level of the
  /// object that `bytes` starts, for each one that ends before `errorOffset` (a number followed
  /// by a delimiter there, so it is not cut by the mistake), until `body` returns false. The
  /// scanner checked every byte before the mistake, so the text up to there is a valid start of a
  /// JSON text and a plain walk reads it.
  private static func forEachTopLevelValue(
    _ bytes: ArraySlice<UInt8>, before errorOffset: Int, key: String, _ body: (ArraySlice<UInt8>) -> Bool
  ) {
    let end = bytes.startIndex + min(max(errorOffset, 0), bytes.count)
    let keyBytes = Array(key.utf8)
    var index = bytes.startIndex
    var depth = 0
    /// The end (after the closing quote) of the string starting at `start`, if it closes before `end`.
    func stringEnd(from start: Int) -> Int? {
      var cursor = start + 1
      while cursor < end {
        switch bytes[cursor] {
        case UInt8(ascii: "\\"): cursor += 2
        case UInt8(ascii: "\""): return cursor + 1
        default: cursor += 1
        }
      }
      return nil
    }
    /// The end of the number starting at `start`, if a delimiter follows it before `end`.
    func numberEnd(from start: Int) -> Int? {
      var cursor = start
      while cursor < end {
        switch bytes[cursor] {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."),
          UInt8(ascii: "e"), UInt8(ascii: "E"):
          cursor += 1
        case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: ","),
          UInt8(ascii: "}"):
          return cursor > start ? cursor : nil
        default: return nil
        }
      }
      return nil
    }
    func skipSpace(_ cursor: inout Int) {
      while cursor < end {
        switch bytes[cursor] {
        case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"): cursor += 1
        default: return
        }
      }
    }
    skipSpace(&index)
    guard index < end, bytes[index] == UInt8(ascii: "{") else { return }
    while index < end {
      let byte = bytes[index]
      switch byte {
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        depth += 1
        index += 1
      case UInt8(ascii: "}"), UInt8(ascii: "]"):
        depth -= 1
        index += 1
      case UInt8(ascii: "\""):
        guard let after = stringEnd(from: index) else { return }
        var cursor = after
        skipSpace(&cursor)
        // A key of the top-level object: a string followed by a colon at depth 1.
        if depth == 1, cursor < end, bytes[cursor] == UInt8(ascii: ":"),
          bytes[(index + 1)..<(after - 1)].elementsEqual(keyBytes)
        {
          cursor += 1
          skipSpace(&cursor)
          guard cursor < end else { return }
          let valueEnd = bytes[cursor] == UInt8(ascii: "\"") ? stringEnd(from: cursor) : numberEnd(from: cursor)
          guard let valueEnd else {
            // Another kind of value (an object, true, …): walked on as any text.
            index = cursor
            continue
          }
          guard body(bytes[cursor..<valueEnd]) else { return }
          index = valueEnd
        } else {
          index = after
        }
      default:
        index += 1
      }
    }
  }
}

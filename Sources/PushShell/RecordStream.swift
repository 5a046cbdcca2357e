import PushWire

#if canImport(Glibc)
  import Glibc
#endif

/// Reads every push from one input and hands each ``PushRecord`` to `body`, in order.
///
/// Payload files are read whole (they are small); captures are streamed line by line, so a
/// capture of any size is read in constant memory. Blank capture lines are skipped.
///
/// - Parameters:
///   - input: the resolved input.
///   - bundleID: an app named on the command line, which wins over the file's own.
///   - keepsCustomValues: whether custom keys become value trees (off when only validating).
///   - defaultBundleID: the app for payload files that name none (``fallbackBundleID`` for the
///     commands that play pushes on a device; nil leaves them unnamed, as `validate` reports
///     them). Never for a capture line or a text that is not JSON (``PushRecord/takesDefaultApp``).
package func readRecords(
  from input: ResolvedInput, bundleID: String? = nil, keepsCustomValues: Bool = true,
  defaultBundleID: String? = nil, _ body: (PushRecord) -> Void
) throws(InputProblem) {
  try readRecords(
    from: input, bundleID: bundleID, keepsCustomValues: keepsCustomValues, defaultBundleID: defaultBundleID,
    transform: { $0 }
  ) { body($0) }
}

/// Reads every push from one input, turns each record into a `Result` and hands the results
/// to `body` in order (`inout`, so that it can take parts out without copying them). For captures, `transform` runs on the decoding worker threads, on jobs of
/// about `jobBytes` bytes of capture (four jobs are in flight; a consumer slower than decoding
/// holds their records, so it asks for smaller jobs).
///
/// A capture is read from `start` (a line boundary a previous read reported through `position`)
/// to its end; a pipe, FIFO or terminal is read as a stream, each line handed out as soon as it
/// has arrived.
///
/// - Parameters:
///   - position: called after each capture record's `body` with the end of its line, and once
///     at the end of the capture with the end of its last line (blank lines included).
///   - idle: called after each decoded job and, on a stream, at least every 200 ms while no
///     bytes arrive; a consumer that saves by time saves there.
package func readRecords<Result>(
  from input: ResolvedInput, bundleID: String? = nil, keepsCustomValues: Bool = true,
  defaultBundleID: String? = nil, jobBytes: Int = ParallelCaptureDecoder<Result>.defaultJobBytes,
  start: CapturePosition = .start, position: (CapturePosition) -> Void = { _ in }, idle: () -> Void = {},
  transform givenTransform: @escaping @Sendable (PushRecord) -> Result, _ body: (inout Result) -> Void
) throws(InputProblem) {
  let transform: @Sendable (PushRecord) -> Result
  if let defaultBundleID {
    transform = { record in
      guard record.takesDefaultApp else { return givenTransform(record) }
      var named = record
      named.bundleID = defaultBundleID
      return givenTransform(named)
    }
  } else {
    transform = givenTransform
  }
  let source = input.displayPath
  if let path = input.path, let format = input.format, format != .capture {
    let bytes = try readWholeFile(path, limit: PushReader.maximumFileBytes)
    var result = transform(PushReader.readPayloadFile(bytes, source: source, format: format, bundleID: bundleID))
    body(&result)
    return
  }
  // A capture file, or standard input whose format is decided by its first line. Captures are
  // decoded in parallel and handed out in order.
  let descriptor: Int32 = input.path.map(RawPath.openForReading) ?? 0
  guard descriptor >= 0 else {
    throw InputProblem(path: source, message: "cannot open the file: \(String(cString: strerror(errno)))")
  }
  defer { if input.path != nil { close(descriptor) } }
  var info = stat()
  let streaming = fstat(descriptor, &info) == 0 && (info.st_mode & S_IFMT) != S_IFREG
  if start.offset > 0 {
    guard !streaming, lseek(descriptor, off_t(start.offset), SEEK_SET) == off_t(start.offset) else {
      throw InputProblem(
        path: source, message: "cannot read from byte \(start.offset): the input is not a regular file")
    }
  }
  var format = input.format
  var pending: [UInt8] = []
  if format == nil {
    // Standard input: read until the first line is complete, then decide.
    let chunk = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 1 << 16)
    defer { chunk.deallocate() }
    while !pending.contains(UInt8(ascii: "\n")) {
      let count = read(descriptor, chunk.baseAddress, chunk.count)
      if count < 0 && errno == EINTR { continue }
      if count < 0 { throw InputProblem(path: source, message: "read failed: \(String(cString: strerror(errno)))") }
      if count == 0 { break }
      pending.append(contentsOf: chunk[0..<count])
      if pending.count > PushReader.maximumFileBytes {
        throw InputProblem(
          path: source, message: "standard input is over \(PushReader.maximumFileBytes >> 20) MiB and is not a capture")
      }
    }
    // Nothing at all: an empty stream holds no push (`: | pushdeck replay -` replayed one
    // rejected "empty payload").
    if pending.isEmpty { return }
    format = InputFormat.sniff(pending)
  }
  if format == .capture {
    var problem: InputProblem?
    withoutActuallyEscaping(body) { escapableBody in
      withoutActuallyEscaping(position) { escapablePosition in
        withoutActuallyEscaping(idle) { escapableIdle in
          let decoder = ParallelCaptureDecoder(
            file: source, keepsCustomValues: keepsCustomValues, jobBytes: jobBytes, start: start,
            transform: transform,
            body: { result, at in
              escapableBody(&result)
              escapablePosition(at)
            }, idle: escapableIdle)
          pending.withUnsafeBufferPointer { decoder.feed($0) }
          do throws(InputProblem) {
            try decoder.readToEnd(from: descriptor, name: source, streaming: streaming)
          } catch {
            problem = error
          }
          escapablePosition(decoder.position)
        }
      }
    }
    if let problem { throw problem }
    return
  }
  // A payload on standard input: read it whole (payloads are small).
  try streamChunks(path: nil) { chunk in
    if pending.count <= PushReader.maximumFileBytes { pending.append(contentsOf: chunk) }
  }
  if pending.count > PushReader.maximumFileBytes {
    throw InputProblem(
      path: source, message: "standard input is over \(PushReader.maximumFileBytes >> 20) MiB and is not a capture")
  }
  var result = transform(PushReader.readPayloadFile(pending, source: source, format: .payload, bundleID: bundleID))
  body(&result)
}

extension PushRecord {
  /// Whether the default app (``fallbackBundleID``, or a command's default) is given to this
  /// record: a payload file that was read and names no app. A capture line names its own app
  /// (its envelope's `bundle`; without one it is rejected), and a text that is not JSON may have
  /// named one past its mistake: such a record keeps the app it named before the mistake, or
  /// none, and is shown as from an unknown app, never credited to one the user did not name.
  package var takesDefaultApp: Bool {
    bundleID == nil && line == nil && !diagnostics.contains { DiagnosticCode.syntaxCodes.contains($0.code) }
  }
}

import PushWire

/// Reads every push from one input and hands each ``PushRecord`` to `body`, in order.
///
/// Payload files are read whole (they are small); captures are streamed line by line, so a
/// capture of any size is read in constant memory. Blank capture lines are skipped.
///
/// - Parameters:
///   - input: the resolved input.
///   - bundleID: an app named on the command line, which wins over the file's own.
///   - keepsCustomValues: whether custom keys become value trees (off when only validating).
func readRecords(
  from input: ResolvedInput, bundleID: String? = nil, keepsCustomValues: Bool = true,
  _ body: (PushRecord) -> Void
) throws(InputProblem) {
  try readRecords(from: input, bundleID: bundleID, keepsCustomValues: keepsCustomValues, transform: { $0 }, body)
}

/// Reads every push from one input, turns each record into a `Result` and hands the results
/// to `body` in order. For captures, `transform` runs on the decoding worker threads.
func readRecords<Result>(
  from input: ResolvedInput, bundleID: String? = nil, keepsCustomValues: Bool = true,
  transform: @escaping @Sendable (PushRecord) -> Result, _ body: (Result) -> Void
) throws(InputProblem) {
  let source = input.displayPath
  if let path = input.path, let format = input.format, format != .capture {
    let bytes = try readWholeFile(path, limit: PushReader.maximumFileBytes)
    body(transform(PushReader.readPayloadFile(bytes, source: source, format: format, bundleID: bundleID)))
    return
  }
  // A capture file, or standard input whose format is decided by its first line. Captures are
  // decoded in parallel and handed out in order.
  var format = input.format
  var pending: [UInt8] = []
  var problem: InputProblem?
  withoutActuallyEscaping(body) { escapableBody in
    let decoder = ParallelCaptureDecoder(
      file: source, keepsCustomValues: keepsCustomValues, transform: transform, body: escapableBody)
    do throws(InputProblem) {
      try streamChunks(path: input.path) { chunk in
        if format == nil {
          pending.append(contentsOf: chunk)
          guard pending.contains(UInt8(ascii: "\n")) else { return }
          format = InputFormat.sniff(pending)
          if format == .capture {
            pending.withUnsafeBufferPointer { decoder.feed($0) }
            pending = []
          }
          return
        }
        if format == .capture {
          decoder.feed(chunk)
        } else if pending.count <= PushReader.maximumFileBytes {
          pending.append(contentsOf: chunk)
        } else if problem == nil {
          problem = InputProblem(
            path: source, message: "standard input is over \(PushReader.maximumFileBytes >> 20) MiB and is not a capture")
        }
      }
    } catch {
      problem = error
    }
    // Records already decoded are handed out even when reading failed part way.
    if format == .capture { decoder.finish() }
  }
  if let problem { throw problem }
  if format != .capture {
    body(transform(PushReader.readPayloadFile(pending, source: source, format: .payload, bundleID: bundleID)))
  }
}

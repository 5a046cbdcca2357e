import PushWire

/// Reads every push from one input and hands each ``PushRecord`` to `body`, in order.
///
/// Payload files are read whole (they are small); captures are streamed line by line, so a
/// capture of any size is read in constant memory. Blank capture lines are skipped.
///
/// - Parameters:
///   - input: the resolved input.
///   - bundleID: an app named on the command line, which wins over the file's own.
func readRecords(from input: ResolvedInput, bundleID: String? = nil, _ body: (PushRecord) -> Void) throws(InputProblem) {
  let source = input.displayPath
  if let path = input.path, let format = input.format, format != .capture {
    let bytes = try readWholeFile(path, limit: PushReader.maximumFileBytes)
    body(PushReader.readPayloadFile(bytes, source: source, format: format, bundleID: bundleID))
    return
  }
  // A capture file, or standard input whose format is decided by its first line.
  var format = input.format
  var pending: [UInt8] = []
  var splitter = LineSplitter()
  func emit(_ line: UnsafeBufferPointer<UInt8>, _ number: Int) {
    if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return }
    body(PushReader.readCaptureLine(Array(line), lineNumber: number, source: source))
  }
  var tooLarge = false
  try streamChunks(path: input.path) { chunk in
    if format == nil {
      pending.append(contentsOf: chunk)
      guard pending.contains(UInt8(ascii: "\n")) else { return }
      format = InputFormat.sniff(pending)
      if format == .capture {
        pending.withUnsafeBufferPointer { splitter.feed($0, emit) }
        pending = []
      }
      return
    }
    if format == .capture {
      splitter.feed(chunk, emit)
    } else if pending.count <= PushReader.maximumFileBytes {
      pending.append(contentsOf: chunk)
    } else {
      tooLarge = true
    }
  }
  if tooLarge {
    throw InputProblem(path: source, message: "standard input is over \(PushReader.maximumFileBytes >> 20) MiB and is not a capture")
  }
  if format == .capture {
    splitter.finish(emit)
  } else {
    body(PushReader.readPayloadFile(pending, source: source, format: .payload, bundleID: bundleID))
  }
}

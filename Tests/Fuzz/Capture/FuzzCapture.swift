// libFuzzer target: the capture reader (JSON Lines): the line splitter fed in input-chosen
// chunks, each envelope line decoded and pushed through the device.
// Built only by .ci/fuzz (PUSHDECK_FUZZ=1); see docs/RELIABILITY.md.
import PushCore

private let start = SimInstant(milliseconds: 1_795_000_000_000)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCapture(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  guard size > 0 else { return 0 }
  // The first byte picks the chunk size, so line ends fall across chunk boundaries.
  let chunk = Int(data[0]) + 1
  let input = UnsafeBufferPointer(start: data + 1, count: size - 1)
  // A small carry limit, so the overlong-line path is reached with small inputs.
  var splitter = LineSplitter(maximumCarryBytes: 512)
  var device = DeviceSimulator(profile: .standard(start: start))
  var scratch: [JSONToken] = []
  // Shared from line to line, as a decoding job shares it: a cached bundle id must never leak
  // into a line that names another.
  var names = NameCache()
  var lines = 0
  func handle(_ line: UnsafeBufferPointer<UInt8>, _ number: Int) {
    lines += 1
    let record = PushReader.readCaptureLine(
      Array(line)[...], lineNumber: number, source: "fuzz.jsonl", keepsCustomValues: true, scratch: &scratch,
      names: &names)
    let alone = PushReader.readCaptureLine(Array(line), lineNumber: number, source: "fuzz.jsonl")
    guard alone.bundleID == record.bundleID, alone.headers.topic == record.headers.topic else {
      fatalError("line \(number): a shared bundle id or topic differs from the line's own")
    }
    if record.payload != nil, record.bundleID != nil {
      _ = device.apply(.push(record), at: start + .seconds(Int64(number)))
    }
  }
  var offset = 0
  while offset < input.count {
    let end = min(input.count, offset + chunk)
    splitter.feed(UnsafeBufferPointer(rebasing: input[offset..<end]), handle)
    offset = end
  }
  splitter.finish(handle)
  // The whole input at once: the same number of lines, whatever the chunking.
  let whole = Array(input)
  let counted = LineSplitter.countLines(in: whole)
  let walked = LineSplitter.forEachLine(in: whole) { _, _ in }
  guard counted == lines, walked == lines else {
    fatalError("lines: split \(lines), counted \(counted), walked \(walked)")
  }
  return 0
}

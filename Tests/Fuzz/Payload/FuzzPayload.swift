// libFuzzer target: the payload scanner and decoder (JSON and .apns files), then the device.
// Built only by .ci/fuzz (PUSHDECK_FUZZ=1); see docs/RELIABILITY.md.
import PushCore

private let start = SimInstant(milliseconds: 1_795_000_000_000)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPayload(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  for format in [InputFormat.simulator, .payload] {
    let record = PushReader.readPayloadFile(bytes, source: "fuzz.apns", format: format)
    // Every diagnostic is printable and located inside the input.
    for diagnostic in record.diagnostics {
      _ = diagnostic.message.count
      if let location = diagnostic.location, location.offset > size { fatalError("location past the end") }
    }
    guard record.payload != nil else { continue }
    var withBundle = record
    if withBundle.bundleID == nil { withBundle.bundleID = "com.example.fuzz" }
    var device = DeviceSimulator(profile: .standard(start: start))
    _ = device.apply(.push(withBundle), at: start)
    _ = device.apply(.push(withBundle), at: start + .seconds(1))
  }
  return 0
}

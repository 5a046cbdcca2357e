// libFuzzer target: the theme YAML loader.
// Built only by .ci/fuzz (PUSHDECK_FUZZ=1); see docs/RELIABILITY.md.
import PushRender

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTheme(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
  do {
    _ = try Theme.load(yaml: text, file: "fuzz-theme.yaml")
  } catch {
    _ = error.description
  }
  return 0
}

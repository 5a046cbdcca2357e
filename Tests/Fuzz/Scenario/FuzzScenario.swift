// libFuzzer target: the scenario and device-profile YAML loaders (Yams, the schema readers), then
// playing the loaded scenario's timeline on its device.
// Built only by .ci/fuzz (PUSHDECK_FUZZ=1); see docs/RELIABILITY.md.
import PushCore
import PushScenario

private let files = ScenarioFiles.memory([
  "strings/app.strings": "\"GREETING\" = \"Hello %@\";\n",
  "profile.yaml": "apps:\n  - bundle: com.example.app\n",
  "push.json": "{\"aps\":{\"alert\":\"hi\"}}",
])

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScenario(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let text = String(decoding: bytes, as: UTF8.self)
  let loader = ScenarioLoader(files: files)
  do {
    let scenario = try loader.loadScenario(text: text, file: "fuzz.yaml")
    var device = DeviceSimulator(profile: scenario.profile)
    for entry in scenario.timeline.prefix(200) {
      device.advance(to: entry.at)
      if case .device(let event) = entry.event { _ = device.apply(event, at: entry.at) }
    }
  } catch {
    _ = error.description
  }
  do {
    _ = try loader.loadProfile(text: text, file: "fuzz-profile.yaml")
  } catch {
    _ = error.description
  }
  return 0
}

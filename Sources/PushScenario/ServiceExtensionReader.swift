import Foundation
import PushCore
import PushYAML

extension ProfileReader {
  static let serviceExtensionKeys = ["type", "keys", "key", "payloadKey", "placeholder", "argv", "budget"]

  /// Reads an app's `serviceExtension:`: `true`/`false`, or a mapping
  /// `{type: attach-media | decrypt | exec, …, budget}` (docs/SCENARIOS.md, Service extensions).
  ///
  /// Relative `argv[0]` paths with a slash start from the profile's directory.
  func serviceExtension(_ value: YAMLValue) throws(ScenarioError) -> ServiceExtensionConfig? {
    guard case .mapping = value.node else {
      return try value.bool() ? ServiceExtensionConfig(kind: .passThrough) : nil
    }
    let map = try value.mapping(allowed: Self.serviceExtensionKeys)
    let typeValue = try map.required(
      "type", "the extension to run: \(ServiceExtensionKind.names.joined(separator: ", "))")
    let type = try typeValue.oneOf(ServiceExtensionKind.names.map { ($0, $0) })
    let applicable: [String: [String]] = [
      "attach-media": ["keys"], "decrypt": ["key", "payloadKey", "placeholder"], "exec": ["argv"],
    ]
    for key in ["keys", "key", "payloadKey", "placeholder", "argv"]
    where map.has(key) && !(applicable[type] ?? []).contains(key) {
      throw map[key]!.error(
        "\(key) does not apply to the \(type) extension; it takes \((applicable[type] ?? []).joined(separator: ", ")) and budget"
      )
    }
    var budget = ServiceExtensionConfig.defaultBudgetSeconds
    if let value = map["budget"] {
      let text = try value.string()
      guard let seconds = YAMLValue.number(text), seconds > 0, seconds <= 600 else {
        throw value.error(
          "expected simulated seconds more than 0 and at most 600, such as 30 or 0.5, got \(value.described)")
      }
      budget = seconds
    }
    let kind: ServiceExtensionKind
    switch type {
    case "attach-media":
      let keysValue = try map.required("keys", "the payload keys holding media URLs, such as [image-url]")
      var keys: [String] = []
      for item in try keysValue.listOrOne() { keys.append(try item.nonEmptyString("a payload key")) }
      guard !keys.isEmpty else { throw keysValue.error("expected at least one payload key, such as [image-url]") }
      kind = .attachMedia(keys: keys)
    case "decrypt":
      let keyValue = try map.required("key", "the AES key: base64 of 16, 24 or 32 bytes")
      let text = try keyValue.nonEmptyString("base64 of 16, 24 or 32 bytes")
      guard let data = Data(base64Encoded: text), [16, 24, 32].contains(data.count) else {
        let count = Data(base64Encoded: text)?.count
        throw keyValue.error(
          count.map { "the key is \($0) bytes; AES-GCM takes 16, 24 or 32 (AES-128, -192, -256)" }
            ?? "expected base64 of 16, 24 or 32 bytes (for example from `openssl rand -base64 32`), got text that is not base64"
        )
      }
      let payloadKey = try map["payloadKey"]?.nonEmptyString("a payload key") ?? "encrypted"
      let placeholder = try map["placeholder"]?.nonEmptyString("a body text") ?? "Encrypted message"
      kind = .decrypt(key: Array(data), payloadKey: payloadKey, placeholder: placeholder)
    default:
      let argvValue = try map.required("argv", "the program and its arguments as a list, such as [./nse.py]")
      kind = .exec(argv: try argv(argvValue, example: "./nse.py"))
    }
    return ServiceExtensionConfig(kind: kind, budgetSeconds: budget)
  }
}

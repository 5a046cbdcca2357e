import PushCore
import Testing

@testable import PushScenario

/// An app's `serviceExtension:`: a flag, or the extension to run and its budget.
struct ServiceExtensionLoaderTests {
  func apps(_ text: String) throws -> [AppProfile] {
    try ScenarioLoader().loadProfile(text: text, file: "dir/profile.yaml").apps
  }

  func error(_ text: String) -> String {
    do {
      _ = try ScenarioLoader().loadProfile(text: text, file: "p.yaml")
      return "no error"
    } catch {
      return error.description
    }
  }

  @Test func readsEveryKind() throws {
    let read = try apps(
      """
      apps:
        - {bundle: a.flag, serviceExtension: true}
        - {bundle: a.none, serviceExtension: false}
        - {bundle: a.media, serviceExtension: {type: attach-media, keys: [image-url, video]}}
        - {bundle: a.secret, serviceExtension: {type: decrypt, key: "AAECAwQFBgcICQoLDA0ODw==", payloadKey: box, placeholder: "🔒", budget: 2.5}}
        - {bundle: a.exec, serviceExtension: {type: exec, argv: [./nse.py, "--fast"]}}
      """)
    #expect(read.map(\.hasServiceExtension) == [true, false, true, true, true])
    #expect(read[0].serviceExtension == ServiceExtensionConfig(kind: .passThrough))
    #expect(read[1].serviceExtension == nil)
    #expect(read[2].serviceExtension == ServiceExtensionConfig(kind: .attachMedia(keys: ["image-url", "video"])))
    #expect(
      read[3].serviceExtension
        == ServiceExtensionConfig(
          kind: .decrypt(key: Array(0..<16), payloadKey: "box", placeholder: "🔒"), budgetSeconds: 2.5))
    #expect(read[4].serviceExtension == ServiceExtensionConfig(kind: .exec(argv: ["dir/./nse.py", "--fast"])))
    #expect(read[4].serviceExtension?.budgetSeconds == 30)
  }

  @Test(arguments: [
    (
      "apps:\n  - {bundle: a.b, serviceExtension: {type: decryptt, key: x}}",
      #"p.yaml:2:44: apps[0].serviceExtension.type: expected one of attach-media, decrypt, exec, got "decryptt" (did you mean "decrypt"?)"#
    ),
    (
      "apps:\n  - {bundle: a.b, serviceExtension: {type: decrypt, key: \"AAEC\"}}",
      "p.yaml:2:58: apps[0].serviceExtension.key: the key is 3 bytes; AES-GCM takes 16, 24 or 32 (AES-128, -192, -256)"
    ),
    (
      "apps:\n  - {bundle: a.b, serviceExtension: {type: decrypt, key: \"not base64!\"}}",
      "p.yaml:2:58: apps[0].serviceExtension.key: expected base64 of 16, 24 or 32 bytes (for example from `openssl rand -base64 32`), got text that is not base64"
    ),
    (
      "apps:\n  - {bundle: a.b, serviceExtension: {type: exec, argv: \"./nse.sh --x\"}}",
      #"p.yaml:2:56: apps[0].serviceExtension.argv: expected a list such as [./nse.py, --verbose], got "./nse.sh --x"; programs run without a shell, so give each argument separately"#
    ),
    (
      "apps:\n  - {bundle: a.b, serviceExtension: {type: attach-media, keys: [u], budget: 0}}",
      "p.yaml:2:77: apps[0].serviceExtension.budget: expected simulated seconds more than 0 and at most 600, such as 30 or 0.5, got 0"
    ),
    (
      "apps:\n  - {bundle: a.b, serviceExtension: {type: attach-media, argv: [x], keys: [u]}}",
      "p.yaml:2:64: apps[0].serviceExtension.argv: argv does not apply to the attach-media extension; it takes keys and budget"
    ),
    (
      "apps:\n  - {bundle: a.b, serviceExtension: {type: attach-media}}",
      #"p.yaml:2:37: apps[0].serviceExtension: missing "keys": expected the payload keys holding media URLs, such as [image-url]"#
    ),
    (
      "apps:\n  - {bundle: a.b, serviceExtension: {kind: exec}}",
      #"p.yaml:2:38: apps[0].serviceExtension.kind: unknown key "kind"; expected one of type, keys, key, payloadKey, placeholder, argv, budget"#
    ),
  ])
  func errorsAreLocated(text: String, expected: String) {
    #expect(error(text) == expected)
  }
}

import PushCore

/// The built-in demo that `pushdeck` opens without arguments: `Examples/demo.yaml`, compiled
/// into the binary at build time (the `EmbedFiles` plugin), so the file is its one definition.
public enum BuiltInDemo {
  /// The text of `Examples/demo.yaml`.
  public static let yaml: String = EmbeddedScenarios.files.first { $0.name == "demo" }?.text ?? ""

  /// The name errors and listings give the demo.
  public static let fileName = "Examples/demo.yaml"

  /// The moment the demo opens: the pushes before it are already delivered.
  public static let opensAt = DemoScenario.start

  /// The demo scenario, loaded from ``yaml`` without touching the file system.
  ///
  /// - Throws: only if the embedded file is broken, which `DemoAndRunTests` rules out.
  public static func scenario() throws(ScenarioError) -> Scenario {
    try ScenarioLoader(files: .none).loadScenario(text: yaml, file: fileName)
  }
}

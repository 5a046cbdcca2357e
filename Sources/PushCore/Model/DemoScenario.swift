/// Where the built-in demo stands in time. The demo itself is `Examples/demo.yaml`, compiled
/// into `PushScenario` (`BuiltInDemo`); this is only the moment it opens.
public enum DemoScenario {
  /// The moment the demo opens, 2026-11-23T09:41:00Z: pushes of `Examples/demo.yaml` before it
  /// are already delivered. Also the default start of a device that names none.
  public static let start = SimInstant(milliseconds: 1_795_426_860_000)
}

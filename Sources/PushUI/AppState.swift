import PushCore

/// The front end's state: the device snapshot and which screen is showing.
public struct AppState: Equatable, Sendable {
  /// What the device holds now.
  public var device: DeviceSnapshot

  /// Creates the state for a device snapshot.
  public init(device: DeviceSnapshot) { self.device = device }
}

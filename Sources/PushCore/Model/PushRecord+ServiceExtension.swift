import PushWire

extension PushRecord {
  /// What the app's service extension made of it, when the shell ran one before handing the
  /// push to the device (the device uses it only when its policy says the extension runs).
  public var serviceExtension: ServiceExtensionResult? {
    get { (extensionBox as? ExtensionBox)?.result }
    set { extensionBox = newValue.map(ExtensionBox.init) }
  }
}

/// Holds a record's service-extension result by reference (it is immutable once set).
final class ExtensionBox: Sendable {
  let result: ServiceExtensionResult
  init(_ result: ServiceExtensionResult) { self.result = result }
}

extension PushRecord {
  /// Whether the record has a payload, read in place: `payload != nil` copied the payload
  /// (every reference it holds) to test it, once per push on the device's path.
  @inlinable public var hasPayload: Bool { payload?.aps.contentAvailable != nil }
}

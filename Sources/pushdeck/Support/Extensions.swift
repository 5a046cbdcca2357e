import PushCore
import PushHandlers
import PushMedia

extension ServiceExtensionRegistry {
  /// The profile's service extensions, with a thumbnail decoded (libpng, libjpeg) for each image
  /// attachment they add, so the front end can draw it.
  static func withThumbnails(profile: DeviceProfile) -> ServiceExtensionRegistry {
    var registry = ServiceExtensionRegistry(profile: profile)
    registry.decorateAttachment = { ImageDecoder.withThumbnail($0) }
    return registry
  }
}

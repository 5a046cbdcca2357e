import PushCore
import PushHandlers
import PushMedia
import PushUI

extension ServiceExtensionRegistry {
  /// The profile's service extensions, with a thumbnail decoded (libpng, libjpeg) for each image
  /// attachment they add, so the front end can draw it.
  package static func withThumbnails(profile: DeviceProfile) -> ServiceExtensionRegistry {
    var registry = ServiceExtensionRegistry(profile: profile)
    registry.decorateAttachment = { ImageDecoder.withThumbnail($0) }
    return registry
  }
}

extension ServiceExtensionRegistry {
  /// Runs the extensions on the pushes of timeline entries, in place.
  package func processBlocking(_ entries: [TimelineEntry], profile: DeviceProfile) -> [TimelineEntry] {
    var entries = entries
    let pushes: [(slot: Int, record: PushRecord, sender: String?)] = entries.indices.compactMap { slot in
      guard case .device(.push(let record, let sender)) = entries[slot].event else { return nil }
      return (slot, record, sender)
    }
    for (push, record) in zip(pushes, processAllBlocking(pushes.map(\.record), profile: profile)) {
      entries[push.slot] = TimelineEntry(at: entries[push.slot].at, event: .device(.push(record, sender: push.sender)))
    }
    return entries
  }
}

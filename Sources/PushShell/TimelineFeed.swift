import Foundation
import PushCore
import PushHandlers
import PushUI
import Synchronization

/// Pushes read in the background while `run` already shows the device: a reader thread places
/// each record on the timeline (``StreamingTimeline``), runs the profile's service extensions on
/// each chunk and posts it; the front end takes what has arrived after every turn.
package final class TimelineFeed: Sendable {
  private struct Shared {
    package var entries: [TimelineEntry] = []
    package var start: SimInstant?
    package var bytesRead = 0
    package var isDone = false
    package var failure: String?
  }

  private let shared = Mutex(Shared())
  private let firstChunk = DispatchSemaphore(value: 0)
  /// The inputs' total size in bytes (0 for standard input), for the progress.
  package let totalBytes: Int

  private init(totalBytes: Int) { self.totalBytes = totalBytes }

  /// How many entries a chunk holds: small enough for the first frame to come at once.
  package static let chunkSize = 2_048

  /// Starts reading `inputs` on a thread of its own.
  ///
  /// - Parameters:
  ///   - defaultStart: the device's start when no capture line has a time.
  ///   - extensionProfile: the profile whose service extensions run on each push, if it has any.
  package static func start(
    _ inputs: [ResolvedInput], bundle: String?, defaultStart: SimInstant, extensionProfile: DeviceProfile?
  ) -> TimelineFeed {
    let total = inputs.reduce(0) { sum, input in
      sum + ((input.path.flatMap { try? FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int }) ?? 0)
    }
    let feed = TimelineFeed(totalBytes: total)
    let thread = Thread {
      var placer = StreamingTimeline(defaultStart: defaultStart)
      let extensions = extensionProfile.map { ServiceExtensionRegistry.withThumbnails(profile: $0) }
      var chunk: [TimelineEntry] = []
      var bytes = 0
      // The last chunk and the end are posted together, so inputs of less than a chunk are
      // always whole at the first frame.
      func post(done: Bool = false, failure: String? = nil) {
        if let extensions, let profile = extensionProfile, !extensions.isEmpty {
          chunk = extensions.processBlocking(chunk, profile: profile)
        }
        feed.post(chunk, start: placer.start, bytesRead: bytes, done: done, failure: failure)
        chunk.removeAll(keepingCapacity: true)
      }
      var failure: String?
      for input in inputs {
        do throws(InputProblem) {
          try readRecords(
            from: input, bundleID: bundle, keepsCustomValues: extensionProfile?.needsCustomKeys ?? false,
            defaultBundleID: fallbackBundleID
          ) { record in
            bytes += record.byteCount + 1
            chunk += placer.place(record)
            if chunk.count >= chunkSize { post() }
          }
        } catch {
          failure = "\(error.path): \(error.message)"
          break
        }
      }
      chunk += placer.finish()
      post(done: true, failure: failure)
    }
    thread.name = "pushdeck-reader"
    thread.start()
    return feed
  }

  private func post(_ entries: [TimelineEntry], start: SimInstant?, bytesRead: Int, done: Bool, failure: String?) {
    let signal = shared.withLock { shared in
      let waiting = shared.start == nil && !shared.isDone
      shared.entries += entries
      shared.start = shared.start ?? start
      shared.bytesRead = bytesRead
      if done {
        shared.isDone = true
        shared.failure = failure
      }
      return waiting && (shared.start != nil || done)
    }
    if signal { firstChunk.signal() }
  }

  /// Waits for the device's start (the first capture line, or the end of the inputs).
  package func waitForStart() -> SimInstant? {
    firstChunk.wait()
    firstChunk.signal()
    return shared.withLock { $0.start }
  }

  /// What has arrived since the last call, whether reading is over, and what went wrong.
  package func take() -> (entries: [TimelineEntry], isDone: Bool, progress: Double, failure: String?) {
    shared.withLock { shared in
      defer { shared.entries = [] }
      let progress = totalBytes > 0 ? Double(shared.bytesRead) / Double(totalBytes) : 0
      return (shared.entries, shared.isDone, progress, shared.failure)
    }
  }
}

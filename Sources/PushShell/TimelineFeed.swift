import Foundation
import PushCore
import PushHandlers
import PushUI
import Synchronization

/// Pushes read in the background while `run` already shows the device: a reader thread places
/// each record on the timeline (``StreamingTimeline``), runs the profile's service extensions on
/// each chunk and posts it; the front end takes what has arrived after every turn.
///
/// A line of a regular capture file is posted as a reference (``CaptureLineRef``), read again
/// when it is played or shown (``CaptureLines``), so the timeline costs a few bytes a line. With
/// a device to play ahead (`makeDevice`), the reader thread also plays every chunk on a device
/// of its own, in time order (lines within ``holdBack`` of the latest wait for later lines that
/// may go before them), and keeps it once everything is read: a seek to the end takes it
/// (``PlayAhead``, docs/DECISIONS.md, Run: a lean timeline and a device played ahead).
package final class TimelineFeed: PlayAhead {
  private struct Shared {
    var entries = TimelineStore()
    var start: SimInstant?
    var bytesRead = 0
    var isDone = false
    var failure: String?
    var isPlaying = false
    var played: AppState?
    /// The front end asked for the state played so far (a seek past what has been read).
    var wantsLatest = false
    /// The state played so far, handed over (taken by the front end).
    var latest: AppState?
    /// States kept along the way, oldest first, once everything is played.
    var checkpoints: [AppState] = []
  }

  private let shared = Mutex(Shared())
  private let firstChunk = DispatchSemaphore(value: 0)
  /// The inputs' total size in bytes (0 for standard input), for the progress.
  package let totalBytes: Int

  private init(totalBytes: Int) { self.totalBytes = totalBytes }

  /// How many entries a chunk holds: small enough for the first frame to come at once.
  package static let chunkSize = 2_048

  /// How far behind the latest line read the device played ahead stays: a capture line earlier
  /// than lines already played would otherwise be played out of time order.
  package static let holdBack = SimDuration.seconds(60)

  /// How many states the device played ahead keeps along the way at most, evenly by bytes
  /// read, for seeks into the middle (each shares the storage its successors did not change).
  /// At a million lines a seek plays at most 1/16 of the capture from the nearest one: 0.9 s.
  package static let checkpointCount = 15

  /// What the checkpoints may cost together, estimated at ``checkpointBytesPerEntry`` for each
  /// entry a checkpoint has played: later ones are not kept past it.
  package static let checkpointBudget = 48 << 20

  /// What a checkpoint costs for each entry it has played: what the reader goes on writing
  /// after it and the checkpoint then holds alone — the collapse-id index, the last member
  /// chunk of each stack, the table's page and vacancy indices, its latest delivery records.
  /// Pages and member chunks a removal reaches are not written (vacancies, stale members).
  /// Measured with heaptrack at a million lines: about 2.4 MB for each of 15 checkpoints that
  /// had played 470,000 entries on average, 5 bytes an entry (docs/PERFORMANCE.md).
  package static let checkpointBytesPerEntry = 6

  /// The delivery records a checkpoint keeps: the latest pushes' decisions before it.
  package static let checkpointRecords = 256

  /// Inputs smaller than this keep no checkpoints: playing them from the start is quick.
  package static let checkpointMinimumBytes = 32 << 20

  /// The checkpoints a front end with no device played ahead keeps of itself (`run` with a
  /// state database), within the same budget as the reader's; nil for inputs under
  /// ``checkpointMinimumBytes``.
  package func seekCheckpoints() -> SeekCheckpoints? {
    guard totalBytes >= Self.checkpointMinimumBytes else { return nil }
    return SeekCheckpoints(
      spacing: AppState.playAheadMinimum, budget: Self.checkpointBudget, bytesPerEntry: Self.checkpointBytesPerEntry,
      records: Self.checkpointRecords)
  }

  /// How many chunks the device played ahead plays between two returns of freed memory to the
  /// kernel (``returnFreedMemory()``).
  package static let trimInterval = 64

  /// The least time between two states handed over to a front end that follows a seek: each
  /// makes the reader's next writes copy what they change.
  package static let handOverInterval = Duration.milliseconds(200)

  /// The inputs' total size in bytes (of the files symbolic links name).
  package static func totalBytes(of inputs: [ResolvedInput]) -> Int {
    inputs.reduce(0) { sum, input in
      let path = input.path.map { URL(fileURLWithPath: $0).resolvingSymlinksInPath().path }
      return sum + ((path.flatMap { try? FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int }) ?? 0)
    }
  }

  /// Starts reading `inputs` on a thread of its own.
  ///
  /// - Parameters:
  ///   - defaultStart: the device's start when no capture line has a time.
  ///   - extensionProfile: the profile whose service extensions run on each push, if it has any.
  ///   - makeDevice: the device that starts at the inputs' start, to play ahead on; nil plays
  ///     nothing ahead.
  ///   - checkpointsFrom: inputs of at least this many bytes keep checkpoints.
  package static func start(
    _ inputs: [ResolvedInput], bundle: String?, defaultStart: SimInstant, extensionProfile: DeviceProfile?,
    makeDevice: (@Sendable (SimInstant) -> DeviceSimulator)? = nil, checkpointsFrom: Int = checkpointMinimumBytes
  ) -> TimelineFeed {
    useOneAllocatorArena()
    let feed = TimelineFeed(totalBytes: totalBytes(of: inputs))
    let keepsCustomValues = extensionProfile?.needsCustomKeys ?? false
    let extensions = extensionProfile.map { ServiceExtensionRegistry.withThumbnails(profile: $0) }
    let hasExtensions = !(extensions?.isEmpty ?? true)
    // Service extensions change the push: their results are kept whole.
    let lines =
      hasExtensions
      ? nil : CaptureLines(inputs, keepsCustomValues: keepsCustomValues)
    if makeDevice != nil { feed.shared.withLock { $0.isPlaying = true } }
    let thread = Thread {
      var placer = StreamingTimeline(defaultStart: defaultStart)
      var front = TimelineStore(lineSource: lines)
      var chunk: [TimelineEntry] = []
      var bytes = 0
      var ahead: AppState?
      var latest: SimInstant?
      var diverged = false
      var checkpoints: [AppState] = []
      let checkpointBytes =
        feed.totalBytes >= checkpointsFrom ? max(feed.totalBytes / (checkpointCount + 1), 1) : Int.max
      var nextCheckpoint = checkpointBytes
      var checkpointCost = 0
      var handedOverAt: ContinuousClock.Instant?
      var chunksPlayed = 0
      // How far into the inputs the reader is, in bytes of the files (for the checkpoints).
      var inputBase = 0
      var readOffset = 0

      func playAhead(_ entries: [TimelineEntry], done: Bool) {
        guard let makeDevice, !diverged else { return }
        if ahead == nil, let start = placer.start {
          ahead = AppState(device: makeDevice(start))
          ahead?.consumesArrivedTimeline = true
        }
        guard var state = ahead else { return }
        ahead = nil  // uniquely referenced while it changes
        if entries.contains(where: { $0.at < state.now }) {
          diverged = true
          return
        }
        for entry in entries { latest = max(latest ?? entry.at, entry.at) }
        state.appendTimeline(entries)
        if let latest {
          let target = done ? latest : latest - holdBack
          if target > state.now { _ = reduce(into: &state, .tick(target)) }
        }
        state.forgetArrivedTimeline()
        // A front end following a seek gets the state so far, a few times a second at most
        // (the last one is the finished state).
        let now = ContinuousClock.now
        if !done, handedOverAt.map({ now - $0 >= handOverInterval }) ?? true,
          feed.shared.withLock({ $0.wantsLatest })
        {
          let copy = state.handedOver()
          feed.shared.withLock { shared in
            shared.latest = copy
            shared.wantsLatest = false
          }
          handedOverAt = now
        }
        if !done, readOffset >= nextCheckpoint {
          let cost = state.playedEntryCount * checkpointBytesPerEntry
          if checkpointCost + cost <= checkpointBudget {
            checkpoints.append(state.keptAsCheckpoint(records: checkpointRecords))
            checkpointCost += cost
          }
          while nextCheckpoint <= readOffset { nextCheckpoint += checkpointBytes }
        }
        ahead = state
        chunksPlayed += 1
        if done || chunksPlayed % trimInterval == 0 { returnFreedMemory() }
      }

      // The last chunk and the end are posted together, so inputs of less than a chunk are
      // always whole at the first frame.
      func post(done: Bool = false, failure: String? = nil) {
        if let extensions, let profile = extensionProfile, hasExtensions {
          chunk = extensions.processBlocking(chunk, profile: profile)
          front = TimelineStore(chunk)
        }
        feed.post(front, start: placer.start, bytesRead: bytes, done: done, failure: failure)
        front = TimelineStore(lineSource: lines)
        playAhead(chunk, done: done)
        chunk.removeAll(keepingCapacity: true)
        if done { feed.finishPlaying(diverged ? nil : ahead, checkpoints: diverged ? [] : checkpoints) }
      }

      /// Places a record; the capture line `line` (when given) is what the front end keeps.
      func place(_ record: PushRecord, line: CaptureLineRef?) {
        let placed = placer.place(record)
        for (index, entry) in placed.enumerated() {
          if let line, index == placed.count - 1, front.append(at: entry.at, line: line) { continue }
          front.append(entry)
        }
        chunk += placed
        if chunk.count >= chunkSize { post() }
      }

      var failure: String?
      for (number, input) in inputs.enumerated() {
        let rereads = lines?.rereads(number) ?? false
        var waiting: PushRecord?
        var lineStart: Int64 = 0
        do throws(InputProblem) {
          try readRecords(
            from: input, bundleID: bundle, keepsCustomValues: keepsCustomValues,
            defaultBundleID: fallbackBundleID,
            position: { position in
              readOffset = inputBase + Int(position.offset)
              defer { lineStart = position.offset }
              guard let record = waiting else { return }
              waiting = nil
              let length = position.offset - lineStart
              // An overlong line is kept whole (only its first bytes are).
              let line =
                length <= Int64(PushReader.maximumLineBytes) + 2
                ? CaptureLineRef(
                  input: number, offset: Int(lineStart), length: Int(length), line: record.line ?? 0) : nil
              place(record, line: line)
            }, transform: { $0 }
          ) { (record: inout PushRecord) in
            bytes += record.byteCount + 1
            if rereads { waiting = record } else { place(record, line: nil) }
          }
        } catch {
          failure = "\(error.path): \(error.message)"
          break
        }
        if let record = waiting { place(record, line: nil) }
        inputBase += totalBytes(of: [input])
        readOffset = inputBase
      }
      for entry in placer.finish() { front.append(entry); chunk.append(entry) }
      post(done: true, failure: failure)
    }
    thread.name = "pushdeck-reader"
    thread.start()
    return feed
  }

  private func post(_ entries: TimelineStore, start: SimInstant?, bytesRead: Int, done: Bool, failure: String?) {
    let signal = shared.withLock { shared in
      let waiting = shared.start == nil && !shared.isDone
      shared.entries.append(contentsOf: entries)
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

  private func finishPlaying(_ state: AppState?, checkpoints: [AppState]) {
    shared.withLock { shared in
      shared.played = state
      shared.checkpoints = checkpoints
      shared.latest = nil
      shared.isPlaying = false
    }
  }

  package func finished() -> AppState? { shared.withLock { $0.played } }

  package func latest() -> AppState? {
    shared.withLock { shared in
      shared.wantsLatest = shared.isPlaying
      defer { shared.latest = nil }
      return shared.latest
    }
  }

  package func checkpoint(atOrBefore instant: SimInstant) -> AppState? {
    shared.withLock { shared in shared.checkpoints.last { $0.now <= instant } }
  }

  /// How many checkpoints it keeps (once finished).
  package var checkpointsKept: Int { shared.withLock { $0.checkpoints.count } }

  package var isPlaying: Bool { shared.withLock { $0.isPlaying } }

  /// Waits for the device's start (the first capture line, or the end of the inputs).
  package func waitForStart() -> SimInstant? {
    firstChunk.wait()
    firstChunk.signal()
    return shared.withLock { $0.start }
  }

  /// What has arrived since the last call, whether reading is over, and what went wrong.
  package func take() -> (entries: TimelineStore, isDone: Bool, progress: Double, failure: String?) {
    shared.withLock { shared in
      let taken = shared.entries
      shared.entries = TimelineStore(lineSource: taken.lineSource)
      let progress = totalBytes > 0 ? Double(shared.bytesRead) / Double(totalBytes) : 0
      return (taken, shared.isDone, progress, shared.failure)
    }
  }
}

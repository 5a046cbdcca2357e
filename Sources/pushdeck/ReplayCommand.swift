import ArgumentParser
import Dispatch
import Foundation
import PushCore
import PushHandlers
import PushStore
import PushWire

/// `pushdeck replay`: streams captures and payload files through the simulated device and
/// journals every delivery into the state database, in batches.
///
/// Nothing is held per push beyond the device itself: records are decoded in parallel, applied
/// in file order with `keepsRecords` off, and stored notifications keep their raw payload,
/// custom keys and reason texts only in the database (`keepsPayloadDetails` off), so a capture
/// of a million lines replays in bounded memory.
struct ReplayCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "replay",
    abstract: "Replay captures and payload files through the simulated device into its state database.",
    discussion: """
      Pushes go through the delivery policy, Notification Center's stacks and ranking, and are \
      journalled into the state database in batches (--batch deliveries per transaction), so \
      `pushdeck run --state PATH` afterwards shows the replayed Notification Center. Capture lines \
      arrive at their "at" times (never before the device's clock); payload files one second apart. \
      A state that already holds a device is continued, not replaced.

      Replaying is idempotent: the state remembers how far it has saved each capture (by its \
      path and its first 64 KiB), in the same transaction as the pushes. A capture the state \
      already holds in part (a replay killed mid-way, or lines appended since) continues after \
      its last saved line, saying so on standard error ("resumed at line 65,001 of \
      capture.jsonl"); one it holds in full is not replayed again. --again replays every input \
      from its first line, delivering its pushes a second time.

      "-" reads standard input as a stream (`tail -f live.jsonl | pushdeck replay -`): lines are \
      delivered as they arrive and saved at least every second, or every --batch pushes. \
      Standard input is never resumed. A line over 1 MiB is rejected at its line (LineTooLong) \
      and the replay goes on.

      Exit status: 0 when every push was accepted, 1 when any was rejected, 2 for usage or I/O \
      errors.
      """
  )

  enum Format: String, ExpressibleByArgument, CaseIterable {
    case text, json
  }

  @Argument(help: "Captures (.jsonl), payload files (.json, .apns), directories, or - for standard input.")
  var inputs: [String] = []

  @OptionGroup var device: DeviceOptions

  /// How many bytes of capture each decoding job takes.
  static let jobBytes = 1 << 20

  @Option(name: .long, help: "Deliveries per database transaction.")
  var batch: Int = 1_000

  @Flag(
    name: .long,
    help: "Replay every input from its first line, even one the state already holds (its pushes are delivered again).")
  var again = false

  @Option(name: .long, help: "Summary format: text or json.")
  var format: Format = .text

  @Flag(
    name: .long,
    help: "After each batch is saved, write \"saved N pushes\" to standard error (N counts from the replay's start).")
  var progress = false

  func validate() throws {
    if inputs.isEmpty { throw ValidationError("name at least one capture or payload file") }
    if inputs.filter({ $0 == "-" }).count > 1 { throw ValidationError("name standard input (-) once") }
    if inputs.contains(where: Session.isScenario) {
      throw ValidationError("replay takes captures and payload files; play scenarios with explain or run")
    }
    guard batch >= 1 else { throw ValidationError("--batch must be at least 1") }
  }

  func run() throws {
    let started = ContinuousClock.now
    let err = OutputStream.standardError()
    func fail(_ message: String) -> ExitCode {
      err.line("pushdeck: \(terminalSafe(message))")
      err.flush()
      return ExitCode(2)
    }
    let journal: DeviceJournal?
    let holdsDevice: Bool
    let committer: BackgroundCommitter?
    do throws(StoreError) {
      // Checkpoint every 64 MiB of WAL instead of every few MiB: fewer syncs of a growing file.
      (journal, holdsDevice) = try device.openState(
        DeviceJournal.Options(writer: "Pushdeck replay", checkpointBytes: 64 << 20, checkpointsInBackground: true))
      committer = try journal.map { journal throws(StoreError) in
        try BackgroundCommitter(journal: journal, reportsProgress: progress)
      }
    } catch {
      throw fail(error.description)
    }
    defer { try? journal?.close() }
    let baseProfile = try Session.profileLoader(device.profile)
    let (resolved, inputProblems) = resolveInputs(inputs)
    var problems = inputProblems.map { "\($0.path): \($0.message)" }
    var replay = Replay(
      committer: committer, restoring: holdsDevice ? journal : nil, batchSize: batch,
      preset: device.profile.flatMap(Session.PresetRequest.init(preset:)),
      makeProfile: { start in try baseProfile(start) })
    replay.tracksPositions = true
    var replayed: ReplayedInputs
    do throws(StoreError) {
      replayed = ReplayedInputs(try journal?.sourceProgress() ?? [])
    } catch {
      throw fail(error.description)
    }
    var payloadFilesHeld = 0
    for input in resolved {
      // Where to start: after what the state holds of this file (a regular file, into a state).
      let identity = journal == nil ? nil : input.path.flatMap { InputIdentity(path: $0) }
      defer { identity?.close() }
      var start = CapturePosition.start
      if let identity {
        var (progress, isKnown) = replayed.progress(of: identity)
        if isKnown && !again && progress.offset > 0 {
          if progress.offset == identity.size {
            if input.format == .capture {
              err.line(
                "pushdeck: \(terminalSafe(input.displayPath)) is already in the state (\(grouped(progress.line)) lines); "
                  + "nothing to replay (--again replays it from the start)")
              err.flush()
            } else {
              payloadFilesHeld += 1
            }
            continue
          }
          if input.format == .capture {
            start = CapturePosition(line: progress.line, offset: progress.offset)
            err.line(
              "pushdeck: resumed at line \(grouped(progress.line + 1)) of \(terminalSafe(input.displayPath)) "
                + "(the state holds its first \(grouped(progress.line)) lines; --again replays it from the start)")
            err.flush()
          }
        }
        if !isKnown || again || input.format != .capture {
          progress.line = 0
          progress.offset = 0
        }
        progress.path = identity.path
        replay.begin(progress)
      }
      do throws(InputProblem) {
        // Custom keys are not materialised: the journal keeps them in the raw payload. Each
        // record's source is made on the decoding threads, not on this one; its payload's text
        // is never made (the journal writes the bytes as they came).
        // The device is slower than decoding, so the decoded records wait: jobs of 1 MiB, not
        // 4, keep fewer of them in memory.
        try readRecords(
          from: input, keepsCustomValues: false, defaultBundleID: fallbackBundleID, jobBytes: Self.jobBytes,
          start: start, position: { replay.advance(to: $0) }, idle: { replay.idle() },
          transform: { record in
            var prepared = record
            prepared.prepareSource()
            return prepared
          }
        ) { record in replay.push(record) }
        if let identity, input.format != .capture {
          // A payload file is one push: read whole, it is done.
          replay.advance(to: CapturePosition(line: 1, offset: identity.size))
        }
      } catch {
        problems.append("\(error.path): \(error.message)")
      }
      if let done = replay.end() { replayed.update(done) }
      if let failure = replay.failure {
        replay.finish()
        throw fail(failure)
      }
    }
    replay.finish()
    if let failure = replay.failure { throw fail(failure) }
    if payloadFilesHeld > 0 {
      err.line(
        "pushdeck: \(grouped(payloadFilesHeld)) payload file\(payloadFilesHeld == 1 ? " is" : "s are") already in the state; "
          + "not replayed again (--again replays them)")
    }
    let elapsed = ContinuousClock.now - started
    let summary = replay.summary(elapsed: elapsed, statePath: journal?.path)
    let out = OutputStream.standardOutput()
    out.write(format == .json ? summary.json() + "\n" : summary.text())
    out.flush()
    for problem in problems { err.line("pushdeck: \(terminalSafe(problem))") }
    err.flush()
    if !problems.isEmpty { throw ExitCode(2) }
    if summary.rejected > 0 { throw ExitCode(1) }
  }
}

/// The replay's state: the device, the batch being filled and the counts.
struct Replay {
  /// Commits batches to the state database; nil for `--ephemeral`.
  let committer: BackgroundCommitter?
  /// The journal whose device the replay continues, read when the first push makes the device;
  /// nil for a new device.
  let restoring: DeviceJournal?
  let batchSize: Int
  let makeProfile: (SimInstant) throws -> DeviceProfile
  /// What a `--profile` preset (`locked`, `dnd`, …) asks of a continued device, which wins over
  /// what it saved; nil when none was named.
  let preset: Session.PresetRequest?
  var device: DeviceSimulator?
  var batch: JournalBatch
  /// The reason lists the replay has stored, shared by its batches.
  let reasonLists: ReasonLists?
  var pushes = 0
  var dispositions: [Disposition: Int] = [:]
  var payloadFiles: Int64 = 0
  /// Older notifications removed because Notification Center was full.
  var evicted = 0
  var origin = DemoScenario.start
  /// The profile's service extensions, run on each push that has `mutable-content: 1`.
  var extensions = ServiceExtensionRegistry()
  /// The first error that stopped the replay (a profile problem).
  private var ownFailure: String?
  /// Whether batches are cut by ``advance(to:)`` (after each line's position is known, so a
  /// batch's progress row counts exactly its lines) instead of by ``push(_:)``.
  var tracksPositions = false
  /// The input being read, and how far (nil for standard input and `--ephemeral`).
  private var current: JournalBatch.SourceProgress?
  /// Inputs finished since the last batch, whose progress goes with it.
  private var finished: [JournalBatch.SourceProgress] = []
  /// When the pending batch got its first push.
  private var batchStarted = ContinuousClock.now
  /// How long a push waits at most before its batch is saved, on a slow stream.
  static let saveInterval = Duration.milliseconds(800)

  /// The first error that stopped the replay (a database or profile problem).
  var failure: String? { ownFailure ?? committer?.failure }

  init(
    committer: BackgroundCommitter?, restoring: DeviceJournal?, batchSize: Int, preset: Session.PresetRequest? = nil,
    makeProfile: @escaping (SimInstant) throws -> DeviceProfile
  ) {
    self.preset = preset
    self.committer = committer
    self.restoring = restoring
    self.batchSize = batchSize
    self.makeProfile = makeProfile
    reasonLists = committer?.reasonLists
    batch = JournalBatch(packsDeliveries: true, reasonLists: reasonLists)
  }

  /// Makes the device on the first push (a preset starts at the first capture line's time).
  private mutating func startDevice(first record: PushRecord) {
    startDevice(at: record.at.map { SimInstant(epochSeconds: $0) } ?? DemoScenario.start)
  }

  /// Makes the device, if there is none yet, as a first push at `seconds` (UNIX) would: the
  /// channel API needs it before any push. Returns whether there is a device.
  mutating func ensureDevice(at seconds: Double) -> Bool {
    if device == nil, failure == nil { startDevice(at: SimInstant(epochSeconds: seconds)) }
    return device != nil
  }

  private mutating func startDevice(at start: SimInstant) {
    do {
      let profile = try makeProfile(start)
      // Streamed from the database into the store: the journal's notifications are never all
      // in memory at once.
      var made =
        try restoring.map { journal throws(StoreError) in
          try journal.restoreDevice(profile: profile, keepsPayloadDetails: false)
        } ?? DeviceSimulator(profile: profile)
      made.keepsRecords = false
      made.keepsPayloadDetails = false
      if restoring != nil, let preset {
        // Named on the command line, so it wins over what was saved; journalled as events.
        for event in preset.events(for: made) { made.apply(event, at: made.now, journalingInto: &batch) }
      }
      origin = made.now
      extensions = ServiceExtensionRegistry.withThumbnails(profile: profile)
      device = made
    } catch {
      ownFailure = "\(error)"
    }
  }

  /// Applies one push at its time and commits the batch when it is full. Records name their
  /// app: files through `readRecords(defaultBundleID:)`, the endpoint's through the topic.
  mutating func push(_ record: PushRecord) {
    guard failure == nil else { return }
    if batch.deliveryCount == 0 { batchStarted = .now }
    if device == nil { startDevice(first: record) }
    guard let now = device?.now else { return }
    var at: SimInstant
    if let seconds = record.at {
      at = SimInstant(epochSeconds: seconds)
    } else if record.line == nil {
      at = origin + .seconds(payloadFiles)
      payloadFiles += 1
    } else {
      at = now
    }
    if at < now { at = now }
    // The app's service extension runs here, in the shell; the device reads its result.
    // `device!` mutates the simulator in place: copying it out and back retained every one of
    // its fields for each push. The record goes in as it is (an event would hold a copy of it).
    let delivery: DeliveryRecord?
    if extensions.isEmpty {
      delivery =
        committer == nil
        ? device!.apply(push: record, at: at) : device!.apply(push: record, at: at, journalingInto: &batch)
    } else {
      let processed = extensions.processBlocking(record, profile: device!.profile)
      delivery =
        committer == nil
        ? device!.apply(push: processed, at: at) : device!.apply(push: processed, at: at, journalingInto: &batch)
    }
    // Read through the optional: binding it with `if let` copied the whole record.
    if let disposition = delivery?.decision.disposition {
      dispositions[disposition, default: 0] += 1
      evicted += delivery?.evicted.count ?? 0
    }
    pushes += 1
    if !tracksPositions && batch.deliveryCount >= batchSize { flush() }
  }

  /// Starts reading an input whose progress the state keeps.
  mutating func begin(_ progress: JournalBatch.SourceProgress) {
    current = progress
  }

  /// Notes that the input has been read up to `position` (every push before it applied), and
  /// saves the batch when it is full.
  mutating func advance(to position: CapturePosition) {
    if current != nil {
      current!.line = position.line
      current!.offset = position.offset
    }
    if batch.deliveryCount >= batchSize { flush() }
  }

  /// Ends the current input; returns its progress as it will be saved.
  mutating func end() -> JournalBatch.SourceProgress? {
    guard let done = current else { return nil }
    current = nil
    finished.append(done)
    return done
  }

  /// Saves the pending batch once its oldest push has waited ``saveInterval``.
  mutating func idle() {
    if batch.deliveryCount > 0 && ContinuousClock.now - batchStarted >= Self.saveInterval { flush() }
  }

  /// Hands the pending batch, with the progress of the inputs it reads from, to the committer.
  mutating func flush() {
    guard let committer else { return }
    batch.sources = finished + (current.map { [$0] } ?? [])
    guard !batch.isEmpty else { return }
    finished = []
    committer.submit(batch)
    batch = JournalBatch(packsDeliveries: true, reasonLists: reasonLists)
  }

  /// Commits what is pending and waits for every commit.
  mutating func finish() {
    flush()
    committer?.drain()
  }

  func summary(elapsed: Duration, statePath: String?) -> ReplaySummary {
    let store = device?.store
    return ReplaySummary(
      pushes: pushes, dispositions: dispositions, stored: store?.count ?? 0, groups: store?.groupCount ?? 0,
      topGroups: store?.topGroups(limit: 5) ?? [], elapsed: elapsed, statePath: statePath, evicted: evicted,
      limit: device?.profile.maxStoredNotifications ?? DeviceProfile.defaultMaxStoredNotifications,
      isUnchanged: device == nil && restoring != nil)
  }
}

/// What `replay` prints at the end.
struct ReplaySummary {
  var pushes: Int
  var dispositions: [Disposition: Int]
  var stored: Int
  var groups: Int
  var topGroups: [(key: GroupKey, count: Int, score: Double)]
  var elapsed: Duration
  var statePath: String?
  /// Older notifications removed to make room, and Notification Center's limit.
  var evicted = 0
  var limit = DeviceProfile.defaultMaxStoredNotifications
  /// Whether nothing was replayed onto a saved device (which was therefore not read).
  var isUnchanged = false

  var rejected: Int { dispositions[.rejected] ?? 0 }

  private var seconds: Double {
    Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
  }

  private var secondsText: String { String((seconds * 100).rounded() / 100) }

  func text() -> String {
    var lines = ["Replayed \(pushes) pushes in \(secondsText) s"]
    for disposition in Disposition.allCases {
      if let count = dispositions[disposition], count > 0 {
        lines.append("  " + disposition.rawValue.padding(toLength: 18, withPad: " ", startingAt: 0) + String(count))
      }
    }
    lines.append(
      isUnchanged
        ? "Notification Center: as saved (nothing replayed)"
        : "Notification Center: \(PluralFormat.counted(stored, "notification")) in \(PluralFormat.counted(groups, "stack"))"
    )
    if evicted > 0 {
      lines.append(
        "  \(PluralFormat.counted(evicted, "older notification")) \(evicted == 1 ? "was" : "were") removed: Notification Center holds at most \(limit)"
      )
    }
    for (place, group) in topGroups.enumerated() {
      lines.append("  \(place + 1). \(terminalSafe(group.key.description)) (\(group.count))")
    }
    lines.append("State: " + (statePath.map(terminalSafe) ?? "ephemeral (nothing saved)"))
    return lines.joined(separator: "\n") + "\n"
  }

  func json() -> String {
    var json = JSONWriter()
    json.beginObject()
    json.member("pushes", pushes)
    json.key("dispositions")
    json.beginObject()
    for disposition in Disposition.allCases { json.member(disposition.rawValue, dispositions[disposition] ?? 0) }
    json.endObject()
    json.member("stored", isUnchanged ? nil : stored)
    json.member("evicted", evicted)
    json.member("groups", isUnchanged ? nil : groups)
    json.key("topGroups")
    json.beginArray()
    for group in topGroups {
      json.beginObject()
      json.member("group", group.key.description)
      json.member("count", group.count)
      json.endObject()
    }
    json.endArray()
    json.member("elapsedSeconds", (seconds * 100).rounded() / 100)
    json.member("state", statePath)
    json.endObject()
    return json.text
  }
}

/// Commits journal batches on a background queue while the device goes on with the next pushes,
/// with at most two batches waiting, so the database's work overlaps the simulation's.
///
/// A batch is durable once its commit returns; a replay killed mid-way keeps every batch
/// committed before (at most two batches, 2,000 pushes by default, are still pending).
final class BackgroundCommitter: @unchecked Sendable {
  // `firstError` is guarded by `lock`; the journal is used from the queue only.
  private let journal: DeviceJournal
  private let queue = DispatchQueue(label: "pushdeck.replay.journal")
  private let slots = DispatchSemaphore(value: 2)
  private let lock = NSLock()
  private var firstError: String?
  /// Whether each commit is reported on standard error, and how many pushes are saved so far
  /// (used on the queue only).
  private let reportsProgress: Bool
  private var saved = 0

  /// The reason lists the journal's batches share (new ones numbered after the journal's).
  let reasonLists: ReasonLists

  init(journal: DeviceJournal, reportsProgress: Bool = false) throws(StoreError) {
    self.journal = journal
    self.reportsProgress = reportsProgress
    reasonLists = ReasonLists(firstID: try journal.nextReasonListID())
  }

  /// The first commit that failed, if any; later batches are not written.
  var failure: String? { lock.withLock { firstError } }

  /// Queues a batch, waiting while two are already pending.
  func submit(_ batch: JournalBatch) {
    slots.wait()
    queue.async {
      defer { self.slots.signal() }
      guard self.failure == nil else { return }
      do throws(StoreError) {
        try self.journal.commit(batch)
        self.saved += batch.deliveryCount
        if self.reportsProgress {
          // Written after the commit returns: every push counted here is durable.
          let stream = OutputStream.standardError()
          stream.line("saved \(self.saved) pushes")
          stream.flush()
        }
      } catch {
        self.lock.withLock { if self.firstError == nil { self.firstError = error.description } }
      }
    }
  }

  /// Waits until every queued batch is committed (or failed).
  func drain() { queue.sync {} }
}

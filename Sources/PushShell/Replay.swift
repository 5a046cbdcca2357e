import Dispatch
import Foundation
import PushCore
import PushHandlers
import PushStore
import PushUI
import PushWire

/// The replay's state: the device, the batch being filled and the counts.
package struct Replay {
  /// Commits batches to the state database; nil for `--ephemeral`.
  package let committer: BackgroundCommitter?
  /// The journal whose device the replay continues, read when the first push makes the device;
  /// nil for a new device.
  package let restoring: DeviceJournal?
  package let batchSize: Int
  package let makeProfile: (SimInstant) throws -> DeviceProfile
  /// What a `--profile` preset (`locked`, `dnd`, …) asks of a continued device, which wins over
  /// what it saved; nil when none was named.
  package let preset: Session.PresetRequest?
  package var device: DeviceSimulator?
  package var batch: JournalBatch
  /// The reason lists the replay has stored, shared by its batches.
  package let reasonLists: ReasonLists?
  package var pushes = 0
  /// How many pushes ended each way, by ``Disposition``'s position in `allCases` (an array: a
  /// dictionary hashed the case's raw text on every push).
  private var dispositionCounts = [Int](repeating: 0, count: Disposition.allCases.count)
  /// How many pushes ended each way (none left out).
  package var dispositions: [Disposition: Int] {
    var counts: [Disposition: Int] = [:]
    for (index, disposition) in Disposition.allCases.enumerated() where dispositionCounts[index] > 0 {
      counts[disposition] = dispositionCounts[index]
    }
    return counts
  }
  /// Older notifications removed because Notification Center was full.
  package var evicted = 0
  /// The first rejected pushes (at most ``rejectionsShown``), each as `validate` heads it:
  /// `FILE:LINE:COLUMN: error[Code]: message`, unescaped (the text summary escapes it for the
  /// terminal). The summary counted them and said no more.
  package private(set) var rejections: [String] = []
  /// How many rejected pushes the summary lists.
  package static let rejectionsShown = 10
  /// When each push arrives (``ArrivalClock``, the rule every command places pushes by), from
  /// the device's start or its saved clock.
  package var arrivals = ArrivalClock(start: DemoScenario.start)
  /// The profile's service extensions, run on each push that has `mutable-content: 1`.
  package var extensions = ServiceExtensionRegistry()
  /// The first error that stopped the replay (a profile problem).
  private var ownFailure: String?
  /// Whether batches are cut by ``advance(to:)`` (after each line's position is known, so a
  /// batch's progress row counts exactly its lines) instead of by ``push(_:)``.
  package var tracksPositions = false
  /// The input being read, and how far (nil for standard input and `--ephemeral`).
  private var current: JournalBatch.SourceProgress?
  /// Inputs finished since the last batch, whose progress goes with it.
  private var finished: [JournalBatch.SourceProgress] = []
  /// When the pending batch got its first push.
  private var batchStarted = ContinuousClock.now
  /// How long a push waits at most before its batch is saved, on a slow stream.
  package static let saveInterval = Duration.milliseconds(800)

  /// The first error that stopped the replay (a database or profile problem).
  package var failure: String? { ownFailure ?? committer?.failure }

  package init(
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
  package mutating func ensureDevice(at seconds: Double) -> Bool {
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
      // Never shown: the journal keeps the notifications' texts (and the restored device was
      // read from it); the store keeps what its stacks and ranks need.
      made.keepsNotificationTexts = false
      if restoring != nil, let preset {
        // Named on the command line, so it wins over what was saved; journalled as events.
        for event in preset.events(for: made) { made.apply(event, at: made.now, into: &batch) }
      }
      arrivals = ArrivalClock(start: made.now)
      extensions = ServiceExtensionRegistry.withThumbnails(profile: profile)
      device = made
    } catch {
      ownFailure = "\(error)"
    }
  }

  /// Applies one push at its time and commits the batch when it is full. Records name their
  /// app: files through `readRecords(defaultBundleID:)`, the endpoint's through the topic.
  package mutating func push(_ record: borrowing PushRecord) {
    // The stored fields, not ``failure``: calling a getter of `self` from this mutating method
    // copied the whole replay (its device's every reference) and released it again, on every
    // push (docs/PERFORMANCE.md, "replay --state speed (branch replay2)").
    guard ownFailure == nil, committer?.failure == nil else { return }
    if batch.deliveryCount == 0 { batchStarted = .now }
    if device == nil { startDevice(first: record) }
    guard let now = device?.now else { return }
    var at = arrivals.arrival(of: record)
    if at < now { at = now }
    // The one way in: the app's service extension, the record, the policy, the store and, with
    // a committer, the journal's batch (the device's own change set). `device!` mutates the
    // simulator in place: copying it out and back retained every one of its fields for each
    // push. The record goes in as it is (an event would hold a copy of it).
    let runs: (any ServiceExtensionStep)? = extensions.isEmpty ? nil : extensions
    let delivery: DeliveryRecord?
    if committer == nil {
      var unjournaled = DiscardedChanges()
      delivery = device!.ingest(record, at: at, extensions: runs, into: &unjournaled)
    } else {
      delivery = device!.ingest(record, at: at, extensions: runs, into: &batch)
    }
    // Read through the optional: binding it with `if let` copied the whole record.
    if let disposition = delivery?.decision.disposition {
      dispositionCounts[Disposition.allCases.firstIndex(of: disposition)!] += 1
      evicted += delivery?.evicted.count ?? 0
      if disposition == .rejected, rejections.count < Self.rejectionsShown, let delivery {
        rejections.append(Self.rejectionLine(delivery))
      }
    }
    pushes += 1
    if !tracksPositions && batch.deliveryCount >= batchSize { flush() }
  }

  /// A rejected push's first error as `validate` heads it, the place as precise as known.
  static func rejectionLine(_ record: DeliveryRecord) -> String {
    let file = record.sourceFile.isEmpty ? "<stdin>" : record.sourceFile
    guard let diagnostic = record.diagnostics.first(where: { $0.severity == .error }) ?? record.diagnostics.first else {
      return file + (record.sourceLine.map { ":\($0)" } ?? "") + ": rejected"
    }
    return diagnostic.position(file: file, line: record.sourceLine) + ": error[\(diagnostic.code.rawValue)]: "
      + diagnostic.message
      + (diagnostic.path.map { " (key " + $0 + ")" } ?? "")
  }

  /// Starts reading an input whose progress the state keeps.
  package mutating func begin(_ progress: JournalBatch.SourceProgress) {
    current = progress
  }

  /// Notes that the input has been read up to `position` (every push before it applied), and
  /// saves the batch when it is full.
  package mutating func advance(to position: CapturePosition) {
    if current != nil {
      current!.line = position.line
      current!.offset = position.offset
    }
    if batch.deliveryCount >= batchSize { flush() }
  }

  /// Ends the current input; returns its progress as it will be saved.
  package mutating func end() -> JournalBatch.SourceProgress? {
    guard let done = current else { return nil }
    current = nil
    finished.append(done)
    return done
  }

  /// Saves the pending batch once its oldest push has waited ``saveInterval``.
  package mutating func idle() {
    if batch.deliveryCount > 0 && ContinuousClock.now - batchStarted >= Self.saveInterval { flush() }
  }

  /// Hands the pending batch, with the progress of the inputs it reads from, to the committer.
  package mutating func flush() {
    // After a failure nothing more is saved: not even how far the inputs were read, which would
    // mark lines as saved that never reached the device (found with a damaged state: the
    // progress row moved on, and the state was not "left untouched" as the error said).
    guard let committer, ownFailure == nil else { return }
    batch.sources = finished + (current.map { [$0] } ?? [])
    guard !batch.isEmpty else { return }
    finished = []
    // The next batch is about as large: its rows' buffer is sized at once (with room to spare).
    let bytes = batch.packedBytes
    committer.submit(batch)
    batch = JournalBatch(packsDeliveries: true, reasonLists: reasonLists, reservingBytes: bytes + bytes / 8)
  }

  /// Commits what is pending and waits for every commit.
  package mutating func finish() {
    flush()
    committer?.drain()
  }

  package func summary(elapsed: Duration, statePath: String?) -> ReplaySummary {
    let store = device?.store
    return ReplaySummary(
      pushes: pushes, dispositions: dispositions, stored: store?.count ?? 0, held: store?.heldCount ?? 0,
      groups: store?.groupCount ?? 0,
      topGroups: store?.topGroups(limit: 5) ?? [], elapsed: elapsed, statePath: statePath, evicted: evicted,
      limit: device?.profile.maxStoredNotifications ?? DeviceProfile.defaultMaxStoredNotifications,
      isUnchanged: device == nil && restoring != nil, rejections: rejections)
  }
}

/// What `replay` prints at the end.
package struct ReplaySummary {
  package var pushes: Int
  package var dispositions: [Disposition: Int]
  package var stored: Int
  /// Of ``stored``, those held for a Scheduled Summary (stored, not yet in Notification Center).
  package var held = 0
  package var groups: Int
  package var topGroups: [(key: GroupKey, count: Int, score: Double)]
  package var elapsed: Duration
  package var statePath: String?
  /// Older notifications removed to make room, and Notification Center's limit.
  package var evicted = 0
  package var limit = DeviceProfile.defaultMaxStoredNotifications
  /// Whether nothing was replayed onto a saved device (which was therefore not read).
  package var isUnchanged = false
  /// The first rejected pushes, as ``Replay/rejections`` has them.
  package var rejections: [String] = []

  package var rejected: Int { dispositions[.rejected] ?? 0 }

  private var seconds: Double {
    Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
  }

  private var secondsText: String { String((seconds * 100).rounded() / 100) }

  package func text() -> String {
    var lines = ["Replayed \(PluralFormat.counted(pushes, "push", plural: "pushes")) in \(secondsText) s"]
    for disposition in Disposition.allCases {
      if let count = dispositions[disposition], count > 0 {
        lines.append("  " + disposition.rawValue.padding(toLength: 18, withPad: " ", startingAt: 0) + String(count))
      }
    }
    lines.append(
      isUnchanged
        ? "Notification Center: as saved (nothing replayed)"
        : "Notification Center: \(PluralFormat.counted(stored, "notification")) in \(PluralFormat.counted(groups, "stack"))"
          + (held > 0 ? " (\(held) of them held for the Scheduled Summary)" : "")
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
    if !rejections.isEmpty {
      // Which pushes, and why: a count alone sent people to guess (found by an exploratory test).
      lines.append(
        rejected > rejections.count
          ? "Rejected, the first \(rejections.count) of \(grouped(rejected)) (pushdeck validate lists every one):"
          : "Rejected (pushdeck validate says more of each):")
      // Escaped here, for the terminal; JSON keeps the text as it is (its writer escapes it).
      for rejection in rejections { lines.append("  " + terminalSafe(rejection)) }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  package func json() -> String {
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
    json.member("held", isUnchanged ? nil : held)
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
    json.member("rejectedFirst", strings: rejections)
    json.endObject()
    return json.text
  }
}

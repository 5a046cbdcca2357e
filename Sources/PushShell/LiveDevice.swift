import Dispatch
import Foundation
import PushCore
import PushServer
import PushStore
import PushWire
import Synchronization

/// The simulated device behind `serve`: accepted pushes go through ``Replay``, the path
/// `pushdeck replay` takes (policy, Notification Center, journal), one at a time on a serial
/// queue, and are saved by group commit.
///
/// A push is answered only once it is saved: its journal batch committed and its `--record`
/// line written and synced. While one batch is being committed the next one fills; it is
/// committed as soon as the first is done, so under load a commit carries every push that
/// arrived during the one before it (hundreds), and at rest each push is committed at once.
///
/// When the journal or the capture cannot be written (a full disk), that batch's pushes and
/// every later one are answered 500 `InternalServerError`, the cause is reported once, and
/// nothing more is written: what was answered 200 is exactly what was saved.
package final class LiveDevice: Sendable {
  package typealias Done = @Sendable (APNsServer.SaveOutcome) -> Void

  /// The device and its batches, used on `queue` only: its lock is taken there alone, so it is
  /// never contended, and the compiler checks that nothing reaches the state another way.
  private struct State {
    var replay: Replay
    /// The capture lines and the answers of the batch being filled.
    var lines: [UInt8] = []
    var waiting: [Done] = []
    var committing = false
    var failure: String?
    var saved = 0
    var refused = 0
  }

  private let queue = DispatchQueue(label: "pushdeck.serve.device")
  private let commits = DispatchQueue(label: "pushdeck.serve.commit")
  private let state: Mutex<State>
  /// Pushes handed to `queue` and not yet applied.
  private let pending = Atomic<Int>(0)
  /// Used by the commit queue while a commit runs (and by `finish` after the last).
  private let journal: DeviceJournal?
  private let recorder: CaptureRecorder?
  /// Channel creations and deletions among the saved pushes (their answers wait in the same batches).
  private let savedChannelChanges = Atomic<Int>(0)
  private let report: @Sendable (String) -> Void

  /// The largest batch: a commit is started when this many pushes wait, even with more queued.
  package static let largestBatch = 5_000

  /// Opens the state (taking its lock) and prepares the device.
  ///
  /// - Parameter report: told once, when saving fails, why.
  package init(options: DeviceSetup, recorder: CaptureRecorder?, report: @escaping @Sendable (String) -> Void) throws {
    let journal: DeviceJournal?
    let holdsDevice: Bool
    let committer: BackgroundCommitter?
    do throws(StoreError) {
      // FULL: every commit syncs the WAL, so a 200 survives the machine's crash as well as the
      // process's (one sync per group commit, not per push).
      (journal, holdsDevice) = try options.openState(
        DeviceJournal.Options(writer: "Pushdeck serve", synchronous: .full))
      // Replay journals into its batch only with a committer, and numbers reason lists from
      // it; `serve` takes the batches itself (``commitIfIdle()``) and never submits to it.
      committer = try journal.map { journal throws(StoreError) in try BackgroundCommitter(journal: journal) }
    } catch {
      throw ServeFailure(message: error.description)
    }
    self.journal = journal
    self.recorder = recorder
    self.report = report
    let makeProfile = try Session.profileLoader(options.profile)
    let replay = Replay(
      committer: committer, restoring: holdsDevice ? journal : nil, batchSize: Int.max,
      preset: options.profile.flatMap(Session.PresetRequest.init(preset:)),
      makeProfile: { start in try makeProfile(start) })
    state = Mutex(State(replay: replay))
  }

  /// The state database's path, nil when ephemeral.
  package var statePath: String? { journal?.path }

  /// Whether pushes are saved anywhere (a state database or a capture).
  private var savesPushes: Bool { journal != nil || recorder != nil }

  /// Queues one accepted push; `done` is called once it is saved, or cannot be.
  package func push(_ record: PushRecord, done: @escaping Done) {
    pending.add(1, ordering: .relaxed)
    queue.async {
      self.state.withLock { state in
        self.apply(record, done: done, to: &state)
        let idle = self.pending.subtract(1, ordering: .relaxed).newValue == 0
        if idle || state.waiting.count >= Self.largestBatch { self.commitIfIdle(&state) }
      }
    }
  }

  private func apply(_ record: PushRecord, done: @escaping Done, to state: inout State) {
    guard state.failure == nil else {
      state.refused += 1
      done(.failed)
      return
    }
    state.replay.push(record)
    if let problem = state.replay.failure {
      fail(problem, &state)
      state.refused += 1
      done(.failed)
      return
    }
    guard savesPushes else {
      done(.saved)
      return
    }
    if recorder != nil { state.lines.append(contentsOf: (APNsRequest.captureLine(record) + "\n").utf8) }
    state.waiting.append(done)
  }

  /// Queues one channel API request (``ChannelRoute``); `done` gets the answer, once any change
  /// it makes is saved.
  package func channel(_ route: ChannelRoute, done: @escaping @Sendable (ChannelAnswer) -> Void) {
    pending.add(1, ordering: .relaxed)
    queue.async {
      self.state.withLock { state in
        self.apply(route, done: done, to: &state)
        let idle = self.pending.subtract(1, ordering: .relaxed).newValue == 0
        if idle || state.waiting.count >= Self.largestBatch { self.commitIfIdle(&state) }
      }
    }
  }

  private func apply(
    _ route: ChannelRoute, done: @escaping @Sendable (ChannelAnswer) -> Void, to state: inout State
  ) {
    guard state.failure == nil else {
      done(.notSaved)
      return
    }
    let now = Date().timeIntervalSince1970
    guard state.replay.ensureDevice(at: now) else {
      done(.notSaved)
      return
    }
    /// Answers once the change is saved (at once when nothing is saved).
    func afterSaving(_ answer: ChannelAnswer) {
      guard savesPushes else {
        done(answer)
        return
      }
      state.waiting.append { outcome in
        if outcome == .saved { self.savedChannelChanges.add(1, ordering: .relaxed) }
        done(outcome == .saved ? answer : .notSaved)
      }
    }
    switch route {
    case .create(let bundleID, let policy):
      let id = ChannelRequest.makeChannelID()
      let storage = BroadcastChannel.StoragePolicy(rawValue: policy) ?? .noStorage
      if let refusal = state.replay.createChannel(id: id, bundleID: bundleID, storagePolicy: storage) {
        done(.rejected(refusal.status, refusal.reason, detail: refusal.detail))
        return
      }
      afterSaving(
        ChannelAnswer(
          status: 201, headers: [("apns-channel-id", id)],
          detail: "channel \(id) created, message-storage-policy \(policy)"))
    case .read(let bundleID, let channelID):
      guard let channel = state.replay.device?.channel(channelID, bundleID: bundleID) else {
        done(.rejected(.channelNotRegistered, detail: "no channel \(channelID) for \(bundleID)"))
        return
      }
      done(
        ChannelAnswer(
          status: 200, headers: [("apns-channel-id", channel.id)],
          body: ChannelRequest.readBody(storagePolicy: channel.storagePolicy.rawValue),
          detail: "channel \(channel.id) read"))
    case .list(let bundleID):
      let ids = state.replay.device?.channels(of: bundleID).map(\.id) ?? []
      done(
        ChannelAnswer(
          status: 200, body: ChannelRequest.listBody(ids),
          detail: ids.count == 1 ? "1 channel listed" : "\(ids.count) channels listed"))
    case .delete(let bundleID, let channelID):
      guard state.replay.deleteChannel(channelID, bundleID: bundleID) else {
        done(.rejected(.channelNotRegistered, detail: "no channel \(channelID) for \(bundleID)"))
        return
      }
      afterSaving(ChannelAnswer(status: 204, detail: "channel \(channelID) deleted"))
    case .broadcast(let bundleID, let channelID, let record, let apnsID, let expiration):
      if let refusal = state.replay.device?.broadcastRefusal(
        channelID: channelID, bundleID: bundleID, expiration: expiration)
      {
        done(.rejected(refusal.status, refusal.reason, detail: refusal.detail))
        return
      }
      apply(
        record,
        done: { outcome in
          done(
            outcome == .saved
              ? ChannelAnswer(status: 200, headers: [("apns-id", apnsID)], detail: "broadcast on channel \(channelID)")
              : .notSaved)
        }, to: &state)
    }
  }

  /// Starts committing the batch being filled, unless a commit is running (its end starts the
  /// next one).
  private func commitIfIdle(_ state: inout State) {
    guard !state.committing, !state.waiting.isEmpty, state.failure == nil else { return }
    state.committing = true
    let batch = state.replay.takeBatch()
    let lines = state.lines
    let answers = state.waiting
    state.lines = []
    state.waiting = []
    commits.async {
      let problem = self.save(batch, lines: lines)
      for answer in answers { answer(problem == nil ? .saved : .failed) }
      self.queue.async {
        self.state.withLock { state in
          state.committing = false
          if let problem {
            state.refused += answers.count
            self.fail(problem, &state)
          } else {
            state.saved += answers.count
            self.commitIfIdle(&state)
          }
        }
      }
    }
  }

  /// Writes one batch: the capture's lines (synced), then the journal's transaction; when the
  /// journal fails the lines are cut off again. Returns why it failed, nil when saved.
  private func save(_ batch: JournalBatch, lines: [UInt8]) -> String? {
    var start: Int64?
    if let recorder {
      do throws(RecorderError) {
        start = try recorder.append(lines: lines)
      } catch {
        return "cannot write the capture \(error.description)"
      }
    }
    if let journal {
      do throws(StoreError) {
        try journal.commit(batch)
      } catch {
        if let recorder, let start { recorder.cut(to: start) }
        return error.description
      }
    }
    return nil
  }

  /// Stops saving: answers what waits with 500 and reports the cause, once.
  private func fail(_ problem: String, _ state: inout State) {
    if state.failure == nil {
      state.failure = problem
      report(
        "cannot save pushes: \(problem) Every push is now answered 500 InternalServerError; "
          + "the pushes answered 200 before are saved. Restart serve once the cause is fixed.")
    }
    state.refused += state.waiting.count
    for answer in state.waiting { answer(.failed) }
    state.waiting = []
    state.lines = []
  }

  /// Commits everything pending and closes the journal. Call once no more pushes arrive.
  package func finish() {
    // Bounded: each round waits for the running commit, which leaves at most one more batch.
    for _ in 0..<1_000 {
      let done = queue.sync {
        state.withLock { state in
          commitIfIdle(&state)
          return !state.committing && state.waiting.isEmpty
        }
      }
      if done { break }
      commits.sync {}
    }
    queue.sync {
      state.withLock { state in
        // What the device did besides pushes (a clock moved on) has no answer waiting for it.
        let rest = state.replay.takeBatch()
        if state.failure == nil, !rest.isEmpty { try? journal?.commit(rest) }
        try? journal?.close()
      }
    }
  }

  /// What was kept, for the last line: "N pushes saved", "N pushes recorded to FILE", …
  /// (``summary(pushes:channelChanges:refused:statePath:recordPath:)``).
  package var savedSummary: String {
    queue.sync {
      state.withLock { state in
        let changes = savedChannelChanges.load(ordering: .relaxed)
        return Self.summary(
          pushes: state.saved - changes, channelChanges: changes, refused: state.refused, statePath: journal?.path,
          recordPath: recorder?.path)
      }
    }
  }

  /// What was kept, in words that say where: pushes are *saved* only in a state database; with
  /// `--ephemeral --record FILE` they are *recorded to FILE* (a capture, for `replay`), and the
  /// device's state is not saved ("N pushes saved" read as if it were). Channel changes go to the
  /// state database alone (a capture holds pushes).
  package static func summary(
    pushes: Int, channelChanges: Int, refused: Int, statePath: String?, recordPath: String?
  ) -> String {
    let counted = PluralFormat.counted(pushes, "push", plural: "pushes")
    let recorded = recordPath.map { " recorded to " + terminalSafe($0) } ?? ""
    var text: String
    if statePath != nil {
      text = counted + " saved" + (recorded.isEmpty ? "" : " and" + recorded)
      if channelChanges > 0 { text += ", " + PluralFormat.counted(channelChanges, "channel change") + " saved" }
    } else if recordPath != nil {
      text = counted + recorded + "; the device's state was not saved (ephemeral)"
    } else {
      text = "ephemeral: nothing saved"
    }
    if refused > 0 { text += ", \(refused) answered 500 (not saved)" }
    return text
  }
}

extension Replay {
  /// Creates a channel on the device, journaling it when the replay journals.
  package mutating func createChannel(id: String, bundleID: String, storagePolicy: BroadcastChannel.StoragePolicy)
    -> BroadcastRefusal?
  {
    guard device != nil else { return nil }
    var unjournaled = DiscardedChanges()
    return committer == nil
      ? device!.createChannel(id: id, bundleID: bundleID, storagePolicy: storagePolicy, into: &unjournaled)
      : device!.createChannel(id: id, bundleID: bundleID, storagePolicy: storagePolicy, into: &batch)
  }

  /// Deletes a channel on the device, journaling it when the replay journals.
  package mutating func deleteChannel(_ id: String, bundleID: String) -> Bool {
    guard device != nil else { return false }
    var unjournaled = DiscardedChanges()
    return committer == nil
      ? device!.deleteChannel(id, bundleID: bundleID, into: &unjournaled)
      : device!.deleteChannel(id, bundleID: bundleID, into: &batch)
  }

  /// Takes the batch being filled, leaving an empty one: `serve` commits its batches itself.
  package mutating func takeBatch() -> JournalBatch {
    let taken = batch
    batch = JournalBatch(packsDeliveries: true, reasonLists: reasonLists)
    return taken
  }
}

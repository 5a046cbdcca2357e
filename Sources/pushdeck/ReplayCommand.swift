import ArgumentParser
import Dispatch
import Foundation
import PushCore
import PushHandlers
import PushShell
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
      `pushdeck run` on the same files afterwards shows the replayed Notification Center: without \
      --state, the files have a device of their own that run and replay share, and another \
      capture never plays into it (standard input alone: the shared device). Capture lines \
      arrive at their "at" times (never before the device's clock); payload files three seconds \
      after the previous push (the first three seconds after the device's start or saved clock), \
      as run, render and explain place them. \
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
    // The inputs first: when none can be read (a mistyped path, an empty directory), nothing is
    // opened, so no state database is made for them.
    let (resolved, inputProblems) = resolveInputs(inputs)
    if resolved.isEmpty, let first = inputProblems.first {
      for problem in inputProblems.dropFirst() {
        err.line("pushdeck: \(terminalSafe("\(problem.path): \(problem.message)"))")
      }
      throw fail("\(first.path): \(first.message)")
    }
    let journal: DeviceJournal?
    let holdsDevice: Bool
    let committer: BackgroundCommitter?
    do throws(StoreError) {
      // Checkpoint every 64 MiB of WAL instead of every few MiB: fewer syncs of a growing file.
      (journal, holdsDevice) = try device.setup.openState(
        DeviceJournal.Options(writer: "Pushdeck replay", checkpointBytes: 64 << 20, checkpointsInBackground: true),
        inputs: inputs)
      committer = try journal.map { journal throws(StoreError) in
        try BackgroundCommitter(journal: journal, reportsProgress: progress)
      }
    } catch {
      throw fail(error.description)
    }
    defer { try? journal?.close() }
    let baseProfile = try Session.profileLoader(device.profile)
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
        // Only a file the state holds no match for can be one cut back (an older row of the
        // same path, from a capture since replaced, says nothing about this one once it matches).
        if !isKnown, !again, input.format == .capture, let saved = replayed.cutBack(identity) {
          err.line(
            "pushdeck: \(terminalSafe(input.displayPath)) is shorter than when the state read it "
              + "(it holds \(grouped(saved.line)) lines of it, to byte \(grouped(saved.offset)); the file now has "
              + "\(grouped(identity.size)) bytes): not replayed, as its pushes may be in the state already "
              + "(--again replays it from the start)")
          err.flush()
          continue
        }
        if !isKnown, !again, input.format == .capture, replayed.knowsPath(identity.path) {
          err.line(
            "pushdeck: \(terminalSafe(input.displayPath)) is not the capture the state read at this path "
              + "(its first bytes differ): replayed as a new capture")
          err.flush()
        }
        if isKnown && !again && progress.offset > 0 {
          // After its last saved line: a row saved at the end of a line that had no newline yet
          // goes on after that newline, or reads the line again when it was cut short.
          if input.format == .capture, let resume = identity.resumePosition(after: progress) {
            (progress.line, progress.offset) = (resume.line, resume.offset)
          }
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
        // record's source is never made as text: the journal stores its path once and its line
        // (schema version 8); nor is its payload's text (the journal writes the bytes as they came).
        // The device is slower than decoding, so the decoded records wait: jobs of 1 MiB, not
        // 4, keep fewer of them in memory.
        try readRecords(
          from: input, keepsCustomValues: false, defaultBundleID: fallbackBundleID, jobBytes: Self.jobBytes,
          start: start, position: { replay.advance(to: $0) }, idle: { replay.idle() },
          transform: { $0 }
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

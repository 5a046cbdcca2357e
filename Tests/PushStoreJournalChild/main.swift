import PushCore
import PushStore

// The child process of PushStoreTests' kill-and-reopen test: restores the device from the journal,
// replays generated pushes through it and commits them in batches, printing "committed N" on
// standard output once the journal durably holds N pushes, until it is killed or has written
// every batch.
//
//   PushStoreJournalChild PATH BATCH_SIZE BATCHES [--measure]
//
// With --measure it generates every batch first (pushes only), then times only the commits and
// prints one line of figures (used for the measurement in docs/decisions/store.md).
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

func say(_ line: String) {
  let text = line + "\n"
  _ = text.withCString { write(1, $0, strlen($0)) }
}

func fail(_ message: String) -> Never {
  let text = "PushStoreJournalChild: " + message + "\n"
  _ = text.withCString { write(2, $0, strlen($0)) }
  exit(1)
}

let arguments = CommandLine.arguments
guard arguments.count >= 4, let batchSize = Int(arguments[2]), let batches = Int(arguments[3])
else {
  fail("usage: PushStoreJournalChild PATH BATCH_SIZE BATCHES [--measure]")
}
let measuring = arguments.dropFirst(4).contains("--measure")
let start = SimInstant(milliseconds: 1_800_000_000_000)

/// The n-th generated push: a few apps and threads, some collapse ids, every fifth time-sensitive.
func makePush(_ n: Int) -> PushRecord {
  let bundle = ["com.example.chat", "com.example.news", "com.example.bank", "com.example.food"][
    n % 4]
  let level = n % 5 == 0 ? #", "interruption-level": "time-sensitive""# : ""
  let collapse = n % 7 == 0 ? #""apns-collapse-id": "c\#(n % 3)""# : ""
  let text = #"""
    {"at": 0, "bundle": "\#(bundle)", "headers": {\#(collapse)}, "payload": {"aps": {"alert": {"title": "T\#(n)", "body": "Message number \#(n) ✓"}, "thread-id": "t\#(n % 11)", "relevance-score": 0.\#(n % 10)\#(level)}, "order": \#(n)}}
    """#
  return PushReader.readCaptureLine(Array(text.utf8), lineNumber: n + 1, source: "child.jsonl")
}

let journal: DeviceJournal
do {
  journal = try DeviceJournal.open(
    at: arguments[1],
    // Checkpoints every 64 KiB of WAL on their own thread, as a replay's do every 64 MiB: the
    // kill tests then kill it while background checkpoints run.
    options: .init(writer: "PushStoreJournalChild", checkpointBytes: 64 << 10, checkpointsInBackground: true))
} catch {
  fail(error.description)
}
let restored: RestoredDevice
do {
  restored = try journal.restore()
} catch {
  fail(error.description)
}
var device = DeviceSimulator(profile: .standard(start: start), restoring: restored)
var prepared: [JournalBatch] = []
for batchNumber in 1...batches {
  var batch = JournalBatch()
  for offset in 0..<batchSize {
    let n = restored.deliveryCount + (batchNumber - 1) * batchSize + offset
    let at = start + .seconds(Int64(n))
    device.apply(.push(makePush(n)), at: at, journalingInto: &batch)
    // Now and then the user opens or clears the newest notification. Not when measuring: each
    // one re-ranks the app's notifications in the simulator, which would dominate the run.
    if !measuring, n % 13 == 0,
      let newest = device.store.rankedGroups(limit: 1).first?.notifications.first
    {
      device.apply(
        n % 2 == 0 ? .open(newest.id) : .clear(newest.id), at: at, journalingInto: &batch)
    }
  }
  if measuring {
    prepared.append(batch)
    continue
  }
  do {
    try journal.commit(batch)
  } catch {
    fail(error.description)
  }
  say("committed \(restored.deliveryCount + batchNumber * batchSize)")
}
if measuring {
  let records = prepared.reduce(0) { $0 + $1.deliveries.count }
  // CPU time too: on a shared machine it is the steadier figure.
  func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
      + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
  }
  let cpuBefore = cpuSeconds()
  let elapsed = ContinuousClock().measure {
    for batch in prepared {
      do { try journal.commit(batch) } catch { fail("\(error)") }
    }
  }
  let cpu = cpuSeconds() - cpuBefore
  say("committed \(records) records in \(prepared.count) batches: \(elapsed), \(cpu) s CPU")
}
do {
  try journal.close()
} catch {
  fail(error.description)
}

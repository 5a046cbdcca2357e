import Dispatch
import PushWire

#if canImport(Glibc)
  import Glibc
#endif

/// Decodes a capture on all cores while handing results out in file order.
///
/// The reader feeds raw chunks; they are cut at line boundaries into jobs (of about 4 MiB by default),
/// numbered and decoded on worker threads, and each record is turned into a `Result` by
/// `transform` on the same worker. Results are consumed in order on the caller's thread, then
/// freed on a worker. At most `maximumInFlight` jobs exist at once,
/// so memory stays bounded whatever the capture's size.
final class ParallelCaptureDecoder<Result> {
  /// One job: whole lines, numbered once the job before it has counted its own.
  private final class Job: @unchecked Sendable {
    // Written by one worker before `done` is signalled, read by the consumer after waiting on it.
    private(set) var bytes: [UInt8]
    let done = DispatchSemaphore(value: 0)
    var results: [Result] = []
    /// The job before this one, until this job's worker has taken its line count from it (nil
    /// for the first job).
    var previous: Job?
    // Written by this job's worker before `counted` is signalled; read by the next job's
    // worker after waiting on it.
    var firstLine = 0
    var lineCount = 0
    let counted = DispatchSemaphore(value: 0)

    init(bytes: [UInt8], previous: Job?) {
      self.bytes = bytes
      self.previous = previous
    }

    /// Takes the buffer for reuse once nothing points into it any more.
    func takeBytes() -> [UInt8] {
      var taken: [UInt8] = []
      swap(&taken, &bytes)
      taken.removeAll(keepingCapacity: true)
      return taken
    }
  }

  private let file: String
  private let keepsCustomValues: Bool
  private let transform: @Sendable (PushRecord) -> Result
  private let body: (inout Result) -> Void
  /// The job size for a consumer as fast as decoding (`validate`).
  static var defaultJobBytes: Int { 4 << 20 }
  private let jobBytes: Int
  private let maximumInFlight = 4
  private var pending: [UInt8] = []
  private var inFlight: [Job] = []
  private var recycled: [[UInt8]] = []
  private var lastSubmitted: Job?

  /// - Parameters:
  ///   - file: the name records carry.
  ///   - keepsCustomValues: whether custom keys become value trees.
  ///   - jobBytes: about how many bytes of capture each job decodes.
  ///   - transform: turns a record into what the consumer needs; runs on a worker thread.
  ///   - body: receives results in file order on the caller's thread.
  init(
    file: String, keepsCustomValues: Bool, jobBytes: Int = defaultJobBytes,
    transform: @escaping @Sendable (PushRecord) -> Result, body: @escaping (inout Result) -> Void
  ) {
    self.jobBytes = max(jobBytes, 1 << 16)
    self.file = file
    self.keepsCustomValues = keepsCustomValues
    self.transform = transform
    self.body = body
  }

  /// Takes the next bytes of the capture.
  func feed(_ chunk: UnsafeBufferPointer<UInt8>) {
    if pending.capacity < jobBytes { pending.reserveCapacity(jobBytes + chunk.count) }
    pending.append(contentsOf: chunk)
    guard pending.count >= jobBytes, let lastNewline = pending.lastIndex(of: UInt8(ascii: "\n")) else { return }
    var next = recycled.popLast() ?? []
    next.reserveCapacity(jobBytes + chunk.count)
    next.append(contentsOf: pending[(lastNewline + 1)...])
    pending.removeSubrange((lastNewline + 1)...)
    swap(&next, &pending)
    submit(next)
  }

  /// Reads the rest of a file descriptor straight into job buffers (no intermediate copy), then
  /// decodes what is left and hands out every remaining result.
  ///
  /// - Throws: ``InputProblem`` when reading fails; records read before that are handed out.
  func readToEnd(from descriptor: Int32, name: String) throws(InputProblem) {
    var carry = pending
    pending = []
    var failure: InputProblem?
    var reachedEnd = false
    while !reachedEnd {
      let capacity = jobBytes + (1 << 20)
      var job = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
        count = carry.count
        if !carry.isEmpty {
          carry.withUnsafeBufferPointer { _ = buffer.initialize(fromContentsOf: $0) }
        }
        while count < jobBytes {
          let read = Glibc.read(descriptor, buffer.baseAddress! + count, capacity - count)
          if read < 0 && errno == EINTR { continue }
          if read < 0 {
            failure = InputProblem(path: name, message: "read failed: \(String(cString: strerror(errno)))")
          }
          if read <= 0 {
            reachedEnd = true
            break
          }
          count += read
        }
      }
      if reachedEnd {
        carry = []
      } else if let lastNewline = job.lastIndex(of: UInt8(ascii: "\n")) {
        carry = Array(job[(lastNewline + 1)...])
        job.removeSubrange((lastNewline + 1)...)
      } else {
        // One line longer than a job: keep reading into it; the line reader will reject it.
        carry = job
        if carry.count > PushReader.maximumLineBytes * 2 {
          carry.removeLast(carry.count - PushReader.maximumLineBytes - 1)
        }
        continue
      }
      if !job.isEmpty { submit(job) }
    }
    finish()
    if let failure { throw failure }
  }

  /// Decodes what is left and hands out every remaining result.
  func finish() {
    if !pending.isEmpty {
      submit(pending)
      pending = []
    }
    while !inFlight.isEmpty { consumeOldest() }
  }

  private func submit(_ bytes: [UInt8]) {
    if inFlight.count >= maximumInFlight { consumeOldest() }
    // Lines are counted by the workers, not here: a worker finds every line of its job anyway,
    // and counting on this thread was a second pass over the whole file. A job's first line
    // number is the previous job's first line plus its line count, which that job's worker
    // publishes as soon as it has split its job, before decoding it.
    let job = Job(bytes: bytes, previous: lastSubmitted)
    lastSubmitted = job
    inFlight.append(job)
    let file = self.file
    let keepsCustomValues = self.keepsCustomValues
    let transform = self.transform
    DispatchQueue.global().async {
      var lines: [Range<Int>] = []
      lines.reserveCapacity(job.bytes.count / 256)
      Self.splitLines(job.bytes, into: &lines)
      let lineCount = lines.count
      // The global queue dequeues jobs in submission order, so the previous job already has a
      // worker, which waits (briefly) only for the one before it: no deadlock.
      let firstLine: Int
      if let previous = job.previous {
        previous.counted.wait()
        firstLine = previous.firstLine + previous.lineCount
        job.previous = nil
      } else {
        firstLine = 1
      }
      job.firstLine = firstLine
      job.lineCount = lineCount
      job.counted.signal()

      var results: [Result] = []
      results.reserveCapacity(lines.count)
      var scratch: [JSONToken] = []
      scratch.reserveCapacity(128)
      for (offset, range) in lines.enumerated() {
        if job.bytes[range].allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
        let record = PushReader.readCaptureLine(
          job.bytes[range], lineNumber: firstLine + offset, source: file,
          keepsCustomValues: keepsCustomValues, scratch: &scratch)
        results.append(transform(record))
      }
      // Hand the array over without keeping a reference, so the consumer owns it uniquely.
      swap(&job.results, &results)
      job.done.signal()
    }
  }

  /// The ranges of the lines of a buffer, as ``LineSplitter/forEachLine(in:_:)`` cuts them
  /// (without `\n` or a trailing `\r`; the last line needs no newline).
  ///
  /// Newlines are found with the C library's `memchr`, which is vectorised: about twice as
  /// fast here as the portable word-at-a-time loop in PushWire (which must stay libc-free).
  static func splitLines(_ bytes: [UInt8], into lines: inout [Range<Int>]) {
    bytes.withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return }
      let count = buffer.count
      var lineStart = 0
      while lineStart < count {
        let found = memchr(base + lineStart, 0x0A, count - lineStart)
        let newline = found.map { UnsafePointer<UInt8>($0.assumingMemoryBound(to: UInt8.self)) - base } ?? count
        var lineEnd = newline
        if lineEnd > lineStart, base[lineEnd - 1] == UInt8(ascii: "\r") { lineEnd -= 1 }
        lines.append(lineStart..<lineEnd)
        lineStart = newline + 1
      }
    }
  }

  /// A job's results once consumed, handed to a worker to free.
  private final class Spent: @unchecked Sendable {
    // Touched by the consumer before it is handed over, then by one worker only.
    private var results: [Result]

    init(_ results: [Result]) { self.results = results }

    func free() { results = [] }
  }

  private func consumeOldest() {
    let job = inFlight.removeFirst()
    job.done.wait()
    var results: [Result] = []
    swap(&results, &job.results)
    // Borrowed in place through the buffer: `for result in results` and `results[index]` both
    // copied each result out of the array (a 700-byte record with a score of references per
    // push), and the array's release destroyed the originals as well.
    results.withUnsafeMutableBufferPointer { buffer in
      for index in buffer.indices { body(&buffer[index]) }
    }
    // The records are freed on a worker, not here: the consumer is the pipeline's slowest
    // stage, and freeing a job's records (allocated by a worker) took a tenth of its time.
    let spent = Spent(results)
    results = []
    DispatchQueue.global().async { spent.free() }
    if recycled.count < maximumInFlight { recycled.append(job.takeBytes()) }
  }
}

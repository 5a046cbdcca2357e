import Dispatch
import PushWire

#if canImport(Glibc)
  import Glibc
#endif

/// Where a capture has been read up to: the last line handed out (1-based; 0 before the first)
/// and the offset of the byte after it (its newline included), from the start of the input.
package struct CapturePosition: Equatable, Sendable {
  package init(line: Int, offset: Int64) {
    self.line = line
    self.offset = offset
  }

  package var line: Int
  package var offset: Int64

  package static let start = CapturePosition(line: 0, offset: 0)
}

/// Decodes a capture on all cores while handing results out in file order.
///
/// The reader feeds raw chunks; they are cut at line boundaries into jobs (of about 4 MiB by default),
/// numbered and decoded on worker threads, and each record is turned into a `Result` by
/// `transform` on the same worker. Results are consumed in order on the caller's thread, then
/// freed on a worker. At most `maximumInFlight` jobs exist at once,
/// so memory stays bounded whatever the capture's size.
///
/// A line longer than ``PushReader/maximumLineBytes`` is never held whole: its bytes after the
/// first few KiB are skipped as they are read, and it comes out as one rejected record
/// (`LineTooLong`) with its full length, so no line length makes the reader wait or grow.
package final class ParallelCaptureDecoder<Result> {
  /// One job: whole lines, numbered once the job before it has counted its own.
  ///
  /// `@unchecked Sendable`: its fields pass between threads in the order the two semaphores
  /// impose (a worker writes, signals; the consumer or the next worker waits, reads), which the
  /// compiler cannot see, and `Result` is whatever the caller's transform makes, not Sendable.
  /// Tried with the fields in a `Mutex` (`swiftc -swift-version 6`): a worker cannot store the
  /// results it made by calling the stored `transform` ("'inout sending' parameter cannot be
  /// task-isolated at end of function"), and the consumer cannot hand them on after `body`
  /// has touched them in place ("sending 'results' risks causing data races").
  private final class Job: @unchecked Sendable {
    // Written by one worker before `done` is signalled, read by the consumer after waiting on it.
    private(set) var bytes: [UInt8]
    package let done = DispatchSemaphore(value: 0)
    package var results: [Result] = []
    /// Each result's line and where it ends in the input (after its newline), in step with
    /// `results`.
    package var positions: [CapturePosition] = []
    /// The job before this one, until this job's worker has taken its line count from it (nil
    /// for the first job).
    package var previous: Job?
    // Written by this job's worker before `counted` is signalled; read by the next job's
    // worker after waiting on it.
    package var firstLine = 0
    package var lineCount = 0
    package let counted = DispatchSemaphore(value: 0)
    /// The input offset of the job's first byte.
    package let startOffset: Int64
    /// For a line over the limit: its full length (the job holds its first bytes only) and
    /// where it ends in the input.
    package let overlong: (length: Int, end: Int64)?

    package init(bytes: [UInt8], previous: Job?, startOffset: Int64, overlong: (length: Int, end: Int64)? = nil) {
      self.bytes = bytes
      self.previous = previous
      self.startOffset = startOffset
      self.overlong = overlong
    }

    /// Where the job ends in the input.
    package var endOffset: Int64 { overlong?.end ?? startOffset + Int64(bytes.count) }

    /// Takes the buffer for reuse once nothing points into it any more.
    package func takeBytes() -> [UInt8] {
      var taken: [UInt8] = []
      swap(&taken, &bytes)
      taken.removeAll(keepingCapacity: true)
      return taken
    }
  }

  private let file: String
  private let keepsCustomValues: Bool
  private let transform: @Sendable (PushRecord) -> Result
  private let body: (inout Result, CapturePosition) -> Void
  /// Called on the caller's thread after each job is handed out, and while a stream is idle
  /// (at least every ``idleInterval``): a consumer that batches by time flushes there.
  private let idle: () -> Void
  /// The job size for a consumer as fast as decoding (`validate`).
  package static var defaultJobBytes: Int { 4 << 20 }
  /// How long a stream's reader waits for bytes before calling `idle`, in milliseconds.
  package static var idleInterval: Int32 { 200 }
  private let jobBytes: Int
  private let maximumInFlight = 4
  private var pending: [UInt8] = []
  private var inFlight: [Job] = []
  private var lastSubmitted: Job?
  private let firstLine: Int
  /// The input offset of the next byte to be cut into a job (the first byte of `pending`).
  private var nextOffset: Int64
  /// The last line handed out and where it ends.
  private(set) var position: CapturePosition

  /// - Parameters:
  ///   - file: the name records carry.
  ///   - keepsCustomValues: whether custom keys become value trees.
  ///   - jobBytes: about how many bytes of capture each job decodes.
  ///   - start: where reading starts: the line before the first one read, and the offset of the
  ///     first byte (the caller has positioned the descriptor there).
  ///   - transform: turns a record into what the consumer needs; runs on a worker thread.
  ///   - body: receives results in file order on the caller's thread, each with the position
  ///     of the end of its line.
  ///   - idle: see ``idle``.
  package init(
    file: String, keepsCustomValues: Bool, jobBytes: Int = defaultJobBytes, start: CapturePosition = .start,
    transform: @escaping @Sendable (PushRecord) -> Result, body: @escaping (inout Result, CapturePosition) -> Void,
    idle: @escaping () -> Void = {}
  ) {
    self.jobBytes = max(jobBytes, 1 << 16)
    self.file = file
    self.keepsCustomValues = keepsCustomValues
    self.transform = transform
    self.body = body
    self.idle = idle
    firstLine = start.line + 1
    nextOffset = start.offset
    position = start
  }

  /// Takes the first bytes of the capture (read before the decoder existed); they are cut into
  /// jobs by ``readToEnd(from:name:streaming:)``.
  package func feed(_ chunk: UnsafeBufferPointer<UInt8>) {
    pending.append(contentsOf: chunk)
  }

  /// Reads the rest of a file descriptor straight into job buffers (no intermediate copy), then
  /// decodes what is left and hands out every remaining result.
  ///
  /// - Parameter streaming: whether the descriptor is a pipe, FIFO or terminal: what has
  ///   arrived is decoded and handed out at once instead of waiting for a full job, and while
  ///   nothing arrives `idle` is called every ``idleInterval``.
  /// - Throws: ``InputProblem`` when reading fails; records read before that are handed out.
  package func readToEnd(from descriptor: Int32, name: String, streaming: Bool = false) throws(InputProblem) {
    var carry = pending
    pending = []
    var failure: InputProblem?
    var reachedEnd = false
    let limit = PushReader.maximumLineBytes
    // A line over the limit being skipped: its first bytes, its length so far, its first offset.
    var skipping: (prefix: [UInt8], length: Int)?
    // Room for a whole job, or for a partial line at the limit plus one more read: every pass
    // reads at least once, so the loop always moves on.
    let capacity = max(jobBytes, limit + 1) + (1 << 20)
    func readable(_ timeout: Int32) -> Bool {
      var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      let ready = poll(&request, 1, timeout)
      return ready != 0  // an error is left for read() to report
    }
    while !reachedEnd {
      if streaming && !readable(0) {
        // Nothing more has arrived: hand out every whole line so far, then wait.
        if skipping == nil, let lastNewline = carry.lastIndex(of: UInt8(ascii: "\n")) {
          let lines = Array(carry[...lastNewline])
          carry.removeSubrange(...lastNewline)
          submit(lines, startOffset: nextOffset)
          nextOffset += Int64(lines.count)
        }
        while !inFlight.isEmpty { consumeOldest() }
        idle()
        while !readable(Self.idleInterval) { idle() }
      }
      var job = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
        count = carry.count
        if !carry.isEmpty {
          carry.withUnsafeBufferPointer { _ = buffer.initialize(fromContentsOf: $0) }
        }
        repeat {
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
        } while count < jobBytes && count < capacity && (!streaming || readable(0))
      }
      carry = []
      // `nextOffset` is where `job` starts in the input; it ends at `end`. Afterwards it is
      // where the carried partial line starts.
      var jobStart = nextOffset
      let end = jobStart + Int64(job.count)
      if var skipped = skipping {
        // The rest of a line over the limit: count it up to its newline, keep none of it.
        guard let newline = job.firstIndex(of: UInt8(ascii: "\n")) else {
          skipped.length += job.count
          skipping = skipped
          nextOffset = end
          if reachedEnd { submit(skipped.prefix, startOffset: jobStart, overlong: (skipped.length, end)) }
          continue
        }
        var length = skipped.length + newline
        if newline > 0, job[newline - 1] == UInt8(ascii: "\r") { length -= 1 }
        let lineEnd = jobStart + Int64(newline + 1)
        submit(skipped.prefix, startOffset: lineEnd - Int64(length), overlong: (length, lineEnd))
        skipping = nil
        job.removeSubrange(...newline)
        jobStart = lineEnd
      }
      if reachedEnd {
        if job.count > limit && !job.contains(UInt8(ascii: "\n")) {
          submit(Array(job.prefix(4096)), startOffset: jobStart, overlong: (job.count, end))
        } else if !job.isEmpty {
          submit(job, startOffset: jobStart)
        }
        nextOffset = end
        break
      }
      if let lastNewline = job.lastIndex(of: UInt8(ascii: "\n")) {
        carry = Array(job[(lastNewline + 1)...])
        job.removeSubrange((lastNewline + 1)...)
        submit(job, startOffset: jobStart)
        nextOffset = jobStart + Int64(lastNewline + 1)
      } else {
        carry = job
        nextOffset = jobStart
      }
      if carry.count > limit {
        // A partial line already over the limit: keep its first bytes, skip the rest.
        skipping = (Array(carry.prefix(4096)), carry.count)
        nextOffset += Int64(carry.count)
        carry = []
      }
    }
    finish()
    if let failure { throw failure }
  }

  /// Decodes what is left and hands out every remaining result.
  package func finish() {
    if !pending.isEmpty {
      let bytes = pending
      pending = []
      submit(bytes, startOffset: nextOffset)
      nextOffset += Int64(bytes.count)
    }
    while !inFlight.isEmpty { consumeOldest() }
  }

  private func submit(_ bytes: [UInt8], startOffset: Int64, overlong: (length: Int, end: Int64)? = nil) {
    if inFlight.count >= maximumInFlight { consumeOldest() }
    // Lines are counted by the workers, not here: a worker finds every line of its job anyway,
    // and counting on this thread would be a second pass over the whole file (docs/PERFORMANCE.md, Measurements behind the code). A job's first line
    // number is the previous job's first line plus its line count, which that job's worker
    // publishes as soon as it has split its job, before decoding it.
    let job = Job(bytes: bytes, previous: lastSubmitted, startOffset: startOffset, overlong: overlong)
    lastSubmitted = job
    inFlight.append(job)
    let file = self.file
    let keepsCustomValues = self.keepsCustomValues
    let transform = self.transform
    let firstLineOfInput = self.firstLine
    DispatchQueue.global().async {
      var lines: [Range<Int>] = []
      var ends: [Int] = []
      if job.overlong == nil {
        lines.reserveCapacity(job.bytes.count / 256)
        ends.reserveCapacity(job.bytes.count / 256)
        Self.splitLines(job.bytes, into: &lines, ends: &ends)
      }
      let lineCount = job.overlong == nil ? lines.count : 1
      // The global queue dequeues jobs in submission order, so the previous job already has a
      // worker, which waits (briefly) only for the one before it: no deadlock.
      let firstLine: Int
      if let previous = job.previous {
        previous.counted.wait()
        firstLine = previous.firstLine + previous.lineCount
        job.previous = nil
      } else {
        firstLine = firstLineOfInput
      }
      job.firstLine = firstLine
      job.lineCount = lineCount
      job.counted.signal()

      var results: [Result] = []
      var positions: [CapturePosition] = []
      if let overlong = job.overlong {
        let record = PushReader.overlongCaptureLine(
          job.bytes[...], length: overlong.length, lineNumber: firstLine, source: file)
        results.append(transform(record))
        positions.append(CapturePosition(line: firstLine, offset: overlong.end))
      } else {
        results.reserveCapacity(lines.count)
        positions.reserveCapacity(lines.count)
        var scratch: [JSONToken] = []
        scratch.reserveCapacity(128)
        var names = NameCache()
        for (offset, range) in lines.enumerated() {
          if job.bytes[range].allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
          let record = PushReader.readCaptureLine(
            job.bytes[range], lineNumber: firstLine + offset, source: file,
            keepsCustomValues: keepsCustomValues, scratch: &scratch, names: &names)
          results.append(transform(record))
          positions.append(CapturePosition(line: firstLine + offset, offset: job.startOffset + Int64(ends[offset])))
        }
      }
      // Hand the array over without keeping a reference, so the consumer owns it uniquely.
      swap(&job.results, &results)
      swap(&job.positions, &positions)
      job.done.signal()
    }
  }

  /// The ranges of the lines of a buffer, as ``LineSplitter/forEachLine(in:_:)`` cuts them
  /// (without `\n` or a trailing `\r`; the last line needs no newline), and where each ends
  /// (after its newline).
  ///
  /// Newlines are found with the C library's `memchr`, which is vectorised: about twice as
  /// fast here as the portable word-at-a-time loop in PushWire (which must stay libc-free).
  package static func splitLines(_ bytes: [UInt8], into lines: inout [Range<Int>], ends: inout [Int]) {
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
        ends.append(min(newline + 1, count))
        lineStart = newline + 1
      }
    }
  }

  /// A job's results once consumed, handed to a worker to free.
  ///
  /// `@unchecked Sendable` for the reason ``Job`` is: the consumer's `body` (not Sendable) has
  /// touched each result in place, so the compiler ties the array to the consumer and refuses
  /// to send it to the worker that frees it, even through a `Mutex`.
  private final class Spent: @unchecked Sendable {
    // Touched by the consumer before it is handed over, then by one worker only.
    private var results: [Result]

    package init(_ results: [Result]) { self.results = results }

    package func free() { results = [] }
  }

  private func consumeOldest() {
    let job = inFlight.removeFirst()
    job.done.wait()
    var results: [Result] = []
    swap(&results, &job.results)
    let positions = job.positions
    // Borrowed in place through the buffer: `for result in results` and `results[index]` both
    // copied each result out of the array (a 700-byte record with a score of references per
    // push), and the array's release destroyed the originals as well.
    results.withUnsafeMutableBufferPointer { buffer in
      for index in buffer.indices {
        body(&buffer[index], positions[index])
      }
    }
    position = CapturePosition(line: job.firstLine + job.lineCount - 1, offset: job.endOffset)
    // The records are freed on a worker, not here: the consumer is the pipeline's slowest
    // stage, and freeing a job's records (allocated by a worker) is costly (docs/PERFORMANCE.md, Measurements behind the code).
    let spent = Spent(results)
    results = []
    DispatchQueue.global().async { spent.free() }
    idle()
  }
}

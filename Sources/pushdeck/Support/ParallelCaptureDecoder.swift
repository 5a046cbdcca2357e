import Dispatch
import PushWire

/// Decodes a capture on all cores while handing records out in file order.
///
/// The reader feeds raw chunks; they are cut at line boundaries into jobs of about 4 MiB,
/// decoded on worker threads, and consumed in order on the caller's thread. At most
/// `maximumInFlight` jobs exist at once, so memory stays bounded whatever the capture's size.
final class ParallelCaptureDecoder {
  /// One job: whole lines, decoded by a worker with line numbers relative to the job.
  private final class Job: @unchecked Sendable {
    // Written by one worker before `done` is signalled, read by the consumer after waiting on it.
    private(set) var bytes: [UInt8]
    let done = DispatchSemaphore(value: 0)
    var records: [PushRecord] = []
    var lineCount = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    /// Takes the buffer for reuse once the records that pointed into it are gone.
    func takeBytes() -> [UInt8] {
      var taken: [UInt8] = []
      swap(&taken, &bytes)
      taken.removeAll(keepingCapacity: true)
      return taken
    }
  }

  private let file: String
  private let keepsCustomValues: Bool
  private let body: (PushRecord) -> Void
  private let jobBytes = 4 << 20
  private let maximumInFlight = 4
  private var pending: [UInt8] = []
  private var inFlight: [Job] = []
  /// Buffers of consumed jobs, reused so that each job does not fault in fresh pages.
  private var recycled: [[UInt8]] = []
  private var linesBefore = 0

  init(file: String, keepsCustomValues: Bool, body: @escaping (PushRecord) -> Void) {
    self.file = file
    self.keepsCustomValues = keepsCustomValues
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

  /// Decodes what is left and hands out every remaining record.
  func finish() {
    if !pending.isEmpty {
      submit(pending)
      pending = []
    }
    while !inFlight.isEmpty { consumeOldest() }
  }

  private func submit(_ bytes: [UInt8]) {
    if inFlight.count >= maximumInFlight { consumeOldest() }
    let job = Job(bytes: bytes)
    inFlight.append(job)
    let file = self.file
    let keepsCustomValues = self.keepsCustomValues
    DispatchQueue.global().async {
      var records: [PushRecord] = []
      var scratch: [JSONToken] = []
      scratch.reserveCapacity(128)
      let lineCount = LineSplitter.forEachLine(in: job.bytes) { range, number in
        if job.bytes[range].allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return }
        records.append(
          PushReader.readCaptureLine(
            job.bytes[range], lineNumber: number, source: file, keepsCustomValues: keepsCustomValues,
            scratch: &scratch))
      }
      // Hand the array over without keeping a reference, so the consumer owns it uniquely.
      swap(&job.records, &records)
      job.lineCount = lineCount
      job.done.signal()
    }
  }

  private func consumeOldest() {
    let job = inFlight.removeFirst()
    job.done.wait()
    let base = linesBefore
    // Records are fixed up in place and lent to the body, never copied (a copy retains every field).
    var records: [PushRecord] = []
    swap(&records, &job.records)
    records.withUnsafeMutableBufferPointer { buffer in
      for index in buffer.indices {
        if base > 0 { buffer[index].shiftLines(by: base) }
        body(buffer[index])
      }
    }
    if recycled.count < maximumInFlight { recycled.append(job.takeBytes()) }
    linesBefore += job.lineCount
  }
}

extension PushRecord {
  /// Moves a record decoded with job-relative line numbers to its place in the file.
  mutating func shiftLines(by offset: Int) {
    line = line.map { $0 + offset }
    for index in diagnostics.indices {
      diagnostics[index].location?.line += offset
    }
  }
}

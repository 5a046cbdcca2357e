#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
#if canImport(Glibc) && canImport(CMalloc)
  import CMalloc
#endif

/// A buffered writer to a file descriptor: one `write(2)` per 64 KiB, not one per line.
///
/// Used for everything the CLI prints, so a million-line report costs a few hundred system calls.
package final class OutputStream {
  private let descriptor: Int32
  private var buffer: [UInt8] = []
  private let capacity = 1 << 16

  /// Standard output.
  package static func standardOutput() -> OutputStream { OutputStream(descriptor: 1) }
  /// Standard error.
  package static func standardError() -> OutputStream { OutputStream(descriptor: 2) }

  package init(descriptor: Int32) {
    self.descriptor = descriptor
    buffer.reserveCapacity(capacity)
  }

  deinit { flush() }

  /// Whether the descriptor is a terminal.
  package var isTerminal: Bool { isatty(descriptor) == 1 }

  /// Appends text, flushing when the buffer is full.
  package func write(_ text: String) {
    var text = text
    text.withUTF8 { buffer.append(contentsOf: $0) }
    if buffer.count >= capacity { flush() }
  }

  /// Appends UTF-8 bytes (a ``JSONWriter``'s text), flushing when the buffer is full.
  package func write(bytes: [UInt8]) {
    buffer.append(contentsOf: bytes)
    if buffer.count >= capacity { flush() }
  }

  /// Appends text and a newline.
  package func line(_ text: String) { write(text + "\n") }

  /// Writes out everything buffered.
  package func flush() {
    var offset = 0
    while offset < buffer.count {
      let written = buffer.withUnsafeBytes { raw in
        systemWrite(descriptor, raw.baseAddress.map { $0 + offset }, raw.count - offset)
      }
      if written <= 0 {
        if written < 0 && errno == EINTR { continue }
        break
      }
      offset += written
    }
    buffer.removeAll(keepingCapacity: true)
  }
}

/// Whether coloured output is wanted on a stream: only on a terminal, never with `NO_COLOR`.
package func colorEnabled(for stream: OutputStream) -> Bool {
  if let noColor = getenv("NO_COLOR"), noColor.pointee != 0 { return false }
  if let term = getenv("TERM"), String(cString: term) == "dumb" { return false }
  return stream.isTerminal
}

/// `write(2)`, named so it does not clash with ``OutputStream/write(_:)``.
private func systemWrite(_ descriptor: Int32, _ pointer: UnsafeRawPointer?, _ count: Int) -> Int {
  write(descriptor, pointer, count)
}

/// Keeps large buffers in the heap instead of fresh `mmap`s, and memory mapped in between jobs.
///
/// Streaming a capture allocates and frees multi-megabyte job buffers and record arrays;
/// glibc's defaults hand each back to the kernel and fault fresh zeroed pages in for the next,
/// which cost more than the decoding (measured in docs/PERFORMANCE.md).
package func tuneAllocatorForStreaming() {
  #if canImport(Glibc) && canImport(CMalloc)
    _ = mallopt(M_MMAP_THRESHOLD, 64 << 20)
    _ = mallopt(M_TRIM_THRESHOLD, 512 << 20)
  #endif
}

/// One glibc heap for the whole process, for commands that read a capture on the decoder's
/// threads and free its records on another. Each thread's own heap kept the pages freed into
/// it: at a million lines 115 MiB more resident in `run` (743 → 622 MiB) and about 25 MiB in
/// `explain`, for no measurable CPU time. Not in `render`, whose main thread allocates as fast
/// as the decoders: one heap's lock cost it 1.3 s at a million lines (docs/PERFORMANCE.md, the
/// end of the 26 Nov session).
package func useOneAllocatorArena() {
  #if canImport(Glibc) && canImport(CMalloc)
    _ = mallopt(M_ARENA_MAX, 1)
  #endif
}

/// Gives the pages of freed heap memory back to the kernel (`malloc_trim`), wherever in the
/// heap they are: glibc returns only the top of the heap on its own, and a long read frees and
/// reallocates decoded batches and the copies a handed-over state made, all through one heap
/// (docs/PERFORMANCE.md).
package func returnFreedMemory() {
  #if canImport(Glibc) && canImport(CMalloc)
    _ = malloc_trim(0)
  #endif
}

#if canImport(Glibc)
  import Glibc
#endif

/// Writes straight to standard error.
package enum FileHandleError {
  package static func write(_ text: String) {
    var text = text
    text.withUTF8 { buffer in _ = Glibc.write(2, buffer.baseAddress, buffer.count) }
  }
}

/// A mistake in how the command was called — a bad option value, an unreadable input, a profile
/// that does not load — found by shell logic. The CLI reports it as ArgumentParser reports a
/// validation error (message and usage) and exits 2.
package struct UsageError: Error, CustomStringConvertible {
  package let message: String
  package init(_ message: String) { self.message = message }
  package var description: String { message }
}

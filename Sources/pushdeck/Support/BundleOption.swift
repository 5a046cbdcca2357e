import ArgumentParser
import PushWire

/// `--bundle`: read as a bundle id where it is read, as a capture line's `bundle` and a `.apns`
/// file's `Simulator Target Bundle` are. An app id with a space or a slash used to be taken as
/// it was, and every push went to an app no device can have.
enum BundleOption {
  static func parse(_ text: String) throws -> String {
    guard let problem = BundleID.problem(text, named: "--bundle") else { return text }
    throw ValidationError(
      problem + "; a bundle id holds only \(BundleID.allowedCharacters), for example --bundle com.example.app")
  }
}

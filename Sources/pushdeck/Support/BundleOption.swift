import ArgumentParser
import PushWire

/// `--bundle`: read as a bundle id where it is read, as a capture line's `bundle` and a `.apns`
/// file's `Simulator Target Bundle` are. An app id with a space or a slash used to be taken as
/// it was, and every push went to an app no device can have.
enum BundleOption {
  static func parse(_ text: String) throws -> String {
    if text.isEmpty {
      throw ValidationError("--bundle is empty: give the app's bundle id, for example --bundle com.example.app")
    }
    if let (character, position) = BundleID.firstInvalidCharacter(in: text) {
      throw ValidationError(
        "--bundle \(JSONValue.quoted(String(text.prefix(80)))) is not a bundle id: it has "
          + "\(BundleID.describe(character)) at character \(position); a bundle id holds only "
          + "\(BundleID.allowedCharacters), for example com.example.app")
    }
    if text.utf8.count > BundleID.maximumLength {
      throw ValidationError(
        "--bundle is \(text.utf8.count) bytes, not a bundle id: one is at most \(BundleID.maximumLength)")
    }
    return text
  }
}

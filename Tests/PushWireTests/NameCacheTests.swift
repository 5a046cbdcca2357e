import Testing

@testable import PushWire

/// A capture's bundle ids are shared strings: lines naming the same app share one string (and its
/// topic shares it too), and every name still reads back as exactly its bytes.
@Suite struct NameCacheTests {
  /// Where a string's UTF-8 bytes live: the same storage for a shared string.
  private func storage(_ text: String?) -> UnsafeRawPointer? {
    guard var text else { return nil }
    return text.withUTF8 { UnsafeRawPointer($0.baseAddress) }
  }

  private func line(_ bundle: String, topic: String) -> [UInt8] {
    Array(
      #"{"at": 1767225600, "bundle": "\#(bundle)", "headers": {"apns-topic": "\#(topic)"}, "payload": {"aps": {"alert": "hi"}}}"#
        .utf8)
  }

  @Test func linesNamingTheSameAppShareItsBundleIDAndTopic() {
    var tokens: [JSONToken] = []
    var names = NameCache()
    let bundle = "com.example.a-long-bundle-id"  // longer than a small string's 15 bytes
    let first = PushReader.readCaptureLine(
      line(bundle, topic: bundle)[...], lineNumber: 1, source: "c.jsonl", keepsCustomValues: false,
      scratch: &tokens, names: &names)
    let second = PushReader.readCaptureLine(
      line(bundle, topic: bundle + ".voip")[...], lineNumber: 2, source: "c.jsonl", keepsCustomValues: false,
      scratch: &tokens, names: &names)
    #expect(first.bundleID == bundle && second.bundleID == bundle)
    #expect(first.headers.topic == bundle && second.headers.topic == bundle + ".voip")
    #expect(storage(first.bundleID) == storage(second.bundleID))
    #expect(storage(first.headers.topic) == storage(first.bundleID))
    #expect(storage(second.headers.topic) != storage(second.bundleID))
  }

  @Test func everyNameReadsBackAsItsBytesWhateverTheCacheHolds() {
    var names = NameCache()
    // More names than slots, of every length around a word's eight bytes, asked for twice.
    let texts = (0..<600).map { "app.\(String(repeating: "x", count: $0 % 23))\($0)" }
    for _ in 0..<2 {
      for text in texts {
        var bytes = Array(text.utf8)
        let made = bytes.withUnsafeMutableBufferPointer { names.string(UnsafeBufferPointer($0)) }
        #expect(made == text)
      }
    }
  }
}

import PushCore
import PushWire

/// Records made by the readers from small texts, for tests of where and when pushes arrive.
public enum TestRecords {
  /// A capture line's record: `bundle` alerting `title`, its `at` `seconds` after `start`.
  public static func captureLine(
    _ title: String, at seconds: Int64, after start: SimInstant, bundle: String = "com.example.chat"
  ) -> PushRecord {
    let line =
      #"{"at":\#(start.epochSeconds + Double(seconds)),"bundle":"\#(bundle)","payload":{"aps":{"alert":"\#(title)"}}}"#
    return PushReader.readCaptureLine(Array(line.utf8), lineNumber: 1, source: "s.jsonl")
  }

  /// A payload file's record, `TITLE.json`, alerting `title` for `bundle`.
  public static func payloadFile(_ title: String, bundle: String = "com.example.chat") -> PushRecord {
    PushReader.readPayloadFile(
      Array(#"{"aps":{"alert":"\#(title)"}}"#.utf8), source: "\(title).json", format: .payload, bundleID: bundle)
  }
}

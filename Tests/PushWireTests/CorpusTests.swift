import PushTestSupport
import Testing

@testable import PushWire

/// Reads every file of the shared real-world corpus and checks Pushdeck agrees with its index.
@Suite(.requires(Corpus.isAvailable, "../shared/corpus is not present"))
struct CorpusTests {
  static let entries = Corpus.entries

  /// The tests below take their cases from the corpus index: with no index they have no cases
  /// and Swift Testing skips them without a failure, even under PUSHDECK_REQUIRE_ALL. This one
  /// fails then, and holds the json-error cases to more than none.
  @Test func theIndexGivesTheArgumentTestsTheirCases() {
    #expect(Self.entries.count >= 100, "the corpus index lists \(Self.entries.count) files")
    #expect(!Self.entries.filter { $0.notes.contains("json error") }.isEmpty)
  }

  @Test(arguments: entries)
  func strictJSONScansAndMalformedJSONIsLocated(entry: Corpus.Entry) {
    let bytes = Corpus.bytes(of: entry)
    let record = PushReader.readPayloadFile(bytes, source: entry.fileName, format: .simulator)
    let syntax = record.diagnostics.first { $0.path == nil && $0.severity == .error && record.payload == nil }
    if entry.isValidJSON {
      #expect(record.payload != nil || record.diagnostics.contains { $0.code == .missingAps })
      #expect(!record.diagnostics.contains { DiagnosticCode.syntaxCodes.contains($0.code) })
    } else {
      let diagnostic = try? #require(syntax)
      #expect(diagnostic.map { DiagnosticCode.syntaxCodes.contains($0.code) } == true)
      #expect(diagnostic?.location != nil)
      #expect(diagnostic?.hint?.isEmpty == false)
    }
  }

  /// Python's json module reports "line L col C"; Pushdeck must point at the same place.
  @Test(arguments: entries.filter { $0.notes.contains("json error") })
  func syntaxErrorLocationsMatchAnIndependentParser(entry: Corpus.Entry) throws {
    let pattern = #/line (\d+) col (\d+)/#
    let match = try #require(entry.notes.firstMatch(of: pattern))
    let record = PushReader.readPayloadFile(Corpus.bytes(of: entry), source: entry.fileName, format: .simulator)
    let location = try #require(record.diagnostics.first?.location)
    #expect(location.line == Int(match.1))
    #expect(location.column == Int(match.2))
  }

  @Test func realWorldMistakesGetTheirWarnings() throws {
    func codes(_ fileName: String) -> Set<DiagnosticCode> {
      guard let entry = Self.entries.first(where: { $0.fileName == fileName }) else { return [] }
      let record = PushReader.readPayloadFile(Corpus.bytes(of: entry), source: fileName, format: .simulator)
      return Set(record.diagnostics.map(\.code))
    }
    #expect(codes("cwaliimran__IOS-Notification-payload-for-Simulator__payload.apns").contains(.soundInsideAlert))
    #expect(codes("DimaOrdenov__MauiSamples__payload.apns").contains(.contentAvailableInsideAlert))
    #expect(codes("antoine2vey__smashpros-app__apns.json").contains(.mutableContentNotInteger))
    #expect(codes("AppAmbit__appambit-sdk-ios__test-notification.apns").contains(.headerInBody))
    #expect(
      codes("FelixSchick__PegelWatch__notification.apns").isSuperset(of: [
        .misspelledSimulatorTargetBundle, .missingAps,
      ]))
    #expect(codes("kushwaha03__PushNotificationService__PushNotification.apns").contains(.customKeyInAps))
    #expect(codes("tuberquia2115__NotificationPush__notification.apns").contains(.placeholderValue))
    #expect(codes("matey-dev__watch-app__notifications.apns").contains(.silentPushAlsoAlerts))
    #expect(codes("huguesleger__plant_match_v2__test_notification.apns").contains(.firebaseKey))
    #expect(codes("AnTseng__LiveActivitiesDemo__liveActivityUpdate.apns").contains(.liveActivityInSimulatorFile))
  }

  @Test func everyStringifiedJSONValueIsNoted() {
    let stringified = Self.entries.filter { $0.kinds.contains("stringified-json-value") && $0.isValidJSON }
    #expect(!stringified.isEmpty)
    for entry in stringified {
      let record = PushReader.readPayloadFile(Corpus.bytes(of: entry), source: entry.fileName, format: .simulator)
      #expect(record.diagnostics.contains { $0.code == .customValueIsEncodedJSON }, "\(entry.fileName)")
    }
  }

  /// Mutates corpus files at random (seeded) and checks that nothing crashes and every
  /// rejection is located: byte flips, truncations, insertions and duplications.
  @Test func mutatedCorpusFilesNeverCrashAndAlwaysExplain() throws {
    var generator = SplitMix64(seed: 0x5EED)
    let inputs = Self.entries.map(Corpus.bytes(of:)).filter { !$0.isEmpty }
    try #require(!inputs.isEmpty, "the corpus has no files to mutate")
    let interesting: [UInt8] = Array("{}[]\",:\\ \n\t0-eE.tfnu".utf8) + [0x00, 0x80, 0xC3, 0xE2, 0xFF, 0xED, 0xF4]
    for round in 0..<20_000 {
      var bytes = inputs[round % inputs.count]
      let edits = Int(generator.next() % 4) + 1
      for _ in 0..<edits where !bytes.isEmpty {
        let position = Int(generator.next() % UInt64(bytes.count))
        switch generator.next() % 5 {
        case 0: bytes[position] = interesting[Int(generator.next() % UInt64(interesting.count))]
        case 1: bytes.removeSubrange(position...)
        case 2: bytes.insert(interesting[Int(generator.next() % UInt64(interesting.count))], at: position)
        case 3: bytes.remove(at: position)
        default: bytes.insert(contentsOf: bytes[position...].prefix(16), at: position)
        }
      }
      let record = PushReader.readPayloadFile(bytes, source: "mutant", format: .simulator)
      if record.payload == nil {
        #expect(record.diagnostics.contains { $0.severity == .error }, "round \(round) rejected without an error")
      }
      for diagnostic in record.diagnostics where diagnostic.path == nil && diagnostic.severity == .error {
        #expect(diagnostic.location != nil || diagnostic.code == .missingAps || diagnostic.code == .payloadTooLarge)
      }
    }
  }
}

/// A small deterministic generator so the mutation test is reproducible.
struct SplitMix64: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

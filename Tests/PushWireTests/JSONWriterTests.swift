import PushWire
import Testing

/// The one JSON writer and its escaper: byte-exact output, and what it writes reads back.
@Suite struct JSONWriterTests {
  @Test func keysKeepTheOrderTheyAreWrittenIn() {
    var json = JSONWriter()
    json.object {
      $0.member("zeta", 1)
      $0.member("alpha", "a")
      $0.member("mid", true)
      $0.nullMember("none")
      $0.member("list", strings: ["x", "y"])
      $0.key("empty")
      $0.object { _ in }
      $0.key("nested")
      $0.array {
        $0.integer(-7)
        $0.array { _ in }
        $0.object { $0.member("k", nil as String?) }
      }
    }
    #expect(
      json.text
        == #"{"zeta":1,"alpha":"a","mid":true,"none":null,"list":["x","y"],"empty":{},"nested":[-7,[],{"k":null}]}"#)
  }

  @Test func prettyStyleIsTheInspectorsLayout() {
    let value = JSONValue.object([
      JSONMember(key: "aps", value: .object([JSONMember(key: "alert", value: .string("Hi"))])),
      JSONMember(key: "ids", value: .array([.number(JSONNumber(1)), .number(JSONNumber(text: "2.50", value: 2.5))])),
      JSONMember(key: "none", value: .array([])),
      JSONMember(key: "obj", value: .object([])),
    ])
    #expect(
      value.prettyText
        == "{\n  \"aps\": {\n    \"alert\": \"Hi\"\n  },\n  \"ids\": [\n    1,\n    2.50\n  ],\n  \"none\": [],\n  \"obj\": {}\n}"
    )
    #expect(value.compactText == #"{"aps":{"alert":"Hi"},"ids":[1,2.50],"none":[],"obj":{}}"#)
  }

  @Test func controlsSeparatorsAndBidiControlsAreEscaped() {
    let cases: [(String, String)] = [
      ("plain", #""plain""#),
      ("say \"hi\" \\ bye", #""say \"hi\" \\ bye""#),
      ("a\nb\rc\td", #""a\nb\rc\td""#),
      ("\u{0}\u{1}\u{8}\u{C}\u{1B}\u{1F}", #""\u0000\u0001\u0008\u000c\u001b\u001f""#),
      ("del\u{7F}", #""del\u007f""#),
      ("c1\u{80}\u{85}\u{9B}\u{9F}", #""c1\u0080\u0085\u009b\u009f""#),
      ("line\u{2028}para\u{2029}", #""line\u2028para\u2029""#),
      ("bidi\u{202E}\u{2066}\u{2069}\u{200E}\u{200F}\u{61C}", #""bidi\u202e\u2066\u2069\u200e\u200f\u061c""#),
      // Neighbours of escaped characters are not escaped.
      (
        "\u{A0}\u{2027}\u{202F}\u{2065}\u{206A}\u{200D}\u{61B}",
        "\"\u{A0}\u{2027}\u{202F}\u{2065}\u{206A}\u{200D}\u{61B}\""
      ),
      // Outside the Basic Multilingual Plane: copied as UTF-8, never as surrogate escapes.
      ("😀 𝄞 \u{10FFFF}", "\"😀 𝄞 \u{10FFFF}\""),
      ("", #""""#),
    ]
    for (text, expected) in cases {
      #expect(JSONValue.quoted(text) == expected, "escaping \(Array(text.unicodeScalars))")
      var json = JSONWriter()
      json.string(text)
      #expect(json.text == expected)
    }
  }

  /// Every character that is escaped is found wherever it falls in a plain run: the writer
  /// skips eight plain bytes at a step, so each offset around and across a word is tried.
  @Test func anEscapedCharacterIsFoundAtEveryOffset() {
    let escapes: [(String, String)] = [
      ("\"", #"\""#), ("\\", #"\\"#), ("\n", #"\n"#), ("\u{01}", #"\u0001"#), ("\u{1F}", #"\u001f"#),
      ("\u{7F}", #"\u007f"#), ("\u{85}", #"\u0085"#), ("\u{202E}", #"\u202e"#), ("\u{061C}", #"\u061c"#),
      ("é", "é"), ("😀", "😀"), (" ", " "), ("~", "~"),
    ]
    var mismatches: [String] = []
    for (character, escaped) in escapes {
      for before in 0..<20 {
        for after in [0, 1, 7, 8, 9] {
          let padding = (
            String(String(repeating: "abcdefg", count: 4).prefix(before)), String(repeating: "x", count: after)
          )
          var text = padding.0 + character + padding.1
          var output: [UInt8] = []
          text.withUTF8 { JSONWriter.appendEscaped($0, to: &output) }
          let expected = padding.0 + escaped + padding.1
          if String(decoding: output, as: UTF8.self) != expected {
            mismatches.append("\(before)+\(character.unicodeScalars.map(\.value))+\(after)")
          }
        }
      }
    }
    #expect(mismatches.isEmpty)
  }

  @Test func numbersAndLiterals() {
    var json = JSONWriter()
    json.array {
      $0.integer(0)
      $0.integer(Int.min)
      $0.integer(Int.max)
      $0.integer(UInt64.max)
      $0.number(0.25)
      $0.number(3)
      $0.number(1e-5)
      $0.number(.infinity)
      $0.number(.nan)
      $0.bool(false)
    }
    #expect(
      json.text
        == "[0,-9223372036854775808,9223372036854775807,18446744073709551615,0.25,3.0,1e-05,null,null,false]")
  }

  @Test func jsonLinesReuseOneBuffer() {
    var json = JSONWriter()
    for index in 1...3 {
      json.object { $0.member("n", index) }
      json.newline()
    }
    #expect(json.text == "{\"n\":1}\n{\"n\":2}\n{\"n\":3}\n")
    json.removeAll()
    json.object { $0.member("n", 4) }
    #expect(json.text == #"{"n":4}"#)
  }

  @Test func scannedJSONStaysOnOneLine() throws {
    let payload = "{\r\n  \"aps\":\t{\"alert\": \"a\\nb\"}\n}"
    _ = try JSONDocument(text: payload)
    var json = JSONWriter()
    json.object {
      $0.key("payload")
      $0.scannedJSON(Array(payload.utf8))
    }
    #expect(json.text == "{\"payload\":{    \"aps\":\t{\"alert\": \"a\\nb\"} }}")
    let back = try JSONDocument(text: json.text)
    #expect(back.value(back.root)["payload"]?["aps"]?["alert"]?.stringValue == "a\nb")
  }

  /// Every string written reads back through the scanner as itself: all of the first 0x3000
  /// scalars (controls, C1, separators, bidi controls), and characters beyond the BMP.
  @Test func everyStringRoundTripsThroughTheScanner() throws {
    var samples: [String] = []
    var chunk = String.UnicodeScalarView()
    for value in UInt32(0)..<0x3000 {
      guard let scalar = Unicode.Scalar(value) else { continue }
      chunk.append(scalar)
      if chunk.count == 64 {
        samples.append(String(chunk))
        chunk = String.UnicodeScalarView()
      }
    }
    samples.append(String(chunk))
    samples += ["😀👩‍👩‍👧\u{1F1EF}\u{1F1F5}", "\u{10000}\u{E0001}\u{10FFFF}", "\u{FEFF}bom", "\"\\/"]
    var members: [JSONMember] = []
    for (index, sample) in samples.enumerated() {
      members.append(JSONMember(key: "k\(index)\u{2028}\(sample.prefix(3))", value: .string(sample)))
    }
    let tree = JSONValue.object(members + [JSONMember(key: "list", value: .array(samples.map { .string($0) }))])
    for text in [tree.compactText, tree.prettyText] {
      let document = try JSONDocument(text: text)
      #expect(document.value(document.root) == tree)
    }
    // Compact text is one line: a JSON Lines record can hold any string.
    #expect(!tree.compactText.unicodeScalars.contains { [0x0A, 0x0D, 0x2028, 0x2029].contains($0.value) })
  }

  @Test func aWrittenValueCanBeRepeated() {
    var anchored = JSONWriter()
    anchored.object { $0.member("a", 1) }
    var json = JSONWriter()
    json.array {
      $0.append(anchored)
      $0.append(anchored)
    }
    #expect(json.text == #"[{"a":1},{"a":1}]"#)
  }
}

/// The one XML escaper and its options.
@Suite struct XMLTextTests {
  let sample = "a & b < c > d \"q\" 'a'\tt\nn\rr \u{1B}[31m \u{85} \u{FFFE} 😀 \u{202E}"

  @Test func elementTextKeepsLineBreaksAndQuotes() {
    #expect(
      XMLText.escaped(sample, .elementText)
        == "a &amp; b &lt; c &gt; d \"q\" 'a'\tt\nn\rr \u{FFFD}[31m \u{FFFD} \u{FFFD} 😀 \u{202E}")
  }

  @Test func attributeValuesEscapeQuotesAndLineBreaks() {
    #expect(
      XMLText.escaped(sample, .attributeValue)
        == "a &amp; b &lt; c &gt; d &quot;q&quot; &#39;a&#39;&#9;t&#10;n&#13;r \u{FFFD}[31m \u{FFFD} \u{FFFD} 😀 \u{202E}"
    )
  }

  @Test func drawnTextIsOneLine() {
    #expect(
      XMLText.escaped(sample, .drawnText)
        == "a &amp; b &lt; c &gt; d &quot;q&quot; &#39;a&#39; t n r \u{FFFD}[31m \u{FFFD} \u{FFFD} 😀 \u{202E}")
  }
}

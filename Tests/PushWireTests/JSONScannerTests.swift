import Testing

@testable import PushWire

/// Scans `text` and returns the error, failing the test if it scans.
private func syntaxError(_ text: String) -> JSONSyntaxError? {
  do {
    _ = try JSONDocument(text: text)
    Issue.record("expected a syntax error for \(text.debugDescription)")
    return nil
  } catch {
    return error
  }
}

private func location(_ text: String) -> TextLocation? {
  guard let error = syntaxError(text) else { return nil }
  return TextLocation.of(offset: error.offset, in: Array(text.utf8))
}

@Suite struct JSONScannerTests {
  @Test func scansNestedObjectIntoTapeWithSkipPointers() throws {
    let document = try JSONDocument(text: #"{"aps": {"alert": "hi", "badge": 3}, "ids": [1, 2, [3]], "x": null}"#)
    #expect(document.kind(0) == .object)
    #expect(document.tokens[0].count == 3)
    let aps = try #require(document.member("aps", of: 0))
    #expect(document.kind(aps) == .object)
    #expect(document.member("alert", of: aps).map(document.string) == "hi")
    #expect(document.member("badge", of: aps).flatMap(document.integer) == 3)
    let ids = try #require(document.member("ids", of: 0))
    #expect(document.elements(of: ids).count == 3)
    #expect(document.member("x", of: 0).map(document.kind) == .null)
    #expect(document.member("missing", of: 0) == nil)
  }

  @Test(arguments: [
    (#""a\"b\\c\/d""#, "a\"b\\c/d"),
    (#""tab\there\nnew""#, "tab\there\nnew"),
    (#""\u00e9t\u00E9""#, "été"),
    (#""\ud83d\ude00 smile""#, "😀 smile"),
    (#""lone \ud800 high""#, "lone \u{FFFD} high"),
    (#""lone \udc00 low""#, "lone \u{FFFD} low"),
    ("\"日本語 🇯🇵\"", "日本語 🇯🇵"),
    (#""\b\f\r""#, "\u{08}\u{0C}\r"),
  ])
  func decodesStringEscapes(source: String, expected: String) throws {
    let document = try JSONDocument(text: source)
    #expect(document.string(0) == expected)
  }

  @Test(arguments: [
    ("0", 0.0), ("-0", -0.0), ("42", 42.0), ("-17", -17.0), ("0.5", 0.5), ("1e3", 1000.0),
    ("1E-2", 0.01), ("2.5e+2", 250.0), ("0.1", 0.1), ("123456789012345678901234567890", 1.2345678901234568e29),
    ("1.7976931348623157e308", 1.7976931348623157e308), ("5e-324", 5e-324),
    ("0.30000000000000004", 0.30000000000000004),
  ])
  func parsesNumbersExactly(source: String, expected: Double) throws {
    let document = try JSONDocument(text: source)
    #expect(document.double(0) == expected)
  }

  @Test func integersAreIntegersOnlyWhenWhole() throws {
    let document = try JSONDocument(text: "[1, 1.0, 1.5, 9223372036854775808, -3]")
    let values = document.elements(of: 0).map(document.integer)
    #expect(values == [1, 1, nil, nil, -3])
  }

  @Test(arguments: ["01", "1.", ".5", "+1", "-", "1e", "1e+", "-a", "0x10"])
  func rejectsMalformedNumbers(source: String) {
    let error = syntaxError("[\(source)]")
    #expect(error?.kind == .invalidNumber || error?.kind == .unexpectedCharacter)
  }

  @Test(arguments: ["NaN", "Infinity", "-Infinity", "undefined"])
  func rejectsNonStandardLiterals(source: String) {
    #expect(syntaxError(#"{"a": \#(source)}"#)?.kind == .nonStandardLiteral)
  }

  @Test func trailingCommaInObjectPointsAtTheClosingBrace() {
    let text = "{\n  \"aps\": {\n    \"badge\": 1,\n  }\n}"
    #expect(syntaxError(text)?.kind == .trailingComma)
    #expect(location(text) == TextLocation(line: 4, column: 3, offset: 31))
  }

  @Test func trailingCommaInArray() {
    #expect(syntaxError("[1, 2,]")?.kind == .trailingComma)
  }

  @Test func missingCommaBetweenMembers() {
    let text = "{\"a\": 1\n \"b\": 2}"
    #expect(syntaxError(text)?.kind == .missingComma)
    #expect(location(text)?.line == 2)
    #expect(location(text)?.column == 2)
  }

  @Test func missingCommaBetweenArrayElements() {
    #expect(syntaxError("[1 2]")?.kind == .missingComma)
  }

  @Test func smartQuotesAreNamed() {
    let error = syntaxError("{“aps”: {}}")
    #expect(error?.kind == .smartQuotes)
    #expect(error?.hint.contains("straight double quotes") == true)
    #expect(syntaxError("{\"a\": “b”}")?.kind == .smartQuotes)
  }

  @Test func singleQuotesUnquotedKeysAndComments() {
    #expect(syntaxError("{'aps': {}}")?.kind == .singleQuotes)
    #expect(syntaxError("{aps: {}}")?.kind == .unquotedKey)
    #expect(syntaxError("{\"a\": 1 // note\n}")?.kind == .unexpectedCharacter)
    #expect(syntaxError("{// note\n\"a\": 1}")?.kind == .comment)
  }

  @Test func unterminatedStringPointsAtItsStart() {
    let text = "{\"aps\": \"abc"
    #expect(syntaxError(text)?.kind == .unterminatedString)
    #expect(location(text)?.column == 9)
  }

  @Test func rawLineBreakInStringIsAControlCharacter() {
    let error = syntaxError("{\"a\": \"one\ntwo\"}")
    #expect(error?.kind == .controlCharacter)
    #expect(error?.hint.contains("\\n") == true)
  }

  @Test func rawTabInStringIsAControlCharacter() {
    #expect(syntaxError("[\"a\tb\"]")?.kind == .controlCharacter)
  }

  @Test func trailingGarbageAfterTheDocument() {
    let text = "{\"aps\": {}}\n}"
    #expect(syntaxError(text)?.kind == .trailingGarbage)
    #expect(location(text) == TextLocation(line: 2, column: 1, offset: 12))
  }

  @Test(
    arguments: [
      [0x22, 0xFF, 0x22], [0x22, 0xC0, 0xAF, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22],
      [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], [0x22, 0xE2, 0x82, 0x22], [0x22, 0x80, 0x22], [0xFE],
    ] as [[UInt8]])
  func rejectsInvalidUTF8(bytes: [UInt8]) {
    do {
      _ = try JSONDocument(bytes: bytes)
      Issue.record("accepted invalid UTF-8 \(bytes)")
    } catch {
      #expect(error.kind == .invalidUTF8)
    }
  }

  @Test func acceptsEveryValidUTF8Length() throws {
    let document = try JSONDocument(text: "\"a é € 😀 \u{10FFFF}\"")
    #expect(document.string(0) == "a é € 😀 \u{10FFFF}")
  }

  @Test func columnsCountScalarsNotBytes() {
    let text = "{\"é😀\": 1,}"
    #expect(location(text)?.column == 10)
  }

  @Test func nestingLimitIsEnforced() throws {
    let deep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
    #expect(syntaxError(deep)?.kind == .nestingTooDeep)
    let fine = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
    #expect(try JSONDocument(text: fine).tokens.count == 64)
  }

  @Test func emptyAndWhitespaceInputs() {
    #expect(syntaxError("")?.kind == .emptyInput)
    #expect(syntaxError(" \n\t")?.kind == .emptyInput)
  }

  @Test func truncatedDocumentsReportTheEnd() {
    #expect(syntaxError("{\"aps\": {\"alert\": \"x\"}")?.kind == .unexpectedEnd)
    #expect(syntaxError("[1, 2")?.kind == .unexpectedEnd)
    #expect(syntaxError("{\"a\":")?.kind == .unexpectedEnd)
  }

  @Test func literalsMustBeExact() throws {
    #expect(syntaxError("[tru]")?.kind == .unexpectedCharacter)
    #expect(syntaxError("[nullx]")?.kind == .unexpectedCharacter)
    #expect(syntaxError("[True]")?.kind == .unexpectedCharacter)
    let document = try JSONDocument(text: "[true,false,null]")
    #expect(document.elements(of: 0).map(document.kind) == [.true, .false, .null])
  }

  @Test func byteOrderMarkIsTolerated() throws {
    let document = try JSONDocument(bytes: [0xEF, 0xBB, 0xBF] + Array("{}".utf8))
    #expect(document.kind(0) == .object)
  }

  @Test func valueTreeRoundTripsThroughCompactText() throws {
    let source = #"{"a":[1,2.50,{"b":"c\"d"}],"e":true,"f":null,"g":"é\n"}"#
    let value = try JSONDocument(text: source).value(0)
    #expect(value.compactText == #"{"a":[1,2.50,{"b":"c\"d"}],"e":true,"f":null,"g":"é\n"}"#)
    #expect(try JSONDocument(text: value.prettyText).value(0) == value)
  }

  @Test func escapedKeysCompareEqualToTheirDecodedText() throws {
    let document = try JSONDocument(text: #"{"\u0061ps": 1}"#)
    #expect(document.member("aps", of: 0) != nil)
  }
}

@Suite struct SyntaxCodeTests {
  @Test(arguments: JSONSyntaxError.Kind.allCases)
  func everySyntaxKindHasItsOwnDiagnosticCode(kind: JSONSyntaxError.Kind) {
    let code = DiagnosticCode(syntax: kind)
    #expect(code.rawValue == (kind == .emptyInput ? "PayloadEmpty" : kind.rawValue))
  }
}

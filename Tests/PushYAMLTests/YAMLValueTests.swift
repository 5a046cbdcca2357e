import Foundation
import PushYAML
import Testing

/// The YAML layer scenarios, profiles and themes share: located nodes, key paths, core scalars.
struct YAMLValueTests {
  func parse(_ text: String) throws -> YAMLValue { try YAMLValue.parse(text, file: "d.yaml") }

  /// A duplicate key in a text whose lines break at `\r` is located where it appears again; the
  /// fuzzer's input (lone `\r` breaks, a duplicate key) trapped in a range the parser's line
  /// number overran (`repeatedKeyLine`).
  @Test func aDuplicateKeyInATextWithCarriageReturnsIsLocated() throws {
    #expect {
      try parse("name: a\rroles: {}\rname: b\r")
    } throws: { error in
      (error as? YAMLError)?.line == 3 && (error as? YAMLError)?.message.hasPrefix("duplicate key \"name\"") == true
    }
    #expect {
      try parse("name: a\r\nroles: {}\r\nname: b\r\n")
    } throws: { error in (error as? YAMLError)?.line == 3 }
    let found = try #require(
      Data(
        base64Encoded:
          "IyBQdXNoIyBQdXNoZGVjayBzaT10IA2TOiBhIGRuaXRkbmk9dCBQRGljdGlvbmFydVB1c2gjc2hkZWNrIHNs/////////2EgZG5pPXQgDZM6IGEgZG5pdHJt"
      ))
    #expect(throws: YAMLError.self) { try parse(String(decoding: found, as: UTF8.self)) }
  }

  @Test func entriesLocateKeysAndValuesUnderTheirPaths() throws {
    let root = try parse("apps:\n  - bundle: a\n    settings: {banners: true}\n")
    let apps = try #require(root.entries())
    #expect(apps.map(\.key) == ["apps"])
    let first = try apps[0].value.list()[0]
    #expect(first.path == "apps[0]")
    let entries = try #require(first.entries())
    #expect(entries.map(\.key) == ["bundle", "settings"])
    #expect(entries[1].value.path == "apps[0].settings")
    #expect(entries[1].keyValue.path == "apps[0]")
    #expect(entries[1].keyValue.line == 3 && entries[1].keyValue.column == 5)
    let banners = try #require(entries[1].value.entries()?.first?.value)
    #expect(banners.path == "apps[0].settings.banners")
    #expect(try banners.bool())
    #expect(try parse("[1, 2]").entries() == nil)
  }

  @Test func aCollectionKeyIsNilInEntriesAndAnErrorInMappings() throws {
    let root = try parse("? [a, b]\n: 1\n")
    #expect(try #require(root.entries()).first.map { $0.key == nil } == true)
    #expect(throws: YAMLError.self) { _ = try root.freeMapping() }
  }

  @Test func unknownKeysAreLocatedWithASuggestion() throws {
    let root = try parse("name: x\nbanerz: true\n")
    let error = try #require(caught(YAMLError.self) { _ = try root.mapping(allowed: ["name", "banners"]) })
    #expect(
      error.description
        == #"d.yaml:2:1: banerz: unknown key "banerz" (did you mean "banners"?); expected one of name, banners"#)
  }

  @Test func scalarsFollowTheYAML12CoreSchema() throws {
    let root = try parse("a: yes\nb: TRUE\nc: \"true\"\nd: 0x1F\ne: 010\nf: 1_000\n")
    let values = try #require(root.entries()).map(\.value)
    #expect((try? values[0].bool()) == nil)
    #expect(try values[1].bool())
    #expect((try? values[2].bool()) == nil)
    #expect(try values[3].int() == 31)
    #expect(try values[4].int() == 10)
    #expect((try? values[5].int()) == nil)
    let error = try #require(caught(YAMLError.self) { _ = try values[0].bool() })
    #expect(error.description == #"d.yaml:1:4: a: expected true or false, got "yes""#)
  }

  @Test func textProblemsAreLocated() {
    let syntax = caught(YAMLError.self) { _ = try parse("a: [\n") }
    #expect(syntax?.line == 2 && syntax?.message.hasPrefix("YAML syntax error: ") == true)
    let duplicate = caught(YAMLError.self) { _ = try parse("a: 1\na: 2\n") }
    #expect(duplicate?.message.hasPrefix("duplicate key \"a\"") == true)
    // Located where the key appears again, in a nested mapping too, and said where it was first.
    #expect(duplicate?.line == 2 && duplicate?.message.contains("(first at line 1)") == true)
    let nested = caught(YAMLError.self) {
      _ = try parse("timeline:\n  - at: +1m\n    push:\n      bundle: a\n      payload: {}\n      bundle: b\nx: 1\n")
    }
    #expect(nested?.line == 6 && nested?.column == 7, "\(nested?.description ?? "")")
    // In a flow mapping the first place is all there is.
    let flow = caught(YAMLError.self) { _ = try parse("a: {b: 1, b: 2}\n") }
    #expect(flow?.line == 1 && flow?.message.hasPrefix("duplicate key \"b\"") == true)
    let empty = caught(YAMLError.self) { _ = try parse("") }
    #expect(empty?.description == "d.yaml:1:1: the file is empty; expected a mapping")
  }
}

/// The error `body` throws, or nil (and a recorded issue) when it throws none or another.
func caught<E: Error>(_ type: E.Type, _ body: () throws -> Void) -> E? {
  do {
    try body()
  } catch let error as E {
    return error
  } catch {
    Issue.record("threw \(error), not \(E.self)")
    return nil
  }
  Issue.record("did not throw")
  return nil
}

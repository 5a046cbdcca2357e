import GRDB
import Testing

@testable import PushStore

/// The packed-value writer keeps its own byte buffer (for speed); these hold it to what an
/// array-backed writer did: the bytes read back as written, across growth, and a copy of a
/// writer is a value.
@Suite struct DetailWriterTests {
  /// Every kind of value, a text long enough for a three-byte length and enough values to
  /// outgrow the first buffer several times, read back in order.
  @Test func valuesReadBackAcrossGrowth() throws {
    var writer = DeliveryDetail.Writer()
    writer.start()
    let long = String(repeating: "é", count: 9_000)  // 18,000 UTF-8 bytes: a three-byte varint
    var expected: [DatabaseValue] = []
    for index in 0..<500 {
      writer.int(Int64(index) - 250)
      expected.append((Int64(index) - 250).databaseValue)
      writer.double(Double(index) / 8)
      expected.append((Double(index) / 8).databaseValue)
      writer.text(index == 17 ? long : "t\(index)")
      expected.append((index == 17 ? long : "t\(index)").databaseValue)
      writer.text(nil)
      expected.append(.null)
      writer.bool(index % 2 == 0)
      expected.append((index % 2 == 0 ? 1 : 0).databaseValue)
    }
    writer.text(Array("bytes".utf8)[...])
    expected.append("bytes".databaseValue)
    let values = try writer.withUnsafeBytes { try DeliveryDetail.unpackValues($0) }
    #expect(values == expected)
    #expect(writer.count == writer.bytes.count)
  }

  /// A copy made before a write keeps the bytes it had: the write goes to a buffer of its own.
  @Test func aCopyIsAValue() throws {
    var first = DeliveryDetail.Writer()
    first.start()
    first.text("shared")
    var second = first
    second.text("second only")
    first.int(7)
    let firstValues = try first.withUnsafeBytes { try DeliveryDetail.unpackValues($0) }
    let secondValues = try second.withUnsafeBytes { try DeliveryDetail.unpackValues($0) }
    #expect(firstValues == ["shared".databaseValue, 7.databaseValue])
    #expect(secondValues == ["shared".databaseValue, "second only".databaseValue])
    // `start` empties only this writer.
    var third = second
    third.start()
    #expect(third.count == 1)
    #expect(try second.withUnsafeBytes { try DeliveryDetail.unpackValues($0) }.count == 2)
  }

  /// A writer's bytes nest in another's as a blob, whole.
  @Test func aWriterNestsAsABlob() throws {
    var inner = DeliveryDetail.Writer()
    inner.start()
    inner.text("inside")
    var outer = DeliveryDetail.Writer()
    outer.int(1)
    outer.blob(inner)
    try outer.withUnsafeBytes { bytes in
      var values = DeliveryDetail.Values(bytes)
      guard case .int(1) = try values.next() else { Issue.record("no int first"); return }
      guard case .blob(let blob) = try values.next() else { Issue.record("no blob second"); return }
      #expect(Array(blob) == inner.bytes)
    }
  }
}

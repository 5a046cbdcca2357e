import Testing

@testable import PushCore

/// The store's member lists: the same elements as a plain array under any edits, and a copy
/// shares every chunk the original does not write afterwards.
@Suite struct ChunkedListTests {
  /// A deterministic generator (SplitMix64).
  private struct Generator {
    var state: UInt64
    mutating func below(_ bound: Int) -> Int {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return Int((z ^ (z >> 31)) % UInt64(bound))
    }
  }

  @Test func editsGiveWhatAnArrayGives() {
    var list = ChunkedList<Int>()
    var model: [Int] = []
    var random = Generator(state: 7)
    for step in 0..<30_000 {
      switch random.below(10) {
      case 0..<5:
        list.append(step)
        model.append(step)
      case 5..<8:
        let index = random.below(model.count + 1)
        list.insert(step, at: index)
        model.insert(step, at: index)
      case 8:
        guard !model.isEmpty else { continue }
        let index = random.below(model.count)
        #expect(list.remove(at: index) == model.remove(at: index))
      default:
        guard !model.isEmpty else { continue }
        let index = random.below(model.count)
        list[index] = -step
        model[index] = -step
      }
    }
    #expect(list.count == model.count)
    #expect(Array(list) == model)
    var walked: [Int] = []
    list.forEachElement { walked.append($0) }
    #expect(walked == model)
    #expect(list.chunkAddresses.count > 10)
    // Emptied from the front, then refilled.
    while !model.isEmpty {
      #expect(list.remove(at: 0) == model.removeFirst())
    }
    #expect(list.isEmpty && list.chunkAddresses.isEmpty)
    list.append(1)
    #expect(Array(list) == [1])
  }

  @Test func aCopySharesTheChunksTheOriginalDoesNotWrite() {
    var list = ChunkedList<Int>()
    for value in 0..<(10 * ChunkedList<Int>.chunkSize + 5) { list.append(value) }
    let copy = list
    list.append(-1)
    let before = copy.chunkAddresses
    let after = list.chunkAddresses
    #expect(before.count == 11 && after.count == 11)
    // Only the last chunk was copied by the append.
    #expect(Array(before.dropLast()) == Array(after.dropLast()))
    #expect(before.last != after.last)
    // A removal in the middle copies its own chunk only.
    let middle = list.chunkAddresses
    list.remove(at: 5 * ChunkedList<Int>.chunkSize + 3)
    let changed = zip(middle, list.chunkAddresses).filter { $0 != $1 }.count
    #expect(changed == 1)
    #expect(copy.count == 10 * ChunkedList<Int>.chunkSize + 5 && copy.last == 10 * ChunkedList<Int>.chunkSize + 4)
  }
}

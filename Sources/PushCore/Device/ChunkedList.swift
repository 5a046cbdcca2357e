/// A list kept in chunks of about ``chunkSize`` elements, for lists that copies of a device
/// share: a copy (a checkpoint, a state handed over to the front end) shares every chunk the
/// original does not write afterwards, so the original's next append copies one chunk, not the
/// whole list. A short list is one plain array, as it was before.
///
/// Chunks have no fixed size: an insertion or removal in the middle changes one chunk (which is
/// split past twice ``chunkSize`` and dropped once empty) and moves the start indices of the
/// chunks after it; an index is found by a binary search over those starts.
struct ChunkedList<Element: Sendable>: Sendable {
  /// How many elements an append puts in one chunk.
  static var chunkSize: Int { 256 }

  /// The first chunk: the whole list while it is short, empty only when the list is.
  private var first: [Element] = []
  /// The other chunks, and the index of each one's first element.
  private var rest: [[Element]] = []
  private var restStarts: [Int] = []
  /// How many elements there are.
  private(set) var count = 0

  init() {}

  /// Where each chunk's elements are in memory, first chunk first: two lists share a chunk when
  /// they give the same address for it (for the tests).
  var chunkAddresses: [UnsafeRawPointer?] {
    guard !first.isEmpty else { return [] }
    return [first.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }]
      + rest.map { chunk in chunk.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) } }
  }

  /// The chunk of an index (0 the first, k > 0 `rest[k - 1]`) and its offset there.
  @inline(__always)
  private func locate(_ index: Int) -> (chunk: Int, offset: Int) {
    if index < first.count { return (0, index) }
    var lower = 0
    var upper = restStarts.count
    while lower < upper {
      let middle = (lower + upper) / 2
      if restStarts[middle] <= index { lower = middle + 1 } else { upper = middle }
    }
    return (lower, index - restStarts[lower - 1])
  }

  mutating func append(_ element: Element) {
    if rest.isEmpty && first.count < Self.chunkSize {
      first.append(element)
    } else if let last = rest.indices.last, rest[last].count < Self.chunkSize {
      rest[last].append(element)
    } else {
      rest.append([element])
      restStarts.append(count)
    }
    count += 1
  }

  mutating func insert(_ element: Element, at index: Int) {
    precondition(index >= 0 && index <= count, "ChunkedList.insert: index out of range")
    if index == count { return append(element) }
    let (chunk, offset) = locate(index)
    if chunk == 0 { first.insert(element, at: offset) } else { rest[chunk - 1].insert(element, at: offset) }
    for later in chunk..<restStarts.count { restStarts[later] += 1 }
    count += 1
    splitIfLarge(chunk)
  }

  @discardableResult
  mutating func remove(at index: Int) -> Element {
    precondition(index >= 0 && index < count, "ChunkedList.remove: index out of range")
    let (chunk, offset) = locate(index)
    let removed = chunk == 0 ? first.remove(at: offset) : rest[chunk - 1].remove(at: offset)
    for later in chunk..<restStarts.count { restStarts[later] -= 1 }
    count -= 1
    if chunk == 0, first.isEmpty, !rest.isEmpty {
      first = rest.removeFirst()
      restStarts.removeFirst()
    } else if chunk > 0, rest[chunk - 1].isEmpty {
      rest.remove(at: chunk - 1)
      restStarts.remove(at: chunk - 1)
    }
    return removed
  }

  /// Splits a chunk grown past twice ``chunkSize`` in two.
  private mutating func splitIfLarge(_ chunk: Int) {
    let size = chunk == 0 ? first.count : rest[chunk - 1].count
    guard size > 2 * Self.chunkSize else { return }
    let start = chunk == 0 ? 0 : restStarts[chunk - 1]
    let half = size / 2
    let upper: [Element]
    if chunk == 0 {
      upper = Array(first[half...])
      first.removeSubrange(half...)
    } else {
      upper = Array(rest[chunk - 1][half...])
      rest[chunk - 1].removeSubrange(half...)
    }
    rest.insert(upper, at: chunk)
    restStarts.insert(start + half, at: chunk)
  }
}

extension ChunkedList: RandomAccessCollection, MutableCollection {
  var startIndex: Int { 0 }
  var endIndex: Int { count }

  subscript(index: Int) -> Element {
    get {
      let (chunk, offset) = locate(index)
      return chunk == 0 ? first[offset] : rest[chunk - 1][offset]
    }
    set {
      let (chunk, offset) = locate(index)
      if chunk == 0 { first[offset] = newValue } else { rest[chunk - 1][offset] = newValue }
    }
  }

  /// Each element in order, a chunk at a time (no search per element).
  func forEachElement(_ body: (Element) throws -> Void) rethrows {
    for element in first { try body(element) }
    for chunk in rest { for element in chunk { try body(element) } }
  }
}

/// ANSI output as the hostile-text tests read it.
public enum SGR {
  /// The scalars of `text` without Pushdeck's own SGR sequences (ESC [ digits and semicolons m):
  /// whatever control is left came from somewhere else.
  public static func stripped(_ text: String) -> [Unicode.Scalar] {
    let scalars = Array(text.unicodeScalars)
    var kept: [Unicode.Scalar] = []
    kept.reserveCapacity(scalars.count)
    var index = 0
    while index < scalars.count {
      if scalars[index] == "\u{1B}", index + 1 < scalars.count, scalars[index + 1] == "[" {
        var end = index + 2
        while end < scalars.count, scalars[end] == ";" || ("0"..."9").contains(scalars[end]) { end += 1 }
        if end < scalars.count, scalars[end] == "m" {
          index = end + 1
          continue
        }
      }
      kept.append(scalars[index])
      index += 1
    }
    return kept
  }
}

import CNCursesW
import PushRender

/// Maps styles to ncurses colour pairs, creating each pair once.
///
/// Colours arrive already adapted to the session's capability. RGB colours are drawn directly
/// on direct-colour terminals, through redefined palette slots where the terminal allows it,
/// and otherwise as the nearest 256-colour index.
struct ColorAllocator {
  private struct PairKey: Hashable {
    var foreground: Int32
    var background: Int32
  }

  private let isDirect: Bool
  private let canRedefine: Bool
  private let maxPairs: Int
  private var pairs: [PairKey: Int32] = [:]
  private var slots: [Color: Int32] = [:]
  // Palette slots 16...255 are redefined for RGB colours; 0...15 keep the user's ANSI colours.
  private var nextSlot: Int32 = 16

  init(isDirect: Bool, canRedefine: Bool, maxPairs: Int) {
    self.isDirect = isDirect
    self.canRedefine = canRedefine
    self.maxPairs = maxPairs
  }

  /// The pair number for a style's colours; 0 (the terminal default) when colour is off.
  mutating func pair(for style: Style) -> Int32 {
    guard maxPairs > 1 else { return 0 }
    let key = PairKey(
      foreground: number(for: style.foreground), background: number(for: style.background))
    if key.foreground == -1 && key.background == -1 { return 0 }
    if let pair = pairs[key] { return pair }
    let pair = Int32(pairs.count + 1)
    guard Int(pair) < maxPairs else { return 0 }
    init_extended_pair(pair, key.foreground, key.background)
    pairs[key] = pair
    return pair
  }

  private mutating func number(for color: Color?) -> Int32 {
    switch color {
    case nil, .terminalDefault: return -1
    case .ansi16(let index): return Int32(index)
    case .indexed256(let index): return Int32(index)
    case .rgb(let red, let green, let blue):
      if isDirect { return Int32(red) << 16 | Int32(green) << 8 | Int32(blue) }
      if canRedefine, let color {
        if let slot = slots[color] { return slot }
        if nextSlot <= 255 {
          let slot = nextSlot
          nextSlot += 1
          func scale(_ value: UInt8) -> Int32 { Int32(value) * 1000 / 255 }
          init_extended_color(slot, scale(red), scale(green), scale(blue))
          slots[color] = slot
          return slot
        }
      }
      return Int32(Palette.nearest256(red, green, blue))
    }
  }
}

/// One value on a ``JSONTape``: a flat, pre-order record of a JSON document.
///
/// The tape never copies text. A token records where its value sits in the source bytes, and a
/// container records where its subtree ends on the tape, so a reader can skip a whole value in
/// one step. Object members are laid out as a key token (always a string) followed by the
/// value's subtree.
public struct JSONToken: Sendable, Equatable {
  /// The JSON type of a token.
  public enum Kind: UInt8, Sendable {
    case object, array, string, number, `true`, `false`, null
  }

  /// The JSON type.
  public var kind: Kind
  /// For strings: ``hasEscapes``. For numbers: ``isInteger`` and ``isNegative``.
  public var flags: UInt8
  /// Byte offset of the first byte (the quote of a string, the bracket of a container).
  public var start: UInt32
  /// Byte offset one past the last byte (past the closing quote or bracket).
  public var end: UInt32
  /// Tape index of the token after this value's subtree.
  public var next: UInt32
  /// For containers, how many members (object) or elements (array) it holds.
  public var count: UInt32

  /// A string token with at least one backslash escape.
  public static let hasEscapes: UInt8 = 1
  /// A number token with no fraction and no exponent.
  public static let isInteger: UInt8 = 1
  /// A number token with a leading minus sign.
  public static let isNegative: UInt8 = 2

  /// Whether this string token contains escapes and must be decoded to compare.
  @inlinable public var stringHasEscapes: Bool { flags & Self.hasEscapes != 0 }
}

/// A semantic part of the screen that a theme gives a style.
///
/// Widgets ask for roles and never name colours. The raw values are the keys used in theme
/// files.
public enum StyleRole: String, CaseIterable, Sendable, Codable, Comparable {
  /// The whole screen behind everything else (and the wallpaper's text colour).
  case background
  /// The top status line: carrier, signal, battery.
  case statusBar
  /// The padlock above the clock.
  case lockIcon
  /// The large lock-screen clock.
  case lockClock
  /// The date line on the lock screen.
  case lockDate
  /// The active Focus pill under the clock.
  case focusIndicator
  /// A notification card's fill.
  case card
  /// A notification card's rounded border.
  case cardBorder
  /// The app name in a card header.
  case appName
  /// The relative time and other small print on a card.
  case cardMeta
  /// A card's title line.
  case cardTitle
  /// A card's subtitle line.
  case cardSubtitle
  /// A card's body text.
  case cardBody
  /// The "Time Sensitive" label.
  case timeSensitiveLabel
  /// The edge of the cards stacked behind the front card.
  case stackEdge
  /// The "N more notifications" text on a stack.
  case stackCount
  /// A group header in Notification Center.
  case groupHeader
  /// The line naming stacks that did not fit on screen.
  case overflow
  /// The selected item.
  case selection
  /// A banner's title.
  case bannerTitle
  /// A banner's body.
  case bannerBody
  /// An action button on a card or sheet.
  case actionButton
  /// A destructive action button.
  case destructiveAction
  /// The key-hint footer.
  case footer
  /// A key cap in the footer.
  case footerKey
  /// Messages about the terminal itself, such as "Terminal too small".
  case warning

  public static func < (lhs: StyleRole, rhs: StyleRole) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// The phone's geometry in points, as docs/DECISIONS.md ("Phone mockups") lists it with sources:
/// an iPhone 15/16-class screen of 393 × 852 pt with the Dynamic Island.
public enum PhoneMetrics {
  /// The screen, in points (iPhone 15, 15 Pro, 16: 393 × 852 pt at @3x).
  public static let width = 393.0
  public static let height = 852.0
  /// The display's corner radius (UNVERIFIED: 55 pt, as measured from Apple's device frames).
  static let cornerRadius = 55.0
  /// The Dynamic Island (UNVERIFIED: 126 × 37.33 pt, 11 pt from the top).
  static let islandWidth = 126.0
  static let islandHeight = 37.33
  static let islandTop = 11.0
  /// The compact presentation of a Live Activity: the island widened by a leading and a
  /// trailing area (UNVERIFIED: 40 pt each, so the status bar's time and signal stay clear).
  static let compactSide = 40.0
  /// Notifications on the lock screen and in Notification Center: 14 pt margins (WWDC23 10194,
  /// "Design dynamic Live Activities": the system adds 14 pt margins to all notifications).
  static let listMargin = 14.0
  /// Banners on an unlocked phone (UNVERIFIED: 8 pt margins, 8 pt below the island).
  static let bannerMargin = 8.0
  static let bannerTop = islandTop + islandHeight + 8
  /// Platter: 14 pt padding, 23 pt corner radius, 38 pt app icon (UNVERIFIED, from iOS 17
  /// screenshots at @3x).
  static let platterPadding = 14.0
  static let platterRadius = 23.0
  static let iconSize = 38.0
  static let iconGap = 10.0
  /// Gap between platters in the list (UNVERIFIED: 8 pt).
  static let listGap = 8.0
  /// Text: 15 pt title (semibold), subtitle and body (regular) on 20 pt lines; 13 pt time and
  /// labels (UIFont text styles "subheadline"/"footnote" sizes; the weights UNVERIFIED).
  static let textSize = 15.0
  static let lineHeight = 20.0
  static let smallSize = 13.0
  /// iOS's line limits: one line of title and one of subtitle; the body up to 4 lines on the
  /// lock screen, in banners and in Notification Center (UNVERIFIED: 4, from iOS 17 screenshots).
  static let bodyLines = 4
  /// Lock screen: date (21 pt semibold) and clock (96 pt bold) baselines (UNVERIFIED).
  static let dateBaseline = 118.0
  static let clockBaseline = 212.0
  static let dateSize = 21.0
  static let clockSize = 96.0
  /// Flashlight and camera buttons: 50 pt circles (UNVERIFIED), centred 72 pt from the sides
  /// and 80 pt above the bottom edge; the home indicator 134 × 5 pt, 8 pt above the bottom.
  static let quickButtonRadius = 25.0
  static let quickButtonInset = 72.0
  static let quickButtonY = height - 80
  /// The lowest point notifications reach on the lock screen (above the quick buttons).
  static let listBottom = quickButtonY - quickButtonRadius - 16
  /// Live Activities on the lock screen: at least 84 pt tall, at most 160 (the system truncates
  /// taller ones: ActivityKit, "Displaying live data with Live Activities").
  static let liveActivityMinHeight = 84.0
  static let liveActivityMaxHeight = 160.0
}

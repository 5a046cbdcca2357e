import PushCore
import PushRender
import PushUI

/// What an iPhone shows for an ``AppState``: the same model the terminal screens draw, drawn a
/// second way, as an SVG picture of a 393 × 852 pt phone instead of terminal cells.
///
/// - Locked (the lock screen): wallpaper, padlock, date and large clock, the Focus, then Live
///   Activities, the Scheduled Summary card and the notification stacks, anchored at the bottom
///   above the flashlight and camera buttons.
/// - Unlocked (the lock screen of the terminal, which is the Home Screen on a phone): app icons
///   with their badges, the banner on screen, a Live Activity compact in the Dynamic Island.
/// - Notification Center (and an opened notification): every stack in rank order.
public struct PhoneMockup: Sendable {
  /// What the phone shows.
  public var state: AppState
  /// The theme: its wallpaper and accent colours.
  public var theme: Theme

  /// Creates the mockup of a state.
  public init(state: AppState, theme: Theme) {
    self.state = state
    self.theme = theme
  }

  /// What the picture shows.
  public enum Surface: String, Sendable {
    case lockScreen = "lock-screen"
    case homeScreen = "home-screen"
    case notificationCenter = "notification-center"
  }

  /// The surface for the state: Notification Center when the terminal shows it (or an opened
  /// notification), else the lock screen when locked and the Home Screen when not.
  public var surface: Surface {
    if state.screen != .lock { return .notificationCenter }
    return state.device.isLocked ? .lockScreen : .homeScreen
  }

  /// A whole SVG document of the phone, 393 × 852 pt.
  public func svgDocument(title: String? = nil) -> String {
    let w = SVGText.number(PhoneMetrics.width)
    let h = SVGText.number(PhoneMetrics.height)
    var svg =
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(w)\" height=\"\(h)\" viewBox=\"0 0 \(w) \(h)\""
      + " font-family=\"\(SVGText.fontStack)\" data-surface=\"\(surface.rawValue)\">"
    if let title { svg += "<title>\(SVGText.escape(title))</title>" }
    svg += body(idPrefix: "p-")
    return svg + "</svg>\n"
  }

  /// The phone's elements in its own coordinates (0…393 × 0…852), for a document or a sheet.
  public func body(idPrefix: String) -> String {
    var b = SVGBuilder(idPrefix: idPrefix)
    let palette = Palette(theme: theme)
    let m = PhoneMetrics.self
    b.raw(
      "<defs><linearGradient id=\"\(b.id("wall"))\" x1=\"0\" y1=\"0\" x2=\"0\" y2=\"1\">"
        + "<stop offset=\"0\" stop-color=\"\(palette.wallpaperTop)\"/><stop offset=\"1\" stop-color=\"\(palette.wallpaperBottom)\"/>"
        + "</linearGradient><clipPath id=\"\(b.id("screen"))\"><rect width=\"\(SVGText.number(m.width))\" height=\"\(SVGText.number(m.height))\" rx=\"\(SVGText.number(m.cornerRadius))\"/></clipPath></defs>"
    )
    b.rect(x: 0, y: 0, width: m.width, height: m.height, radius: m.cornerRadius, fill: "#000000")
    b.group("clip-path=\"url(#\(b.id("screen")))\"") { b in
      b.rect(x: 0, y: 0, width: m.width, height: m.height, fill: "url(#\(b.id("wall")))")
      var drawer = Drawer(state: state, palette: palette)
      switch surface {
      case .lockScreen: drawer.lockScreen(&b)
      case .homeScreen: drawer.homeScreen(&b)
      case .notificationCenter: drawer.notificationCenter(&b)
      }
      drawer.statusBar(&b, surface: surface)
      drawer.dynamicIsland(&b, compactActivity: surface != .lockScreen)
      b.rect(x: m.width / 2 - 67, y: m.height - 13, width: 134, height: 5, radius: 2.5, fill: palette.onWallpaper)
    }
    // The bezel: a thin dark rim on the screen's edge.
    b.rect(
      x: 1.5, y: 1.5, width: m.width - 3, height: m.height - 3, radius: m.cornerRadius - 1.5, fill: "none",
      stroke: "#2C2C2E", strokeWidth: 3)
    return b.out
  }
}

/// The colours of a mockup, from the theme.
struct Palette {
  var wallpaperTop: String
  var wallpaperBottom: String
  var isDark: Bool
  var onWallpaper: String
  var platter: String
  var platterOpacity: Double
  var ink: String
  var secondaryInk: String
  var timeSensitive: String
  var critical = "#FF453A"
  var focus: String
  var link: String

  init(theme: Theme) {
    let background = theme[.background].background ?? .rgb(10, 10, 20)
    let top = theme.wallpaper?.top ?? background
    let bottom = theme.wallpaper?.bottom ?? background
    wallpaperTop = top.hexString ?? "#1E1B40"
    wallpaperBottom = bottom.hexString ?? "#0A0A14"
    isDark = Self.luminance(bottom) < 0.5
    onWallpaper = theme[.lockClock].foreground?.hexString ?? (isDark ? "#FFFFFF" : "#000000")
    platter = isDark ? "#2C2C30" : "#F2F2F7"
    platterOpacity = isDark ? 0.78 : 0.82
    ink = isDark ? "#FFFFFF" : "#000000"
    secondaryInk = isDark ? "#AEAEB2" : "#5B5B62"
    timeSensitive = Self.accent(theme[.timeSensitiveLabel])?.hexString ?? "#FF9F0A"
    focus = Self.accent(theme[.focusIndicator])?.hexString ?? "#BF5AF2"
    link = Self.accent(theme[.actionButton])?.hexString ?? "#0A84FF"
  }

  /// The colour a role lends the picture's text. A role the terminal draws as a chip (its
  /// foreground on a background of its own, as high-contrast's black on magenta Focus and
  /// black on yellow Time Sensitive) lends its background: its foreground is meant for the
  /// chip, and on the picture's dark pill and platter it was black on black (found by an
  /// exploratory test: `render --style phone --theme high-contrast` showed no Focus name and
  /// no TIME SENSITIVE label).
  static func accent(_ style: Style) -> Color? {
    style.background ?? style.foreground
  }

  static func luminance(_ color: Color) -> Double {
    guard let (r, g, b) = color.rgb else { return 0 }
    return (0.2126 * Double(r) + 0.7152 * Double(g) + 0.0722 * Double(b)) / 255
  }
}

/// One notification platter laid out: what it shows and how tall it is.
struct Platter {
  var app: AppInfo
  var title: String
  var subtitle: String?
  var bodyLines: [String]
  var time: String
  var label: (text: String, color: String)?
  var behind: Int
  /// The line under the cards behind, as the terminal words it (the category's
  /// `summaryFormat`); "N more notifications" when nil.
  var stackSummary: String? = nil
  /// A communication notification's sender, as initials: drawn in place of the app's icon,
  /// with the icon small at its corner, as iOS draws the sender's avatar.
  var avatar: String? = nil
  var buttons: [String]
  /// A line at the platter's foot, inside it: a banner's "N more queued".
  var footer: String?
  var height: Double
  var width: Double
  var textWidth: Double

  static func layout(
    notification: PushNotification, app: AppInfo, now: SimInstant, datedAt: SimInstant? = nil, width: Double,
    behind: Int, label: (text: String, color: String)?, buttons: [String] = [], footer: String? = nil,
    maxBodyLines: Int = PhoneMetrics.bodyLines
  ) -> Platter {
    let m = PhoneMetrics.self
    let textWidth = width - m.platterPadding * 2 - m.iconSize - m.iconGap
    // Dated when it was delivered: a notification held for the Scheduled Summary at the
    // summary's delivery, as the terminal dates it (docs/DECISIONS.md, "Relative times").
    let time = RelativeTime.describe(datedAt ?? notification.receivedAt, now: now)
    let timeWidth = TextMetrics.width(time, size: m.smallSize) + 12
    // Without a title iOS shows the app's name in its place.
    let rawTitle = SVGText.clean(notification.title ?? "")
    let titleText = rawTitle.isEmpty ? SVGText.clean(app.displayName) : rawTitle
    let title = TextMetrics.truncate(titleText, size: m.textSize, maxWidth: textWidth - timeWidth, bold: true)
    let subtitle = notification.subtitle.map(SVGText.clean).flatMap { $0.isEmpty ? nil : $0 }.map {
      TextMetrics.truncate($0, size: m.textSize, maxWidth: textWidth, bold: true)
    }
    let body = SVGText.clean(notification.body ?? "")
    var lines = TextMetrics.wrap(body, size: m.textSize, maxWidth: textWidth, maxLines: maxBodyLines)
    if lines.isEmpty && rawTitle.isEmpty && subtitle == nil { lines = ["Notification"] }
    var height = m.platterPadding * 2 + m.lineHeight * Double(1 + (subtitle == nil ? 0 : 1) + lines.count) - 2
    if label != nil { height += 16 }
    if !buttons.isEmpty { height += 42 }
    height = max(height, m.iconSize + m.platterPadding * 2)
    if footer != nil { height += footerHeight }
    return Platter(
      app: app, title: title, subtitle: subtitle, bodyLines: lines, time: time, label: label, behind: behind,
      buttons: buttons, footer: footer, height: height, width: width, textWidth: textWidth)
  }

  /// What a footer adds to the platter: a 12 pt line below everything else.
  static let footerHeight = 18.0

  /// The height with the cards behind it.
  var totalHeight: Double { height + (behind > 0 ? 18 : 0) + (behind > 1 ? 8 : 0) }

  func draw(_ b: inout SVGBuilder, x: Double, y: Double, palette: Palette, fill: String? = nil, opacity: Double? = nil)
  {
    let m = PhoneMetrics.self
    let n = SVGText.number
    let fill = fill ?? palette.platter
    let opacity = opacity ?? palette.platterOpacity
    // The cards behind: narrower, fainter, peeking out below (only their part below the front
    // card is drawn, so nothing shows through the translucent front card).
    func peek(inset: Double, from top: Double, to bottom: Double, fade: Double) {
      let left = x + inset
      let right = x + width - inset
      let radius = min(14, (bottom - top))
      b.raw(
        "<path d=\"M\(n(left)) \(n(top)) H\(n(right)) V\(n(bottom - radius)) A\(n(radius)) \(n(radius)) 0 0 1 \(n(right - radius)) \(n(bottom))"
          + " H\(n(left + radius)) A\(n(radius)) \(n(radius)) 0 0 1 \(n(left)) \(n(bottom - radius)) Z\" fill=\"\(fill)\" fill-opacity=\"\(n(opacity * fade))\"/>"
      )
    }
    if behind > 0 {
      peek(inset: 10, from: y + height - 2, to: y + height + 18, fade: 0.75)
      if behind > 1 { peek(inset: 20, from: y + height + 18, to: y + height + 26, fade: 0.5) }
      let noun = behind == 1 ? "notification" : "notifications"
      b.text(
        SVGText.clean(stackSummary ?? "\(behind) more \(noun)"), x: x + width / 2, y: y + height + 13, size: 11,
        weight: 500,
        fill: palette.secondaryInk, anchor: .middle, role: "stack-count")
    }
    b.rect(x: x, y: y, width: width, height: height, radius: m.platterRadius, fill: fill, opacity: opacity)
    if let avatar {
      let size = m.iconSize
      let left = x + m.platterPadding
      let top = y + m.platterPadding
      b.rect(
        x: left, y: top, width: size, height: size, radius: size / 2, fill: Icon.color(for: avatar, lightness: 0.55))
      b.text(
        SVGText.clean(avatar), x: left + size / 2, y: top + size * 0.66, size: size * 0.42, weight: 600,
        fill: "#FFFFFF", anchor: .middle, role: "avatar")
      Icon.draw(&b, app: app, x: left + size * 0.58, y: top + size * 0.58, size: size * 0.5)
    } else {
      Icon.draw(&b, app: app, x: x + m.platterPadding, y: y + m.platterPadding, size: m.iconSize)
    }
    let textX = x + m.platterPadding + m.iconSize + m.iconGap
    var baseline = y + m.platterPadding + 14
    if let label {
      b.text(
        label.text.uppercased(), x: textX, y: baseline - 2, size: 11, weight: 600, fill: label.color,
        letterSpacing: 0.3, role: "label")
      baseline += 16
    }
    b.text(title, x: textX, y: baseline, size: m.textSize, weight: 600, fill: palette.ink, role: "title")
    b.text(
      time, x: x + width - m.platterPadding, y: baseline, size: m.smallSize, fill: palette.secondaryInk,
      anchor: .end, role: "time")
    if let subtitle {
      baseline += m.lineHeight
      b.text(subtitle, x: textX, y: baseline, size: m.textSize, weight: 600, fill: palette.ink, role: "subtitle")
    }
    for line in bodyLines {
      baseline += m.lineHeight
      b.text(line, x: textX, y: baseline, size: m.textSize, fill: palette.ink, role: "body")
    }
    if let footer {
      // Inside the platter, under its last line (or its icon), so it is drawn on the banner
      // and never over what the banner sits on.
      b.text(
        footer, x: textX, y: y + height - m.platterPadding - 2, size: 12, weight: 500, fill: palette.secondaryInk,
        role: "banner-queue")
    }
    if !buttons.isEmpty {
      let top = baseline + 12
      let buttonWidth = (textWidth - 8) / Double(buttons.count)
      for (index, title) in buttons.enumerated() {
        let left = textX + Double(index) * (buttonWidth + 8)
        b.rect(x: left, y: top, width: buttonWidth, height: 30, radius: 15, fill: palette.ink, opacity: 0.12)
        b.text(
          title, x: left + buttonWidth / 2, y: top + 20, size: m.smallSize, weight: 600, fill: palette.link,
          anchor: .middle, role: "button")
      }
    }
  }
}

/// App icon tiles: the profile's emoji on a tile coloured from the bundle id, or a monogram.
enum Icon {
  static func color(for bundleID: String, lightness: Double = 0.48) -> String {
    var hash: UInt32 = 2_166_136_261
    for byte in bundleID.utf8 {
      hash ^= UInt32(byte)
      hash = hash &* 16_777_619
    }
    let hue = Double(hash % 360)
    return hsl(hue, 0.55, lightness)
  }

  static func hsl(_ hue: Double, _ saturation: Double, _ lightness: Double) -> String {
    let c = (1 - abs(2 * lightness - 1)) * saturation
    let h = hue / 60
    let x = c * (1 - abs(h.truncatingRemainder(dividingBy: 2) - 1))
    let (r, g, b): (Double, Double, Double) =
      switch Int(h) {
      case 0: (c, x, 0)
      case 1: (x, c, 0)
      case 2: (0, c, x)
      case 3: (0, x, c)
      case 4: (x, 0, c)
      default: (c, 0, x)
      }
    let m = lightness - c / 2
    func hex(_ v: Double) -> String {
      let value = UInt8(max(0, min(255, ((v + m) * 255).rounded())))
      let text = String(value, radix: 16)
      return text.count == 1 ? "0" + text : text
    }
    return "#" + hex(r) + hex(g) + hex(b)
  }

  /// The glyph an icon shows: the profile's emoji, or nil for a monogram (an app inferred from
  /// its bundle id has the generic bell).
  static func glyph(_ app: AppInfo) -> String? {
    let glyph = SVGText.clean(app.iconGlyph).trimmedSpaces()
    guard let first = glyph.first, glyph != "🔔" else { return nil }
    return String(first)
  }

  static func monogram(_ app: AppInfo) -> String {
    let name = SVGText.clean(app.displayName)
    return name.first(where: { $0.isLetter || $0.isNumber }).map { String($0).uppercased() } ?? "•"
  }

  static func draw(_ b: inout SVGBuilder, app: AppInfo, x: Double, y: Double, size: Double) {
    let radius = size * 0.225
    if let glyph = glyph(app) {
      b.rect(x: x, y: y, width: size, height: size, radius: radius, fill: color(for: app.bundleID, lightness: 0.86))
      b.text(
        glyph, x: x + size / 2, y: y + size * 0.72, size: size * 0.6, fill: "#000000", anchor: .middle, role: "icon")
    } else {
      b.rect(x: x, y: y, width: size, height: size, radius: radius, fill: color(for: app.bundleID))
      b.text(
        monogram(app), x: x + size / 2, y: y + size * 0.69, size: size * 0.5, weight: 700, fill: "#FFFFFF",
        anchor: .middle, role: "icon")
    }
  }
}

extension String {
  /// The string without leading and trailing spaces.
  func trimmedSpaces() -> String {
    var text = Substring(self)
    while text.first == " " { text = text.dropFirst() }
    while text.last == " " { text = text.dropLast() }
    return String(text)
  }
}

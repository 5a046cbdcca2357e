import PushWire

extension Color {
  /// The colour as 24-bit RGB, using the xterm palette for indexed colours; nil for the
  /// terminal's default.
  public var rgb: (red: UInt8, green: UInt8, blue: UInt8)? {
    switch self {
    case .terminalDefault:
      return nil
    case .rgb(let red, let green, let blue):
      return (red, green, blue)
    case .ansi16(let index):
      return Color.indexed256(index).rgb
    case .indexed256(let index):
      let value = Int(index)
      if value < 16 {
        let basic: [(UInt8, UInt8, UInt8)] = [
          (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205),
          (229, 229, 229), (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255),
          (255, 0, 255), (0, 255, 255), (255, 255, 255),
        ]
        return basic[value]
      }
      if value < 232 {
        let cube = value - 16
        let levels: [UInt8] = [0, 95, 135, 175, 215, 255]
        return (levels[cube / 36], levels[(cube / 6) % 6], levels[cube % 6])
      }
      let gray = UInt8(8 + (value - 232) * 10)
      return (gray, gray, gray)
    }
  }

  /// `#rrggbb`, or nil for the terminal's default.
  public var hexString: String? {
    guard let (red, green, blue) = rgb else { return nil }
    func hex(_ value: UInt8) -> String {
      let text = String(value, radix: 16)
      return text.count == 1 ? "0" + text : text
    }
    return "#" + hex(red) + hex(green) + hex(blue)
  }
}

extension CellGrid {
  /// The frame as text with ANSI SGR colour sequences, as a terminal would show it.
  ///
  /// Cell text is already normalised (no control characters), so the only escape sequences in
  /// the output are the ones written here. Each row ends with a reset.
  public func ansiText() -> String {
    var text = ""
    for row in 0..<height {
      var current: Style?
      for column in 0..<width {
        let cell = self[column, row]
        if case .continuation = cell.content { continue }
        if cell.style != current {
          text += Self.sgr(cell.style)
          current = cell.style
        }
        switch cell.content {
        case .glyph(let glyph, _): text += glyph
        case .blank: text += " "
        case .continuation: break
        }
      }
      text += "\u{1B}[0m\n"
    }
    return text
  }

  static func sgr(_ style: Style) -> String {
    var codes = ["0"]
    if style.isBold { codes.append("1") }
    if style.isDim { codes.append("2") }
    if style.isItalic { codes.append("3") }
    if style.isUnderlined { codes.append("4") }
    if style.isReversed { codes.append("7") }
    func color(_ color: Color?, foreground: Bool) -> String? {
      switch color {
      case nil, .terminalDefault?: return nil
      case .ansi16(let index)?:
        let base = foreground ? (index < 8 ? 30 : 82) : (index < 8 ? 40 : 92)
        return String(base + Int(index))
      case .indexed256(let index)?: return "\(foreground ? 38 : 48);5;\(index)"
      case .rgb(let red, let green, let blue)?: return "\(foreground ? 38 : 48);2;\(red);\(green);\(blue)"
      }
    }
    if let code = color(style.foreground, foreground: true) { codes.append(code) }
    if let code = color(style.background, foreground: false) { codes.append(code) }
    return "\u{1B}[" + codes.joined(separator: ";") + "m"
  }

  /// The frame as a standalone SVG picture: each cell a rectangle in its background colour and
  /// its glyph in a monospace font, in the theme's colours.
  ///
  /// - Parameters:
  ///   - defaultForeground: the colour of text whose style leaves it to the terminal.
  ///   - defaultBackground: the page colour.
  ///   - title: the picture's title (escaped).
  public func svg(defaultForeground: Color, defaultBackground: Color, title: String = "Pushdeck") -> String {
    let cellWidth = 10.0
    let cellHeight = 20.0
    let fontSize = 16.0
    let pictureWidth = Double(width) * cellWidth
    let pictureHeight = Double(height) * cellHeight
    func number(_ value: Double) -> String {
      let hundredths = Int((value * 100).rounded())
      let whole = hundredths / 100
      let fraction = hundredths % 100
      if fraction == 0 { return String(whole) }
      return "\(whole)." + (fraction % 10 == 0 ? String(fraction / 10) : (fraction < 10 ? "0" : "") + String(fraction))
    }
    let page = defaultBackground.hexString ?? "#000000"
    let ink = defaultForeground.hexString ?? "#ffffff"
    var svg = """
      <svg xmlns="http://www.w3.org/2000/svg" width="\(number(pictureWidth))" height="\(number(pictureHeight))" \
      viewBox="0 0 \(number(pictureWidth)) \(number(pictureHeight))" font-family="'DejaVu Sans Mono', 'Menlo', 'Consolas', monospace" \
      font-size="\(number(fontSize))" shape-rendering="crispEdges">
      <title>\(Self.xmlEscaped(title))</title>
      <rect width="100%" height="100%" fill="\(page)"/>

      """
    for row in 0..<height {
      // Background runs first, so glyphs are never covered.
      var column = 0
      while column < self.width {
        let cell = self[column, row]
        let background = (cell.style.isReversed ? cell.style.foreground : cell.style.background)?.hexString
        var end = column
        while end + 1 < self.width {
          let next = self[end + 1, row].style
          let nextBackground = (next.isReversed ? next.foreground : next.background)?.hexString
          if nextBackground != background { break }
          end += 1
        }
        if let background, background != page {
          svg += "<rect x=\"\(number(Double(column) * cellWidth))\" y=\"\(number(Double(row) * cellHeight))\" "
          svg +=
            "width=\"\(number(Double(end - column + 1) * cellWidth))\" height=\"\(number(cellHeight))\" fill=\"\(background)\"/>\n"
        }
        column = end + 1
      }
      for column in 0..<self.width {
        let cell = self[column, row]
        guard case .glyph(let glyph, let columns) = cell.content, glyph != " " else { continue }
        let foreground =
          (cell.style.isReversed ? cell.style.background : cell.style.foreground)?.hexString ?? ink
        var attributes = "fill=\"\(foreground)\""
        if cell.style.isBold { attributes += " font-weight=\"bold\"" }
        if cell.style.isItalic { attributes += " font-style=\"italic\"" }
        if cell.style.isDim { attributes += " fill-opacity=\"0.6\"" }
        if cell.style.isUnderlined { attributes += " text-decoration=\"underline\"" }
        let x = Double(column) * cellWidth
        // Block elements are drawn as rectangles so block-digit clocks have no seams.
        if let (left, top, right, bottom) = Self.blockFraction(glyph) {
          svg +=
            "<rect x=\"\(number(x + left * cellWidth))\" y=\"\(number(Double(row) * cellHeight + top * cellHeight))\" "
          svg +=
            "width=\"\(number((right - left) * cellWidth))\" height=\"\(number((bottom - top) * cellHeight))\" fill=\"\(foreground)\"/>\n"
          continue
        }
        // Box-drawing lines are strokes from the cell's centre to its edges, so card borders join
        // up whatever the font's line height.
        if let arms = Self.boxArms(glyph) {
          svg += Self.boxPath(arms, x: x, y: Double(row) * cellHeight, width: cellWidth, height: cellHeight)
          svg += " stroke=\"\(foreground)\"\(cell.style.isDim ? " stroke-opacity=\"0.6\"" : "")/>\n"
          continue
        }
        let y = Double(row) * cellHeight + cellHeight * 0.75
        // Each glyph is pinned to its cell (textLength) so wide glyphs take exactly two columns.
        svg +=
          "<text x=\"\(number(x))\" y=\"\(number(y))\" \(attributes) textLength=\"\(number(Double(columns) * cellWidth))\" "
        svg += "lengthAdjust=\"spacingAndGlyphs\">\(Self.xmlEscaped(glyph))</text>\n"
      }
    }
    return svg + "</svg>\n"
  }

  /// The part of a cell a block element fills, as fractions (left, top, right, bottom).
  static func blockFraction(_ glyph: String) -> (Double, Double, Double, Double)? {
    switch glyph {
    case "█": (0, 0, 1, 1)
    case "▀": (0, 0, 1, 0.5)
    case "▄": (0, 0.5, 1, 1)
    case "▌": (0, 0, 0.5, 1)
    case "▐": (0.5, 0, 1, 1)
    default: nil
    }
  }

  /// Which edges a light box-drawing character reaches (left, right, up, down), and whether its
  /// corner is rounded; nil for any other glyph.
  static func boxArms(_ glyph: String) -> (left: Bool, right: Bool, up: Bool, down: Bool, rounded: Bool)? {
    switch glyph {
    case "─": (true, true, false, false, false)
    case "│": (false, false, true, true, false)
    case "┌": (false, true, false, true, false)
    case "┐": (true, false, false, true, false)
    case "└": (false, true, true, false, false)
    case "┘": (true, false, true, false, false)
    case "├": (false, true, true, true, false)
    case "┤": (true, false, true, true, false)
    case "┬": (true, true, false, true, false)
    case "┴": (true, true, true, false, false)
    case "┼": (true, true, true, true, false)
    case "╭": (false, true, false, true, true)
    case "╮": (true, false, false, true, true)
    case "╰": (false, true, true, false, true)
    case "╯": (true, false, true, false, true)
    default: nil
    }
  }

  /// An SVG path (without its stroke, and unclosed) for a box-drawing cell.
  static func boxPath(
    _ arms: (left: Bool, right: Bool, up: Bool, down: Bool, rounded: Bool), x: Double, y: Double, width: Double,
    height: Double
  ) -> String {
    // Half-pixel centres keep a one-pixel stroke crisp.
    let centerX = (x + width / 2).rounded(.down) + 0.5
    let centerY = (y + height / 2).rounded(.down) + 0.5
    func text(_ value: Double) -> String { value == value.rounded() ? String(Int(value)) : String(value) }
    func point(_ px: Double, _ py: Double) -> String { text(px) + " " + text(py) }
    var data: [String] = []
    if arms.rounded {
      // One horizontal and one vertical arm, joined by a quarter curve around the centre.
      let horizontal = point(arms.left ? x : x + width, centerY)
      let vertical = point(centerX, arms.up ? y : y + height)
      data.append("M" + horizontal + " Q" + point(centerX, centerY) + " " + vertical)
    } else {
      if arms.left || arms.right {
        data.append("M" + point(arms.left ? x : centerX, centerY) + " H" + text(arms.right ? x + width : centerX))
      }
      if arms.up || arms.down {
        data.append("M" + point(centerX, arms.up ? y : centerY) + " V" + text(arms.down ? y + height : centerY))
      }
    }
    return "<path d=\"\(data.joined(separator: " "))\" fill=\"none\" stroke-width=\"1\""
  }

  /// Text escaped for the SVG: drawn on one line, so line breaks become spaces (the one XML
  /// escaper, ``XMLText``).
  public static func xmlEscaped(_ text: String) -> String { XMLText.escaped(text, .drawnText) }
}

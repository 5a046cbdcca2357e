/// A sheet of phone mockups: a storyboard (a frame per key moment) or devices side by side
/// (a row per device), as one SVG or one offline HTML file that steps through the moments.
public struct Sheet: Sendable {
  /// One phone on the sheet with what happened to it.
  public struct Cell: Sendable {
    public var phone: PhoneMockup
    /// explain's one-line outcome (or what changed), under the phone.
    public var caption: String

    public init(phone: PhoneMockup, caption: String) {
      self.phone = phone
      self.caption = caption
    }
  }

  /// One moment: its heading (time and what happened) and a cell per device.
  public struct Moment: Sendable {
    public var heading: String
    public var cells: [Cell]

    public init(heading: String, cells: [Cell]) {
      self.heading = heading
      self.cells = cells
    }
  }

  /// The sheet's title (the scenario's).
  public var title: String
  /// The devices' names, one per cell of each moment (one name: no device labels).
  public var devices: [String]
  public var moments: [Moment]

  public init(title: String, devices: [String], moments: [Moment]) {
    self.title = title
    self.devices = devices
    self.moments = moments
  }

  static let gutter = 32.0
  static let headingHeight = 40.0
  static let captionSize = 14.0
  static let captionLines = 4
  static let cellWidth = PhoneMetrics.width + gutter
  static let cellHeight = headingHeight + PhoneMetrics.height + 14 + Double(captionLines) * 19 + 20
  static let titleHeight = 72.0
  static let rowLabelHeight = 44.0
  /// Moments per row when the sheet shows one device (1 to 12).
  public var momentsPerRow = 6 {
    didSet { momentsPerRow = min(max(momentsPerRow, 1), 12) }
  }

  /// How many phones the sheet holds.
  public var frameCount: Int { moments.reduce(0) { $0 + $1.cells.count } }

  /// The grid: rows of (moment, cell) positions, with the row's device label when comparing.
  private var grid: [(label: String?, cells: [(moment: Int, cell: Int)])] {
    if devices.count > 1 {
      return devices.indices.map { device in
        (devices[device], moments.indices.filter { device < moments[$0].cells.count }.map { ($0, device) })
      }
    }
    var rows: [(label: String?, cells: [(moment: Int, cell: Int)])] = []
    var start = 0
    while start < moments.count {
      let end = min(moments.count, start + momentsPerRow)
      rows.append((nil, (start..<end).flatMap { moment in moments[moment].cells.indices.map { (moment, $0) } }))
      start = end
    }
    return rows
  }

  /// The sheet as one SVG document: text stays text, each phone a nested 393 × 852 `<svg>`.
  public func svg() -> String {
    let rows = grid
    let columns = rows.map(\.cells.count).max() ?? 0
    let width = Self.gutter + Double(max(columns, 1)) * Self.cellWidth
    let labelHeight = devices.count > 1 ? Self.rowLabelHeight : 0
    let height = Self.titleHeight + Double(rows.count) * (labelHeight + Self.cellHeight)
    var b = SVGBuilder(idPrefix: "")
    let n = SVGText.number
    b.raw(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(n(width))\" height=\"\(n(height))\" viewBox=\"0 0 \(n(width)) \(n(height))\""
        + " font-family=\"\(SVGText.fontStack)\" data-frames=\"\(frameCount)\">")
    b.raw("<title>\(SVGText.escape(title))</title>")
    b.rect(x: 0, y: 0, width: width, height: height, fill: "#F2F2F7")
    b.text(
      TextMetrics.truncate(SVGText.clean(title), size: 28, maxWidth: width - Self.gutter * 2, bold: true),
      x: Self.gutter, y: 48, size: 28, weight: 700, fill: "#1C1C1E", role: "sheet-title")
    var y = Self.titleHeight
    var index = 0
    for row in rows {
      if let label = row.label {
        b.text(
          TextMetrics.truncate(SVGText.clean(label), size: 22, maxWidth: width - Self.gutter * 2, bold: true),
          x: Self.gutter, y: y + 30, size: 22, weight: 700, fill: "#1C1C1E", role: "device")
        y += labelHeight
      }
      for (column, position) in row.cells.enumerated() {
        let moment = moments[position.moment]
        let cell = moment.cells[position.cell]
        let x = Self.gutter + Double(column) * Self.cellWidth
        drawCell(&b, cell: cell, heading: moment.heading, x: x, y: y, index: index)
        index += 1
      }
      y += Self.cellHeight
    }
    return b.out + "</svg>\n"
  }

  private func drawCell(_ b: inout SVGBuilder, cell: Cell, heading: String, x: Double, y: Double, index: Int) {
    let n = SVGText.number
    let width = PhoneMetrics.width
    b.text(
      TextMetrics.truncate(SVGText.clean(heading), size: 16, maxWidth: width, bold: true), x: x, y: y + 26, size: 16,
      weight: 600, fill: "#1C1C1E", role: "heading")
    b.raw(
      "<svg x=\"\(n(x))\" y=\"\(n(y + Self.headingHeight))\" width=\"\(n(width))\" height=\"\(n(PhoneMetrics.height))\""
        + " viewBox=\"0 0 \(n(width)) \(n(PhoneMetrics.height))\" data-frame=\"\(index + 1)\">")
    b.raw(cell.phone.body(idPrefix: "f\(index + 1)-"))
    b.raw("</svg>")
    var baseline = y + Self.headingHeight + PhoneMetrics.height + 14 + 16
    for line in TextMetrics.wrap(
      SVGText.clean(cell.caption), size: Self.captionSize, maxWidth: width, maxLines: Self.captionLines)
    {
      b.text(line, x: x, y: baseline, size: Self.captionSize, fill: "#3A3A3C", role: "caption")
      baseline += 19
    }
  }

  /// The sheet as one offline HTML file: a moment at a time (every device side by side),
  /// stepped with the arrow keys (or Home and End); nothing is loaded from anywhere.
  public func html() -> String {
    var html = """
      <!doctype html>
      <html lang="en">
      <head>
      <meta charset="utf-8">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <title>\(SVGText.escape(title))</title>
      <style>
      body { margin: 0; background: #f2f2f7; color: #1c1c1e; font-family: \(SVGText.fontStack); }
      header { padding: 16px 32px 0; }
      h1 { font-size: 24px; margin: 0 0 4px; }
      .hint { color: #6e6e73; margin: 0; font-size: 14px; }
      .moment { display: none; padding: 16px 32px 32px; }
      .moment.current { display: block; }
      .moment h2 { font-size: 18px; margin: 8px 0 16px; }
      .devices { display: flex; gap: 32px; align-items: flex-start; flex-wrap: wrap; }
      figure { margin: 0; width: 393px; }
      figcaption { font-size: 14px; color: #3a3a3c; margin-top: 12px; }
      figcaption b { display: block; color: #1c1c1e; margin-bottom: 4px; }
      </style>
      </head>
      <body>
      <header><h1>\(SVGText.escape(title))</h1>
      <p class="hint"><span id="position">1 / \(moments.count)</span> · ← → step through the moments</p></header>

      """
    var index = 0
    for (momentIndex, moment) in moments.enumerated() {
      html +=
        "<section class=\"moment\(momentIndex == 0 ? " current" : "")\" data-moment=\"\(momentIndex + 1)\">"
        + "<h2>\(SVGText.escape(moment.heading))</h2><div class=\"devices\">\n"
      for (cellIndex, cell) in moment.cells.enumerated() {
        index += 1
        let n = SVGText.number
        html +=
          "<figure><svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(n(PhoneMetrics.width))\" height=\"\(n(PhoneMetrics.height))\""
          + " viewBox=\"0 0 \(n(PhoneMetrics.width)) \(n(PhoneMetrics.height))\" font-family=\"\(SVGText.fontStack)\" data-frame=\"\(index)\">"
          + cell.phone.body(idPrefix: "f\(index)-") + "</svg><figcaption>"
        if devices.count > 1, cellIndex < devices.count { html += "<b>\(SVGText.escape(devices[cellIndex]))</b>" }
        html += SVGText.escape(cell.caption) + "</figcaption></figure>\n"
      }
      html += "</div></section>\n"
    }
    html += """
      <script>
      const moments = Array.from(document.querySelectorAll('.moment'));
      let current = 0;
      function show(next) {
        current = Math.max(0, Math.min(moments.length - 1, next));
        moments.forEach((moment, i) => moment.classList.toggle('current', i === current));
        document.getElementById('position').textContent = (current + 1) + ' / ' + moments.length;
      }
      document.addEventListener('keydown', (event) => {
        if (event.key === 'ArrowRight' || event.key === 'ArrowDown' || event.key === ' ') show(current + 1);
        else if (event.key === 'ArrowLeft' || event.key === 'ArrowUp') show(current - 1);
        else if (event.key === 'Home') show(0);
        else if (event.key === 'End') show(moments.length - 1);
        else return;
        event.preventDefault();
      });
      const start = parseInt(new URLSearchParams(location.search).get('moment') || '1', 10);
      if (start > 1) show(start - 1);
      </script>
      </body>
      </html>

      """
    return html
  }
}

/// Appends SVG elements to a string; every text and attribute value goes through ``SVGText``.
struct SVGBuilder {
  var out = ""
  /// Prefix of every `id`, so phones side by side on one sheet do not share gradients or clips.
  var idPrefix: String

  init(idPrefix: String) { self.idPrefix = idPrefix }

  func id(_ name: String) -> String { idPrefix + name }

  private func n(_ value: Double) -> String { SVGText.number(value) }

  mutating func raw(_ text: String) { out += text }

  mutating func rect(
    x: Double, y: Double, width: Double, height: Double, radius: Double = 0, fill: String,
    opacity: Double? = nil, stroke: String? = nil, strokeWidth: Double = 1, extra: String = ""
  ) {
    out += "<rect x=\"\(n(x))\" y=\"\(n(y))\" width=\"\(n(max(0, width)))\" height=\"\(n(max(0, height)))\""
    if radius > 0 { out += " rx=\"\(n(radius))\"" }
    out += " fill=\"\(fill)\""
    if let opacity { out += " fill-opacity=\"\(n(opacity))\"" }
    if let stroke { out += " stroke=\"\(stroke)\" stroke-width=\"\(n(strokeWidth))\"" }
    out += extra + "/>"
  }

  mutating func circle(cx: Double, cy: Double, r: Double, fill: String, opacity: Double? = nil) {
    out += "<circle cx=\"\(n(cx))\" cy=\"\(n(cy))\" r=\"\(n(r))\" fill=\"\(fill)\""
    if let opacity { out += " fill-opacity=\"\(n(opacity))\"" }
    out += "/>"
  }

  enum Anchor: String { case start, middle, end }

  /// One whole string as one `<text>` element (never split per character), so it stays
  /// editable text in Figma, Sketch or a browser.
  mutating func text(
    _ string: String, x: Double, y: Double, size: Double, weight: Int = 400, fill: String,
    anchor: Anchor = .start, opacity: Double? = nil, letterSpacing: Double? = nil, role: String? = nil
  ) {
    out += "<text x=\"\(n(x))\" y=\"\(n(y))\" font-size=\"\(n(size))\""
    if weight != 400 { out += " font-weight=\"\(weight)\"" }
    out += " fill=\"\(fill)\""
    if anchor != .start { out += " text-anchor=\"\(anchor.rawValue)\"" }
    if let opacity { out += " fill-opacity=\"\(n(opacity))\"" }
    if let letterSpacing { out += " letter-spacing=\"\(n(letterSpacing))\"" }
    if let role { out += " data-role=\"\(SVGText.escape(role))\"" }
    out += ">" + SVGText.escape(string) + "</text>"
  }

  mutating func group(_ attributes: String, _ body: (inout SVGBuilder) -> Void) {
    out += "<g \(attributes)>"
    body(&self)
    out += "</g>"
  }
}

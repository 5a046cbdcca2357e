import PushCore

/// Draws an image as colour thumbnail in Unicode half blocks: each cell is two pixels, the
/// upper one in the foreground of `▀` and the lower one in the background. Colours are the
/// nearest of the xterm 256-colour palette, so a thumbnail looks the same on every colour
/// terminal and uses few colour pairs.
public enum ThumbnailView {
  /// The upper half block.
  public static let glyph = "▀"

  /// The cells a thumbnail takes, at most `maxColumns` by `maxRows`, keeping the image's shape
  /// (a cell is about twice as tall as wide, so it holds two square pixels), never enlarged.
  public static func size(of image: ImageThumbnail, maxColumns: Int, maxRows: Int) -> Size {
    guard image.width > 0, image.height > 0, maxColumns > 0, maxRows > 0 else { return Size(columns: 0, rows: 0) }
    var columns = min(maxColumns, image.width)
    var rows = max(1, Int((Double(columns * image.height) / Double(2 * image.width)).rounded()))
    if rows > maxRows {
      rows = maxRows
      columns = max(1, min(maxColumns, Int((Double(rows * 2 * image.width) / Double(image.height)).rounded())))
    }
    return Size(columns: columns, rows: rows)
  }

  /// The palette colour for a pixel.
  public static func color(_ pixel: (red: UInt8, green: UInt8, blue: UInt8)) -> Color {
    .indexed256(Palette.nearest256(pixel.red, pixel.green, pixel.blue))
  }

  /// Draws `image` scaled to `size` cells with its top-left cell at `origin`.
  public static func draw(_ image: ImageThumbnail, into grid: inout CellGrid, at origin: Point, size: Size) {
    guard size.columns > 0, size.rows > 0, image.width > 0, image.height > 0 else { return }
    let pixelRows = size.rows * 2
    for row in 0..<size.rows {
      for column in 0..<size.columns {
        let x = Int((Double(column) + 0.5) * Double(image.width) / Double(size.columns))
        let top = Int((Double(row * 2) + 0.5) * Double(image.height) / Double(pixelRows))
        let bottom = Int((Double(row * 2 + 1) + 0.5) * Double(image.height) / Double(pixelRows))
        let style = Style(foreground: color(image.pixel(x, top)), background: color(image.pixel(x, bottom)))
        grid.write(glyph, at: Point(column: origin.column + column, row: origin.row + row), style: style)
      }
    }
  }
}

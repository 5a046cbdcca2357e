import PushCore
import PushUI

/// The banner at the top of any screen, with a hint of how many more are queued.
struct BannerView {
  var state: AppState

  func draw(into grid: inout CellGrid, theme: Theme) {
    guard let banner = state.currentBanner else { return }
    let columns = min(grid.width - 4, 66)
    let left = (grid.width - columns) / 2
    let card: NotificationCardView
    if let stored = state.device.store[banner.notification] {
      card = NotificationCardView(
        notification: state.displayed(stored), app: state.appInfo(stored.notification.bundleID),
        hiddenCount: state.banners.count - 1, now: state.now, maxBodyLines: 2)
    } else if let notification = banner.carriedContent ?? state.record(for: banner.notification)?.notification {
      card = NotificationCardView(
        notification: notification, app: state.appInfo(notification.bundleID), hiddenCount: state.banners.count - 1,
        now: state.now, maxBodyLines: 2)
    } else {
      return
    }
    var shown = card
    if let stored = state.device.store[banner.notification] { shown.decorate(stored, in: state) }
    // Space is limited in a banner: at most two of the category's actions (iOS).
    // A banner the store does not keep (Notification Center off) shows its category's too.
    let carried = state.device.store.contains(banner.notification) ? nil : banner.carriedContent
    shown.actionTitles =
      (carried.map { state.actions(of: $0, space: .limited) }
      ?? state.actions(for: banner.notification, space: .limited)).map(\.title)
    // A persistent banner says so, unless its level's label (Critical Alert, Time Sensitive) matters more.
    if banner.isPersistent, shown.levelLabel == nil { shown.label = "Persistent" }
    // The banner covers what is under it: the rows it takes are cleared across the screen, and
    // so is the rest of any card it covers in part, so no covered edge reads as a stack behind it.
    var end = 1 + shown.rows(columns: columns)
    for region in grid.hitRegions where region.rect.row < end && region.rect.endRow > 1 {
      switch region.target {
      case .lockRow?, .centerRow?, .provisional?: end = max(end, region.rect.endRow)
      default: break
      }
    }
    Chrome.clearToWallpaper(rows: 1..<end, into: &grid, theme: theme)
    grid.addHit(Rect(column: 0, row: 1, columns: grid.width, rows: end - 1), nil)
    shown.draw(into: &grid, at: Point(column: left, row: 1), columns: columns, theme: theme)
    grid.addHit(Rect(column: left, row: 1, columns: columns, rows: shown.rows(columns: columns)), .banner)
    // Its buttons (the last content line) are pressed where they are drawn.
    if !shown.actionTitles.isEmpty {
      let lines = shown.contentLines(columns: columns)
      let row = 1 + lines.count
      var column = left + 2
      for (index, title) in shown.actionTitles.enumerated() {
        let chip = DisplayWidth.columns(of: "[ \(title) ]")
        let end = min(column + chip, left + columns - 2)
        if end > column {
          grid.addHit(Rect(column: column, row: row, columns: end - column, rows: 1), .bannerButton(index))
        }
        column += chip + 1
      }
    }
  }
}

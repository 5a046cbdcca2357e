import PushCore
import PushRender
import PushTestSupport
import PushUI
import Testing

/// What the screens draw as iOS would: critical alerts, Live Activities from their
/// content-state, the lock screen's Display As and bottom anchoring, thumbnails, avatars,
/// Focus icons, summary formats and plurals, and delivery times.
@Suite("iOS on screen goldens")
struct OnScreenGoldenTests {
  let start = DemoScenario.start

  func app(_ bundle: String, _ name: String, _ icon: String, _ change: (inout AppProfile) -> Void = { _ in })
    -> AppProfile
  {
    var app = AppProfile(info: AppInfo(bundleID: bundle, displayName: name, iconGlyph: icon))
    app.settings.showPreviews = .always
    change(&app)
    return app
  }

  func state(_ profile: DeviceProfile, _ events: [(Int, DeviceEvent)], at seconds: Int) -> AppState {
    var device = DeviceSimulator(profile: profile)
    for (offset, event) in events { device.apply(event, at: start + .seconds(Int64(offset))) }
    var state = AppState(device: device)
    _ = reduce(into: &state, .tick(start + .seconds(Int64(seconds))))
    return state
  }

  /// The first cell whose text is `text`'s first glyph on the row holding `text`.
  func cell(of text: String, in grid: CellGrid) -> Cell? {
    let lines = grid.textDump().split(separator: "\n", omittingEmptySubsequences: false)
    for (row, line) in lines.enumerated() {
      guard let range = line.range(of: text) else { continue }
      let prefix = line[line.startIndex..<range.lowerBound].dropFirst()  // the dump's leading "|"
      let column = DisplayWidth.columns(of: String(prefix))
      return grid[column, row]
    }
    return nil
  }

  // MARK: Critical alerts

  @Test func criticalAlertsAreLabelledAndStyledAsCritical() throws {
    let profile = DeviceProfile(
      start: start, isLocked: true,
      apps: [
        app("com.example.glucose", "Glucose", "🩸") { $0.criticalAlertsEntitled = true },
        app("com.example.bank", "Bank", "🏦"),
      ])
    let critical = push(
      #"{"aps":{"alert":{"title":"Low glucose","body":"54 mg/dL and falling"},"interruption-level":"critical","sound":{"critical":1,"name":"default","volume":1}}}"#,
      bundle: "com.example.glucose")
    let timeSensitive = push(
      #"{"aps":{"alert":{"title":"Card payment","body":"€12.40"},"interruption-level":"time-sensitive"}}"#,
      bundle: "com.example.bank")
    let state = state(profile, [(1, timeSensitive), (2, critical)], at: 60)
    let grid = frame(state)
    expectGolden(grid, "lockScreen_criticalAlert_80x24.txt")
    let dump = grid.textDump()
    #expect(dump.contains("Critical Alert · 0m ago") || dump.contains("Critical Alert · now"))
    #expect(dump.components(separatedBy: "Time Sensitive").count == 2, "only the bank's card is time-sensitive")
    #expect(cell(of: "Critical Alert", in: grid)?.role == .destructiveAction)
  }

  @Test func aCriticalPushWithoutTheEntitlementIsNotLabelledCritical() {
    let profile = DeviceProfile(start: start, isLocked: true, apps: [app("com.example.sleepy", "Sleepy", "😴")])
    let critical = push(
      #"{"aps":{"alert":{"title":"Snoring detected"},"interruption-level":"critical"}}"#, bundle: "com.example.sleepy")
    let dump = frame(state(profile, [(1, critical)], at: 60)).textDump()
    #expect(dump.contains("Snoring detected"))
    #expect(!dump.contains("Critical Alert") && !dump.contains("Time Sensitive"))
  }

  @Test func theOpenedCriticalAlertSaysSo() throws {
    let profile = DeviceProfile(
      start: start, isLocked: false,
      apps: [app("com.example.glucose", "Glucose", "🩸") { $0.criticalAlertsEntitled = true }])
    let critical = push(
      #"{"aps":{"alert":{"title":"Low glucose"},"interruption-level":"critical"}}"#, bundle: "com.example.glucose")
    var state = state(profile, [(1, critical)], at: 60)
    let id = try #require(state.device.store.all.first?.id)
    state.screen = .detail(id)
    let dump = frame(state).textDump()
    #expect(dump.contains("⚠ Critical Alert · Received 9:41"))
    #expect(!dump.contains("Time Sensitive"))
  }

  // MARK: Live Activities

  func liveActivityProfile(layout: Bool) -> DeviceProfile {
    DeviceProfile(
      start: start, isLocked: true,
      apps: [
        app("com.example.fooddash", "FoodDash", "🍜") {
          guard layout else { return }
          $0.liveActivityLayouts["DeliveryAttributes"] = LiveActivityLayout(
            title: LiveActivityText("{status} · Order {orderNumber}"),
            detail: LiveActivityText("Courier: {courier} · {restaurant}"),
            progress: LiveActivityProgress(key: "etaMinutes", from: 35, to: 0),
            time: LiveActivityTime(key: "etaMinutes", unit: .minutes))
        }
      ])
  }

  func livePush(_ aps: String) -> DeviceEvent {
    .push(
      PushReader.readPayloadFile(
        Array(#"{"aps":{\#(aps)}}"#.utf8), source: "live.json", format: .payload, bundleID: "com.example.fooddash",
        headers: [
          ("apns-push-type", "liveactivity"), ("apns-topic", "com.example.fooddash.push-type.liveactivity"),
        ]))
  }

  var startSeconds: Int { Int(start.milliseconds / 1000) }

  func liveEvents() -> [(Int, DeviceEvent)] {
    [
      (
        5,
        livePush(
          #""timestamp":\#(startSeconds + 5),"event":"start","attributes-type":"DeliveryAttributes","attributes":{"orderNumber":"5821","restaurant":"Ramen Ichiban"},"content-state":{"status":"preparing","etaMinutes":35,"courier":null},"alert":{"title":"Order 5821","body":"Preparing · arriving around 7:15 PM"}"#
        )
      ),
      (
        725,
        livePush(
          #""timestamp":\#(startSeconds + 725),"event":"update","content-state":{"status":"pickedUp","etaMinutes":18,"courier":"Kenji"}"#
        )
      ),
    ]
  }

  /// `render` streams a capture on a device that keeps no delivery records: a Live Activity's
  /// banner (its push is not in Notification Center) shows from the banner itself.
  @Test func aLiveActivityBannerShowsOnADeviceThatKeepsNoRecords() throws {
    func played(keepsRecords: Bool) -> AppState {
      // Unlocked: a locked phone shows no banner.
      var profile = liveActivityProfile(layout: true)
      profile.isLocked = false
      var device = DeviceSimulator(profile: profile)
      device.keepsRecords = keepsRecords
      var state = AppState(device: device, timeline: [TimelineEntry(at: start + .seconds(5), event: liveEvents()[0].1)])
      _ = reduce(into: &state, .tick(start + .seconds(6)))
      return state
    }
    let kept = played(keepsRecords: true)
    let lean = played(keepsRecords: false)
    let banner = try #require(lean.currentBanner)
    #expect(banner.isLiveActivity)
    #expect(lean.device.records.isEmpty && lean.record(for: banner.notification) == nil, "no record to find it in")
    let text = frame(lean).textDump()
    #expect(text.contains("arriving around"), "the banner (its alert body) is drawn")
    #expect(text == frame(kept).textDump())
  }

  @Test func aLiveActivityDrawsEachUpdateEvenWithoutAnAlert() {
    let before = frame(state(liveActivityProfile(layout: true), Array(liveEvents().prefix(1)), at: 60)).textDump()
    #expect(before.contains("Preparing · Order 5821"))
    #expect(before.contains("Ramen Ichiban") && !before.contains("Courier:"))
    let grid = frame(state(liveActivityProfile(layout: true), liveEvents(), at: 780))
    expectGolden(grid, "lockScreen_liveActivityUpdate_80x24.txt")
    let dump = grid.textDump()
    #expect(dump.contains("Picked up · Order 5821"))
    #expect(dump.contains("Courier: Kenji · Ramen Ichiban"))
    #expect(dump.contains("in 17 min"))
    #expect(!dump.contains("Preparing"))
    #expect(cell(of: "━", in: grid)?.role == .actionButton)
  }

  @Test func onTheSmallestTerminalTheActivityStillShows() {
    let grid = frame(state(liveActivityProfile(layout: true), liveEvents(), at: 780), columns: 40, rows: 12)
    expectGolden(grid, "lockScreen_liveActivity_40x12.txt")
    let dump = grid.textDump()
    #expect(dump.contains("Picked up · Order 5821") && dump.contains("in 17 min"))
    // Beside a stack it gives up its bar rather than vanish.
    let crowded = frame(
      state(
        liveActivityProfile(layout: true),
        liveEvents() + [(730, push(#"{"aps":{"alert":{"title":"Order confirmed"}}}"#, bundle: "com.example.fooddash"))],
        at: 780), columns: 40, rows: 12
    ).textDump()
    #expect(crowded.contains("Picked up · Order 5821") && !crowded.contains("━"))
  }

  @Test func withoutALayoutTheContentStateReadsAsPairs() {
    let dump = frame(state(liveActivityProfile(layout: false), liveEvents(), at: 780), columns: 100, rows: 24)
      .textDump()
    #expect(dump.contains("Delivery"))
    #expect(dump.contains("Status: Picked up · Eta minutes: 18 · Courier: Kenji"))
    #expect(!dump.contains("Preparing"))
  }

  // MARK: Display As and the bottom

  func threeApps(display: LockScreenDisplay) -> AppState {
    var profile = DeviceProfile(
      start: start, isLocked: true,
      apps: [
        app("com.example.a", "Alpha", "🅰"), app("com.example.b", "Bravo", "🅱"), app("com.example.c", "Cargo", "📦"),
      ])
    profile.lockScreenDisplay = display
    return state(
      profile,
      [
        (1, push(#"{"aps":{"alert":{"title":"First","body":"one"}}}"#, bundle: "com.example.a")),
        (2, push(#"{"aps":{"alert":{"title":"Second","body":"two"}}}"#, bundle: "com.example.b")),
        (3, push(#"{"aps":{"alert":{"title":"Third","body":"three"}}}"#, bundle: "com.example.c")),
        (4, push(#"{"aps":{"alert":{"title":"Fourth","body":"four"}}}"#, bundle: "com.example.c")),
      ], at: 120)
  }

  @Test func listAnchorsTheCardsAtTheBottom() {
    let grid = frame(threeApps(display: .list), columns: 80, rows: 30)
    expectGolden(grid, "lockScreen_displayList_80x30.txt")
    let lines = grid.textDump().split(separator: "\n", omittingEmptySubsequences: false)
    // The last card's bottom edge is two rows above the status line (one row is kept for toasts).
    let lastCard = lines.lastIndex { $0.contains("╰") } ?? 0
    #expect(lastCard == grid.height - 3)
    #expect(lines[10].dropFirst().dropLast().allSatisfy { $0 == " " }, "free space under the clock")
  }

  @Test func stackPilesEveryNotificationIntoOne() {
    let grid = frame(threeApps(display: .stack), columns: 80, rows: 24)
    expectGolden(grid, "lockScreen_displayStack_80x24.txt")
    let dump = grid.textDump()
    #expect(dump.contains("Fourth") && !dump.contains("Second"))
    #expect(dump.contains("3 more notifications"))
  }

  @Test func countShowsOnlyHowMany() {
    let grid = frame(threeApps(display: .count), columns: 80, rows: 24)
    expectGolden(grid, "lockScreen_displayCount_80x24.txt")
    let dump = grid.textDump()
    #expect(dump.contains("4 Notifications"))
    #expect(!dump.contains("First") && !dump.contains("Fourth"))
  }

  // MARK: Thumbnails, avatars, Focus icons

  @Test func imageAttachmentsShowAsAThumbnailOnTheCard() throws {
    var record = PushReader.readPayloadFile(
      Array(#"{"aps":{"alert":{"title":"Album","body":"New photo"},"mutable-content":1}}"#.utf8), source: "p.json",
      format: .payload, bundleID: "com.example.photos")
    var content = NotificationContent(title: "Album", body: "Jonas added a photo of the harbour at dusk")
    let pixels: [UInt8] = (0..<64).flatMap { index -> [UInt8] in index % 2 == 0 ? [255, 80, 0] : [0, 90, 255] }
    content.attachments = [
      NotificationAttachment(
        identifier: "photo", path: "/tmp/p.png", kind: .image, type: "png", byteCount: 77,
        thumbnail: ImageThumbnail(width: 8, height: 8, rgb: pixels))
    ]
    record.serviceExtension = ServiceExtensionResult(
      name: "test", outcome: .modified, content: content, elapsedSeconds: 0, budgetSeconds: 30)
    let profile = DeviceProfile(
      start: start, isLocked: true, apps: [app("com.example.photos", "Photos", "🖼") { $0.hasServiceExtension = true }])
    let grid = frame(state(profile, [(1, .push(record))], at: 60))
    expectGolden(grid, "lockScreen_thumbnail_80x24.txt")
    let thumb = try #require(cell(of: ThumbnailView.glyph, in: grid))
    #expect(thumb.style.foreground != nil && thumb.style.background != nil)
    // Hidden previews hide the image with the text.
    var hidden = profile
    hidden.apps[0].settings.showPreviews = .never
    #expect(cell(of: ThumbnailView.glyph, in: frame(state(hidden, [(1, .push(record))], at: 60))) == nil)
  }

  @Test func communicationNotificationsShowTheSendersInitials() throws {
    let profile = DeviceProfile(start: start, isLocked: true, apps: [app("com.example.chat", "Chat", "💬")])
    let message = PushReader.readPayloadFile(
      Array(#"{"aps":{"alert":{"title":"Ana Sousa","body":"Dinner at 8?"}}}"#.utf8), source: "m.json",
      format: .payload, bundleID: "com.example.chat")
    let grid = frame(state(profile, [(1, .push(message, sender: "Ana Sousa"))], at: 60))
    expectGolden(grid, "lockScreen_senderInitials_80x24.txt")
    #expect(grid.textDump().contains(" AS  Ana Sousa"))
    #expect(cell(of: " AS ", in: grid)?.role == .footerKey)
    #expect(AppState.initials(of: "Kenji (courier)") == "K")
    #expect(AppState.initials(of: "marta") == "M")
    #expect(AppState.initials(of: "🙂") == nil)
  }

  @Test func eachFocusKindShowsItsOwnIcon() {
    for kind in FocusKind.allCases {
      var profile = DeviceProfile(start: start, isLocked: true)
      let mode = FocusMode(id: "f", name: kind.defaultName, kind: kind)
      profile.focusModes = [mode]
      profile.activeFocusID = "f"
      let dump = frame(state(profile, [], at: 1)).textDump()
      #expect(dump.contains("\(kind.glyph) \(kind.defaultName)"), "\(kind)")
    }
  }

  // MARK: Summary formats, plurals and delivery times

  func chatProfile(summaryFormat: PluralFormat?, placeholder: PluralFormat?, previews: PreviewSetting = .always)
    -> DeviceProfile
  {
    DeviceProfile(
      start: start, isLocked: true,
      apps: [
        app("com.example.chat", "Chat", "💬") {
          $0.settings.showPreviews = previews
          $0.categories = [
            NotificationCategory(
              identifier: "MESSAGE", hiddenPreviewsBodyPlaceholder: placeholder, summaryFormat: summaryFormat)
          ]
        }
      ])
  }

  func messages(_ count: Int, thread: String = "ana") -> [(Int, DeviceEvent)] {
    (0..<count).map { index in
      (
        index + 1,
        push(
          #"{"aps":{"alert":{"title":"Ana","body":"Message \#(index + 1)"},"category":"MESSAGE","thread-id":"\#(thread)"}}"#,
          bundle: "com.example.chat")
      )
    }
  }

  /// A summary format's placeholders as iOS reads them: `%lu` is the count (it was printed as
  /// written), `%%` is `%`, `%@` (no summary argument since iOS 15) stays as written.
  @Test func summaryFormatPlaceholdersOnTheLockScreen() {
    let format = PluralFormat(other: "%lu more from %@ (100%%)")
    let dump = frame(state(chatProfile(summaryFormat: format, placeholder: nil), messages(3), at: 60)).textDump()
    #expect(dump.contains("2 more from %@ (100%)"), "\(dump)")
  }

  @Test func stacksUseTheCategorysSummaryFormatWithPlurals() {
    let format = PluralFormat(one: "%u more message", other: "%u more messages")
    let three = frame(state(chatProfile(summaryFormat: format, placeholder: nil), messages(3), at: 60)).textDump()
    #expect(three.contains("2 more messages") && !three.contains("notification"))
    let two = frame(state(chatProfile(summaryFormat: format, placeholder: nil), messages(2), at: 60)).textDump()
    #expect(two.contains("1 more message ") && !two.contains("1 more messages"))
    let plain = frame(state(chatProfile(summaryFormat: nil, placeholder: nil), messages(2), at: 60)).textDump()
    #expect(plain.contains("1 more notification ") && !plain.contains("1 more notifications"))
  }

  @Test func hiddenPreviewsUseThePlaceholderInTheRightPlural() {
    let placeholder = PluralFormat(one: "%u new message", other: "%u new messages")
    let one = frame(
      state(chatProfile(summaryFormat: nil, placeholder: placeholder, previews: .never), messages(1), at: 60)
    )
    .textDump()
    #expect(one.contains("1 new message ") && !one.contains("new messages") && !one.contains("Message 1"))
    let three = frame(
      state(chatProfile(summaryFormat: nil, placeholder: placeholder, previews: .never), messages(3), at: 60)
    ).textDump()
    #expect(three.contains("3 new messages"))
  }

  @Test func notificationCenterCountsInTheRightPlural() {
    var one = state(chatProfile(summaryFormat: nil, placeholder: nil), messages(1), at: 60)
    _ = reduce(into: &one, .command(.toggleCenter))
    #expect(frame(one).textDump().contains("1 notification in 1 group"))
  }

  @Test func anExpandedStackShowsTheAppAndConversationNotTheThreadID() {
    var state = state(chatProfile(summaryFormat: nil, placeholder: nil), messages(2, thread: "thread-7f3a"), at: 60)
    _ = reduce(into: &state, .command(.toggleCenter))
    _ = reduce(into: &state, .command(.toggleExpand))
    let grid = frame(state)
    expectGolden(grid, "center_expandedThread_80x24.txt")
    let dump = grid.textDump()
    #expect(!dump.contains("thread-7f3a"))
    #expect(dump.contains("💬 Chat · Ana"))
  }

  @Test func aScheduledSummaryIsDatedAtItsDelivery() {
    var profile = DeviceProfile(start: start, isLocked: true, summaryTimes: [TimeOfDay(hour: 10, minute: 0)])
    profile.apps = [app("com.example.shop", "Shop", "🛍") { $0.settings.delivery = .scheduledSummary }]
    let sale = push(#"{"aps":{"alert":{"title":"Sale","body":"50% off"}}}"#, bundle: "com.example.shop")
    var state = AppState(
      device: DeviceSimulator(profile: profile), timeline: [TimelineEntry(at: start + .seconds(5), event: sale)])
    // 9:41 + 5 s the push is held; the summary is delivered at 10:00; a minute later it reads 1m ago.
    _ = reduce(into: &state, .tick(start + .seconds(5)))
    _ = reduce(into: &state, .tick(start + .minutes(20)))
    let dump = frame(state).textDump()
    #expect(dump.contains("Your Scheduled Summary"))
    #expect(dump.contains("1m ago") && !dump.contains("19m ago") && !dump.contains("20m ago"))
    #expect(dump.contains("1 notification") && !dump.contains("1 notifications"))
  }
}

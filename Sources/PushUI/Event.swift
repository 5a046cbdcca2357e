import PushCore

/// A user intention, decoded from a key by a ``KeyMap``.
public enum Command: Equatable, Sendable {
  /// Leave the front end normally.
  case quit
  /// Switch to the next theme.
  case nextTheme
  /// Move the simulated clock forward.
  case advanceClock(SimDuration)
  /// Move the simulated clock to the next timeline event.
  case stepToNextEvent
  /// Switch between the lock screen and Notification Center.
  case toggleCenter
  /// Open Notification Center.
  case openCenter
  /// Close what is on top: overlay, banner, opened notification, Notification Center.
  case back
  /// Move the selection.
  case moveUp, moveDown
  /// Move the selection (or scroll the help) by a page.
  case pageUp, pageDown
  /// Move the selection (or scroll the help) to the first or the last row.
  case jumpToFirst, jumpToLast
  /// Enter: expand or collapse a stack, open a notification, choose an action.
  case activate
  /// Space: expand or collapse the selected stack.
  case toggleExpand
  /// Open the selected notification in full.
  case openSelected
  /// Clear the selected notification, its group, or everything.
  case clearSelected, clearGroup, clearAll
  /// Open the action sheet for the selected notification.
  case showActions
  /// Show or hide the inspector pane.
  case toggleInspector
  /// Open the inspector on the newest rejected push, then on earlier ones.
  case inspectRejected
  /// Show or hide the help overlay.
  case toggleHelp
  /// Lock or unlock the phone.
  case toggleLock
  /// Turn Do Not Disturb on or off.
  case toggleDoNotDisturb
  /// Provisional notifications: Keep… (authorize) and Turn Off (deny).
  case keepProvisional, turnOffProvisional
  /// Type text into the reply field or the prompt, at the cursor.
  case insertText(String)
  /// Delete the character before the cursor.
  case deleteBackward
  /// Move the cursor or delete around it (← →, Home, End, Delete, Ctrl-W, Ctrl-U, Ctrl-K).
  case editText(TextEdit)
  /// Show or hide the timeline pane.
  case toggleTimeline
  /// Show or hide the settings pane.
  case toggleSettings
  /// Play or pause the timeline.
  case togglePlay
  /// Seek back to the previous push (rebuilding the device and replaying up to it).
  case stepToPreviousPush
  /// Play faster or slower (0.5× … 1000×, instant).
  case faster, slower
  /// Open the "go to time" prompt.
  case beginSeek
  /// The settings pane: change the highlighted setting to its previous or next value.
  case adjustSetting(Int)
  /// A mouse press resolved against the last frame: what was under the pointer.
  case click(HitTarget, isDouble: Bool)
  /// The mouse wheel: scroll by rows (negative is up).
  case scroll(Int)
  /// The mouse wheel over the inspector: scroll its text by rows (negative is up).
  case scrollInspector(Int)
}

/// Something on screen a mouse press can hit, recorded by the renderer as it draws.
public enum HitTarget: Equatable, Hashable, Sendable {
  /// A stack on the lock screen (index into ``AppState/lockScreenGroups(limit:)``).
  case lockRow(Int)
  /// A row of Notification Center (index into ``AppState/centerRows()``).
  case centerRow(Int)
  /// An action-sheet button (index into ``AppState/actions(for:)``).
  case action(Int)
  /// A row of the settings pane.
  case settingsRow(Int)
  /// Provisional Keep… or Turn Off under a Notification Center row.
  case provisional(row: Int, keep: Bool)
  /// The banner.
  case banner
  /// A button drawn on the banner (index into its actions, ``AppState/actions(for:space:)``
  /// with `.limited`).
  case bannerButton(Int)
  /// A button drawn on the opened notification (index into ``AppState/actions(for:)``).
  case detailButton(Int)
  /// The inspector pane: the wheel over it scrolls its text; a click does nothing.
  case inspector
}

/// Something that happened, fed to ``reduce(into:_:)``.
public enum Event: Equatable, Sendable {
  /// Simulated time moved on: timeline events that fell due are applied.
  case tick(SimInstant)
  /// The terminal changed size.
  case resize(columns: Int, rows: Int)
  /// The user asked for something.
  case command(Command)
  /// The process was asked to stop by a signal (SIGINT, SIGTERM, SIGHUP).
  case terminationRequested(signal: Int32)
  /// An action handler finished.
  case actionFinished(ActionInvocation.ID, ActionOutcome)
  /// Real time since the front end started, read by the shell each turn: with the simulated
  /// clock paused or manual, temporary banners leave after ``Banner/temporaryDuration`` of it.
  case wallClock(elapsed: SimDuration)
}

/// Work the shell must do after an event; the reducer itself performs none.
public enum Effect: Equatable, Sendable {
  /// Restore the terminal and exit with this status.
  case exit(status: Int32)
  /// Move the simulation clock forward (the runtime owns the clock).
  case advanceClock(SimDuration)
  /// Hand a chosen action to the action handler; its outcome comes back as
  /// ``Event/actionFinished(_:_:)``.
  case perform(ActionInvocation)
  /// Run or stop the simulation clock, at `speed` simulated seconds per real second.
  case setClock(running: Bool, speed: Double)
  /// Set the simulation clock back to an earlier instant (the state was rebuilt to it).
  case seekClock(to: SimInstant)
  /// Show the next theme (the shell holds the themes and says which in a toast).
  case nextTheme
}

/// How long a toast stays, in simulated time.
let toastDuration = SimDuration.seconds(4)

/// The least real time a toast shows while the clock plays: at `--speed 1000` four simulated
/// seconds are four milliseconds, and the answer to a key (`c`'s theme, `r`'s "No push was
/// rejected") was gone before it was drawn.
let toastMinimumWall = SimDuration.seconds(2)

/// Applies an event to the state and returns the effects the shell must perform.
public func reduce(into state: inout AppState, _ event: Event) -> [Effect] {
  defer { state.refreshViewCaches() }
  switch event {
  case .tick(let now):
    state.advance(to: now, slice: state.playSlice)
    return []
  case .resize(let columns, let rows):
    state.terminalColumns = columns
    state.terminalRows = rows
    return []
  case .command(let command):
    return state.perform(command)
  case .terminationRequested(let signal):
    // The shell convention: 128 + signal number (130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP).
    return [.exit(status: 128 + signal)]
  case .wallClock(let elapsed):
    state.followWallClock(elapsed)
    return []
  case .actionFinished(_, let outcome):
    switch outcome {
    case .succeeded(let message): state.showToast(message ?? "Action done")
    case .failed(let message): state.showToast("Action failed: \(message)")
    case .unhandled(let message):
      state.showToast(
        message ?? "No handler bound: the response went nowhere (bind one under handlers: in the profile)")
    }
    return []
  }
}

extension AppState {
  /// Moves time to `instant`, applying due timeline events, queueing banners, releasing the
  /// Scheduled Summary and expiring banners and toasts.
  ///
  /// With a `slice`, at most that many entries are played: the state stops at the last one
  /// played and ``followingTo`` says where it is going (the next ticks go on).
  mutating func advance(to instant: SimInstant, slice: Int? = nil) {
    guard instant >= now else { return }
    guard fastForward(toward: instant) else {
      followingTo = instant
      return
    }
    var budget = max(slice ?? Int.max, 1)
    while timelineCursor < timeline.count, timeline.instant(timelineCursor) <= instant {
      guard budget > 0 else {
        // The rest on the next turns; the screen shows the way there.
        followingTo = instant
        expireToast()
        return
      }
      budget -= 1
      // Moved out, not copied, when it is not needed again.
      let entry = consumesArrivedTimeline ? timeline.take(timelineCursor) : timeline[timelineCursor]
      timelineCursor += 1
      // After a seek back, entries the shell already journalled are replayed but not logged again.
      let isFresh = timelineCursor > journaledTimelineCount
      journaledTimelineCount = max(journaledTimelineCount, timelineCursor)
      play(entry, fresh: isFresh)
    }
    followingTo = nil
    settle(at: instant)
  }

  /// Applies one timeline entry that has fallen due (``advance(to:slice:)``, ``playArrived(_:through:)``).
  mutating func play(_ entry: consuming TimelineEntry, fresh isFresh: Bool) {
    playedEntryCount += 1
    let at = entry.at
    // Time passes event by event, so banners leave (and summaries release) as they would
    // have, instead of piling up until the end of a long jump.
    if at > now {
      now = at
      device.advance(to: at)
      followReleases()
      settleBanners()
    }
    // The hot path of a long timeline: the push goes to the device straight from the entry's
    // box. Matched on the entry consumed: matching it borrowed copied the record out of its
    // box (every reference it holds retained, then released with the entry).
    let event = entry.event
    switch consume event {
    case .device(.push(let record, let sender)):
      follow(ingest(record, sender: sender, at: at, journals: isFresh))
    case let other:
      if let event = Scenario.deviceEvent(for: other, in: device) {
        apply(event, at: at, fromTimeline: true, logs: isFresh)
      }
    }
    if changes.appliedCount >= changeSliceSize { handOverChangeSlice() }
    if seekCheckpoints != nil { keepSeekCheckpointIfDue() }
  }

  /// The end of a move of the clock: time is `instant`, the summary and banners follow it.
  mutating func settle(at instant: SimInstant) {
    now = instant
    device.advance(to: instant)
    followReleases()
    settleBanners()
    expireToast()
  }

  /// Applies a device event now, as the user's own: logged for the shell to persist, like a key
  /// press (the shell uses it for what its options ask of a restored device).
  public mutating func applyNow(_ event: DeviceEvent) {
    apply(event, at: now)
  }

  /// Applies a device event and keeps the UI's bookkeeping in step with the device.
  mutating func apply(_ event: DeviceEvent, at instant: SimInstant, fromTimeline: Bool = false, logs: Bool = true) {
    if !fromTimeline { userEvents.append(TimelineEntry(at: max(instant, device.now), event: event)) }
    if case .push(let record, let sender) = event {
      follow(ingest(record, sender: sender, at: instant, journals: logs))
    } else if logs && journalsChanges {
      follow(device.apply(event, at: max(instant, device.now), into: &changes))
    } else {
      follow(device.apply(event, at: max(instant, device.now)))
    }
  }

  /// A push enters the device through the ingest step
  /// (``DeviceSimulator/ingest(_:sender:at:extensions:into:)``), its changes collected for the
  /// journal when the shell asked for them and `journals` (false for what a seek back replays).
  /// Its service extension ran before it reached the front end (a timeline's side by side, as
  /// it was read; `run --listen`'s on the endpoint's thread), so the record carries its result.
  mutating func ingest(_ record: PushRecord, sender: String?, at instant: SimInstant, journals: Bool)
    -> DeliveryRecord
  {
    if journals && journalsChanges {
      return device.ingest(record, sender: sender, at: instant, into: &changes)
    }
    var unjournaled = DiscardedChanges()
    return device.ingest(record, sender: sender, at: instant, into: &unjournaled)
  }

  /// Keeps the UI's bookkeeping in step with what the device just did.
  ///
  /// The record is read in place, field by field: binding it (`if let record`, `let
  /// notification = record.notification`) copied the record and its notification, every
  /// reference they hold retained and released again, on every push of a long timeline.
  private mutating func follow(_ record: DeliveryRecord?) {
    if record?.decision.disposition == .rejected, let record { noteRejection(record) }
    if followsLiveArrival, record?.decision.disposition == .dropped, let record {
      // Accepted by the endpoint (APNs answers 200) and dropped by the device: the sender
      // sees why at once instead of nothing.
      let why = record.decision.reasons.last?.text ?? "the device drops it"
      showToast("\(appInfo(record.bundleID).displayName): dropped · \(why)")
    }
    if let id = record?.notification?.id, let at = record?.at {
      if device.keepsRecords, device.recordWindow == nil, let index = record?.index { recordIndex[id] = index }
      let isLiveActivity = record?.decision.surfaces.contains(.liveActivity) == true
      if record?.decision.surfaces.contains(.banner) == true {
        let bundleID = record?.notification?.bundleID ?? ""
        let style = device.app(bundleID)?.settings.bannerStyle ?? .temporary
        // One the store does not keep (a Live Activity, or a notification whose app has
        // Notification Center off) carries what it shows.
        let carried = isLiveActivity || !device.store.contains(id)
        banners.append(
          Banner(
            notification: id, arrivedAt: at, isPersistent: style == .persistent,
            isLiveActivity: isLiveActivity, carriedContent: carried ? record?.notification : nil))
        if banners.count > Banner.queueLimit {
          bookkeepingSteps += banners.count
          banners.remove(at: 1)
        }
      }
    }
    followRemovals()
    followReleases()
    settleBanners()
  }

  /// Banners and the summary card lose the notifications that left the store (cleared, opened,
  /// replaced): only those are looked up, from the store's removal log, so each event costs
  /// what it removed, not what is queued.
  mutating func followRemovals() {
    let removals = device.store.removalCount
    guard removals != followedRemovals else { return }
    defer { followedRemovals = removals }
    let before = banners.first?.notification
    if let removed = device.store.removed(since: followedRemovals) {
      bookkeepingSteps += removed.count + banners.count
      let gone = Set(removed)
      banners.removeAll { !$0.isLiveActivity && gone.contains($0.notification) }
      // The summary is in id order: a binary search per removal, not a pass over the card.
      if !summary.isEmpty, removed.contains(where: { summaryHolds($0) }) { summary.removeAll { gone.contains($0) } }
    } else {
      bookkeepingSteps += banners.count + summary.count
      banners.removeAll { !$0.isLiveActivity && !device.store.contains($0.notification) }
      summary.removeAll { !device.store.contains($0) }
    }
    if banners.first?.notification != before, !banners.isEmpty, banners[0].shownAt == nil {
      banners[0].shownAt = max(banners[0].arrivedAt, device.now)
    }
  }

  /// Whether the summary card (in id order) holds a notification.
  private func summaryHolds(_ id: NotificationID) -> Bool {
    var lower = 0
    var upper = summary.count
    while lower < upper {
      let middle = (lower + upper) / 2
      if summary[middle] < id { lower = middle + 1 } else { upper = middle }
    }
    return lower < summary.count && summary[lower] == id
  }

  /// Shows the notifications of a Scheduled Summary delivery as one card, once.
  private mutating func followReleases() {
    let releases = device.store.releaseCount
    guard releases != followedReleases else { return }
    followedReleases = releases
    bookkeepingSteps += device.store.lastRelease.count
    let stillStored = device.store.lastRelease.filter { device.store.contains($0) }
    if !stillStored.isEmpty {
      summary = stillStored
      showToast("Scheduled Summary: \(stillStored.count) notification\(stillStored.count == 1 ? "" : "s")")
    }
  }

  /// Shows the front banner, and moves the queue on past temporary banners whose time is up.
  private mutating func settleBanners() {
    while !banners.isEmpty {
      bookkeepingSteps += 1
      if banners[0].shownAt == nil { banners[0].shownAt = banners[0].arrivedAt }
      guard let expiry = banners[0].expiresAt, expiry <= now else { return }
      banners.removeFirst()
      if !banners.isEmpty { banners[0].shownAt = max(banners[0].arrivedAt, expiry) }
    }
  }

  /// A push was rejected: nothing hides it. A toast says so on arrival, the status line counts
  /// it, and `r` opens it in the inspector with its diagnostics.
  private mutating func noteRejection(_ record: DeliveryRecord) {
    rejectedCount += 1
    rejections.append(record.index)
    if rejections.count > Self.rejectionLimit {
      bookkeepingSteps += rejections.count
      rejections.removeFirst(rejections.count - Self.rejectionLimit / 2)
    }
    let firstError = record.diagnostics.first { $0.severity == .error }
    let why = firstError.map { $0.code.rawValue } ?? "invalid payload"
    // Rejections can come hundreds a second on a fast clock: one does not push out a toast
    // that has not been readable yet, but waits for it to leave (the latest one; the status
    // line counts them all).
    let text = "✗ Rejected \(record.source): \(why) · r inspects"
    if hasFreshToast { waitingToast = text } else { showToast(text) }
  }

  /// `r`: the inspector opens on the newest rejected push (the device's or the endpoint's);
  /// again, on the one before it.
  mutating func inspectRejected() {
    let kept = rejectedPushes
    guard let newest = kept.last else {
      if savedRejectedCount > 0, rejectedCount + refusedCount == 0 {
        let pushes = savedRejectedCount == 1 ? "push was" : "pushes were"
        showToast(
          "\(savedRejectedCount) rejected \(pushes) saved by an earlier session: explain or validate on the inputs shows them"
        )
        return
      }
      showToast(
        rejectedCount + refusedCount == 0 ? "No push was rejected" : "The rejected pushes are no longer kept")
      return
    }
    if isInspectorOpen, let current = inspectedRejection, let position = kept.firstIndex(of: current), position > 0 {
      inspectedRejection = kept[position - 1]
    } else {
      inspectedRejection = newest
    }
    isInspectorOpen = true
    pane = nil
  }

  /// Real time moved on. While the simulated clock stands still (paused, a manual clock, or
  /// after instant playback) a temporary banner leaves after ``Banner/temporaryDuration`` of
  /// real time at the front of the queue, as it would on a phone; while the clock plays it
  /// leaves on simulated time (``advance(to:)``), whatever the speed.
  mutating func followWallClock(_ elapsed: SimDuration) {
    wallElapsed = elapsed
    while !banners.isEmpty {
      guard let shown = banners[0].wallShownAt else {
        banners[0].wallShownAt = elapsed
        break
      }
      let showing = SimDuration(milliseconds: elapsed.milliseconds &- shown.milliseconds)
      guard !playback.isPlaying, !banners[0].isPersistent, showing >= Banner.temporaryDuration else { break }
      dismissFrontBanner()
    }
    guard let toast else { return }
    guard let shown = toast.wallShownAt else {
      self.toast?.wallShownAt = elapsed
      return
    }
    if !playback.isPlaying, elapsed.milliseconds &- shown.milliseconds >= toastDuration.milliseconds {
      toastLeft()
    } else if playback.isPlaying {
      expireToast()
    }
  }

  public mutating func showToast(_ text: String) {
    // Its real time starts at the next report of it (``followWallClock(_:)``): the last one may be
    // long past.
    toast = Toast(text: text, expiresAt: now + toastDuration)
  }

  /// Whether the toast has shown for less than ``toastMinimumWall`` of real time (`run`).
  var hasFreshToast: Bool {
    guard let toast, let wall = wallElapsed else { return false }
    guard let shown = toast.wallShownAt else { return true }
    return wall.milliseconds &- shown.milliseconds < toastMinimumWall.milliseconds
  }

  /// Lets the toast go once its simulated time is up and, where real time is known (`run`), it
  /// has shown for ``toastMinimumWall``.
  mutating func expireToast() {
    guard let toast, toast.expiresAt <= now, !hasFreshToast else { return }
    toastLeft()
  }

  /// The toast's time is up: the rejection waiting for it shows next, else nothing.
  private mutating func toastLeft() {
    toast = nil
    if let waiting = waitingToast {
      waitingToast = nil
      showToast(waiting)
    }
  }

  /// Carries out a command.
  mutating func perform(_ command: Command) -> [Effect] {
    switch command {
    case .quit:
      return [.exit(status: 0)]
    case .nextTheme:
      return [.nextTheme]
    case .advanceClock(let duration):
      // The clock stops at the end of the time Pushdeck simulates, as `g` does (`]` went on
      // into the year 10000).
      guard now.adding(duration) != nil else {
        showToast("The clock stops at 9999-12-31T23:59:59Z, the end of the time Pushdeck simulates")
        return []
      }
      return [.advanceClock(duration)]
    case .stepToNextEvent:
      guard let next = nextEventAt else {
        showToast("No more events on the timeline")
        return []
      }
      return [.advanceClock(SimDuration(milliseconds: max(0, (next - now).milliseconds)))]
    case .toggleCenter:
      overlay = nil
      screen = screen == .center ? .lock : .center
    case .openCenter:
      overlay = nil
      screen = .center
    case .back:
      goBack()
    case .moveUp, .moveDown:
      move(by: command == .moveUp ? -1 : 1)
    case .activate:
      return activate()
    case .toggleExpand:
      toggleExpand()
    case .openSelected:
      if let id = selectedNotification { openDetail(id) }
    case .clearSelected:
      var effects: [Effect] = []
      if let id = selectedNotification {
        if let invocation = dismissInvocation(id) { effects.append(.perform(invocation)) }
        let name = device.store[id].map { appInfo($0.notification.bundleID).displayName }
        apply(.clear(id), at: now)
        // Said, as "Clear All" is: the toast before it stayed and read as the clearing's answer.
        if let name { showToast("Cleared a notification from \(name)") }
      }
      leaveDetailIfGone()
      clampSelections()
      return effects
    case .clearGroup:
      if let id = selectedNotification, let key = device.store[id]?.group {
        let before = device.store.count
        apply(.clearGroup(key), at: now)
        expanded.remove(key)
        let cleared = before - device.store.count
        showToast(
          "Cleared \(cleared) notification\(cleared == 1 ? "" : "s") from \(appInfo(key.bundleID).displayName)")
      }
      leaveDetailIfGone()
    case .clearAll:
      guard device.store.count > 0 else {
        showToast("Nothing to clear")
        return []
      }
      overlay = .confirmClearAll
    case .pageUp, .pageDown:
      page(by: command == .pageUp ? -1 : 1)
    case .jumpToFirst, .jumpToLast:
      jump(toLast: command == .jumpToLast)
    case .showActions:
      guard let id = selectedNotification else { return [] }
      overlay = .actionSheet(ActionSheet(notification: id))
    case .toggleInspector:
      isInspectorOpen.toggle()
      inspectorScroll = nil
      inspectedRejection = nil
      if isInspectorOpen { pane = nil }
    case .inspectRejected:
      inspectRejected()
    case .toggleHelp:
      overlay = overlay == .help ? nil : .help
      helpScroll = 0
    case .toggleLock:
      apply(device.isLocked ? .unlock : .lock, at: now)
      showToast(device.isLocked ? "Locked" : "Unlocked")
    case .toggleDoNotDisturb:
      let turningOn = device.activeFocusID == nil
      apply(.focus(turningOn ? FocusMode.doNotDisturb.id : nil), at: now)
      showToast(turningOn ? "Do Not Disturb on" : "Focus off")
    case .keepProvisional, .turnOffProvisional:
      setProvisional(keep: command == .keepProvisional)
    case .insertText(let text):
      if overlay == .confirmClearAll {
        overlay = nil
        if text == "y" || text == "Y" { confirmClearAll() } else { showToast("Kept every notification") }
        return []
      }
      if case .provisional(let choice)? = overlay, choice.kind == .turnOff {
        overlay = nil
        if text == "y" || text == "Y" {
          decideProvisional(choice)
        } else {
          showToast("\(appInfo(choice.bundleID).displayName): left on provisional delivery")
        }
        return []
      }
      editText(.insert(text))
      return []
    case .editText(let edit):
      editText(edit)
      return []
    case .toggleTimeline:
      pane = pane == .timeline ? nil : .timeline
      if pane != nil { isInspectorOpen = false }
    case .toggleSettings:
      if pane == .settings {
        pane = nil
      } else {
        pane = .settings
        isInspectorOpen = false
        settingsApp = selectedNotification.flatMap { device.store[$0]?.notification.bundleID } ?? settingsApp
        // Another app may list fewer rows (Critical Alerts, Time Sensitive): the selection stays
        // on one that is there.
        settingsSelection = min(max(settingsSelection, 0), settingsRows().count - 1)
      }
    case .togglePlay:
      return togglePlay()
    case .stepToPreviousPush:
      return stepToPreviousPush()
    case .faster, .slower:
      return changeSpeed(by: command == .faster ? 1 : -1)
    case .beginSeek:
      prompt = .seek("")
      charactersAfterCursor = 0
    case .adjustSetting(let step):
      if pane == .settings, overlay == nil { adjustSetting(by: step) }
    case .click(let target, let isDouble):
      return click(target, isDouble: isDouble)
    case .scroll(let rows):
      scroll(by: rows)
    case .scrollInspector(let rows):
      scrollInspector(by: rows)
    case .deleteBackward:
      editText(.deleteBackward)
      return []
    }
    clampSelections()
    return []
  }

  /// Makes `edit` in the field taking typed text (the prompt first, else the reply field).
  private mutating func editText(_ edit: TextEdit) {
    editedText?.apply(edit)
  }

  private mutating func goBack() {
    if prompt != nil {
      prompt = nil
    } else if overlay != nil {
      overlay = nil
    } else if isInspectorOpen {
      isInspectorOpen = false
      inspectedRejection = nil
      inspectorScroll = nil
    } else if pane != nil {
      pane = nil
    } else if !banners.isEmpty {
      dismissFrontBanner()
    } else if case .detail = screen {
      // Back to the list it was opened from: the lock screen's, or Notification Center's.
      screen = detailOrigin
    } else {
      screen = .lock
    }
  }

  /// Opens a notification in full. Its banner goes, as when the banner itself is tapped: it
  /// stayed over the opened notification, covering its first rows (for five seconds, and with
  /// a manual clock until time moved; found by an exploratory test).
  /// Takes the front banner away; the next one is shown from now.
  mutating func dismissFrontBanner() {
    guard !banners.isEmpty else { return }
    banners.removeFirst()
    if !banners.isEmpty { banners[0].shownAt = now }
  }

  mutating func openDetail(_ id: NotificationID) {
    if case .detail = screen {} else { detailOrigin = screen }
    screen = .detail(id)
    detailScroll = nil
    guard banners.contains(where: { !$0.isLiveActivity && $0.notification == id }) else { return }
    let front = banners.first?.notification
    banners.removeAll { !$0.isLiveActivity && $0.notification == id }
    if front == id, !banners.isEmpty { banners[0].shownAt = now }
  }

  /// Leaves an opened notification, or closes its action sheet, once it is gone: back to the
  /// list it was opened from.
  mutating func leaveDetailIfGone() {
    if case .detail(let id) = screen, device.store[id] == nil { screen = detailOrigin }
    if case .actionSheet(let sheet)? = overlay, device.store[sheet.notification] == nil { overlay = nil }
  }

  private mutating func clampSelections() {
    let lockCount = lockScreenStacks().count
    lockSelection = min(max(lockSelection, 0), max(lockCount - 1, 0))
    if screen == .center {
      let rowCount = centerRows().count
      centerSelection = min(max(centerSelection, 0), max(rowCount - 1, 0))
    }
  }

  /// Clears every notification, once the user said yes.
  private mutating func confirmClearAll() {
    let count = device.store.count
    apply(.clearAll, at: now)
    expanded = []
    leaveDetailIfGone()
    clampSelections()
    showToast("Cleared \(count) notification\(count == 1 ? "" : "s")")
  }

  /// The help overlay's key rows that fit: its box is at most the terminal's height less two,
  /// less its borders and the mouse line.
  public var helpVisibleRows: Int { max(1, min(terminalRows - 2, KeyMap.documented.count + 3) - 3) }

  /// The furthest the help scrolls: its last key row at the bottom of the box.
  public var helpMaxScroll: Int { max(0, KeyMap.documented.count - helpVisibleRows) }

  /// Rows a page moves: what fits on screen (cards take about four rows each on the lock
  /// screen, one row per stack in Notification Center).
  public var pageRows: Int {
    let visible = max(1, terminalRows - 4)
    if overlay == .help { return helpVisibleRows }
    return screen == .lock ? max(1, visible / 4) : visible
  }

  /// PgUp and PgDn: the help scrolls, the open inspector scrolls, or the selection moves a page.
  /// Scrolls the inspector's text by `rows` (negative is up), within what the last frame said
  /// it can scroll.
  mutating func scrollInspector(by rows: Int) {
    guard overlay == nil, isInspectorOpen, pane == nil, let subject = inspectorSubject else { return }
    let limit = inspectorScrollLimit ?? .max
    inspectorScroll = (subject, min(max(0, min(inspectorScrollRows, limit) + rows), limit))
  }

  /// Scrolls the opened notification's content by `rows` (negative is up), within what the
  /// last frame said it can scroll.
  mutating func scrollDetail(by rows: Int) {
    guard overlay == nil, case .detail(let id) = screen else { return }
    let limit = max(0, detailScrollLimit ?? .max)
    let (sum, overflow) = min(detailScrollRows, limit).addingReportingOverflow(rows)
    detailScroll = (id, overflow ? (rows > 0 ? limit : 0) : min(max(0, sum), limit))
  }

  private mutating func page(by pages: Int) {
    if overlay == .help {
      helpScroll = min(max(0, helpScroll + pages * pageRows), helpMaxScroll)
      return
    }
    guard overlay == nil else { return }
    if isInspectorOpen, pane == nil, inspectorSubject != nil {
      // The pane's height less two rows, so a row of the last page shows again above the new
      // one (the top row of a scrolled pane says what is above).
      scrollInspector(by: max(1, terminalRows - 6) * pages)
      return
    }
    if pane == nil, case .detail = screen {
      // The content's window less a row, so the last row of a page shows again on the next
      // (as the renderer measured it: buttons take one to three rows under it).
      scrollDetail(by: (detailPageRows ?? max(1, terminalRows - 12)) * pages)
      return
    }
    if pane == .settings {
      settingsSelection = min(max(settingsSelection + pages * pageRows, 0), settingsRows().count - 1)
      return
    }
    move(by: pages * pageRows)
  }

  /// Home and End: to the first or the last row.
  private mutating func jump(toLast: Bool) {
    if overlay == .help {
      helpScroll = toLast ? helpMaxScroll : 0
      return
    }
    guard overlay == nil else { return }
    if pane == .settings {
      settingsSelection = toLast ? settingsRows().count - 1 : 0
      return
    }
    switch screen {
    case .lock: lockSelection = toLast ? max(lockScreenStacks().count - 1, 0) : 0
    case .center: centerSelection = toLast ? max(centerRows().count - 1, 0) : 0
    case .detail: scrollDetail(by: toLast ? .max : .min)
    }
  }

  private mutating func move(by step: Int) {
    if overlay == nil, pane == nil { inspectedRejection = nil }
    if overlay == .help {
      helpScroll = min(max(0, helpScroll + step), helpMaxScroll)
      return
    }
    if case .provisional(var choice)? = overlay {
      guard !choice.options.isEmpty else { return }
      choice.highlighted = (choice.highlighted + step + choice.options.count) % choice.options.count
      overlay = .provisional(choice)
      return
    }
    if case .actionSheet(var sheet)? = overlay {
      guard case .choosing = sheet.stage else { return }
      let count = actions(for: sheet.notification).count
      guard count > 0 else { return }
      sheet.highlighted = (sheet.highlighted + step + count) % count
      overlay = .actionSheet(sheet)
      return
    }
    if pane == .settings {
      settingsSelection = min(max(settingsSelection + step, 0), settingsRows().count - 1)
      return
    }
    switch screen {
    case .lock: lockSelection += step
    case .center: centerSelection += step
    case .detail: scrollDetail(by: step)
    }
  }

  private mutating func toggleExpand() {
    if overlay == nil, pane == .settings {
      _ = toggleSetting()
      return
    }
    if screen == .lock, overlay == nil {
      expandLockScreenStack()
      return
    }
    guard screen == .center else { return }
    let rows = centerRows()
    guard centerSelection < rows.count else { return }
    let key = rows[centerSelection].groupKey
    if expanded.contains(key) {
      expanded.remove(key)
      // Keep the selection on the collapsed stack.
      centerSelection = centerRows().firstIndex { $0.groupKey == key } ?? centerSelection
    } else if case .stack(let group) = rows[centerSelection], group.count > 1 {
      expanded.insert(key)
    }
  }

  /// Space on a lock-screen stack: its notifications, each on a row, in Notification Center
  /// (the lock screen draws a stack as its front card; Space did nothing there, and the others
  /// could be reached only by going to Notification Center and finding the stack; found by an
  /// exploratory test). docs/DECISIONS.md, "A lock-screen stack expands in Notification Center".
  private mutating func expandLockScreenStack() {
    let stacks = lockScreenStacks()
    guard stacks.indices.contains(lockSelection) else { return }
    let group = stacks[lockSelection]
    guard group.count > 1 else {
      showToast("One notification: ⏎ opens it")
      return
    }
    expanded.insert(group.key)
    screen = .center
    centerSelection = centerRows().firstIndex { $0.groupKey == group.key } ?? 0
  }

  private mutating func activate() -> [Effect] {
    if case .seek(let text)? = prompt {
      prompt = nil
      switch readSeekTarget(text) {
      case .instant(let target): return seek(to: target)
      case .outOfRange: showToast("Go to: \(text) is outside the years 1970 to 9999")
      case .unreadable: showToast("Go to: try +5m, -30s, +1h30m, 09:45, 08:00:30 or 2026-11-23T09:45:00Z")
      }
      return []
    }
    if overlay == .confirmClearAll {
      overlay = nil
      confirmClearAll()
      return []
    }
    if case .provisional(let choice)? = overlay {
      overlay = nil
      decideProvisional(choice)
      return []
    }
    if overlay == nil, pane == .settings { return toggleSetting() }
    if case .actionSheet(let sheet)? = overlay { return choose(in: sheet) }
    if overlay == .help {
      overlay = nil
      return []
    }
    switch screen {
    case .lock:
      if let id = selectedNotification { openDetail(id) }
    case .center:
      let rows = centerRows()
      guard centerSelection < rows.count else { return [] }
      switch rows[centerSelection] {
      case .stack(let group) where group.count > 1, .header(let group):
        _ = group
        toggleExpand()
      case .stack(let group):
        if let id = group.notifications.first?.id { openDetail(id) }
      case .item(_, let stored):
        openDetail(stored.id)
      }
    case .detail(let id):
      return tap(id)
    }
    return []
  }

  /// A tap on an opened notification: the default action. The app opens (unlocking first, as
  /// Face ID would), the notification leaves Notification Center, and the shell sends
  /// `UNNotificationDefaultActionIdentifier` to the app's handler.
  private mutating func tap(_ id: NotificationID) -> [Effect] {
    guard let stored = device.store[id] else { return [] }
    let notification = stored.notification
    if device.isLocked { apply(.unlock, at: now) }
    let invocation = ActionInvocation(
      id: nextInvocationID, notification: id, bundleID: notification.bundleID, categoryID: notification.category,
      actionID: defaultActionIdentifier, actionTitle: "Open", text: nil, payload: payloadText(of: id),
      targetContentID: notification.targetContentID)
    nextInvocationID += 1
    apply(.open(id), at: now)
    leaveDetailIfGone()
    showToast("Opening \(appInfo(notification.bundleID).displayName)…")
    return [.perform(invocation)]
  }

  /// A tap on a banner the store does not keep (a Live Activity's, or one of an app whose
  /// Notification Center is off): the default action on the content the banner carries. The
  /// app opens (unlocking first) and its handler gets `UNNotificationDefaultActionIdentifier`
  /// with the payload; there is no card to remove.
  mutating func openApp(from id: NotificationID, _ notification: PushNotification) -> [Effect] {
    if device.isLocked { apply(.unlock, at: now) }
    // A lean device's copy keeps no payload text; the state database has it.
    let payload =
      notification.rawPayload.isEmpty
      ? deliveryDetails?.delivered(id)?.notification.rawPayload ?? "" : notification.rawPayload
    let invocation = ActionInvocation(
      id: nextInvocationID, notification: id, bundleID: notification.bundleID, categoryID: notification.category,
      actionID: defaultActionIdentifier, actionTitle: "Open", text: nil, payload: payload,
      targetContentID: notification.targetContentID)
    nextInvocationID += 1
    apply(.setting(bundleID: notification.bundleID, .state(.foreground)), at: now)
    showToast("Opening \(appInfo(notification.bundleID).displayName)…")
    return [.perform(invocation)]
  }

  private mutating func choose(in sheet: ActionSheet) -> [Effect] {
    let actions = actions(for: sheet.notification)
    switch sheet.stage {
    case .choosing:
      guard sheet.highlighted < actions.count else {
        overlay = nil
        return []
      }
      let action = actions[sheet.highlighted]
      if action.options.contains(.authenticationRequired) && device.isLocked {
        overlay = .actionSheet(
          ActionSheet(
            notification: sheet.notification, highlighted: sheet.highlighted,
            stage: .confirmUnlock(actionID: action.identifier)))
        return []
      }
      return proceed(with: action, sheet: sheet)
    case .confirmUnlock(let actionID):
      apply(.unlock, at: now)
      guard let action = actions.first(where: { $0.identifier == actionID }) else { return [] }
      return proceed(with: action, sheet: sheet)
    case .reply(let actionID, let text):
      guard let action = actions.first(where: { $0.identifier == actionID }) else { return [] }
      return run(action, on: sheet.notification, text: text)
    }
  }

  private mutating func proceed(with action: NotificationAction, sheet: ActionSheet) -> [Effect] {
    if action.isTextInput {
      overlay = .actionSheet(
        ActionSheet(
          notification: sheet.notification, highlighted: sheet.highlighted,
          stage: .reply(actionID: action.identifier, text: "")))
      charactersAfterCursor = 0
      return []
    }
    return run(action, on: sheet.notification, text: nil)
  }

  /// Sends the action to the device and asks the shell to run the app's handler.
  private mutating func run(_ action: NotificationAction, on id: NotificationID, text: String?) -> [Effect] {
    overlay = nil
    guard let stored = device.store[id] else { return [] }
    let invocation = ActionInvocation(
      id: nextInvocationID, notification: id, bundleID: stored.notification.bundleID,
      categoryID: stored.notification.category, actionID: action.identifier, actionTitle: action.title,
      text: text, payload: payloadText(of: id), targetContentID: stored.notification.targetContentID)
    nextInvocationID += 1
    apply(.action(id, actionID: action.identifier, text: text), at: now)
    leaveDetailIfGone()
    showToast("\(action.title)…")
    return [.perform(invocation)]
  }

  /// The dismiss action's invocation for a notification whose category asks for it
  /// (`customDismissAction`); nil otherwise, as on iOS.
  private mutating func dismissInvocation(_ id: NotificationID) -> ActionInvocation? {
    guard let stored = device.store[id],
      category(of: stored.notification)?.options.contains(.customDismissAction) == true
    else { return nil }
    defer { nextInvocationID += 1 }
    return ActionInvocation(
      id: nextInvocationID, notification: id, bundleID: stored.notification.bundleID,
      categoryID: stored.notification.category, actionID: dismissActionIdentifier, actionTitle: "Dismiss",
      text: nil, payload: payloadText(of: id), targetContentID: stored.notification.targetContentID)
  }

  private mutating func setProvisional(keep: Bool) {
    guard let id = selectedNotification, isProvisional(id), let stored = device.store[id] else {
      showToast("Keep… and Turn Off apply to provisional notifications")
      return
    }
    // Keep asks how to deliver; Turn Off asks to confirm (reference §4.2).
    let bundleID = stored.notification.bundleID
    let options: [ProvisionalChoice.Option] =
      device.profile.summaryTimes.isEmpty ? [.deliverImmediately] : [.deliverImmediately, .deliverInSummary]
    overlay = .provisional(
      ProvisionalChoice(bundleID: bundleID, kind: keep ? .keep : .turnOff, options: keep ? options : []))
  }

  /// What the user chose for a provisional app. Deliver Immediately authorizes it and still
  /// delivers quietly, to Notification Center only (no banner, lock screen, sound or badge),
  /// until its settings change; Deliver in Scheduled Summary authorizes it into the summary;
  /// Turn Off denies it.
  mutating func decideProvisional(_ choice: ProvisionalChoice) {
    let bundleID = choice.bundleID
    let name = appInfo(bundleID).displayName
    guard device.app(bundleID)?.authorization == .provisional else { return }
    switch choice.kind {
    case .turnOff:
      apply(.setting(bundleID: bundleID, .authorization(.denied)), at: now)
      showToast("\(name): notifications turned off")
    case .keep:
      let option =
        choice.options.indices.contains(choice.highlighted) ? choice.options[choice.highlighted] : .deliverImmediately
      apply(.setting(bundleID: bundleID, .authorization(.authorized)), at: now)
      switch option {
      case .deliverImmediately:
        let quiet: [AppSettingChange] = [
          .notificationCenter(true), .lockScreen(false), .banners(false), .sounds(false), .badges(false),
          .delivery(.immediate),
        ]
        for change in quiet {
          apply(.setting(bundleID: bundleID, change), at: now)
        }
        showToast("\(name): kept, delivered quietly to Notification Center (Settings can allow more)")
      case .deliverInSummary:
        apply(.setting(bundleID: bundleID, .delivery(.scheduledSummary)), at: now)
        showToast("\(name): kept, delivered in the Scheduled Summary")
      }
    }
  }
}

/// What the inspector shows: a stored notification, or a rejected push by record index.
enum InspectorSubject: Equatable {
  case notification(NotificationID)
  case rejection(RejectedPush)
}

extension AppState {
  /// What the inspector shows now, if anything.
  var inspectorSubject: InspectorSubject? {
    if let index = inspectedRejection { return .rejection(index) }
    return selectedNotification.map { .notification($0) }
  }

  /// How many rows of the inspector's text are scrolled past: 0 for a subject not scrolled yet
  /// (moving to another notification shows it from its top).
  public var inspectorScrollRows: Int {
    guard let scroll = inspectorScroll, scroll.subject == inspectorSubject else { return 0 }
    return scroll.rows
  }

  /// How many rows of the opened notification's content are scrolled past: 0 for one not
  /// scrolled yet, or when no notification is open.
  public var detailScrollRows: Int {
    guard case .detail(let id) = screen, let scroll = detailScroll, scroll.id == id else { return 0 }
    return scroll.rows
  }
}

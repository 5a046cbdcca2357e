import PushCore
import PushTestSupport
import Synchronization
import Testing

@testable import PushUI

/// `run` on a large capture: the timeline keeps capture lines as references decoded when played
/// (``TimelineStore``), and a seek to the end takes a device played ahead (``PlayAhead``)
/// instead of playing every entry on the front end. Counted in entries played and lines
/// decoded, not in time.
@Suite("Play-ahead seeks and the lean timeline")
struct PlayAheadSeekTests {
  /// Capture lines held in memory, decoded on demand and counted.
  final class Lines: CaptureLineSource {
    let lines: [String]
    let decoded = Mutex(0)

    init(_ lines: [String]) { self.lines = lines }

    /// How many lines were decoded so far.
    var count: Int { decoded.withLock { $0 } }

    func event(of line: CaptureLineRef) -> TimelineEvent {
      decoded.withLock { $0 += 1 }
      let record = PushReader.readCaptureLine(
        Array(lines[line.line - 1].utf8), lineNumber: line.line, source: "scale.jsonl")
      return .device(.push(record))
    }
  }

  /// A device played ahead, finished or still playing.
  final class Ahead: PlayAhead {
    let state: AppState?
    let isPlaying: Bool

    init(_ state: AppState?, isPlaying: Bool = false) {
      self.state = state
      self.isPlaying = isPlaying
    }

    func finished() -> AppState? { isPlaying ? nil : state }
  }

  /// A device played ahead that is still reading: it hands over the states queued in
  /// ``handed`` one per call of ``latest()``, then finishes with ``final`` and ``checkpoints``.
  final class Reading: PlayAhead {
    struct Shared {
      var handed: [AppState] = []
      var asked = 0
      var final: AppState?
      var checkpoints: [AppState] = []
    }
    let shared = Mutex(Shared())

    func finished() -> AppState? { shared.withLock { $0.final } }
    var isPlaying: Bool { shared.withLock { $0.final == nil } }
    func latest() -> AppState? {
      shared.withLock { shared in
        shared.asked += 1
        return shared.handed.isEmpty ? nil : shared.handed.removeFirst()
      }
    }
    func checkpoint(atOrBefore instant: SimInstant) -> AppState? {
      shared.withLock { shared in shared.checkpoints.last { $0.now <= instant } }
    }
    func finish(_ final: AppState, checkpoints: [AppState] = []) {
      shared.withLock { shared in
        shared.final = final
        shared.checkpoints = checkpoints
      }
    }
  }

  /// A lean state played (as the reader thread plays it) to `seconds` after the start.
  static func played(_ source: Lines, to seconds: Int64) -> AppState {
    var state = leanState(source)
    _ = reduce(into: &state, .tick(start + .seconds(seconds)))
    return state
  }

  static let start = DemoScenario.start

  static func profile() -> DeviceProfile {
    var profile = DeviceProfile(start: start, isLocked: false)
    profile.apps = [AppProfile(info: .inferred(from: "com.example.chat"))]
    profile.maxStoredNotifications = 1_000_000
    return profile
  }

  /// `count` capture lines, one every 3 s, over three apps, every fifth replacing another.
  static func lines(_ count: Int) -> [String] {
    let apps = ["com.example.chat", "com.example.mail", "com.example.news"]
    return (0..<count).map { index in
      let collapse = index % 5 == 0 ? #","headers":{"apns-collapse-id":"c\#(index % 50)"}"# : ""
      return
        #"{"at":\#(start.epochSeconds + Double(index * 3)),"bundle":"\#(apps[index % 3])"\#(collapse),"payload":{"aps":{"alert":{"title":"T\#(index)","body":"B"},"thread-id":"t\#(index % 7)"}}}"#
    }
  }

  /// A state whose timeline holds the lines as references.
  static func leanState(_ source: Lines) -> AppState {
    var timeline = TimelineStore(lineSource: source)
    for index in source.lines.indices {
      let ref = CaptureLineRef(input: 0, offset: 0, length: source.lines[index].utf8.count, line: index + 1)
      let kept = timeline.append(at: start + .seconds(Int64(index * 3)), line: ref)
      #expect(kept)
    }
    var state = AppState(device: DeviceSimulator(profile: profile()))
    state.appendTimeline(timeline)
    return state
  }

  /// What the screens show of a state: the lock screen's stacks, Notification Center's rows,
  /// the clock, the banners and the counts.
  /// A lean state over `source` with every entry up to `instant` played, in one tick.
  static func played(_ source: Lines, to instant: (AppState) -> SimInstant) -> AppState {
    var state = leanState(source)
    _ = reduce(into: &state, .tick(instant(state)))
    return state
  }

  static func shown(_ state: AppState) -> String {
    let lock = state.lockScreenGroups().map { "\($0.key):\($0.count):\($0.notifications.map(\.id))" }
    let center = state.centerRows().map { "\($0)" }
    return "\(state.now) \(state.device.store.count) \(state.banners) \(state.pendingEventCount) \(lock) \(center)"
  }

  @Test func theLeanTimelineDecodesOnlyWhatIsPlayedOrShown() {
    let source = Lines(Self.lines(1_000))
    var state = Self.leanState(source)
    #expect(state.timeline.referenceCount == 1_000)
    #expect(source.count == 0, "placing and ordering read times only")
    _ = reduce(into: &state, .tick(Self.start + .seconds(30)))
    // Entries at 0, 3, …, 30 s: eleven played, nothing else decoded.
    #expect(state.arrivedCount == 11)
    #expect(source.count == 11)
    #expect(state.device.store.count == 11)
  }

  @Test func theLeanTimelinePlaysWhatTheWholeOnePlays() {
    let lines = Self.lines(3_000)
    let source = Lines(lines)
    var lean = Self.leanState(source)
    var whole = AppState(
      device: DeviceSimulator(profile: Self.profile()),
      timeline: lines.enumerated().map { index, line in
        TimelineEntry(
          at: Self.start + .seconds(Int64(index * 3)),
          event: .push(PushReader.readCaptureLine(Array(line.utf8), lineNumber: index + 1, source: "scale.jsonl")))
      })
    for target in [Self.start + .seconds(100), Self.start + .seconds(5_000), Self.start + .seconds(9_000)] {
      _ = reduce(into: &lean, .tick(target))
      _ = reduce(into: &whole, .tick(target))
      #expect(Self.shown(lean) == Self.shown(whole))
    }
  }

  @Test func aSeekToTheEndTakesTheDevicePlayedAheadAndPlaysNothingHere() {
    let count = 20_000
    let source = Lines(Self.lines(count))
    // Played ahead: every entry, in one tick, as the reader thread does.
    var ahead = Self.leanState(source)
    let end = ahead.timeline.instant(count - 1)
    _ = reduce(into: &ahead, .tick(end))
    #expect(ahead.playedEntryCount == count)
    var front = Self.leanState(source)
    front.playAhead = Ahead(ahead)
    let decodedBefore = source.count
    // A seek to one minute past the end, as `g +1m` at the end would be.
    _ = reduce(into: &front, .tick(end + .seconds(60)))
    #expect(front.playAheadTakeovers == 1)
    #expect(front.playedEntryCount == 0, "no entry played on the front end")
    #expect(source.count == decodedBefore, "no line decoded again")
    // What it shows is what playing every entry shows.
    let played = Self.played(source) { _ in end + .seconds(60) }
    #expect(Self.shown(front) == Self.shown(played))
    #expect(front.arrivedCount == count)
  }

  @Test func aShortMoveOrAMoveBeforeTheDeviceAheadPlaysHere() {
    let count = 10_000
    let source = Lines(Self.lines(count))
    let ahead = Self.played(source) { $0.timeline.instant(count - 1) }
    var front = Self.leanState(source)
    front.playAhead = Ahead(ahead)
    // A few minutes: fewer entries than `playAheadMinimum`, played here.
    _ = reduce(into: &front, .tick(Self.start + .seconds(300)))
    #expect(front.playAheadTakeovers == 0)
    #expect(front.playedEntryCount == 101)
    // To the middle: the device ahead is past it, so the entries are played here.
    _ = reduce(into: &front, .tick(Self.start + .seconds(15_000)))
    #expect(front.playAheadTakeovers == 0)
    #expect(front.playedEntryCount == 5_001)
  }

  @Test func aSeekPastWhatIsReadWaitsForTheDevicePlayedAhead() {
    let source = Lines(Self.lines(5_000))
    var front = Self.leanState(source)
    front.playAhead = Ahead(nil, isPlaying: true)
    let end = front.timeline.instant(4_999) + .hours(1)
    _ = reduce(into: &front, .tick(end))
    #expect(front.playedEntryCount == 0, "waits: nothing played")
    #expect(front.now == Self.start)
    #expect(front.toast?.text.hasPrefix("Seeking") == true)
    // The user's own events are not on the device played ahead: it no longer stands in.
    front.playAhead = Ahead(nil, isPlaying: true)
    _ = reduce(into: &front, .command(.toggleLock))
    _ = reduce(into: &front, .tick(end))
    #expect(front.playedEntryCount == 5_000)
  }

  @Test func aSeekPastWhatIsReadLandsOnTheLatestStatePlayedAndFollowsIt() {
    let count = 20_000
    let source = Lines(Self.lines(count))
    var front = Self.leanState(source)
    let reading = Reading()
    front.playAhead = reading
    let target = front.timeline.instant(count - 1) + .hours(1)
    // Sent before anything was handed over: it waits, and says where it is going.
    _ = reduce(into: &front, .tick(target))
    #expect(front.playedEntryCount == 0)
    #expect(front.followingTo == target)
    #expect(front.toast?.text.hasPrefix("Seeking") == true)
    // The reader hands over what it has played so far (a third of the lines): the front end
    // lands there, plays nothing itself and keeps following.
    let third = Self.played(source, to: 20_000)
    reading.shared.withLock { $0.handed = [third.handedOver()] }
    _ = reduce(into: &front, .tick(target))
    #expect(front.playAheadTakeovers == 1)
    #expect(front.playedEntryCount == 0, "no entry played on the front end")
    #expect(front.arrivedCount == third.playedEntryCount)
    #expect(front.now == third.now)
    #expect(front.followingTo == target)
    #expect(Self.shown(front) == Self.shown(third))
    // A later one: it moves on again.
    let twoThirds = Self.played(source, to: 40_000)
    reading.shared.withLock { $0.handed = [twoThirds.handedOver()] }
    _ = reduce(into: &front, .tick(target))
    #expect(front.playAheadTakeovers == 2)
    #expect(front.arrivedCount == twoThirds.playedEntryCount)
    // Nothing new: it stays where it is.
    _ = reduce(into: &front, .tick(target))
    #expect(front.arrivedCount == twoThirds.playedEntryCount)
    #expect(front.playedEntryCount == 0)
    // Everything read and played: the end, as playing every entry gives it.
    let all = Self.played(source) { _ in target }
    reading.finish(all.handedOver())
    _ = reduce(into: &front, .tick(target))
    #expect(front.playAheadTakeovers == 3)
    #expect(front.followingTo == nil)
    #expect(front.playedEntryCount == 0)
    #expect(Self.shown(front) == Self.shown(all))
    #expect(reading.shared.withLock { $0.asked } >= 3)
  }

  @Test func aSeekIntoTheMiddleLandsOnACheckpointAndPlaysTheRestASliceATurn() {
    let count = 20_000
    let source = Lines(Self.lines(count))
    var all = Self.leanState(source)
    let end = all.timeline.instant(count - 1)
    _ = reduce(into: &all, .tick(end))
    let reading = Reading()
    // Checkpoints every 5,000 lines (15,000 s), as the reader keeps them.
    reading.finish(
      all.handedOver(),
      checkpoints: [15_000, 30_000, 45_000].map { Self.played(source, to: $0).handedOver() })
    var front = Self.leanState(source)
    front.playAhead = reading
    front.playSlice = 1_000
    // To 36,000 s (12,001 entries): from the checkpoint at 30,000 s (10,001 entries), the
    // remaining 2,000 entries are played here, 1,000 a turn.
    let target = Self.start + .seconds(36_000)
    _ = reduce(into: &front, .tick(target))
    #expect(front.playAheadTakeovers == 1)
    #expect(front.playedEntryCount == 1_000)
    #expect(front.arrivedCount == 11_001)
    #expect(front.followingTo == target)
    #expect(front.now == front.timeline.instant(11_000))
    _ = reduce(into: &front, .tick(target))
    #expect(front.playedEntryCount == 2_000, "at most the entries since the checkpoint")
    #expect(front.arrivedCount == 12_001)
    #expect(front.followingTo == nil)
    #expect(front.now == target)
    // What it shows is what playing every entry up to there shows.
    let played = Self.played(source) { _ in target }
    #expect(Self.shown(front) == Self.shown(played))
  }

  @Test func aSlicedMoveEndsWhereAWholeOneDoesAndASeekMeanwhileSetsTheClock() {
    let count = 10_000
    let source = Lines(Self.lines(count))
    var sliced = Self.leanState(source)
    sliced.playSlice = 3_000
    let target = Self.start + .seconds(27_000)  // 9,001 entries
    _ = reduce(into: &sliced, .tick(target))
    #expect(sliced.arrivedCount == 3_000)
    #expect(sliced.followingTo == target)
    // The runtime's clock is already at the target: a seek meanwhile sets it, not moves it on.
    let later = Self.start + .seconds(28_000)
    let effects = sliced.seek(to: later)
    #expect(effects == [.seekClock(to: later)])
    for _ in 0..<3 { _ = reduce(into: &sliced, .tick(later)) }
    #expect(sliced.followingTo == nil)
    #expect(sliced.playedEntryCount == 9_334)
    let whole = Self.played(source) { _ in later }
    #expect(whole.followingTo == nil)
    #expect(Self.shown(sliced) == Self.shown(whole))
  }
}

import PushCore

/// Maps wall time to simulated time.
///
/// In ``Mode/wall`` mode simulated time starts at the scenario's start and advances with real
/// time; in ``Mode/manual`` mode it only moves when told (`]` in the UI, or a test). Either
/// way ``advance(by:)`` skips ahead.
public struct SimulationClock: Sendable {
  /// How simulated time moves.
  public enum Mode: String, Sendable, CaseIterable {
    /// With the wall clock.
    case wall
    /// Only when advanced explicitly (end-to-end tests, demos).
    case manual
  }

  /// How time moves.
  public private(set) var mode: Mode
  /// How many simulated seconds pass per wall second in ``Mode/wall`` mode.
  public private(set) var speed: Double
  private var start: SimInstant
  private var origin: ContinuousClock.Instant
  private var offset: SimDuration

  /// Starts a clock at a simulated instant.
  public init(start: SimInstant, mode: Mode, speed: Double = 1, origin: ContinuousClock.Instant = .now) {
    self.mode = mode
    self.speed = speed > 0 ? speed : 1
    self.start = start
    self.origin = origin
    self.offset = SimDuration(milliseconds: 0)
  }

  /// The simulated now, given the wall clock's now.
  public func now(at wall: ContinuousClock.Instant = .now) -> SimInstant {
    guard mode == .wall else { return start + offset }
    let elapsed = origin.duration(to: wall).components
    let milliseconds = elapsed.seconds * 1000 + elapsed.attoseconds / 1_000_000_000_000_000
    let scaled = Int64((Double(milliseconds) * speed).rounded())
    return start + offset + SimDuration(milliseconds: scaled)
  }

  /// Runs with the wall clock (`running`) or stops (manual), at `speed` simulated seconds per
  /// real second; simulated time carries on from where it is.
  public mutating func set(running: Bool, speed: Double, at wall: ContinuousClock.Instant = .now) {
    rebase(at: wall)
    mode = running ? .wall : .manual
    if speed > 0 { self.speed = speed }
  }

  /// Sets simulated time to `instant` (backwards too, for seeking).
  public mutating func seek(to instant: SimInstant, at wall: ContinuousClock.Instant = .now) {
    start = instant
    origin = wall
    offset = SimDuration(milliseconds: 0)
  }

  private mutating func rebase(at wall: ContinuousClock.Instant) {
    seek(to: now(at: wall), at: wall)
  }

  /// Moves simulated time forward.
  public mutating func advance(by duration: SimDuration) {
    offset = SimDuration(milliseconds: offset.milliseconds + duration.milliseconds)
  }
}

import PushCore

extension AppState {
  /// A scenario opened partway through: the events up to `instant` have already happened on
  /// the device (quietly, as before the user looked: no banners), the later ones wait on the
  /// timeline. This is how the built-in demo (`Examples/demo.yaml`) opens at 09:41.
  ///
  /// - Parameters:
  ///   - scenario: the scenario, as loaded.
  ///   - instant: the moment the front end opens.
  ///   - upcoming: whether the events after `instant` are on the timeline.
  public init(opening scenario: Scenario, at instant: SimInstant, upcoming: Bool = true) {
    var device = DeviceSimulator(profile: scenario.profile)
    var later: [TimelineEntry] = []
    for timed in scenario.timeline {
      if timed.at <= instant {
        Scenario.apply(timed, to: &device)
      } else if upcoming {
        later.append(TimelineEntry(timed))
      }
    }
    device.advance(to: max(instant, device.now))
    self.init(device: device, timeline: later)
  }
}

import PushCore

extension AppState {
  /// A push that arrived from outside the timeline — the APNs endpoint of `run --listen` — is
  /// applied at the current simulated time, like a push on the timeline: policy, store, banner.
  public mutating func receive(_ record: PushRecord) {
    apply(.push(record), at: now)
    refreshViewCaches()
  }
}

import PushCore

extension DeviceProfile {
  /// A chat app and a news app whose notifications wait for a Scheduled Summary at 23:00: the
  /// device the restore tests of PushCore and PushStore build, journal and rebuild.
  public static func chatAndSummarisedNews(start: SimInstant) -> DeviceProfile {
    var profile = DeviceProfile(start: start)
    profile.summaryTimes = [TimeOfDay(hour: 23, minute: 0)]
    var news = AppProfile(info: .inferred(from: "com.example.news"))
    news.settings.delivery = .scheduledSummary
    profile.apps = [AppProfile(info: .inferred(from: "com.example.chat")), news]
    return profile
  }
}

import PushCore

/// The built-in demo that `swift run pushdeck` opens, played from YAML.
///
/// ``yaml`` is a copy of `Examples/demo.yaml`; `BuiltInDemoTests` fails when the two differ, so
/// edit the example and paste it here.
public enum BuiltInDemo {
  /// The text of `Examples/demo.yaml`.
  public static let yaml = #"""
    # The built-in demo that `swift run pushdeck` opens: a Monday morning on a locked iPhone.
    # PushScenario embeds this file (BuiltInDemo.yaml); a test keeps the two byte-identical.
    title: Monday morning
    description: >
      Six notifications from five apps arrive between 8:06 and 9:40; the demo opens at 9:41 on
      the lock screen with a passive news briefing, two time-sensitive alerts, a two-message
      thread and a delivery update with a custom sound.

    profile:
      start: 2026-11-23T08:06:00Z
      timeZone: UTC
      locked: true
      apps:
        - bundle: com.example.messages
          name: Messages
          icon: 💬
          categories:
            - id: MESSAGE
              actions:
                - id: REPLY
                  title: Reply
                  textInput: {button: Send, placeholder: "iMessage"}
                - id: LIKE
                  title: ❤️
        - bundle: com.example.fooddash
          name: FoodDash
          icon: 🍜
        - bundle: com.example.news
          name: Daily News
          icon: 📰
        - bundle: com.example.bank
          name: Bank
          icon: 🏦
        - bundle: com.example.calendar
          name: Calendar
          icon: 📅

    timeline:
      - at: 2026-11-23T08:06:00Z
        push:
          bundle: com.example.news
          payload:
            aps:
              alert: {title: Morning briefing, body: "Markets open higher; storm warning for the coast tonight."}
              interruption-level: passive
      - at: 2026-11-23T09:10:00Z
        push:
          bundle: com.example.calendar
          payload:
            aps:
              alert: {title: Design review, subtitle: "10:00 · Room 4", body: Starts in 30 minutes}
              interruption-level: time-sensitive
      - at: 2026-11-23T09:29:00Z
        push:
          bundle: com.example.messages
          payload:
            aps:
              alert: {title: Ana, body: "Are we still on for lunch? 🍣"}
              thread-id: chat-ana
              category: MESSAGE
              sound: default
              badge: 1
      - at: 2026-11-23T09:34:00Z
        push:
          bundle: com.example.bank
          payload:
            aps:
              alert: {title: Card payment, body: "€12.40 at Café Lumière — tap to review"}
              interruption-level: time-sensitive
              sound: default
      - at: 2026-11-23T09:38:00Z
        push:
          bundle: com.example.messages
          payload:
            aps:
              alert: {title: Ana, body: "I booked a table at 12:30 👩‍💻✨"}
              thread-id: chat-ana
              category: MESSAGE
              sound: default
              badge: 2
      - at: 2026-11-23T09:40:00Z
        push:
          bundle: com.example.fooddash
          payload:
            aps:
              alert: {title: Order picked up, subtitle: "Ramen Ichiban · 拉麺", body: Kenji is on the way. Arriving in 12 min.}
              sound: bell.caf
      - at: 2026-11-23T09:41:00Z
        note: The demo opens here.
        advance: 0s
    """# + "\n"

  /// The demo scenario, loaded from ``yaml`` without touching the file system.
  public static func scenario() throws(ScenarioError) -> Scenario {
    try ScenarioLoader(files: .none).loadScenario(text: yaml, file: "Examples/demo.yaml")
  }

  /// The demo device as the lock screen first shows it: the scenario played to its end.
  ///
  /// Falls back to PushCore's hand-written ``DemoScenario/snapshot()`` only if the embedded
  /// YAML does not load, which a test rules out.
  public static func snapshot() -> DeviceSnapshot {
    guard let scenario = try? scenario() else { return DemoScenario.snapshot() }
    return scenario.run().device.snapshot()
  }
}

import Foundation
import PushCore
import PushHandlers
import PushRender
import PushRuntime
import PushScenario
import PushServer
import PushStore
import PushTerminal
import PushUI
import Synchronization

/// Pushes the endpoint accepted, waiting for the front end's next turn, each with the answer
/// to give once it is saved.
package final class LiveInbox: Sendable {
  package init() {}

  package typealias Arrival = (record: PushRecord, done: @Sendable (APNsServer.SaveOutcome) -> Void)
  private let records = Mutex<[Arrival]>([])
  private let refusals = Mutex<(waiting: [APNsExchange], dropped: Int)>(([], 0))

  /// Keeps an exchange the endpoint refused (at most 100 waiting: a flood keeps the newest and
  /// counts the others).
  package func refuse(_ exchange: APNsExchange) {
    refusals.withLock {
      if $0.waiting.count >= 100 {
        $0.waiting.removeFirst()
        $0.dropped += 1
      }
      $0.waiting.append(exchange)
    }
  }

  /// The refusals waiting, and how many more came that were not kept.
  package func drainRefusals() -> (refusals: [APNsExchange], dropped: Int) {
    refusals.withLock { pending in
      defer { pending = ([], 0) }
      return (pending.waiting, pending.dropped)
    }
  }

  package func post(_ record: PushRecord, done: @escaping @Sendable (APNsServer.SaveOutcome) -> Void) {
    records.withLock { $0.append((record, done)) }
  }

  package func drain() -> [Arrival] {
    records.withLock { pending in
      defer { pending = [] }
      return pending
    }
  }
}

extension EndpointRefusal {
  /// The refusal of an exchange the endpoint answered with an error, with what was sent.
  package init(_ exchange: APNsExchange) {
    let request = exchange.request
    self.init(
      status: exchange.status, reason: exchange.reason ?? "Refused", detail: exchange.detail,
      app: exchange.bundleID ?? exchange.topic, method: request?.method ?? "", path: request?.path ?? "",
      headers: request?.headers.map { Header(name: $0.name, value: $0.value) } ?? [],
      body: Self.text(request?.body ?? []), keptBodyBytes: request?.body.count ?? 0,
      bodyByteCount: request?.bodyByteCount ?? 0)
  }

  /// A body as text: UTF-8 as it is, each byte that is not part of a valid sequence as `\xFF`
  /// (a binary body, or a character cut at the end of what is kept).
  static func text(_ bytes: [UInt8]) -> String {
    if let text = String(validating: bytes, as: UTF8.self) { return text }
    var text = ""
    var index = 0
    while index < bytes.count {
      let lead = bytes[index]
      let length =
        switch lead {
        case 0..<0x80: 1
        case 0xC2...0xDF: 2
        case 0xE0...0xEF: 3
        case 0xF0...0xF4: 4
        default: 0
        }
      if length > 0, index + length <= bytes.count,
        let character = String(validating: bytes[index..<index + length], as: UTF8.self)
      {
        text += character
        index += length
      } else {
        text += String(format: "\\x%02X", lead)
        index += 1
      }
    }
    return text
  }
}

/// What `run` does with pushes read in the background after each turn: puts them on the
/// timeline (leaving out those a continued device already had), shows the progress, and says
/// once, when reading ends, what was not replayed or could not be read.
package struct FeedFollower {
  package let resumedAt: SimInstant?
  package var skipped: Int
  package var isDone = false

  package init(resumedAt: SimInstant?, skipped: Int) {
    self.resumedAt = resumedAt
    self.skipped = skipped
  }

  package mutating func follow(_ feed: TimelineFeed, into state: inout AppState) {
    guard !isDone else { return }
    let taken = feed.take()
    var entries = taken.entries
    if let resumedAt { skipped += entries.removeEntries(atOrBefore: resumedAt) }
    if !entries.isEmpty { state.appendTimeline(entries) }
    state.readingProgress = taken.isDone ? nil : taken.progress
    guard taken.isDone else { return }
    isDone = true
    if let failure = taken.failure {
      state.showToast("Not everything could be read: \(failure)")
    } else if skipped > 0 {
      state.showToast("\(skipped) earlier event\(skipped == 1 ? "" : "s") not replayed (at or before the saved clock)")
    }
  }
}

import Dispatch
import Foundation
import PushCore
import Synchronization

/// What a service extension receives: `didReceive(_ request:withContentHandler:)`'s request.
public struct ServiceExtensionRequest: Sendable {
  /// The request identifier (the collapse id, else where the push came from); read-only on iOS.
  public var identifier: String
  /// The app's bundle id.
  public var bundleID: String
  /// The content as delivered, which the extension modifies.
  public var content: NotificationContent
  /// The extension's budget, in simulated seconds.
  public var budgetSeconds: Double

  /// Creates a request.
  public init(identifier: String, bundleID: String, content: NotificationContent, budgetSeconds: Double) {
    self.identifier = identifier
    self.bundleID = bundleID
    self.content = content
    self.budgetSeconds = budgetSeconds
  }
}

/// The extension's `bestAttemptContent`: what it has so far, which the device takes when the
/// budget runs out (`serviceExtensionTimeWillExpire`).
///
/// It also takes notes for `explain` (a decryption that failed behind a placeholder…).
public final class BestAttemptContent: Sendable {
  private let value = Mutex<NotificationContent?>(nil)
  private let noted = Mutex<[String]>([])

  /// Creates an empty best attempt.
  public init() {}

  /// Records the content the extension has so far.
  public func update(_ content: NotificationContent) { value.withLock { $0 = content } }

  /// The latest attempt, if any.
  public var current: NotificationContent? { value.withLock { $0 } }

  /// Adds a note that `explain` shows as a reason.
  public func note(_ text: String) { noted.withLock { $0.append(text) } }

  /// The notes so far.
  public var notes: [String] { noted.withLock { $0 } }
}

/// Why an extension ended without handing back content.
public enum ServiceExtensionError: Error, Equatable, Sendable {
  /// The extension's own work ran out of time: the device takes the best attempt.
  case timeWillExpire
  /// The extension failed (crashed), with a message.
  case failed(String)
}

/// A Notification Service Extension: the request's content in, the modified content out.
///
/// Return nil (or throw) and the device shows the original content, as iOS does when the
/// content handler is never called. Keep ``BestAttemptContent`` up to date as work progresses:
/// when the budget runs out the device delivers it.
public protocol ServiceExtension: Sendable {
  func didReceive(_ request: ServiceExtensionRequest, bestAttempt: BestAttemptContent) async throws
    -> NotificationContent?
}

/// The service extensions of a device's apps, by bundle id, and the runner that plays the
/// device's part: budget, best attempt, original content on failure, attachment checks.
public struct ServiceExtensionRegistry: Sendable {
  /// One app's extension.
  public struct Entry: Sendable {
    /// For `explain`: `decrypt`, `attach-media`, `exec ./nse.py`.
    public var name: String
    public var budgetSeconds: Double
    public var serviceExtension: any ServiceExtension

    /// Creates an entry.
    public init(name: String, budgetSeconds: Double, serviceExtension: any ServiceExtension) {
      self.name = name
      self.budgetSeconds = budgetSeconds
      self.serviceExtension = serviceExtension
    }
  }

  /// The extensions by bundle id.
  public private(set) var entries: [String: Entry] = [:]
  /// Applied to each accepted attachment (the app layer makes image thumbnails here).
  public var decorateAttachment: (@Sendable (NotificationAttachment) -> NotificationAttachment)?

  /// Creates an empty registry.
  public init() {}

  /// The registry a profile describes: the built-in extension of every app that has one.
  public init(profile: DeviceProfile) {
    for app in profile.apps {
      guard app.hasServiceExtension else { continue }
      let config = app.serviceExtension ?? ServiceExtensionConfig(kind: .passThrough)
      entries[app.bundleID] = Entry(
        name: Self.summary(config.kind), budgetSeconds: config.budgetSeconds,
        serviceExtension: Self.builtIn(config.kind))
    }
  }

  /// Registers (or replaces) an app's extension.
  public mutating func register(
    bundleID: String, name: String, budgetSeconds: Double = ServiceExtensionConfig.defaultBudgetSeconds,
    _ serviceExtension: any ServiceExtension
  ) {
    entries[bundleID] = Entry(name: name, budgetSeconds: budgetSeconds, serviceExtension: serviceExtension)
  }

  /// Whether any app has an extension (so callers can skip the work).
  public var isEmpty: Bool { entries.isEmpty }

  /// A built-in extension.
  public static func builtIn(_ kind: ServiceExtensionKind) -> any ServiceExtension {
    switch kind {
    case .passThrough: PassThroughExtension()
    case .attachMedia(let keys): AttachMediaExtension(keys: keys)
    case .decrypt(let key, let payloadKey, let placeholder):
      DecryptExtension(key: key, payloadKey: payloadKey, placeholder: placeholder)
    case .exec(let argv): ExecServiceExtension(argv: argv)
    }
  }

  /// `decrypt`, `attach-media (image-url)`, `exec ./nse.py`.
  public static func summary(_ kind: ServiceExtensionKind) -> String {
    switch kind {
    case .passThrough: "pass-through"
    case .attachMedia(let keys): "attach-media (\(keys.joined(separator: ", ")))"
    case .decrypt: "decrypt"
    case .exec(let argv):
      "exec " + argv.map { $0.contains(" ") || $0.isEmpty ? JSONValue.quoted($0) : $0 }.joined(separator: " ")
    }
  }

  // MARK: Running

  /// Runs one extension on a request within its budget, the way the device does.
  ///
  /// - Content handed back in time is used (``ServiceExtensionResult/Outcome/modified``).
  /// - When the budget runs out, or the extension reports ``ServiceExtensionError/timeWillExpire``,
  ///   the best attempt is delivered; with none, the original content.
  /// - A thrown error or nil shows the original content.
  /// Attachments in the content are then checked (``AttachmentCheck``); refused ones are dropped.
  public static func run(
    _ entry: Entry, request: ServiceExtensionRequest,
    decorate: (@Sendable (NotificationAttachment) -> NotificationAttachment)? = nil
  ) async -> ServiceExtensionResult {
    enum Ending: Sendable {
      case returned(NotificationContent?)
      case threw(ServiceExtensionError)
      case expired
    }
    let bestAttempt = BestAttemptContent()
    let started = DispatchTime.now().uptimeNanoseconds
    let serviceExtension = entry.serviceExtension
    let ending = await withDeadline(seconds: entry.budgetSeconds, fallback: { Ending.expired }) {
      do {
        return Ending.returned(try await serviceExtension.didReceive(request, bestAttempt: bestAttempt))
      } catch let error as ServiceExtensionError {
        return Ending.threw(error)
      } catch {
        return Ending.threw(.failed("\(error)"))
      }
    }
    let elapsed = min(
      Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9,
      entry.budgetSeconds)
    var result = ServiceExtensionResult(
      name: entry.name, outcome: .modified, content: nil, elapsedSeconds: elapsed, budgetSeconds: entry.budgetSeconds)
    switch ending {
    case .returned(let content?):
      result.content = content
    case .returned(nil):
      result.outcome = .failed("it handed back no content")
    case .threw(.failed(let message)):
      result.outcome = .failed(message)
    case .threw(.timeWillExpire), .expired:
      result.elapsedSeconds = entry.budgetSeconds
      let attempt = bestAttempt.current
      result.outcome = .expired(bestAttempt: attempt != nil)
      result.content = attempt
    }
    result.notes = bestAttempt.notes
    if var content = result.content {
      let (accepted, refused) = AttachmentCheck.check(content.attachments)
      content.attachments = decorate.map { accepted.map($0) } ?? accepted
      result.refusedAttachments = refused
      result.content = content
    }
    return result
  }

  /// The request for a push: its content as the device would deliver it.
  public static func request(for record: PushRecord, app: AppProfile, budgetSeconds: Double)
    -> ServiceExtensionRequest?
  {
    guard record.isValid,
      let notification = PushNotification(
        record: record, id: NotificationID(0), receivedAt: SimInstant(milliseconds: 0), app: app),
      DeliveryPolicy.runsServiceExtension(notification, app: app)
    else { return nil }
    return ServiceExtensionRequest(
      identifier: record.headers.collapseID ?? record.source, bundleID: app.bundleID,
      content: notification.content, budgetSeconds: budgetSeconds)
  }

  /// The push with its app's extension run on it (``PushRecord/serviceExtension``), or as it
  /// was when the extension does not run for it.
  public func process(_ record: PushRecord, profile: DeviceProfile) async -> PushRecord {
    guard let bundleID = record.bundleID, let entry = entries[bundleID], let app = profile.app(bundleID),
      app.hasServiceExtension,
      let request = Self.request(for: record, app: app, budgetSeconds: entry.budgetSeconds)
    else { return record }
    var record = record
    record.serviceExtension = await Self.run(entry, request: request, decorate: decorateAttachment)
    return record
  }

  /// ``process(_:profile:)`` for callers outside Swift concurrency (the commands' main
  /// threads): waits on a semaphore while the extension runs on the pool.
  public func processBlocking(_ record: PushRecord, profile: DeviceProfile) -> PushRecord {
    guard mayRun(for: record) else { return record }
    let registry = self
    return waitFor { await registry.process(record, profile: profile) }
  }

  /// Whether a push may need its app's extension (cheap: no decoding).
  func mayRun(for record: PushRecord) -> Bool {
    guard let bundleID = record.bundleID else { return false }
    return entries[bundleID] != nil && record.payload?.aps.mutableContent == true
  }

  /// Every push with its app's extension run, the extensions running side by side (a timeline
  /// of slow extensions takes about the slowest one's time, not their sum); order is kept.
  public func processAll(_ records: [PushRecord], profile: DeviceProfile) async -> [PushRecord] {
    await withTaskGroup(of: (Int, PushRecord).self) { group in
      for (index, record) in records.enumerated() where mayRun(for: record) {
        group.addTask { (index, await self.process(record, profile: profile)) }
      }
      var processed = records
      for await (index, record) in group { processed[index] = record }
      return processed
    }
  }

  /// ``processAll(_:profile:)`` for callers outside Swift concurrency.
  public func processAllBlocking(_ records: [PushRecord], profile: DeviceProfile) -> [PushRecord] {
    guard records.contains(where: mayRun) else { return records }
    let registry = self
    return waitFor { await registry.processAll(records, profile: profile) }
  }

  /// A scenario's timeline with every push's extension run (``processAllBlocking(_:profile:)``).
  public func processBlocking(_ timeline: [TimedEvent], profile: DeviceProfile) -> [TimedEvent] {
    guard !isEmpty else { return timeline }
    var slots: [Int] = []
    var records: [PushRecord] = []
    // Only the pushes an extension may change are replaced: the others keep their event, which
    // entries repeated through a YAML alias share (``TimedEvent``).
    for (index, timed) in timeline.enumerated() {
      if case .device(.push(let record, _)) = timed.event, mayRun(for: record) {
        slots.append(index)
        records.append(record)
      }
    }
    var processed = timeline
    for (slot, record) in zip(slots, processAllBlocking(records, profile: profile)) {
      if case .device(.push(_, let sender)) = processed[slot].event {
        processed[slot].event = .device(.push(record, sender: sender))
      }
    }
    return processed
  }
}

/// Runs async work to the end from synchronous code outside Swift concurrency (a command's
/// main thread, a Dispatch queue): the work runs on the pool while this thread waits. Never call
/// it from a task, which would hold a pool thread.
public func waitFor<Value: Sendable>(_ work: @escaping @Sendable () async -> Value) -> Value {
  let box = Mutex<Value?>(nil)
  let done = DispatchSemaphore(value: 0)
  Task.detached {
    let value = await work()
    box.withLock { $0 = value }
    done.signal()
  }
  done.wait()
  return box.withLock { $0 }!
}

extension ServiceExtensionRegistry: ServiceExtensionStep {
  /// The ingest step's first stage (``DeviceSimulator/ingest(_:sender:at:extensions:into:)``):
  /// ``processBlocking(_:profile:)``.
  public func prepare(_ record: PushRecord, profile: DeviceProfile) -> PushRecord {
    isEmpty ? record : processBlocking(record, profile: profile)
  }
}

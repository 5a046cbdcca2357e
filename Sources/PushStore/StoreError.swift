/// Why the device's state database could not be opened, read or written.
///
/// Every case says what happened and what to do; none of them means data was lost or a file was
/// overwritten. Print ``description`` to the user.
public enum StoreError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The file is not a readable SQLite database, or SQLite found damage in it.
  case corrupt(path: String, detail: String)
  /// The database was written by a newer Pushdeck, with a schema this one does not know.
  case newerSchema(path: String, found: Int, supported: Int, writtenBy: String?)
  /// The file is a SQLite database, but not one Pushdeck wrote.
  case foreignDatabase(path: String)
  /// The state directory or database file cannot be written (permissions, read-only file system).
  case unwritable(path: String, detail: String)
  /// The disk (or the database's size limit) is full; the last batch was not saved.
  case full(path: String)
  /// Another process holds the state: a second Pushdeck on the same database.
  case locked(path: String, holderPID: Int32?, holder: String?)
  /// No state location: neither `XDG_DATA_HOME` nor `HOME` is set.
  case noDataDirectory
  /// `--state` and `--ephemeral` were both given.
  case conflictingLocations
  /// The journal was closed.
  case closed
  /// Any other SQLite failure, with SQLite's message.
  case database(path: String, detail: String)

  /// A message for people: what happened, that nothing was overwritten, and what to do.
  public var description: String {
    switch self {
    case .corrupt(let path, let detail):
      return """
        The state database \(path) is damaged (\(detail)). Pushdeck left it untouched. \
        Move it aside (mv '\(path)' '\(path).broken') to start with an empty device, \
        or run with --state PATH or --ephemeral.
        """
    case .newerSchema(let path, let found, let supported, let writtenBy):
      let writer = writtenBy.map { " by \($0)" } ?? ""
      return """
        The state database \(path) was written\(writer) with schema version \(found); this Pushdeck \
        understands versions up to \(supported). It was not changed. Upgrade Pushdeck, \
        or run with --state PATH or --ephemeral to leave it alone.
        """
    case .foreignDatabase(let path):
      return """
        \(path) is a SQLite database that Pushdeck did not create. It was not changed. \
        Choose another file with --state PATH, or run with --ephemeral.
        """
    case .unwritable(let path, let detail):
      return """
        Pushdeck cannot write its state at \(path) (\(detail)). Make the directory writable, \
        choose another place with --state PATH, or run with --ephemeral.
        """
    case .full(let path):
      return """
        The disk holding \(path) is full: the latest changes were not saved (everything saved \
        before is intact). Free some space, or run with --ephemeral.
        """
    case .locked(let path, let pid, let holder):
      let who = pid.map { "process \($0)" + (holder.map { " (\($0))" } ?? "") } ?? "another process"
      return """
        The state \(path) is in use by \(who). Only one Pushdeck can use a state at a time. \
        Quit the other one, or run with --state PATH or --ephemeral.
        """
    case .noDataDirectory:
      return
        "Neither XDG_DATA_HOME nor HOME is set, so there is no default state location. Use --state PATH or --ephemeral."
    case .conflictingLocations:
      return "--state and --ephemeral cannot be used together: choose one."
    case .closed:
      return "The state database was already closed."
    case .database(let path, let detail):
      return "The state database \(path) failed: \(detail). Nothing was overwritten."
    }
  }
}

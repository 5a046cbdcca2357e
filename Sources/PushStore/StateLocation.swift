/// Where the device's state lives: a database file, or nowhere (`--ephemeral`).
public enum StateLocation: Equatable, Sendable {
  /// A SQLite database at this path.
  case file(String)
  /// In memory only: nothing survives the process.
  case ephemeral

  /// The file name used under the data directory.
  public static let defaultFileName = "device.sqlite"

  /// Resolves the CLI's options to a location.
  ///
  /// `--state PATH` wins; `--ephemeral` means no file; otherwise the default is
  /// `$XDG_DATA_HOME/pushdeck/device.sqlite`, or `$HOME/.local/share/pushdeck/device.sqlite` when
  /// `XDG_DATA_HOME` is unset, empty or relative (the XDG specification says to ignore a relative
  /// value).
  ///
  /// - Parameters:
  ///   - statePath: the `--state` value, if given.
  ///   - ephemeral: whether `--ephemeral` was given.
  ///   - environment: the process environment (passed in, so tests choose it).
  /// - Throws: ``StoreError/conflictingLocations`` for both options,
  ///   ``StoreError/noDataDirectory`` when there is no default.
  public static func resolve(
    statePath: String?, ephemeral: Bool, environment: [String: String]
  ) throws(StoreError) -> StateLocation {
    switch (statePath, ephemeral) {
    case (.some, true): throw .conflictingLocations
    case (.some(let path), false): return .file(path)
    case (nil, true): return .ephemeral
    case (nil, false): break
    }
    if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
      return .file(join(xdg, "pushdeck", defaultFileName))
    }
    if let home = environment["HOME"], !home.isEmpty {
      return .file(join(home, ".local/share/pushdeck", defaultFileName))
    }
    throw .noDataDirectory
  }

  private static func join(_ parts: String...) -> String {
    var result = ""
    for part in parts {
      if result.isEmpty {
        result = part
      } else {
        result += (result.hasSuffix("/") ? "" : "/") + part
      }
    }
    return result
  }
}

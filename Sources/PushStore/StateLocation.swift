/// Where the device's state lives: a database file, or nowhere (`--ephemeral`).
public enum StateLocation: Equatable, Sendable {
  /// A SQLite database at this path.
  case file(String)
  /// In memory only: nothing survives the process.
  case ephemeral

  /// The file name used under the data directory.
  public static let defaultFileName = "device.sqlite"

  /// The folder under the data directory that holds each input's own device.
  public static let inputDevicesFolder = "devices"

  /// Resolves the CLI's options to a location.
  ///
  /// `--state PATH` wins; `--ephemeral` means no file; otherwise the default is under
  /// `$XDG_DATA_HOME/pushdeck/`, or `$HOME/.local/share/pushdeck/` when `XDG_DATA_HOME` is
  /// unset, empty or relative (the XDG specification says to ignore a relative value):
  /// `device.sqlite` for a session without inputs, and for inputs a device of their own,
  /// `devices/NAME-HASH.sqlite` (``inputDeviceFileName(for:)``), so an unrelated capture never
  /// plays into an old device.
  ///
  /// - Parameters:
  ///   - statePath: the `--state` value, if given.
  ///   - ephemeral: whether `--ephemeral` was given.
  ///   - environment: the process environment (passed in, so tests choose it).
  ///   - inputs: the absolute paths of the session's inputs (none: the shared device).
  /// - Throws: ``StoreError/conflictingLocations`` for both options,
  ///   ``StoreError/noDataDirectory`` when there is no default.
  public static func resolve(
    statePath: String?, ephemeral: Bool, environment: [String: String], inputs: [String] = []
  ) throws(StoreError) -> StateLocation {
    switch (statePath, ephemeral) {
    case (.some, true): throw .conflictingLocations
    case (.some(let path), false): return .file(path)
    case (nil, true): return .ephemeral
    case (nil, false): break
    }
    let fileName = inputs.isEmpty ? defaultFileName : join(inputDevicesFolder, inputDeviceFileName(for: inputs))
    if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
      return .file(join(xdg, "pushdeck", fileName))
    }
    if let home = environment["HOME"], !home.isEmpty {
      return .file(join(home, ".local/share/pushdeck", fileName))
    }
    throw .noDataDirectory
  }

  /// The file name of the device a set of inputs plays on: the first input's name (letters,
  /// digits, `.`, `-` and `_` only, at most 40) and a hash of every input's absolute path, in
  /// order (FNV-1a, 64 bits: a name, not a secret), e.g. `week-3f2a9c1d0b7e4a65.sqlite`.
  public static func inputDeviceFileName(for inputs: [String]) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in inputs.joined(separator: "\u{0}").utf8 {
      hash ^= UInt64(byte)
      hash &*= 0x0000_0100_0000_01b3
    }
    let base =
      inputs.first.map { path in
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let stem = name.split(separator: ".").first.map(String.init) ?? name
        return String(
          stem.unicodeScalars.filter {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_".unicodeScalars.contains($0))
          }
          .prefix(40).map(Character.init))
      } ?? ""
    let hex = String(hash, radix: 16)
    let digits = String(repeating: "0", count: 16 - hex.count) + hex
    return (base.isEmpty ? "input" : base) + "-" + digits + ".sqlite"
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

/// Pushdeck's version: the one place it is written (`pushdeck --version` prints it; the manual
/// page and README take it from there). Raise it when a release is cut.
enum PushdeckVersion {
  static let text = "0.9.0"
}

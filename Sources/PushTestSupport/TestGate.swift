import Foundation
import Testing

/// Whether every gated test must run: `.ci/run` sets `PUSHDECK_REQUIRE_ALL=1`, so a test whose
/// tool, binary or shared data is missing runs anyway and fails, instead of being skipped: a
/// test that skips in CI is a test that did not run.
public enum TestGate {
  public static let isStrict = ProcessInfo.processInfo.environment["PUSHDECK_REQUIRE_ALL"] == "1"
}

extension Trait where Self == ConditionTrait {
  /// Runs the test or suite only where `condition` holds (a tool is installed, the binary was
  /// built, `../shared` is beside the checkout), and always under ``TestGate/isStrict``, where
  /// what is missing then fails the test.
  public static func requires(
    _ condition: @autoclosure @escaping @Sendable () -> Bool, _ comment: Comment,
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> Self {
    .enabled(comment, sourceLocation: sourceLocation) { TestGate.isStrict || condition() }
  }
}

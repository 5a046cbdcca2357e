import Foundation
import PushTestSupport
import Testing

/// `run`'s flags that configure nothing without the flag they belong to are usage errors, not
/// silently dropped (`run --tls --jwt-key K` opened the UI with nothing listening).
@Suite(.requires(PushdeckProcess.binary != nil, "the pushdeck binary was not built"))
struct RunUsageCLITests {
  @Test(arguments: [
    (["--tls", "--bind", "127.0.0.1"], "--tls, --bind configure the endpoint that --listen runs"),
    (["--jwt-key", "AuthKey_ABC123DEFG.p8"], "--jwt-key configures the endpoint that --listen runs"),
    (["--accept-any-token", "--auth", "none"], "--auth, --accept-any-token configure"),
  ])
  func endpointFlagsWithoutListenAreAUsageError(_ flags: [String], _ message: String) throws {
    let output = try PushdeckProcess.run(["run", "--ephemeral"] + flags)
    #expect(output.status == 2)
    #expect(output.standardError.contains(message), "\(output.standardError)")
    #expect(output.standardError.contains("add --listen [PORT]"))
  }
}

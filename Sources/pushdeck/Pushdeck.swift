import ArgumentParser
import PushShell

#if canImport(Glibc)
  import Glibc
#endif

/// The `pushdeck` command: subcommands for the front end, headless rendering and linting.
@main
struct Pushdeck: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "pushdeck",
    abstract: "A terminal notification-center emulator for APNs payloads.",
    discussion: """
      Without a subcommand, `run` opens: with no inputs, the built-in demo. Everything it needs \
      (themes, the demo) is compiled in, so the binary works from any directory. Shell \
      completion: pushdeck --generate-completion-script bash|zsh|fish.
      """,
    version: PushdeckVersion.text,
    subcommands: [
      RunCommand.self, RenderCommand.self, ValidateCommand.self, ExplainCommand.self, ReplayCommand.self,
      ServeCommand.self, PushCommand.self, StoryboardCommand.self, TestCommand.self,
    ],
    defaultSubcommand: RunCommand.self
  )

  /// Runs the command, mapping usage errors to exit status 2 (ArgumentParser's default is 64)
  /// so that every Pushdeck command has the same contract: 0 fine, 1 findings, 2 usage or I/O.
  static func main() async {
    // The subcommand parsed, once it is: a usage error its run() finds names its own usage.
    var parsed: ParsableCommand.Type?
    do {
      // The arguments with their bytes kept: a file name that is not UTF-8 still opens (RawPath).
      var command = try parseAsRoot(RunCommand.defaultingListenPort(Array(RawPath.arguments().dropFirst())))
      parsed = type(of: command)
      if var asyncCommand = command as? AsyncParsableCommand {
        try await asyncCommand.run()
      } else {
        try command.run()
      }
    } catch {
      // A mistake in what the inputs or a theme say (a scenario's located error, a theme that
      // is not there) is said as `explain` says it, `pushdeck: file:line:column: …`, exit 2:
      // not after "Error:" with the usage text (it was, for render and storyboard), and not with
      // status 1 (storyboard's unknown theme).
      if let message = (error as? UsageError)?.message {
        FileHandleError.write("pushdeck: \(terminalSafe(message))\n")
        Glibc.exit(2)
      }
      let code = exitCode(for: error)
      if code.rawValue == 64 {
        FileHandleError.write(usageMessage(for: error, in: parsed) + "\n")
        Glibc.exit(2)
      }
      exit(withError: error)
    }
  }
}

extension Pushdeck {
  /// The message of a usage error with the usage of the command it is about. ArgumentParser
  /// knows that command for a mistake it finds while parsing; for a `ValidationError` thrown by a
  /// subcommand's `run()` (`render --size 0x0`) it printed the root's "Usage: pushdeck
  /// <subcommand>" and "See 'pushdeck --help'", which say nothing of the option at fault.
  static func usageMessage(for error: Error, in command: ParsableCommand.Type?) -> String {
    guard error is ValidationError, let command, command != Pushdeck.self,
      let name = command.configuration.commandName
    else { return fullMessage(for: error) }
    return """
      Error: \(message(for: error))
      Usage: \(usageString(for: command))
        See 'pushdeck \(name) --help' for more information.
      """
  }
}

/// Runs shell logic inside a command's `validate()`: ArgumentParser reports only its own
/// `ValidationError` as a usage error from there, so a `UsageError` is handed on as one.
func validating<T>(_ body: () throws -> T) throws -> T {
  do { return try body() } catch let error as UsageError { throw ValidationError(error.message) }
}

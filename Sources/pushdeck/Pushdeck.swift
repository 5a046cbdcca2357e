import ArgumentParser

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
    do {
      // The arguments with their bytes kept: a file name that is not UTF-8 still opens (RawPath).
      var command = try parseAsRoot(RunCommand.defaultingListenPort(Array(RawPath.arguments().dropFirst())))
      if var asyncCommand = command as? AsyncParsableCommand {
        try await asyncCommand.run()
      } else {
        try command.run()
      }
    } catch {
      let code = exitCode(for: error)
      if code.rawValue == 64 {
        let message = fullMessage(for: error)
        FileHandleError.write(message + "\n")
        Glibc.exit(2)
      }
      exit(withError: error)
    }
  }
}

/// Writes straight to standard error.
enum FileHandleError {
  static func write(_ text: String) {
    var text = text
    text.withUTF8 { buffer in _ = Glibc.write(2, buffer.baseAddress, buffer.count) }
  }
}

import ArgumentParser

@main
struct Pushdeck: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "pushdeck",
    abstract: "A terminal notification-center emulator for APNs payloads.",
    subcommands: [RunCommand.self, RenderCommand.self],
    defaultSubcommand: RunCommand.self
  )
}

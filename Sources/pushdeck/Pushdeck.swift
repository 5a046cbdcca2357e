import ArgumentParser

@main
struct Pushdeck: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "pushdeck",
    abstract: "A terminal notification-center emulator for APNs payloads.",
    subcommands: [ValidateCommand.self]
  )
}

/// Every `framedump` subcommand, in the order `framedump --help` lists them.
///
/// To add a command, write its type (one file under Commands/) and add it here.
enum CommandTable {
    static let commands: [any Command.Type] = [
        DecodeCommand.self,
        AnalyzeCommand.self,
        StreamsCommand.self,
        EncodeCommand.self,
        CaptureCommand.self,
        ListenCommand.self,
        ConnectCommand.self,
        ProxyCommand.self,
        FormatsCommand.self,
        DissectorCommand.self,
        FuzzCommand.self,
        HelpCommand.self,
    ]

    /// The command words, in table order.
    static var names: [String] { commands.map { $0.spec.name } }

    /// The command whose word is `name`, or `nil`.
    static func command(named name: String) -> (any Command.Type)? {
        commands.first { $0.spec.name == name }
    }
}

/// A command that cannot go on: the message for standard error and the status to exit with.
struct CommandFailure: Error, Equatable {
    /// The whole message, already prefixed where a location (`file:line:column:`) applies.
    var message: String
    var status: ExitStatus
}

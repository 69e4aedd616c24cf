import FrameDumpLive

/// The standard-error lines `listen` and `proxy` print alike for a ``LiveEvent``.
enum LiveMessages {
    /// The line for an accept event (`framedump COMMAND: …`), or `nil` for other events.
    static func acceptLine(_ event: LiveEvent, command: String) -> String? {
        switch event {
        case .acceptStalled(let error):
            return "framedump \(command): \(error); closing new connections at once until descriptors free up"
        case .acceptResumed(let refused):
            return "framedump \(command): accepting connections again (\(counted(refused, "connection")) closed at once)"
        case .acceptFailed(let error):
            return "framedump \(command): \(error)"
        case .connectionFailed(let connection, let error):
            return "framedump \(command): conn \(connection): \(error)"
        default:
            return nil
        }
    }

    /// `framedump COMMAND: event loop: poll (FRAMEDUMP_EVENT_LOOP)` when the environment chose
    /// the backend, so a run that asked for one shows which one served it; else `nil`.
    static func backendLine(_ options: LiveOptions, command: String) -> String? {
        guard options.backendIsChosen else { return nil }
        return "framedump \(command): event loop: \(options.backend.rawValue) (\(LiveOptions.backendVariable))"
    }

    /// The `framedump COMMAND: cannot listen on HOST:PORT: …` failure (exit 1, as for a bad address).
    static func cannotListen(_ hostPort: HostPort, command: String, _ error: SocketError) -> CommandFailure {
        CommandFailure(message: "framedump \(command): cannot listen on \(hostPort): \(error)", status: .usage)
    }

    /// The addresses of the server a command connects to (`connect`'s, `proxy`'s upstream); a
    /// missing host is 127.0.0.1, as for listening.
    ///
    /// - Parameters:
    ///   - hostPort: The server's address as the command line gave it.
    ///   - prefix: What the message says before the address, e.g. `framedump proxy: upstream`.
    /// - Throws: ``CommandFailure`` (exit 1, as for a malformed address) saying why the name
    ///   does not resolve.
    static func resolveServer(_ hostPort: HostPort, messagePrefix prefix: String) throws(CommandFailure) -> [SocketAddress] {
        do {
            return try SocketAddress.resolve(hostPort, defaultHost: "127.0.0.1")
        } catch {
            throw CommandFailure(message: "\(prefix) \(hostPort): \(error)", status: .usage)
        }
    }
}

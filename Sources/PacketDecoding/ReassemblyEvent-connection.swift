extension ReassemblyEvent {
    /// The number of the connection the event is about (every event is about one).
    public var connection: Int {
        switch self {
        case .connectionOpened(let connection, _, _, _), .data(let connection, _, _, _), .gap(let connection, _, _, _, _),
             .directionClosed(let connection, _, _, _), .limitHit(_, let connection, _), .notice(_, let connection, _):
            connection
        case .connectionClosed(let summary, _), .connectionForgotten(let summary):
            summary.connection
        }
    }
}

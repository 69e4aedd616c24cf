import PacketDecoding

/// What a live server or client tells its owner, as values: the owner (the CLI) prints them
/// and decodes the bytes; the library prints nothing and decides no exit status.
///
/// Connections are numbered from 1 in the order they were accepted (`connect`: its one
/// connection is 1). A connection's streams are `c2s` (client → server) and `s2c`; each stream's
/// bytes arrive in order with their offset, followed by one ``streamEnded(connection:direction:)``,
/// before the connection's ``closed(connection:clientToServer:serverToClient:reason:)``.
///
/// ```
/// listening(127.0.0.1:9000)
/// opened(1, client: 127.0.0.1:51000, server: 127.0.0.1:9000)
/// received(1, c2s, 14 bytes at 0, time) … received(1, c2s, 9 bytes at 14, time)
/// streamEnded(1, c2s)
/// closed(1, clientToServer: 23, serverToClient: 16, reason: nil)
/// ```
public enum LiveEvent {
    /// The server listens on this address (the system's port when port 0 was asked for).
    case listening(Endpoint)
    /// Connection `connection` is open between `client` and `server` (`proxy`: once the
    /// upstream accepted; `connect`: the local address is the client).
    case opened(connection: Int, client: Endpoint, server: Endpoint)
    /// `bytes` of `direction` arrived, the first at stream offset `offset`, read at `time`
    /// (the wall clock, nanoseconds since the Unix epoch). Valid only during the call.
    case received(connection: Int, direction: StreamDirection, bytes: UnsafeRawBufferPointer, offset: UInt64, time: Timestamp)
    /// `direction` of `connection` ends: FIN, reset, or the server stopping. An unfinished frame
    /// in it is truncated.
    case streamEnded(connection: Int, direction: StreamDirection, time: Timestamp)
    /// `connection` is closed, after `clientToServer` and `serverToClient` bytes; `reason` is
    /// `nil` for a clean close (both sides finished, everything written).
    case closed(connection: Int, clientToServer: UInt64, serverToClient: UInt64, reason: CloseReason?)
    /// A connection was accepted but could not be served (registering it failed).
    case connectionFailed(connection: Int, SocketError)
    /// A relay could not reach the upstream (every address was tried); the client connection
    /// from `client` was closed.
    case upstreamUnreachable(connection: Int, client: Endpoint, SocketError?)
    /// Descriptors ran out (`EMFILE`, `ENFILE`) for `accept` or, in a proxy, for a client's
    /// upstream socket: new clients are closed at once until one can be kept. Reported once per
    /// episode, with the first failure.
    case acceptStalled(SocketError)
    /// A connection could be kept again after ``acceptStalled(_:)``; `refused` clients were
    /// closed at once in between.
    case acceptResumed(refused: Int)
    /// Accepting failed for another reason; listening goes on.
    case acceptFailed(SocketError)
    /// Bytes read from standard input (`connect`), for the owner to turn into frames and
    /// ``ConnectClient/send(_:)``. Valid only during the call.
    case input(UnsafeRawBufferPointer)
    /// Standard input ended (`connect`), with the error when reading failed; the owner sends
    /// what is left and calls ``ConnectClient/finishSending()``.
    case inputEnded(SocketError?)
}

/// One end of a connection: the client (whoever connected) or the server.
public enum ConnectionSide: Sendable {
    /// The end that connected: a `listen` or `proxy` client, `connect` itself.
    case client
    /// The end that accepted: `listen` itself, a proxy's upstream, `connect`'s server.
    case server
}

/// Why a connection closed when it was not a clean close.
public enum CloseReason: Sendable {
    /// The command was stopped (SIGINT, SIGTERM) with the connection open.
    case stopped
    /// `side`'s socket failed (reset, broken pipe); a relay reset the other side's connection.
    case failed(side: ConnectionSide, SocketError)
}

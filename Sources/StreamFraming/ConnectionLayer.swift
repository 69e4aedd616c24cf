import PacketDecoding

/// A transformer between TCP reassembly and framing that sees both directions of one
/// connection: it takes each direction's in-order chunks, gaps and end, and gives each
/// direction's transformed stream (its own offsets, counted in its own bytes) and events of its
/// own kind.
///
/// ```
/// c2s chunks/gaps/end ──┐                      ┌─> c2s data/gaps/end ─> FramingEngine
///                       ├─> ConnectionLayer ───┤
/// s2c chunks/gaps/end ──┘   (TLS, WebSocket)   ├─> s2c data/gaps/end ─> FramingEngine
///                                              └─> events (the layer's own values)
/// ```
///
/// A layer needs the whole connection, not one direction: TLS learns the client random from
/// the client's stream and the cipher suite from the server's. It is format-agnostic: what its
/// output streams carry is framed by the engine like any other stream.
///
/// Implementer notes: every input byte must end in the output stream or be accounted for by
/// an ``Event`` (a layer that cannot transform a direction says so and how many bytes it
/// kept back); an output chunk's bytes are valid during the `emit` call only. A layer is a
/// class so that a table of connections updates it in place.
public protocol ConnectionLayer: AnyObject {
    /// What the layer reports besides its streams' bytes.
    associatedtype Event

    /// Takes the next in-order bytes of one direction.
    ///
    /// - Parameters:
    ///   - bytes: The chunk; read during the call only.
    ///   - direction: Whose stream they are.
    ///   - emit: Receives the transformed streams' chunks, gaps, ends and the layer's events.
    /// - Throws: What `emit` throws.
    func receive(_ bytes: UnsafeRawBufferPointer, from direction: StreamDirection,
                 _ emit: (ConnectionLayerOutput<Event>) throws -> Void) throws

    /// Takes `byteCount` bytes of one direction that were never captured.
    ///
    /// - Throws: What `emit` throws.
    func noteGap(byteCount: UInt64, from direction: StreamDirection,
                 _ emit: (ConnectionLayerOutput<Event>) throws -> Void) throws

    /// Ends one direction: the layer reports what it held back and ends its output stream.
    ///
    /// - Throws: What `emit` throws.
    func endStream(_ direction: StreamDirection, _ emit: (ConnectionLayerOutput<Event>) throws -> Void) throws
}

/// One output of a ``ConnectionLayer``.
public enum ConnectionLayerOutput<Event> {
    /// The next bytes of `direction`'s transformed stream (valid during the call only).
    case data(UnsafeRawBufferPointer, StreamDirection)
    /// `byteCount` bytes of `direction`'s transformed stream that the layer could not produce
    /// (what they would have been is lost; the event that says why comes with it).
    case gap(byteCount: UInt64, StreamDirection)
    /// `direction`'s transformed stream ended (once per direction).
    case end(StreamDirection)
    /// Something the layer reports.
    case event(Event)
}

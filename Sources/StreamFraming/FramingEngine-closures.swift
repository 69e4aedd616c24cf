import PacketDecoding

/// The input methods with a closure in place of a ``FramingReceiver``: each event, outputs as
/// ``FramingEvent/output(_:stream:)``. Same behaviour, inputs and errors as the receiver forms.
extension FramingEngine {
    /// ``receive(_:on:at:into:)`` with a closure.
    @inlinable
    public mutating func receive(_ bytes: UnsafeRawBufferPointer, on key: StreamKey, at time: Timestamp, _ emit: Emit) throws {
        try with(emit) { engine, receiver in try engine.receive(bytes, on: key, at: time, into: &receiver) }
    }

    /// ``noteGap(byteCount:on:at:into:)`` with a closure.
    @inlinable
    public mutating func noteGap(byteCount: UInt64, on key: StreamKey, at time: Timestamp, _ emit: Emit) throws {
        try with(emit) { engine, receiver in try engine.noteGap(byteCount: byteCount, on: key, at: time, into: &receiver) }
    }

    /// ``endStream(_:at:into:)`` with a closure.
    @inlinable
    public mutating func endStream(_ key: StreamKey, at time: Timestamp, _ emit: Emit) throws {
        try with(emit) { engine, receiver in try engine.endStream(key, at: time, into: &receiver) }
    }

    /// ``closeConnection(_:at:into:)`` with a closure.
    @inlinable
    public mutating func closeConnection(_ connection: Int, at time: Timestamp, _ emit: Emit) throws {
        try with(emit) { engine, receiver in try engine.closeConnection(connection, at: time, into: &receiver) }
    }

    /// ``noteLimit(_:connection:direction:at:into:)`` with a closure.
    @inlinable
    public mutating func noteLimit(_ limit: ReassemblyLimit, connection: Int, direction: StreamDirection?,
                                   at time: Timestamp, _ emit: Emit) throws {
        try with(emit) { engine, receiver in
            try engine.noteLimit(limit, connection: connection, direction: direction, at: time, into: &receiver)
        }
    }

    /// ``finish(at:into:)`` with a closure.
    @inlinable
    public mutating func finish(at time: Timestamp? = nil, _ emit: Emit) throws {
        try with(emit) { engine, receiver in try engine.finish(at: time, into: &receiver) }
    }
}

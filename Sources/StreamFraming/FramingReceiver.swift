import FrameCodec

/// Receives what a ``FramingEngine`` emits: frames and decoder events on one path, everything
/// else as ``FramingEvent``s.
///
/// The engine's methods take a receiver `inout` and are `@inlinable`, so a caller's receiver
/// is called directly, specialized for its type: a frame reaches it without being wrapped in an
/// event value or passed through a closure. The engine's overloads that take a closure
/// (``FramingEngine/Emit``) wrap it in a receiver and deliver outputs as
/// ``FramingEvent/output(_:stream:)``.
///
/// Implementer notes: a frame's bytes are a slice of the decoder's buffer (see `Frame`);
/// keeping it past the call costs the decoder one copy of its buffer. Throwing stops the engine's
/// call at once (see ``FramingEngine``, "Errors").
public protocol FramingReceiver<Context> {
    /// What the caller attached to each stream.
    associatedtype Context

    /// A frame, or a decoder event accounting for bytes that are not in one, of `stream`;
    /// ``FramedStream/time`` is the time of the input that completed it.
    mutating func receive(_ output: FrameDecoderOutput, from stream: FramedStream<Context>) throws

    /// Any other event (never ``FramingEvent/output(_:stream:)``).
    mutating func receive(_ event: FramingEvent<Context>) throws
}

/// A closure as a ``FramingReceiver``: outputs become ``FramingEvent/output(_:stream:)``.
@usableFromInline
struct ClosureReceiver<Context>: FramingReceiver {
    @usableFromInline let emit: FramingEngine<Context>.Emit

    @inlinable init(_ emit: @escaping FramingEngine<Context>.Emit) { self.emit = emit }

    @inlinable func receive(_ output: FrameDecoderOutput, from stream: FramedStream<Context>) throws {
        try emit(.output(output, stream: stream))
    }

    @inlinable func receive(_ event: FramingEvent<Context>) throws { try emit(event) }
}

extension FramingEngine {
    /// Runs `body` with `emit` wrapped as a receiver (it does not outlive the call).
    @inlinable
    mutating func with(_ emit: Emit, _ body: (inout Self, inout ClosureReceiver<Context>) throws -> Void) throws {
        try withoutActuallyEscaping(emit) { emit in
            var receiver = ClosureReceiver(emit)
            try body(&self, &receiver)
        }
    }
}

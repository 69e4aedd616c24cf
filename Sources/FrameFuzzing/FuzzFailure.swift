/// A property of the decoder contract that a fuzz case broke.
public struct FuzzFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// Which property; minimization keeps a failure of the same kind.
    public enum Property: String, Sendable, Hashable, CaseIterable {
        /// Outputs do not tile the stream: an offset out of order, a byte counted twice or
        /// never, an event of zero bytes, or a frame across a gap.
        case accounting
        /// A frame's bytes differ from the input at its offset, or its header length is wrong.
        case frameBytes
        /// Outputs differ from the reference model's (frames, skips, oversize, truncated).
        case reference
        /// `bufferedByteCount`, after a chunk, at or above the larger of the max frame length and
        /// the header length (bytes a decoder could already have judged), or not zero after a
        /// gap or finish.
        case memory
        /// `streamOffset` differs from the bytes and gaps fed.
        case streamOffset
        /// A decoder that holds headers only (``FrameDecoder/BodyRetention/headersOnly``) gave
        /// outputs other than one that holds bodies, held more bytes after some call (or counted
        /// other bytes pending than that one holds), held a body of a length-field format, or
        /// dropped a body where bodies are always held.
        case droppedBodies
        /// A decoder whose receiver throws now and then (each call that threw followed by empty
        /// chunks until one does not) gave outputs other than one whose receiver never throws:
        /// an output lost or repeated.
        case throwingReceiver
        /// A clean stream did not decode to exactly the encoded frames.
        case roundTrip
        /// A damaged stream lost frames that follow the damage and an intact magic, or a
        /// damage did not have the effect the contract promises (oversize, crc_ok false).
        case recovery
        /// The encoder rejected or mis-encoded a frame the format allows.
        case encoder
        /// A case took far longer than its size warrants.
        case time
    }

    public var property: Property
    public var detail: String

    public init(_ property: Property, _ detail: String) {
        self.property = property
        self.detail = detail
    }

    public var description: String { "\(property.rawValue): \(detail)" }
}

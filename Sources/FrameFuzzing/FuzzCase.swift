import FrameCodec

/// One generated test case: frames of a format, the damage done to their stream, and how
/// the stream is cut into chunks. Everything in it is drawn from ``seed``.
///
/// A case is kept in structured form (frames, then damage by frame index) rather than as
/// bytes, so minimization can drop whole frames and damage steps and still render a
/// consistent stream; ``render()`` turns it into the bytes and calls the decoder is fed.
public struct FuzzCase: Sendable {
    /// One frame before damage: header field values by name (length, checksum and magic left
    /// to the encoder) and the body.
    public struct GeneratedFrame: Sendable, Hashable {
        public var fields: [String: UInt64]
        public var body: [UInt8]
    }

    /// How the bytes are cut into `process` calls.
    public enum Chunking: Sendable, Hashable {
        /// One call per stretch between gaps.
        case whole
        /// One byte per call.
        case bytewise
        /// Random sizes from 0 (an empty call) to `maxSize`, drawn from `seed`.
        case random(seed: UInt64, maxSize: Int)
        /// Cuts at frame starts, inside and at the end of headers, at field edges, plus random
        /// cuts, drawn from `seed`.
        case boundaries(seed: UInt64)
    }

    /// The seed this case was drawn from; `framedump fuzz --seed` with it regenerates it.
    public var seed: UInt64
    public var format: FrameFormat
    public var frames: [GeneratedFrame]
    public var damage: [StreamDamage]
    public var chunking: Chunking

    public init(seed: UInt64, format: FrameFormat, frames: [GeneratedFrame], damage: [StreamDamage], chunking: Chunking) {
        self.seed = seed
        self.format = format
        self.frames = frames
        self.damage = damage
        self.chunking = chunking
    }
}

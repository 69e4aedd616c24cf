import FrameCodec

/// Exactly what one decoder run is fed: a format, the captured bytes, and how they arrive.
///
/// The stream's offsets count captured bytes and gap bytes alike, as ``FrameDecoder`` does:
/// a `.gap(n)` piece advances the stream offset by `n` without feeding a byte.
public struct DecoderInput: Sendable, Hashable {
    /// One call on the decoder.
    public enum Piece: Sendable, Hashable {
        /// `process` with the next `count` bytes of ``DecoderInput/bytes`` (0 is allowed).
        case chunk(Int)
        /// `noteGap(byteCount:)`: bytes never captured.
        case gap(UInt64)
    }

    public var format: FrameFormat
    /// Every captured byte, in stream order.
    public var bytes: [UInt8]
    /// The calls, in order; their chunk counts add up to `bytes.count`.
    public var pieces: [Piece]

    public init(format: FrameFormat, bytes: [UInt8], pieces: [Piece]) {
        self.format = format
        self.bytes = bytes
        self.pieces = pieces
    }

    /// Feeds `bytes` as one chunk.
    public init(format: FrameFormat, bytes: [UInt8]) {
        self.init(format: format, bytes: bytes, pieces: [.chunk(bytes.count)])
    }

    /// A stretch of captured bytes between gaps (or the stream's ends).
    struct Segment {
        /// Indices into ``DecoderInput/bytes``.
        var range: Range<Int>
        /// Stream offset of the segment's first byte.
        var offset: UInt64
        /// Bytes of the gap that ends the segment, or `nil` when the stream ends.
        var gapAfter: UInt64?
    }

    /// The input split at its gaps.
    var segments: [Segment] {
        var result: [Segment] = []
        var start = 0, end = 0
        var offset: UInt64 = 0
        for piece in pieces {
            switch piece {
            case .chunk(let count):
                end += count
            case .gap(let count):
                result.append(Segment(range: start..<end, offset: offset, gapAfter: count))
                offset &+= UInt64(end - start) &+ count
                start = end
            }
        }
        result.append(Segment(range: start..<end, offset: offset, gapAfter: nil))
        return result
    }

    /// The same bytes and gaps fed with other chunk boundaries: `cut` returns the chunk sizes
    /// for each segment's byte count.
    func rechunked(_ cut: (Int) -> [Int]) -> DecoderInput {
        var pieces: [Piece] = []
        for segment in segments {
            pieces += cut(segment.range.count).map { .chunk($0) }
            if let gap = segment.gapAfter { pieces.append(.gap(gap)) }
        }
        return DecoderInput(format: format, bytes: bytes, pieces: pieces)
    }

    /// Hex of the bytes with the calls marked: `|` between chunks, `[gap N]` for a gap.
    public var annotatedHex: String {
        var text = ""
        var index = 0
        for (number, piece) in pieces.enumerated() {
            if number > 0 { text += "|" }
            switch piece {
            case .chunk(let count):
                for byte in bytes[index..<(index + count)] {
                    text += byte < 16 ? "0" + String(byte, radix: 16) : String(byte, radix: 16)
                }
                index += count
            case .gap(let count):
                text += "[gap \(count)]"
            }
        }
        return text
    }
}

/// One way a case damages its stream of valid frames.
///
/// Positions are given by frame index and a byte index inside that frame's encoding (taken
/// modulo its length), so a damage step stays meaningful when minimization removes other
/// frames. A frame index equal to the frame count means "after the last frame".
public enum StreamDamage: Sendable, Hashable {
    /// XOR one byte of a frame with `mask` (never 0).
    case flipBits(frame: Int, at: Int, mask: UInt8)
    /// Insert bytes before byte `at` of a frame (`at` 0: between frames, the frame intact).
    case insertGarbage(frame: Int, at: Int, bytes: [UInt8])
    /// Insert a copy of a frame's first `length` bytes in front of it: a header that starts
    /// and is abandoned, as after a sender restart.
    case insertPartialFrame(frame: Int, length: Int)
    /// Delete `count` bytes from byte `at` of a frame.
    case deleteBytes(frame: Int, at: Int, count: Int)
    /// Overwrite a frame's length field with `value`, one the format must reject.
    case declareLength(frame: Int, value: UInt64)
    /// XOR a frame's checksum field with `mask` (never 0).
    case corruptChecksum(frame: Int, mask: UInt32)
    /// Drop `count` bytes from byte `at` of a frame and report a gap of `reported` bytes
    /// there (usually equal: the bytes were never captured).
    case gap(frame: Int, at: Int, count: Int, reported: UInt64)
    /// End the stream at byte `at` of a frame.
    case truncate(frame: Int, at: Int)

    /// The frame the step damages.
    var frame: Int {
        switch self {
        case .flipBits(let frame, _, _), .insertGarbage(let frame, _, _), .insertPartialFrame(let frame, _),
             .deleteBytes(let frame, _, _), .declareLength(let frame, _), .corruptChecksum(let frame, _),
             .gap(let frame, _, _, _), .truncate(let frame, _):
            frame
        }
    }

    /// The same step aimed at frame index `frame`.
    func retargeted(to frame: Int) -> StreamDamage {
        switch self {
        case .flipBits(_, let at, let mask): .flipBits(frame: frame, at: at, mask: mask)
        case .insertGarbage(_, let at, let bytes): .insertGarbage(frame: frame, at: at, bytes: bytes)
        case .insertPartialFrame(_, let length): .insertPartialFrame(frame: frame, length: length)
        case .deleteBytes(_, let at, let count): .deleteBytes(frame: frame, at: at, count: count)
        case .declareLength(_, let value): .declareLength(frame: frame, value: value)
        case .corruptChecksum(_, let mask): .corruptChecksum(frame: frame, mask: mask)
        case .gap(_, let at, let count, let reported): .gap(frame: frame, at: at, count: count, reported: reported)
        case .truncate(_, let at): .truncate(frame: frame, at: at)
        }
    }
}

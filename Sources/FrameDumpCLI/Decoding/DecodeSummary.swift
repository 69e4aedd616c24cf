import FrameCodec
import PacketDecoding

/// Counts of what a decode run produced; decides the exit status.
struct DecodeSummary: Sendable, Equatable {
    var frames = 0
    /// Frames whose checksum field did not match their bytes.
    var checksumMismatches = 0
    var skips = 0
    var skippedBytes: UInt64 = 0
    var oversizeHeaders = 0
    var truncations = 0
    var truncatedBytes: UInt64 = 0
    var gaps = 0
    var gapBytes: UInt64 = 0
    /// Ranges the reassembler discarded behind unacknowledged holes, and their stream bytes.
    var discards = 0
    var discardedBytes: UInt64 = 0
    /// The reassembler's other notices: ignored RSTs, segments outside the stream, differing copies.
    var notices = 0

    /// Adds one decoder output to the counts.
    mutating func count(_ output: FrameDecoderOutput) {
        switch output {
        case .frame(let frame):
            frames += 1
            if frame.crcOK == false { checksumMismatches += 1 }
        case .skip(_, let byteCount):
            skips += 1
            skippedBytes += byteCount
        case .oversize:
            oversizeHeaders += 1
        case .truncated(_, let byteCount):
            truncations += 1
            truncatedBytes += byteCount
        case .gap(_, let byteCount):
            gaps += 1
            gapBytes += byteCount
        }
    }

    /// Adds one reassembler notice to the counts.
    mutating func count(_ notice: ReassemblyNotice) {
        if case .discarded(_, let length, _) = notice {
            discards += 1
            discardedBytes += length
        } else {
            notices += 1
        }
    }

    /// Whether every byte was in a frame with a good (or no) checksum, and reassembly noticed nothing.
    var isClean: Bool {
        checksumMismatches == 0 && skips == 0 && oversizeHeaders == 0 && truncations == 0 && gaps == 0
            && discards == 0 && notices == 0
    }

    /// 0 when clean, 2 when any frame or byte was bad.
    var exitStatus: ExitStatus { isClean ? .success : .badInput }
}

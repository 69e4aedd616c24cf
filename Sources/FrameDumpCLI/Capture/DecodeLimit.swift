import PacketDecoding

/// A bound decoding a capture reached: one of the reassembler's, or the bytes of unfinished
/// frames the frame decoders of all streams together may hold (`--max-buffered`).
enum DecodeLimit: Equatable {
    /// A ``ReassemblyLimits`` bound: holes became gaps, or a connection was evicted.
    case reassembly(ReassemblyLimit)
    /// `--max-buffered`: the stream whose partial frame waited longest gave it up as truncated.
    case bufferedBytesTotal

    /// The JSON Lines `limit` value.
    var name: String {
        switch self {
        case .reassembly(let limit): limit.description
        case .bufferedBytesTotal: "buffered_bytes_total"
        }
    }
}

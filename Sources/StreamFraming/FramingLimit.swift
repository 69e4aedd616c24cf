import PacketDecoding

/// A memory bound that framing a set of streams reached: one of the TCP reassembler's, passed
/// on, or the engine's own bound on partial frames.
public enum FramingLimit: Hashable, Sendable {
    /// A ``ReassemblyLimits`` bound: holes became gaps, or a connection was evicted.
    case reassembly(ReassemblyLimit)
    /// ``FramingConfiguration/maxBufferedBytes``: the stream whose partial frame waited longest
    /// gave it up as `truncated`.
    case bufferedBytesTotal
    /// ``FramingConfiguration/maxUndecidedBytes``, spent on outputs held back so that outputs
    /// come in input order behind a stream whose format was undecided: that stream's format
    /// was decided from the bytes it had (or it was given up, waiting for a fallback format).
    case heldOutputsTotal
}

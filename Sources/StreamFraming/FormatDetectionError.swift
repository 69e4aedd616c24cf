import FrameCodec

/// Thrown by ``FramingEngine/finish(at:into:)`` when streams had data and no format was ever
/// found: no stream's first bytes fitted a preset.
///
/// A ``FramingEvent/formatUndetectable(_:firstBytes:)`` event with the same stream comes just
/// before, so a caller can name the stream in its own terms.
public struct FormatDetectionError: Error, Sendable {
    /// The first stream that fitted no preset.
    public var stream: StreamKey
    /// Its first bytes (at most ``FramingEngine/detectionProbeLength``): what fitted no preset.
    /// Empty when no such stream started with data (it started with a gap).
    public var firstBytes: [UInt8]
}

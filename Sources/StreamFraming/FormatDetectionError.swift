import FrameCodec

/// Thrown by ``FramingEngine`` when streams must be framed and no format can be: no stream's
/// first bytes fitted a preset, and either the input ended or the streams waiting for one hold
/// more than ``FramingConfiguration/maxUndecidedBytes``.
///
/// A ``FramingEvent/formatUndetectable(_:firstBytes:)`` event with the same stream comes just
/// before, so a caller can name the stream in its own terms.
public struct FormatDetectionError: Error, Sendable {
    /// The first stream that fitted no preset.
    public var stream: StreamKey
    /// Its first bytes (at most ``FramingEngine/detectionProbeLength``): what fitted no preset.
    /// Empty when no waiting stream started with data (it started with a gap).
    public var firstBytes: [UInt8]
}

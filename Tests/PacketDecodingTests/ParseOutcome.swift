@testable import PacketDecoding

/// A parse result with the payload copied out, so tests can inspect it after the buffer is gone.
struct Decoded: Equatable, CustomStringConvertible {
    var source: Endpoint
    var destination: Endpoint
    var sequenceNumber: UInt32
    var acknowledgmentNumber: UInt32
    var flags: TCPFlags
    var window: UInt16
    var payload: [UInt8]
    var missing: Int

    var description: String { "\(source) → \(destination) seq \(sequenceNumber) payload \(payload.count) missing \(missing)" }
}

/// The outcome of parsing, with `.segment` copied to a `Decoded`.
enum Outcome: Equatable {
    case segment(Decoded)
    case fragmentHeld
    case notTCP
    case malformed(MalformedReason, offset: Int)
    case unsupportedLinkType(LinkType)
    case unsupportedLayer(UnsupportedLayer)

    init(_ result: PacketParser.Result) {
        switch result {
        case .segment(let segment):
            self = .segment(Decoded(source: segment.source, destination: segment.destination,
                                    sequenceNumber: segment.sequenceNumber, acknowledgmentNumber: segment.acknowledgmentNumber,
                                    flags: segment.flags, window: segment.window, payload: Array(segment.payload),
                                    missing: segment.missingPayloadLength))
        case .fragmentHeld: self = .fragmentHeld
        case .notTCP: self = .notTCP
        case .malformed(let reason, let offset): self = .malformed(reason, offset: offset)
        case .unsupportedLinkType(let type): self = .unsupportedLinkType(type)
        case .unsupportedLayer(let layer): self = .unsupportedLayer(layer)
        }
    }

    var segment: Decoded? {
        if case .segment(let decoded) = self { decoded } else { nil }
    }
}

extension PacketParser {
    /// Parses and copies the result (see `Outcome`).
    mutating func outcome(_ bytes: [UInt8], captured: Int? = nil, wireLength: Int? = nil, at nanoseconds: Int64 = 0) -> Outcome {
        let kept = Array(bytes.prefix(captured ?? bytes.count))
        return kept.withUnsafeBytes {
            Outcome(parse($0, wireLength: wireLength ?? bytes.count, timestamp: Timestamp(nanoseconds: nanoseconds)))
        }
    }
}

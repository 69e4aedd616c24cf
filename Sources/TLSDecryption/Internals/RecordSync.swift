/// Finds where TLS records begin in a direction whose capture may have started inside one (a
/// connection whose TCP handshake was not captured).
///
/// A candidate offset holds a plausible record header (RFC 8446 §5.1, RFC 5246 §6.2.1): content
/// type 20–23, version 0x0301–0x0304, length at most ``TLSConnectionLayer/maxRecordLength``.
/// One plausible header is too weak (five arbitrary bytes pass about once in 10^6 offsets), so
/// the record it announces must be followed by another plausible header. Since the capture can
/// start anywhere in a record, the first header is within one maximal record of the start;
/// past that the direction is not TLS records.
///
/// Incremental: offsets ruled out are not looked at again, and the scan waits at the first
/// candidate until the bytes that confirm or reject it arrive, so the cost is linear in the
/// bytes given, whatever their chunking.
struct RecordSync {
    enum Result: Equatable {
        /// Records begin at this offset.
        case found(Int)
        /// The bytes are not TLS records.
        case notRecords
        /// More bytes are needed to decide.
        case needMore
    }

    private var cursor = 0

    /// Looks on in `bytes` (the direction's first bytes so far; each call's a prefix of the next).
    ///
    /// - Parameter final: No more bytes will come: a candidate whose record ends exactly at the
    ///   end of `bytes` is taken, one that would need more is ruled out.
    mutating func scan(_ bytes: [UInt8], final: Bool) -> Result {
        let lastStart = TLSConnectionLayer.maxRecordLength + 5
        while cursor < lastStart, cursor + 5 <= bytes.count {
            guard let length = Self.plausibleLength(bytes, at: cursor) else {
                cursor += 1
                continue
            }
            let next = cursor + 5 + length
            if next + 5 <= bytes.count {
                if Self.plausibleLength(bytes, at: next) != nil { return .found(cursor) }
            } else if final {
                if next == bytes.count { return .found(cursor) }
            } else {
                return .needMore
            }
            cursor += 1
        }
        return cursor >= lastStart || final ? .notRecords : .needMore
    }

    /// The fragment length of the plausible record header at `index`, or `nil` when those five
    /// bytes cannot be one.
    static func plausibleLength(_ bytes: [UInt8], at index: Int) -> Int? {
        guard (20...23).contains(bytes[index]), bytes[index + 1] == 3, (1...4).contains(bytes[index + 2]) else { return nil }
        let length = Int(bytes[index + 3]) << 8 | Int(bytes[index + 4])
        return length <= TLSConnectionLayer.maxRecordLength ? length : nil
    }
}

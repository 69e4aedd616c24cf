/// Reads structured choices off the front of a libFuzzer input, like LLVM's
/// `FuzzedDataProvider`: each call consumes a few bytes, and an exhausted input reads as
/// zeros, so every input is valid and small mutations make small changes.
struct FuzzedInput {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0

    init(_ data: UnsafePointer<UInt8>, _ size: Int) {
        bytes = UnsafeBufferPointer(start: data, count: size)
    }

    var isEmpty: Bool { position >= bytes.count }

    mutating func byte() -> UInt8 {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return bytes[position]
    }

    /// An integer of `width` bytes, big-endian.
    mutating func integer(width: Int) -> UInt64 {
        (0..<width).reduce(0) { value, _ in value << 8 | UInt64(byte()) }
    }

    /// A value in `range`, from as few bytes as the range needs.
    mutating func value(in range: ClosedRange<Int>) -> Int {
        let span = UInt64(range.upperBound - range.lowerBound)
        guard span > 0 else { return range.lowerBound }
        let width = (64 - span.leadingZeroBitCount + 7) / 8
        return range.lowerBound + Int(integer(width: width) % (span + 1))
    }

    /// The next `count` bytes (fewer when the input ends).
    mutating func bytes(_ count: Int) -> [UInt8] {
        let end = min(bytes.count, position + max(0, count))
        defer { position = end }
        return Array(bytes[min(position, end)..<end])
    }

    /// The next chunk of a connection, as the layer targets read them: a control byte (bit 0:
    /// direction 0 or 1; bit 1: a gap instead of bytes; bits 2–7: length / 4), then, unless it is
    /// a gap, that many bytes (fewer when the input ends).
    ///
    /// - Returns: The direction's number, and the gap's length or the chunk's bytes.
    mutating func connectionChunk() -> (direction: Int, gap: Int?, bytes: [UInt8]) {
        let control = byte()
        let length = Int(control >> 2) * 4 + 1
        if control & 2 != 0 { return (Int(control & 1), length, []) }
        return (Int(control & 1), nil, bytes(length))
    }

    /// Reads ``connectionChunk()``s until the input ends: the layer targets' common loop.
    ///
    /// - Parameters:
    ///   - bytes: Receives a chunk's bytes and its direction's number.
    ///   - gap: Receives a gap's length and its direction's number.
    mutating func playConnection(bytes: ([UInt8], Int) -> Void, gap: (Int, Int) -> Void) {
        while !isEmpty {
            let chunk = connectionChunk()
            if let length = chunk.gap { gap(length, chunk.direction) } else { bytes(chunk.bytes, chunk.direction) }
        }
    }

    /// Everything not read yet.
    mutating func rest() -> [UInt8] {
        bytes(bytes.count - position)
    }
}

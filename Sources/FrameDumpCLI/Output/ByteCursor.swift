/// Writes one output line through a pointer into room sized beforehand: the JSON Lines inner
/// loop, where every `Array.append` would check capacity and uniqueness again (≈ 30
/// instructions a piece, a dozen pieces a frame).
///
/// A cursor comes from a ``LineScratch`` sized for the line's worst case; the writer computes
/// that bound from what it is about to write (labels, field count) and the fixed widths of
/// numbers (20 digits for a `UInt64`). Every write still checks the bound — a wrong bound stops
/// the process instead of writing past the room — which is one compare a piece.
struct ByteCursor {
    private let base: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    /// Bytes written so far.
    private(set) var count = 0

    /// Digits of `UInt64.max`: the most a decimal number takes.
    static let maxDecimalDigits = 20

    /// `"00" "01" … "99"`: two digits per table entry, so a number is written two digits at a time.
    private static let digitPairs: StaticString = """
        00010203040506070809101112131415161718192021222324252627282930313233343536373839\
        40414243444546474849505152535455565758596061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899
        """

    init(_ base: UnsafeMutablePointer<UInt8>, capacity: Int) {
        self.base = base
        self.capacity = capacity
    }

    /// The bytes written, valid as long as the scratch the cursor came from is not reused.
    var written: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

    @inline(__always)
    private mutating func reserve(_ byteCount: Int) -> UnsafeMutablePointer<UInt8> {
        precondition(byteCount <= capacity &- count, "line longer than its computed bound")
        defer { count &+= byteCount }
        return base + count
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        reserve(1).pointee = byte
    }

    @inline(__always)
    mutating func append(_ text: StaticString) {
        let destination = reserve(text.utf8CodeUnitCount)
        destination.update(from: text.utf8Start, count: text.utf8CodeUnitCount)
    }

    @inline(__always)
    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard let start = bytes.baseAddress else { return }
        UnsafeMutableRawPointer(reserve(bytes.count)).copyMemory(from: start, byteCount: bytes.count)
    }

    /// The longest piece ``appendPadded(_:)`` copies in one store.
    static let paddedPieceLimit = 16

    /// Appends `bytes` by one unaligned 16-byte load and store instead of a `memmove` call,
    /// when it is at most ``paddedPieceLimit`` bytes and the room has that many left; otherwise
    /// as ``append(_:)-(UnsafeRawBufferPointer)``. The caller's storage must hold at least
    /// ``paddedPieceLimit`` readable bytes from `bytes`' start (pad it); the bytes stored past
    /// the piece lie beyond ``count``, where the next piece overwrites them.
    @inline(__always)
    mutating func appendPadded(_ bytes: UnsafeRawBufferPointer) {
        guard let start = bytes.baseAddress, bytes.count <= Self.paddedPieceLimit,
              capacity &- count >= Self.paddedPieceLimit else { return append(bytes) }
        UnsafeMutableRawPointer(base + count).storeBytes(of: start.loadUnaligned(as: SIMD16<UInt8>.self), as: SIMD16<UInt8>.self)
        count &+= bytes.count
    }

    @inline(__always)
    mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    /// Appends `value` in decimal, at most ``maxDecimalDigits`` bytes.
    @inline(__always)
    mutating func appendDecimal(_ value: UInt64) {
        appendDigits(value, count: Self.decimalDigitCount(value))
    }

    /// The thresholds of ``decimalDigitCount(_:)``: 10ᵗ for t = 1 … 19, and 0 for t = 0 (every
    /// value below 8 has one digit, 0 included).
    private static let powersOfTen: [UInt64] = [0] + (1..<20).map { (0..<$0).reduce(1) { product, _ in product * 10 } }

    /// Decimal digits of `value` (1 for 0) without a loop (Bit Twiddling Hacks, "integer log
    /// base 10"): the bit length times log₁₀ 2 (≈ 1233 / 4096) gives t, the digit count less
    /// one or two, and one compare with 10ᵗ settles it.
    @inline(__always)
    static func decimalDigitCount(_ value: UInt64) -> Int {
        let bits = 64 &- (value | 1).leadingZeroBitCount
        let guess = (bits &* 1233) &>> 12
        return powersOfTen.withUnsafeBufferPointer { guess &+ (value >= $0[guess] ? 1 : 0) }
    }

    @inline(__always)
    mutating func appendDigits(_ value: UInt64, count digitCount: Int) {
        let start = reserve(digitCount)
        let pairs = Self.digitPairs.utf8Start
        var rest = value
        var index = digitCount
        while index >= 2 {
            let pair = Int(truncatingIfNeeded: rest % 100) &* 2
            rest /= 100
            index &-= 2
            start[index] = pairs[pair]
            start[index &+ 1] = pairs[pair &+ 1]
        }
        if index == 1 {
            start[0] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
        }
    }
}

/// The room a ``ByteCursor`` writes a line in, allocated once and grown to the longest line
/// asked for: nothing allocates per line.
final class LineScratch {
    private var storage: UnsafeMutablePointer<UInt8>
    private var capacity: Int

    init() {
        capacity = 512
        storage = .allocate(capacity: capacity)
    }

    deinit {
        storage.deallocate()
    }

    /// A cursor over room for at least `byteCount` bytes, at the start of the scratch: the lines
    /// written through an earlier cursor are overwritten.
    func cursor(capacity byteCount: Int) -> ByteCursor {
        if byteCount > capacity {
            storage.deallocate()
            capacity = byteCount
            storage = .allocate(capacity: capacity)
        }
        return ByteCursor(storage, capacity: capacity)
    }
}

/// Decodes one MessagePack value (https://github.com/msgpack/msgpack/blob/master/spec.md): every
/// format family — nil, bool, int, float, str, bin, array, map, ext — and the timestamp
/// extension type −1 in its 32-, 64- and 96-bit forms.
///
/// A body must hold exactly one value (an array or map for several). It is checked completely
/// before anything is reported, so a visitor sees either the whole value or nothing and an
/// error. Lengths and counts are checked against the bytes left before anything is read, so
/// any input costs time linear in its length; nesting is bounded by ``maxDepth``.
public enum MessagePackDecoder {
    /// How deeply arrays and maps may nest.
    public static let maxDepth = 512

    /// Decodes `body` and reports its value to `visitor`.
    ///
    /// - Parameters:
    ///   - body: the encoded value (a frame body).
    ///   - visitor: receives the value, arrays and maps bracketed.
    /// - Throws: ``BodyViewError`` (nothing reported) for a truncated value, the never-used
    ///   byte 0xc1, a str that is not UTF-8, nesting deeper than ``maxDepth``, or bytes left
    ///   after the value.
    public static func decode<Visitor: MessagePackVisitor>(_ body: UnsafeRawBufferPointer, into visitor: inout Visitor) throws(BodyViewError) {
        var check = Checker()
        try decodeOne(body, into: &check)
        try decodeOne(body, into: &visitor)
    }

    private static func decodeOne<Visitor: MessagePackVisitor>(_ body: UnsafeRawBufferPointer, into visitor: inout Visitor) throws(BodyViewError) {
        var reader = Reader(bytes: body)
        try reader.value(into: &visitor, depth: 0)
        guard reader.position == body.count else {
            throw BodyViewError(offset: reader.position, reason: "\(body.count - reader.position) bytes after the value")
        }
    }

    /// A visitor that only lets the decoder check the encoding.
    private struct Checker: MessagePackVisitor {
        mutating func null() {}
        mutating func bool(_ value: Bool) {}
        mutating func unsigned(_ value: UInt64) {}
        mutating func negative(_ value: Int64) {}
        mutating func float32(_ value: Float) {}
        mutating func float64(_ value: Double) {}
        mutating func string(_ bytes: UnsafeRawBufferPointer) {}
        mutating func binary(_ bytes: UnsafeRawBufferPointer) {}
        mutating func ext(type: Int8, _ bytes: UnsafeRawBufferPointer) {}
        mutating func timestamp(seconds: Int64, nanoseconds: UInt32) {}
        mutating func beginArray(count: Int) {}
        mutating func endArray() {}
        mutating func beginMap(count: Int) {}
        mutating func endMap() {}
    }

    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var position = 0

        /// `count` big-endian bytes as an unsigned integer.
        mutating func integer(_ count: Int, what: String) throws(BodyViewError) -> UInt64 {
            guard bytes.count &- position >= count else {
                throw BodyViewError(offset: position, reason: "truncated \(what)")
            }
            var value: UInt64 = 0
            for index in 0..<count { value = value &<< 8 | UInt64(bytes[position &+ index]) }
            position &+= count
            return value
        }

        /// The next `count` bytes.
        mutating func take(_ count: UInt64, what: String) throws(BodyViewError) -> UnsafeRawBufferPointer {
            guard count <= UInt64(bytes.count &- position) else {
                throw BodyViewError(offset: position, reason: "\(what) of \(count) bytes past the end (\(bytes.count &- position) left)")
            }
            let slice = UnsafeRawBufferPointer(rebasing: bytes[position..<position &+ Int(count)])
            position &+= Int(count)
            return slice
        }

        mutating func value<Visitor: MessagePackVisitor>(into visitor: inout Visitor, depth: Int) throws(BodyViewError) {
            let start = position
            guard position < bytes.count else { throw BodyViewError(offset: position, reason: "truncated value") }
            let byte = bytes[position]
            position &+= 1
            switch byte {
            case 0x00...0x7F: visitor.unsigned(UInt64(byte))
            case 0x80...0x8F: try map(count: UInt64(byte & 0x0F), start: start, into: &visitor, depth: depth)
            case 0x90...0x9F: try array(count: UInt64(byte & 0x0F), start: start, into: &visitor, depth: depth)
            case 0xA0...0xBF: try string(length: UInt64(byte & 0x1F), start: start, into: &visitor)
            case 0xC0: visitor.null()
            case 0xC1: throw BodyViewError(offset: start, reason: "byte 0xc1 (never used in MessagePack)")
            case 0xC2: visitor.bool(false)
            case 0xC3: visitor.bool(true)
            case 0xC4...0xC6:
                let length = try integer(1 << Int(byte - 0xC4), what: "bin length")
                visitor.binary(try take(length, what: "bin"))
            case 0xC7...0xC9:
                let length = try integer(1 << Int(byte - 0xC7), what: "ext length")
                try ext(length: length, into: &visitor)
            case 0xCA: visitor.float32(Float(bitPattern: UInt32(try integer(4, what: "float 32"))))
            case 0xCB: visitor.float64(Double(bitPattern: try integer(8, what: "float 64")))
            case 0xCC...0xCF: visitor.unsigned(try integer(1 << Int(byte - 0xCC), what: "uint"))
            case 0xD0...0xD3:
                let width = 1 << Int(byte - 0xD0)
                let raw = try integer(width, what: "int")
                // Sign-extend from `width` bytes.
                let shift = UInt64(64 - 8 * width)
                let value = Int64(bitPattern: raw &<< shift) &>> Int64(shift)
                if value >= 0 { visitor.unsigned(UInt64(value)) } else { visitor.negative(value) }
            case 0xD4...0xD8: try ext(length: 1 << UInt64(byte - 0xD4), into: &visitor)
            case 0xD9...0xDB:
                try string(length: try integer(1 << Int(byte - 0xD9), what: "str length"), start: start, into: &visitor)
            case 0xDC, 0xDD:
                try array(count: try integer(byte == 0xDC ? 2 : 4, what: "array count"), start: start, into: &visitor, depth: depth)
            case 0xDE, 0xDF:
                try map(count: try integer(byte == 0xDE ? 2 : 4, what: "map count"), start: start, into: &visitor, depth: depth)
            default: visitor.negative(Int64(Int8(bitPattern: byte)))
            }
        }

        mutating func string<Visitor: MessagePackVisitor>(length: UInt64, start: Int, into visitor: inout Visitor) throws(BodyViewError) {
            let text = try take(length, what: "str")
            guard UTF8Validation.isValid(text) else { throw BodyViewError(offset: start, reason: "str that is not UTF-8") }
            visitor.string(text)
        }

        mutating func ext<Visitor: MessagePackVisitor>(length: UInt64, into visitor: inout Visitor) throws(BodyViewError) {
            let type = Int8(bitPattern: UInt8(try integer(1, what: "ext type")))
            let data = try take(length, what: "ext")
            if type == -1, let time = Self.timestamp(data) {
                visitor.timestamp(seconds: time.seconds, nanoseconds: time.nanoseconds)
            } else {
                visitor.ext(type: type, data)
            }
        }

        /// The timestamp extension's three forms (spec, "Timestamp extension type"); `nil` for
        /// another length or nanoseconds over 999 999 999, which stay a plain ext.
        static func timestamp(_ data: UnsafeRawBufferPointer) -> (seconds: Int64, nanoseconds: UInt32)? {
            func bigEndian(_ range: Range<Int>) -> UInt64 {
                range.reduce(0) { $0 &<< 8 | UInt64(data[$1]) }
            }
            switch data.count {
            case 4:
                return (Int64(bigEndian(0..<4)), 0)
            case 8:
                let raw = bigEndian(0..<8)
                let nanoseconds = UInt32(raw >> 34)
                guard nanoseconds < 1_000_000_000 else { return nil }
                return (Int64(raw & 0x3_FFFF_FFFF), nanoseconds)
            case 12:
                let nanoseconds = UInt32(bigEndian(0..<4))
                guard nanoseconds < 1_000_000_000 else { return nil }
                return (Int64(bitPattern: bigEndian(4..<12)), nanoseconds)
            default:
                return nil
            }
        }

        mutating func array<Visitor: MessagePackVisitor>(count: UInt64, start: Int, into visitor: inout Visitor, depth: Int) throws(BodyViewError) {
            try checkContainer(count: count, bytesEach: 1, start: start, depth: depth)
            visitor.beginArray(count: Int(count))
            for _ in 0..<count { try value(into: &visitor, depth: depth + 1) }
            visitor.endArray()
        }

        mutating func map<Visitor: MessagePackVisitor>(count: UInt64, start: Int, into visitor: inout Visitor, depth: Int) throws(BodyViewError) {
            try checkContainer(count: count, bytesEach: 2, start: start, depth: depth)
            visitor.beginMap(count: Int(count))
            for _ in 0..<count {
                try value(into: &visitor, depth: depth + 1)
                try value(into: &visitor, depth: depth + 1)
            }
            visitor.endMap()
        }

        /// Every value takes at least one byte, so a count the bytes left cannot hold is refused
        /// before any work is spent on it.
        func checkContainer(count: UInt64, bytesEach: UInt64, start: Int, depth: Int) throws(BodyViewError) {
            guard depth < MessagePackDecoder.maxDepth else {
                throw BodyViewError(offset: start, reason: "arrays and maps nested deeper than \(MessagePackDecoder.maxDepth)")
            }
            guard count <= UInt64(bytes.count &- position) / bytesEach else {
                throw BodyViewError(offset: start, reason: "\(bytesEach == 1 ? "array" : "map") of \(count) \(bytesEach == 1 ? "values" : "pairs") in \(bytes.count &- position) bytes")
            }
        }
    }
}

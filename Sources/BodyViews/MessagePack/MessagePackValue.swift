/// One decoded MessagePack value as a tree, for callers that want the value rather than the
/// ``MessagePackVisitor`` events (the CLI, to choose how a map is shown once it has its keys).
public indirect enum MessagePackValue: Sendable, Equatable {
    case null
    case bool(Bool)
    /// A non-negative integer.
    case unsigned(UInt64)
    /// A negative integer.
    case negative(Int64)
    case float32(Float)
    case float64(Double)
    case string(String)
    case binary([UInt8])
    /// An application extension type (−128 … 127, but not a well-formed timestamp) and its data.
    case ext(type: Int8, [UInt8])
    /// The timestamp extension (type −1): seconds since the Unix epoch and nanoseconds.
    case timestamp(seconds: Int64, nanoseconds: UInt32)
    case array([MessagePackValue])
    /// Key–value pairs in encoding order; keys may be any value and may repeat.
    case map([(key: MessagePackValue, value: MessagePackValue)])

    /// Equal values of the same kind; floats compare by bit pattern (so NaN equals itself).
    public static func == (lhs: MessagePackValue, rhs: MessagePackValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.unsigned(let a), .unsigned(let b)): a == b
        case (.negative(let a), .negative(let b)): a == b
        case (.float32(let a), .float32(let b)): a.bitPattern == b.bitPattern
        case (.float64(let a), .float64(let b)): a.bitPattern == b.bitPattern
        case (.string(let a), .string(let b)): a == b
        case (.binary(let a), .binary(let b)): a == b
        case (.ext(let t, let a), .ext(let u, let b)): t == u && a == b
        case (.timestamp(let s, let n), .timestamp(let t, let m)): s == t && n == m
        case (.array(let a), .array(let b)): a == b
        case (.map(let a), .map(let b)): a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: false
        }
    }
}

extension MessagePackDecoder {
    /// Decodes `body` into a ``MessagePackValue`` tree.
    ///
    /// - Parameter body: one encoded value.
    /// - Returns: the value.
    /// - Throws: ``BodyViewError`` as ``decode(_:into:)`` does.
    public static func value(of body: UnsafeRawBufferPointer) throws(BodyViewError) -> MessagePackValue {
        var builder = TreeBuilder()
        try decode(body, into: &builder)
        return builder.result
    }

    /// Builds the tree from the decoder's events: containers under construction on a stack.
    private struct TreeBuilder: MessagePackVisitor {
        private enum Open {
            case array([MessagePackValue])
            case map([(key: MessagePackValue, value: MessagePackValue)], pendingKey: MessagePackValue?)
        }

        private var stack: [Open] = []
        private(set) var result = MessagePackValue.null

        private mutating func add(_ value: MessagePackValue) {
            guard var top = stack.popLast() else {
                result = value
                return
            }
            switch top {
            case .array(var values):
                // `top` must let go of the array, or the append copies it: quadratic in its count.
                top = .array([])
                values.append(value)
                stack.append(.array(values))
            case .map(var pairs, let pendingKey):
                top = .array([])
                if let pendingKey {
                    pairs.append((pendingKey, value))
                    stack.append(.map(pairs, pendingKey: nil))
                } else {
                    stack.append(.map(pairs, pendingKey: value))
                }
            }
        }

        mutating func null() { add(.null) }
        mutating func bool(_ value: Bool) { add(.bool(value)) }
        mutating func unsigned(_ value: UInt64) { add(.unsigned(value)) }
        mutating func negative(_ value: Int64) { add(.negative(value)) }
        mutating func float32(_ value: Float) { add(.float32(value)) }
        mutating func float64(_ value: Double) { add(.float64(value)) }
        mutating func string(_ bytes: UnsafeRawBufferPointer) { add(.string(String(decoding: bytes, as: UTF8.self))) }
        mutating func binary(_ bytes: UnsafeRawBufferPointer) { add(.binary(Array(bytes))) }
        mutating func ext(type: Int8, _ bytes: UnsafeRawBufferPointer) { add(.ext(type: type, Array(bytes))) }
        mutating func timestamp(seconds: Int64, nanoseconds: UInt32) { add(.timestamp(seconds: seconds, nanoseconds: nanoseconds)) }
        mutating func beginArray(count: Int) { stack.append(.array([])) }
        mutating func beginMap(count: Int) { stack.append(.map([], pendingKey: nil)) }

        mutating func endArray() {
            guard case .array(let values) = stack.popLast() else { return }
            add(.array(values))
        }

        mutating func endMap() {
            guard case .map(let pairs, _) = stack.popLast() else { return }
            add(.map(pairs))
        }
    }
}

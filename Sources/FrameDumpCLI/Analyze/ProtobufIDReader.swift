import BodyViews

/// Finds one field of a protobuf body by its field number path (`[2, 1]`: field 1 of the
/// message in field 2), read without a schema by ``ProtobufRawDecoder``: where an analyze
/// policy's message id or session type is in a protobuf body.
///
/// A varint or fixed-width field gives a number, a length-delimited one that is UTF-8 a text;
/// as protobuf parsers do for a scalar field, the last occurrence wins. The raw decoder guesses
/// a length-delimited field that parses completely as a message to be one, so a text that
/// happens to parse as a message is not found at the end of a path.
struct ProtobufIDReader: ProtobufRawVisitor {
    private let path: [UInt32]
    /// How deeply the decoder is nested in messages now.
    private var depth = 0
    /// How many of the path's messages enclose the decoder now (at most `depth`).
    private var matched = 0
    private(set) var found: MessageID?

    /// The field at `path` of `body`.
    ///
    /// - Parameters:
    ///   - path: field numbers, outer message first; not empty.
    ///   - body: one encoded protobuf message (a frame body).
    /// - Returns: the field's value, or `nil` when the body is not a protobuf message or has no
    ///   such field (or only one that is neither a number nor UTF-8).
    static func value(at path: [UInt32], in body: ArraySlice<UInt8>) -> MessageID? {
        var reader = ProtobufIDReader(path: path)
        let decoded: Bool = body.withUnsafeBytes { bytes in
            do {
                try ProtobufRawDecoder.decode(bytes, into: &reader)
                return true
            } catch {
                return false
            }
        }
        return decoded ? reader.found : nil
    }

    private init(path: [UInt32]) {
        self.path = path
    }

    /// Whether field `number` at the current depth is the path's last.
    private func isLeaf(_ number: UInt32) -> Bool {
        depth == matched && matched == path.count - 1 && number == path[matched]
    }

    mutating func varint(_ number: UInt32, _ value: UInt64) {
        if isLeaf(number) { found = .number(value) }
    }

    mutating func fixed64(_ number: UInt32, _ value: UInt64) {
        if isLeaf(number) { found = .number(value) }
    }

    mutating func fixed32(_ number: UInt32, _ value: UInt32) {
        if isLeaf(number) { found = .number(UInt64(value)) }
    }

    mutating func lengthDelimited(_ number: UInt32, _ bytes: UnsafeRawBufferPointer, isUTF8: Bool) {
        if isLeaf(number), isUTF8 { found = .text(String(decoding: bytes, as: UTF8.self)) }
    }

    mutating func beginMessage(_ number: UInt32, isGroup: Bool) {
        if depth == matched, matched < path.count - 1, number == path[matched] { matched += 1 }
        depth += 1
    }

    mutating func endMessage() {
        depth -= 1
        matched = min(matched, depth)
    }
}

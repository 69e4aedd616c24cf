/// What ``ProtobufRawDecoder`` reports, field by field, in wire order: a message decoded
/// without its schema, as `protoc --decode_raw` shows it.
///
/// Length-delimited fields come as a nested message (``beginMessage(_:isGroup:)`` …
/// ``endMessage()``) when their bytes parse completely as one, else as bytes with a flag saying
/// whether they are valid UTF-8: both are guesses, since the wire does not say which it is.
public protocol ProtobufRawVisitor {
    /// A `VARINT` field (wire type 0): the raw 64-bit value; zigzag and signed readings are the
    /// renderer's to add.
    mutating func varint(_ number: UInt32, _ value: UInt64)
    /// An `I64` field (wire type 1), read little-endian.
    mutating func fixed64(_ number: UInt32, _ value: UInt64)
    /// An `I32` field (wire type 5), read little-endian.
    mutating func fixed32(_ number: UInt32, _ value: UInt32)
    /// A `LEN` field (wire type 2) that does not parse as a message (or is empty).
    ///
    /// - Parameters:
    ///   - bytes: its contents, valid only during the call.
    ///   - isUTF8: whether they are well-formed UTF-8 (then probably a string, else bytes).
    mutating func lengthDelimited(_ number: UInt32, _ bytes: UnsafeRawBufferPointer, isUTF8: Bool)
    /// The start of a group (wire types 3 … 4) or of a `LEN` field that parses as a message; its
    /// fields follow, then ``endMessage()``.
    mutating func beginMessage(_ number: UInt32, isGroup: Bool)
    /// The end of the message or group ``beginMessage(_:isGroup:)`` started.
    mutating func endMessage()
}

/// Decodes protobuf messages without a schema, with `protoc --decode_raw`'s guesses
/// (protobuf's `TextFormat::Printer::PrintUnknownFields`): a length-delimited field is shown as
/// a nested message when it is not empty and parses completely as one, otherwise as a string.
///
/// The whole body is checked before anything is reported, so a visitor sees either a complete
/// message or nothing and an error. Work is linear in the body for each level of nesting, and
/// nesting is bounded (``guessDepth`` for guessed messages, ``groupDepth`` for groups), so any
/// input costs at most a fixed multiple of its length; nothing is allocated.
public enum ProtobufRawDecoder {
    /// How many levels of length-delimited fields are tried as messages: protoc's
    /// `kUnknownFieldRecursionLimit`. Deeper ones are shown as strings or bytes.
    public static let guessDepth = 10
    /// How deeply groups may nest in the top-level message: protobuf's default recursion limit.
    public static let groupDepth = 100

    /// Decodes `body` and reports its fields to `visitor`.
    ///
    /// - Parameters:
    ///   - body: one encoded message (a frame body).
    ///   - visitor: receives the fields in wire order, nested messages and groups bracketed.
    /// - Throws: ``BodyViewError`` (nothing reported) when `body` is not a complete message:
    ///   a truncated value, field number 0, wire type 6 or 7, or an unmatched group end.
    @inlinable
    public static func decode<Visitor: ProtobufRawVisitor>(_ body: UnsafeRawBufferPointer, into visitor: inout Visitor) throws(BodyViewError) {
        var check = ProtobufWireReader(body)
        try validate(&check, depthLeft: groupDepth)
        var reader = ProtobufWireReader(body)
        try walk(&reader, guessesLeft: guessDepth, closing: nil, into: &visitor)
    }

    /// Whether `range` of `bytes` parses completely as a message, groups nested at most
    /// `depthLeft` deep.
    @usableFromInline
    static func isMessage(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>, depthLeft: Int) -> Bool {
        var reader = ProtobufWireReader(bytes)
        reader.position = range.lowerBound
        reader.end = range.upperBound
        do {
            try validate(&reader, depthLeft: depthLeft)
            return true
        } catch {
            return false
        }
    }

    /// Reads fields up to the reader's end, throwing at the first one that does not parse.
    @inlinable
    static func validate(_ reader: inout ProtobufWireReader, depthLeft: Int) throws(BodyViewError) {
        while !reader.isAtEnd {
            let tag = try reader.readTag()
            try reader.skipValue(number: tag.number, wireType: tag.wireType, depthLeft: depthLeft)
        }
    }

    /// Reports the fields of an already validated message (or of the group numbered `closing`,
    /// up to its end tag); validation has passed, so the reads do not throw.
    @inlinable
    static func walk<Visitor: ProtobufRawVisitor>(
        _ reader: inout ProtobufWireReader,
        guessesLeft: Int,
        closing: UInt32?,
        into visitor: inout Visitor
    ) throws(BodyViewError) {
        while !reader.isAtEnd {
            let tag = try reader.readTag()
            switch tag.wireType {
            case .varint:
                visitor.varint(tag.number, try reader.readVarint())
            case .i64:
                visitor.fixed64(tag.number, try reader.readFixed64())
            case .i32:
                visitor.fixed32(tag.number, try reader.readFixed32())
            case .len:
                let range = try reader.readLengthDelimited()
                if !range.isEmpty, guessesLeft > 0, isMessage(reader.bytes, range, depthLeft: guessesLeft) {
                    visitor.beginMessage(tag.number, isGroup: false)
                    var inner = reader
                    inner.position = range.lowerBound
                    inner.end = range.upperBound
                    try walk(&inner, guessesLeft: guessesLeft - 1, closing: nil, into: &visitor)
                    visitor.endMessage()
                } else {
                    let contents = UnsafeRawBufferPointer(rebasing: reader.bytes[range])
                    visitor.lengthDelimited(tag.number, contents, isUTF8: UTF8Validation.isValid(contents))
                }
            case .startGroup:
                visitor.beginMessage(tag.number, isGroup: true)
                try walk(&reader, guessesLeft: guessesLeft - 1, closing: tag.number, into: &visitor)
                visitor.endMessage()
            case .endGroup:
                if closing != nil { return }
            }
        }
    }
}

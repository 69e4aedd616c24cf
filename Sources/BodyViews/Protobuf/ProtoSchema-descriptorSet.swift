/// Reading a `FileDescriptorSet` (google/protobuf/descriptor.proto) with ``ProtobufWireReader``.
///
/// Only what decoding needs is kept: message names, fields (name, json_name, number, label,
/// type, type_name, oneof_index, proto3_optional), `map_entry`, enums and their values, and each
/// file's package and syntax. Everything else (services, options but map_entry, source info) is
/// stepped over.
extension ProtoSchema {
    /// Parses the bytes of a `FileDescriptorSet`.
    ///
    /// - Parameter descriptorSet: what `protoc --descriptor_set_out=FILE --include_imports` wrote.
    /// - Throws: ``BodyViewError`` when the bytes are not a descriptor set (with the offset of the
    ///   first problem).
    public init(descriptorSet: [UInt8]) throws(BodyViewError) {
        self.init()
        let result = descriptorSet.withUnsafeBytes { bytes -> Result<ProtoSchema, BodyViewError> in
            var schema = ProtoSchema()
            var reader = ProtobufWireReader(bytes)
            do throws(BodyViewError) {
                try Self.forEachField(&reader) { number, wireType, reader throws(BodyViewError) in
                    // FileDescriptorSet.file = 1
                    guard number == 1, wireType == .len else { return false }
                    try schema.readFile(&reader)
                    return true
                }
            } catch {
                return .failure(error)
            }
            return .success(schema)
        }
        self = try result.get()
    }

    /// Calls `body` for each field of the message at the reader (up to its end); fields `body`
    /// does not consume (returns `false`) are skipped.
    private static func forEachField(
        _ reader: inout ProtobufWireReader,
        _ body: (UInt32, ProtobufWireType, inout ProtobufWireReader) throws(BodyViewError) -> Bool
    ) throws(BodyViewError) {
        while !reader.isAtEnd {
            let tag = try reader.readTag()
            if try !body(tag.number, tag.wireType, &reader) {
                try reader.skipValue(number: tag.number, wireType: tag.wireType, depthLeft: ProtobufRawDecoder.groupDepth)
            }
        }
    }

    /// A reader over one length-delimited field's contents.
    private static func nested(_ reader: inout ProtobufWireReader) throws(BodyViewError) -> ProtobufWireReader {
        let range = try reader.readLengthDelimited()
        var inner = reader
        inner.position = range.lowerBound
        inner.end = range.upperBound
        return inner
    }

    private static func string(_ reader: inout ProtobufWireReader) throws(BodyViewError) -> String {
        let range = try reader.readLengthDelimited()
        return String(decoding: UnsafeRawBufferPointer(rebasing: reader.bytes[range]), as: UTF8.self)
    }

    private mutating func readFile(_ outer: inout ProtobufWireReader) throws(BodyViewError) {
        var file = try Self.nested(&outer)
        var package = ""
        var syntax = ""
        var messageRanges: [ProtobufWireReader] = []
        var enumRanges: [ProtobufWireReader] = []
        try Self.forEachField(&file) { number, wireType, reader throws(BodyViewError) in
            guard wireType == .len else { return false }
            switch number {
            case 2: package = try Self.string(&reader)
            case 4: messageRanges.append(try Self.nested(&reader))
            case 5: enumRanges.append(try Self.nested(&reader))
            case 12: syntax = try Self.string(&reader)
            default: return false
            }
            return true
        }
        // The package and syntax may follow the types in the file's bytes: read types after.
        let scope = package.isEmpty ? "" : package + "."
        for var message in messageRanges { try readMessage(&message, scope: scope, isProto3: syntax == "proto3") }
        for var enumeration in enumRanges { try readEnum(&enumeration, scope: scope) }
    }

    private mutating func readMessage(_ reader: inout ProtobufWireReader, scope: String, isProto3: Bool) throws(BodyViewError) {
        var name = ""
        var fieldReaders: [ProtobufWireReader] = []
        var nestedReaders: [ProtobufWireReader] = []
        var enumReaders: [ProtobufWireReader] = []
        var isMapEntry = false
        try Self.forEachField(&reader) { number, wireType, reader throws(BodyViewError) in
            guard wireType == .len else { return false }
            switch number {
            case 1: name = try Self.string(&reader)
            case 2: fieldReaders.append(try Self.nested(&reader))
            case 3: nestedReaders.append(try Self.nested(&reader))
            case 4: enumReaders.append(try Self.nested(&reader))
            case 7:
                var options = try Self.nested(&reader)
                try Self.forEachField(&options) { number, wireType, reader throws(BodyViewError) in
                    // MessageOptions.map_entry = 7
                    guard number == 7, wireType == .varint else { return false }
                    isMapEntry = try reader.readVarint() != 0
                    return true
                }
            default: return false
            }
            return true
        }
        let fullName = scope + name
        var fields: [ProtoField] = []
        for var fieldReader in fieldReaders {
            fields.append(try Self.readField(&fieldReader, isProto3: isProto3))
        }
        messages[fullName] = ProtoMessageType(fullName: fullName, fields: fields, isMapEntry: isMapEntry, isProto3: isProto3)
        for var nested in nestedReaders { try readMessage(&nested, scope: fullName + ".", isProto3: isProto3) }
        for var enumeration in enumReaders { try readEnum(&enumeration, scope: fullName + ".") }
    }

    private static func readField(_ reader: inout ProtobufWireReader, isProto3: Bool) throws(BodyViewError) -> ProtoField {
        let start = reader.position
        var name = "", jsonName: String?, typeName = ""
        var number: UInt32 = 0
        var label: UInt64 = 1, type: UInt64 = 0
        var oneofIndex: Int?, proto3Optional = false
        try forEachField(&reader) { field, wireType, reader throws(BodyViewError) in
            switch (field, wireType) {
            case (1, .len): name = try string(&reader)
            case (3, .varint): number = UInt32(truncatingIfNeeded: try reader.readVarint())
            case (4, .varint): label = try reader.readVarint()
            case (5, .varint): type = try reader.readVarint()
            case (6, .len): typeName = try string(&reader)
            case (9, .varint): oneofIndex = Int(truncatingIfNeeded: try reader.readVarint())
            case (10, .len): jsonName = try string(&reader)
            case (17, .varint): proto3Optional = try reader.readVarint() != 0
            default: return false
            }
            return true
        }
        guard let kind = ProtoField.Kind(rawValue: Int(truncatingIfNeeded: type)) else {
            throw BodyViewError(offset: start, reason: "field '\(name)' of unknown type \(type)")
        }
        let isRepeated = label == 3
        let hasPresence = !isRepeated && (!isProto3 || oneofIndex != nil || proto3Optional || kind == .message || kind == .group)
        return ProtoField(
            name: name, jsonName: jsonName ?? name, number: number, kind: kind, isRepeated: isRepeated,
            typeName: typeName.hasPrefix(".") ? String(typeName.dropFirst()) : typeName, hasPresence: hasPresence,
            oneofIndex: oneofIndex
        )
    }

    private mutating func readEnum(_ reader: inout ProtobufWireReader, scope: String) throws(BodyViewError) {
        var name = ""
        var values: [(name: String, number: Int32)] = []
        try Self.forEachField(&reader) { number, wireType, reader throws(BodyViewError) in
            guard wireType == .len else { return false }
            switch number {
            case 1: name = try Self.string(&reader)
            case 2:
                var value = try Self.nested(&reader)
                var valueName = ""
                var valueNumber: Int32 = 0
                try Self.forEachField(&value) { field, wireType, reader throws(BodyViewError) in
                    switch (field, wireType) {
                    case (1, .len): valueName = try Self.string(&reader)
                    case (2, .varint): valueNumber = Int32(truncatingIfNeeded: try reader.readVarint())
                    default: return false
                    }
                    return true
                }
                values.append((valueName, valueNumber))
            default: return false
            }
            return true
        }
        enums[scope + name] = ProtoEnumType(fullName: scope + name, values: values)
    }
}
